"""Calls to the management canister's system methods (the tensor device): running them, recording the
ones that changed the system, copying the system's state, and rebuilding it at start-up.

The system's state is a deterministic function of the calls that changed it, in the order they ran.
Each such call is recorded with its answer, in the answer's batch, so a call is either recorded and
answered or neither (then it is still pending for its actor and runs again after a restart). A full
copy of the state (``snapshot``) saves re-running a long record: after enough recorded device time or
record size, calls pause, those in flight finish and are recorded, the copy is written into the store
in parts, and one batch makes it the copy, dropping the record before it and the previous copy.

A method may first gather what it needs (``Staged``: a fetch downloads), changing nothing; it then runs
as the call it gathered, which is what gets recorded. Gathering does not count as a call in flight, so
a copy never waits for a download. A gathered argument too large for memory (an ``Attachment``) is
written into the store in parts as it comes (``Spool``), before the call runs; its record names those
parts.
Without a checkpoint policy (moxzid without ``-s``: nothing outlives the process) nothing is recorded.

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
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, BinaryIO, Protocol

from ..billing import Purse
from ..events import Events
from ..readouts import Readouts
from ..store import Batch, StoreError
from .journal import Attachment, Journal, Spool, TemporarySpool
from .messages import Outcome, Reject
from .system_methods import Gate, Staged, SystemMethod, Threaded

log = logging.getLogger("moxzid")


class SystemState(Readouts, Protocol):
    """What owns the state system methods change (the device), so it can be copied and put back, and
    what it says of itself to those who show it (`readouts.Readouts`, ``Host.system_state``)."""

    def snapshot(self, out: BinaryIO) -> None:
        """Write a copy of the state to ``out``."""

    def restore(self, snapshot: BinaryIO) -> None:
        """Replace the state with a copy ``snapshot`` wrote."""

    def replay(self) -> contextlib.AbstractContextManager[None]:
        """While it is entered, calls re-run the record: each must change what it changed when it was
        recorded (the device lifts its per-call time limit)."""

    @property
    def identity(self) -> str:
        """What else decides the state the recorded calls rebuild (the device's seed), in words; a
        store's record is only re-run on a state of the same identity."""


@dataclass(frozen=True)
class CheckpointPolicy:
    """When to copy the system's state: once the calls recorded since the last copy took ``seconds``
    of system time (0: never by time) or their record passed ``megabytes``; never more often than
    every ``spacing`` copy-durations."""

    seconds: float = 30.0
    megabytes: float = 64.0
    spacing: float = 10.0


class SystemCalls:
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
        self.methods = methods
        self._events = events or Events()
        self._journal = journal
        self._state = state
        self._policy = policy
        self._attached: set[bytes] = set()  # the attachments of the record since the last copy
        self._ledger = ledger
        self._seq = 0  # the next recorded call's place
        self._since_seconds = 0.0  # system time of the calls recorded since the last copy
        self._since_bytes = 0
        self._last_copy_at = 0.0  # time.monotonic() of the last copy
        self._last_copy_seconds = 0.0  # how long it took
        # Guards what calls on other threads share: the record's place and counts above, ``_closed``,
        # ``_waiting``, ``_in_flight`` and ``_answering`` (notified when they fall), ``_copy_due``.
        self._lock = threading.Condition()
        # Held from a call's place in the record being taken until its batch is committed: calls that
        # end on several threads at once are committed in the record's order, so a crash leaves no
        # gap in it and a re-run sees what each call saw (one actor's call reading another's publication).
        self._committing = threading.Lock()
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
        self._check_identity()
        copy = self._journal.system_checkpoint()
        start, kept = 0, set()
        if copy is not None:
            start, data = copy
            state = self._require_state()
            await asyncio.to_thread(state.restore, data.open())
            kept.add(data.ident)
            log.info("system state restored from its copy at call %d (%.1f MB)", start, data.size / 2**20)
        recorded = self._journal.system_calls(start)
        self._seq = recorded[-1][0] + 1 if recorded else start
        self._attached = {
            arg.ident for _, (_, _, arg) in recorded if isinstance(arg, Attachment) and arg.ident is not None
        }  # read from the store: set
        unrecorded = set(self._journal.attachments()) - self._attached - kept  # an unanswered fetch's, a torn copy
        if unrecorded:
            batch = Batch()
            for ident in unrecorded:
                self._journal.drop_attachment(batch, ident)
            self._journal.store.commit(batch)
        if not recorded:
            return
        log.info("re-running %d recorded system call(s)", len(recorded))
        started = time.perf_counter()
        with contextlib.nullcontext() if self._state is None else self._state.replay():
            await self._rerun(recorded)
        log.info("re-ran %d system call(s) in %.1fs", len(recorded), time.perf_counter() - started)
        if self._due(ignore_spacing=True):  # a record this long would be re-run again next time
            await self._copy()

    async def _rerun(self, recorded: list) -> None:
        for seq, (caller, method_name, arg) in recorded:
            method = self.methods.get(method_name)
            if method is None:
                raise StoreError(
                    f"recorded system call {seq} is to {method_name!r}, which no loaded plugin "
                    "provides (start moxzid with the same --device)"
                )
            if isinstance(method, Staged):  # only what a Staged method gathered is recorded
                raise StoreError(f"recorded system call {seq} is to {method_name!r}, which gathers first")
            outcome = await method(caller, arg, None)
            if not outcome.changed:
                log.warning(
                    "recorded system call %d (%s) changed nothing when re-run: %s",
                    seq,
                    method_name,
                    outcome.reject_message or "no change",
                )
            self._since_seconds += outcome.seconds
            self._since_bytes += _size(arg)

    def _check_identity(self) -> None:
        """Refuse a store recorded on a system of another identity (re-running its calls would build
        different state); a store without one takes this system's."""
        if self._state is None or self._policy is None:
            return
        recorded = self._journal.system_identity()
        if recorded is None:
            self._journal.set_system_identity(self._state.identity)
        elif recorded != self._state.identity:
            raise StoreError(
                f"{self._journal.store.description}: its device state was recorded on a device with "
                f"{recorded}, and this moxzid's has {self._state.identity} (start it with the same "
                "--device-seed)"
            )

    def _require_state(self) -> SystemState:
        if self._state is None:
            raise StoreError(
                "the state directory holds a copy of a device, but this moxzid has none "
                "(start it with the same --device)"
            )
        return self._state

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
            started = (
                _submit(method, caller, data, purse, here=False)
                if refused is None and isinstance(method, Threaded)
                else None
            )
        if refused is not None:
            answer(Batch(), refused)
            return refused
        outcome = Outcome.reject(Reject.SYS_TRANSIENT, f"{method_name} was interrupted")  # unless it ends below
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
        self._answer(answer, actor, caller, method_name, data, purse, outcome)
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

        def finished(future: concurrent.futures.Future) -> None:
            error = future.exception()
            if error is None:
                outcome = future.result()
            else:  # a failing system method rejects the call, never the host
                log.error("system method %s failed", method_name, exc_info=error)
                outcome = Outcome.reject(Reject.SYS_TRANSIENT, f"{method_name} failed: {error}")
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
                self._answer(give, actor, caller, method_name, data, purse, outcome)
            finally:
                with self._lock:
                    self._answering -= 1
                    self._lock.notify_all()

        future = _submit(method, caller, data, purse, here=here)
        if isinstance(answer, Gate):
            answer.underway = getattr(future, "underway", None)
        future.add_done_callback(finished)
        return True

    def _answer(
        self,
        answer: Callable[[Batch, Outcome], None],
        actor: str,
        caller: bytes,
        method_name: str,
        data: bytes | Attachment,
        purse: Purse,
        outcome: Outcome,
    ) -> None:
        """``answer`` a call that ended with ``outcome``, its charge and (if it changed the system) its
        record in the batch; one at a time, so the record is committed in its order."""
        with self._committing:
            batch = Batch()
            purse.settle(batch, outcome.seconds)  # what it held goes back, whatever happened
            recorded = outcome.changed and self._policy is not None
            with self._lock:
                if recorded:
                    Journal.system_call(batch, self._seq, caller, method_name, data)
                    self._seq += 1
                    self._since_seconds += outcome.seconds
                    self._since_bytes += _size(data)
                if isinstance(data, Attachment) and data.ident is not None:
                    if recorded:
                        self._attached.add(data.ident)
                    else:
                        self._journal.drop_attachment(batch, data.ident)
            self._events.publish(
                "device",
                actor=actor,
                method=method_name,
                seconds=outcome.seconds,
                ok=outcome.reply is not None,
                changed=outcome.changed,
            )
            answer(batch, outcome)

    def spool(self) -> Spool:
        """Where an argument too large for memory is written as it comes: into the store when calls are
        recorded (its record then names its parts), else a temporary file."""
        return self._journal.attachment_writer() if self._policy is not None else TemporarySpool()

    async def _gather(self, name: str, method: Staged, caller: bytes, data: bytes):
        """What ``method`` gathered for the call, with an attachment already in the store; or a reject."""
        spool = self._journal.attachment_writer if self._policy is not None else TemporarySpool
        try:
            gathered = await method.gather(caller, data, spool)
        except Exception as error:
            log.exception("system method %s failed", name)
            return Outcome.reject(Reject.SYS_TRANSIENT, f"{name} failed: {error}")
        if (
            isinstance(gathered, Outcome)
            or not isinstance(gathered[1], Attachment)
            or self._policy is None
            or gathered[1].ident is not None  # spooled into the store already
        ):
            return gathered
        try:
            await asyncio.to_thread(self._journal.put_attachment, gathered[1])
        except StoreError as error:
            gathered[1].close()
            return Outcome.reject(Reject.SYS_TRANSIENT, f"{name}: what it gathered cannot be recorded: {error}")
        return gathered

    def done(self) -> None:
        """The answer of a call (and its record) is committed (on any thread)."""
        with self._lock:
            self._in_flight -= 1
            if self._in_flight == 0:
                self._lock.notify_all()
            due = not self._copy_due and not self._stopped and self._due()
            self._copy_due = self._copy_due or due
        if due:
            assert self._loop is not None, "rebuilt before any call"
            self._loop.call_soon_threadsafe(self._start_copy)

    def _start_copy(self) -> None:
        if self._stopped:
            self._copy_due = False
        else:
            self._copying = asyncio.get_running_loop().create_task(self._copy())

    async def stop(self) -> None:
        """Start no more copies, and let one being taken finish, and the answers being committed: they
        write to the store, which the host's owner closes next (and the next start-up reads). A call
        that ends later is not answered: it is still pending, and runs again after a restart."""
        with self._lock:
            self._stopped = True
        await asyncio.to_thread(self._wait_answered)
        if self._copying is not None:
            await self._copying

    def _wait_answered(self) -> None:
        with self._lock:
            while self._answering:
                self._lock.wait()

    # --- copies ------------------------------------------------------------------------------
    def _due(self, ignore_spacing: bool = False) -> bool:
        if self._state is None or self._policy is None:
            return False
        policy = self._policy
        due = (
            policy.seconds > 0 and self._since_seconds >= policy.seconds
        ) or self._since_bytes >= policy.megabytes * 2**20
        spaced = time.monotonic() - self._last_copy_at >= policy.spacing * self._last_copy_seconds
        return due and (spaced or ignore_spacing)

    def _take_copy(self) -> Attachment:
        """A copy of the state, through a temporary file into the store."""
        assert self._state is not None, "only a system with state is recorded and copied"
        with tempfile.TemporaryFile() as spool:
            self._state.snapshot(spool)
            copy = Attachment.of_file(spool)
            self._journal.put_attachment(copy)
        return copy

    def _wait_idle(self) -> None:
        with self._lock:
            while self._in_flight:
                self._lock.wait()

    async def _copy(self) -> None:
        """Pause new calls, let those in flight be recorded, copy the state, drop the record before it."""
        with self._lock:
            self._closed = True
        self._open.clear()
        try:
            await asyncio.to_thread(self._wait_idle)
            started = time.monotonic()
            copy = await asyncio.to_thread(self._take_copy)
            batch = Batch()
            self._journal.put_system_checkpoint(batch, self._seq, copy)
            for ident in self._attached:
                self._journal.drop_attachment(batch, ident)
            self._journal.store.commit(batch)
            self._attached.clear()
            self._last_copy_at, self._last_copy_seconds = time.monotonic(), time.monotonic() - started
            self._events.publish("checkpoint", seconds=self._last_copy_seconds, bytes=copy.size)
            log.info(
                "system state copied at call %d: %.1f MB in %.2fs (%.1fs of device time since the last copy)",
                self._seq,
                copy.size / 2**20,
                self._last_copy_seconds,
                self._since_seconds,
            )
            self._since_seconds, self._since_bytes = 0.0, 0
        except Exception:  # the record stays whole: the next call that makes a copy due tries again
            log.exception("copying the system state failed")
        finally:
            with self._lock:
                self._closed = self._copy_due = False
            self._open.set()
            self._copying = None


def _submit(method: Threaded, caller: bytes, data: Any, purse: Purse, *, here: bool) -> concurrent.futures.Future:
    """``method`` started (``here``: maybe run on this thread, ``Threaded``), or a future holding why it
    could not be."""
    try:
        return method.submit(caller, data, purse, here)
    except Exception as error:
        failed: concurrent.futures.Future = concurrent.futures.Future()
        failed.set_exception(error)
        return failed


def _size(arg: bytes | Attachment) -> int:
    return arg.size if isinstance(arg, Attachment) else len(arg)
