"""Running device calls: calls to the management canister's system methods (the tensor device).

A method may first gather what it needs (``Staged``: a fetch downloads), changing nothing; it then runs
as the call it gathered, which is what gets recorded (`record`). Gathering does not count as a call in
flight, so a copy (`copies`) never waits for a download.

A method that runs on threads of its own (``Threaded``: the device's) is started from the thread that
makes the call (``start``: an actor's, as its message settles; ``start_early``: before the message is
committed, the answer then held back until it is) and finishes on its own thread, where the answer is
committed and delivered: the event loop takes no part in such a call, unless a copy is
being taken or calls wait for one (then it goes through ``call``, on the loop, in order). So the record's
order, the copies' pause and the counts of what was recorded since the last copy are kept under a lock,
and calls that end on several threads at once are committed one at a time, each with its place in the
record: the record is committed in its order, so a crash never leaves a gap in it.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import threading
from collections.abc import AsyncIterator, Callable
from typing import Any

from ...billing import Purse
from ...events import Events
from ...store import Batch, StoreError
from ..attachments import Attachment, Spool
from ..journal import Journal
from ..messages import Outcome, Reject
from .copies import Copies, SystemState
from .methods import Gate, Staged, SystemMethod, Threaded
from .rebuild import rebuild
from .record import CheckpointPolicy, Record

log = logging.getLogger("moxzid")


class DeviceCalls:
    def __init__(
        self,
        journal: Journal,
        methods: dict[str, SystemMethod],
        state: SystemState | None,
        policy: CheckpointPolicy | None,
        ledger=None,
        events: Events | None = None,
    ):
        """``policy`` None: record nothing and take no copies. ``events`` gets a ``device`` event per call
        and a ``checkpoint`` event per copy."""
        events = events or Events()
        self.methods = methods
        self._state = state
        self._ledger = ledger
        # Guards what calls on other threads share: the record's place and counts (`Record`), ``_closed``,
        # ``_waiting``, ``_in_flight`` and ``_answering`` (notified when they fall), ``_copy_due``.
        self._lock = threading.Condition()
        self._record = Record(journal, policy, self._lock, events)
        self._copies = Copies(self._record, state, events)
        self._closed = False  # a copy is being taken: new calls wait (on the loop: ``_open``)
        self._open = asyncio.Event()  # (the loop's) set while not ``_closed``
        self._open.set()
        self._waiting = 0  # calls on the loop not yet started: a call ``start`` would overtake waits too
        self._in_flight = 0
        self._answering = 0  # calls started by ``start`` whose answer is being committed
        self._copy_due = False  # a copy is wanted or being taken
        self._copying: asyncio.Task | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopped = False

    # --- start-up ----------------------------------------------------------------------------
    async def rebuild(self) -> None:
        """Put back the last copy and re-run the calls recorded after it, before any actor runs."""
        self._loop = asyncio.get_running_loop()
        rerun = await rebuild(self._record, self.methods, self._state)
        if rerun and self._copies.due(ignore_spacing=True):  # a record this long would be re-run again next time
            await self._copies.take(self._paused)

    # --- calls -------------------------------------------------------------------------------
    async def call(
        self,
        actor: str,
        caller: bytes,
        method_name: str,
        data: bytes | Attachment,
        answer: Callable[[Batch, Outcome], None],
    ) -> Outcome:
        """Run one call for ``actor``; ``answer(batch, outcome)`` commits the outcome with ``batch``
        (its record, if it changed the system, and its charge) before it returns; the caller calls
        ``done`` after that."""
        method, refused = self.methods.get(method_name), None
        if method is None:
            hint = (
                " (start moxzid with --device to give actors the tensor device)"
                if method_name.startswith("moxzi_device_")
                else ""
            )
            refused = Outcome.reject(
                Reject.DESTINATION_INVALID, f"the management canister has no method {method_name!r} on this host{hint}"
            )
        elif self._ledger is not None and not self._ledger.can_pay(actor):
            refused = Outcome.reject(
                Reject.CANISTER_REJECT,
                f"{method_name}: actor {actor} cannot pay for device "
                f"time: its balance is {self._ledger.balance(actor)} cycles",
            )
        elif isinstance(method, Staged) and isinstance(data, bytes):  # an actor's call: Candid
            gathered = await self._gather(method_name, method, caller, data)
            if isinstance(gathered, Outcome):
                refused = gathered
            else:
                method_name, data = gathered
                method = self.methods[method_name]
        purse = Purse(self._ledger, actor)  # without a ledger it charges nothing
        with self._lock:
            self._waiting += 1
        try:
            await self._open.wait()
        except BaseException:
            with self._lock:
                self._waiting -= 1
            raise
        with self._lock:  # (not _closed: both change on the loop) started in order, with those of ``start``
            self._waiting -= 1
            self._in_flight += 1
            started = _submit(method, caller, data, purse) if refused is None and isinstance(method, Threaded) else None
        if refused is not None:
            answer(Batch(), refused)
            return refused
        outcome = Outcome.reject(Reject.SYS_TRANSIENT, f"{method_name} was interrupted")  # unless it ends below
        attached = isinstance(data, Attachment) and data.ident is not None and self._record.policy is not None
        flushing = asyncio.ensure_future(asyncio.to_thread(self._record.flush_ahead)) if attached else None
        try:
            if method is None or isinstance(method, Staged):  # a Staged method gathered a call to one
                raise TypeError(f"{method_name} gathers first: a gathered call cannot run it")
            outcome = await (asyncio.wrap_future(started) if started is not None else method(caller, data, purse))
        except Exception as error:  # a failing system method rejects the call, never the host
            log.exception("system method %s failed", method_name)
            outcome = Outcome.reject(Reject.SYS_TRANSIENT, f"{method_name} failed: {error}")
        finally:
            if isinstance(data, Attachment):
                data.close()
            if flushing is not None:  # (its thread ends before the call does: the store may close next)
                await flushing
        self._record.answer(answer, actor, caller, method_name, data, purse, outcome)
        return outcome

    def start(
        self,
        actor: str,
        caller: bytes,
        method_name: str,
        data: bytes,
        answer: Callable[[Batch, Outcome], None],
    ) -> bool:
        """Start one call for ``actor`` from any thread, if it needs nothing of the event loop: a
        ``Threaded`` method's, while no copy is taken or waited for and the actor can pay. Once it is
        done ``answer(batch, outcome)`` runs on the method's thread, with its record and charge in
        ``batch``, to commit it with the answer and then call ``done``. False: not started, run it with
        ``call`` (on the loop), which also gives the reject of a call that cannot run."""
        return self._start(actor, caller, method_name, data, answer, here=True)

    def start_early(self, actor: str, caller: bytes, method_name: str, data: bytes) -> Gate | None:
        """``start`` a call that would run on a thread of its method's own (not ``here``) before the
        message that made it is committed, so that the method works while the actor's thread commits
        and settles the message; its answer waits for ``Gate.open`` with the answer ``start`` takes.
        None: not started (a method that needs the loop, or would run on this thread)."""
        method = self.methods.get(method_name)
        if not isinstance(method, Threaded) or method.runs_here(caller):
            return None
        gate = Gate()
        return gate if self._start(actor, caller, method_name, data, gate, here=False) else None

    def _start(
        self,
        actor: str,
        caller: bytes,
        method_name: str,
        data: bytes,
        answer: Callable[[Batch, Outcome], None] | Gate,
        *,
        here: bool,
    ) -> bool:
        method = self.methods.get(method_name)
        if not isinstance(method, Threaded) or (self._ledger is not None and not self._ledger.can_pay(actor)):
            return False
        purse = Purse(self._ledger, actor)
        with self._lock:
            if self._closed or self._waiting:
                return False
            self._in_flight += 1  # a copy waits for it from here; only this thread starts the actor's calls

        def finished(outcome: Outcome) -> None:
            give = answer.wait() if isinstance(answer, Gate) else answer
            if give is None:  # the message that made it was not settled with it (Turn.end): never made
                self.done()
                return
            with self._lock:
                stopped = self._stopped
                self._answering += not stopped
            if stopped:  # the store may be closing: unanswered, the call is pending, as after a crash
                self.done()
                return
            try:
                self._record.answer(give, actor, caller, method_name, data, purse, outcome)
            finally:
                with self._lock:
                    self._answering -= 1
                    if not self._answering and self._stopped:  # (only `stop` waits, for none, once stopped)
                        self._lock.notify_all()

        if here:  # a short call may run on this thread: no future, its answer given straight away
            try:
                ran = method.run_here(caller, data, purse)
            except Exception as error:
                ran = _failed(method_name, error)
            if ran is not None:
                finished(ran)
                return True
        starter = threading.get_ident()

        def ended(future: concurrent.futures.Future) -> None:
            error = future.exception()
            outcome = future.result() if error is None else _failed(method_name, error)
            if isinstance(answer, Gate) and threading.get_ident() == starter:
                # The call ended before this thread added the callback (preempted after starting it, or it
                # could not start: `_submit`), so the callback runs here, on the thread that opens the
                # gate as it settles: waiting here would never end. The answer waits on a thread of its own.
                threading.Thread(target=finished, args=(outcome,), name="moxzi-gate", daemon=True).start()
            else:
                finished(outcome)

        future = _submit(method, caller, data, purse)
        if isinstance(answer, Gate):
            answer.underway = getattr(future, "underway", None)
        future.add_done_callback(ended)
        return True

    def spool(self) -> Spool:
        """Where an argument too large for memory is written as it comes (`Record.spool`)."""
        return self._record.spool()

    async def _gather(self, name: str, method: Staged, caller: bytes, data: bytes):
        """What ``method`` gathered for the call, with an attachment already in the store; or a reject."""
        try:
            gathered = await method.gather(caller, data, self._record.spool)
        except Exception as error:
            log.exception("system method %s failed", name)
            return Outcome.reject(Reject.SYS_TRANSIENT, f"{name} failed: {error}")
        if isinstance(gathered, Outcome) or not isinstance(gathered[1], Attachment):
            return gathered
        try:
            await self._record.keep(gathered[1])
        except StoreError as error:
            gathered[1].close()
            return Outcome.reject(Reject.SYS_TRANSIENT, f"{name}: what it gathered cannot be recorded: {error}")
        return gathered

    def done(self) -> None:
        """The answer of a call (and its record) is committed (on any thread)."""
        with self._lock:
            self._in_flight -= 1
            if self._in_flight == 0 and self._closed:  # (only a copy waits, for none, once closed: `_paused`)
                self._lock.notify_all()
            due = not self._copy_due and not self._stopped and self._copies.due()
            self._copy_due = self._copy_due or due
        if due:
            assert self._loop is not None, "rebuilt before any call"
            self._loop.call_soon_threadsafe(self._start_copy)

    def _start_copy(self) -> None:
        if self._stopped:
            self._copy_due = False
        else:
            self._copying = asyncio.get_running_loop().create_task(self._copies.take(self._paused))

    async def stop(self) -> None:
        """Start no more copies but a last one, and let one being taken finish, and the answers being
        committed: they write to the store, which the host's owner closes next (and the next start-up
        reads). A call that ends later is not answered: it is still pending, and runs again after a
        restart. The last copy (`Copies.worth_at_stop`) spares the next start-up re-running the record;
        it is taken only when no call runs or waits as moxzid stops, since a call ending from then on is
        not recorded, and a copy holding its effects would have them twice once it runs again."""
        with self._lock:
            self._stopped = True
            last_copy = not (self._in_flight or self._waiting or self._copying) and self._copies.worth_at_stop()
            self._closed = self._closed or last_copy
        if last_copy:
            self._open.clear()
        await asyncio.to_thread(self._wait_answered)
        if self._copying is not None:
            await self._copying
        if last_copy:
            await self._copies.take(self._paused)

    def _wait_answered(self) -> None:
        with self._lock:
            while self._answering:
                self._lock.wait()

    # --- copies ------------------------------------------------------------------------------
    @contextlib.asynccontextmanager
    async def _paused(self) -> AsyncIterator[None]:
        """New calls wait, and those in flight are recorded, while a copy is taken."""
        with self._lock:
            self._closed = True
        self._open.clear()
        try:
            await asyncio.to_thread(self._wait_idle)
            yield
        finally:
            with self._lock:
                self._closed = self._copy_due = False
            self._open.set()
            self._copying = None

    def _wait_idle(self) -> None:
        with self._lock:
            while self._in_flight:
                self._lock.wait()


def _submit(method: Threaded, caller: bytes, data: Any, purse: Purse) -> concurrent.futures.Future:
    """``method`` started, or a future holding why it could not be."""
    try:
        return method.submit(caller, data, purse)
    except Exception as error:
        failed: concurrent.futures.Future = concurrent.futures.Future()
        failed.set_exception(error)
        return failed


def _failed(method_name: str, error: BaseException) -> Outcome:
    """The reject of a call whose system method failed: it rejects the call, never the host."""
    log.error("system method %s failed", method_name, exc_info=error)
    return Outcome.reject(Reject.SYS_TRANSIENT, f"{method_name} failed: {error}")
