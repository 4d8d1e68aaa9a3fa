"""Durable delivery: every message an actor must run is written to its inbox in the store before it is
queued (`deliver`, under one lock, so inbox order is queue order), and everything a handled message did
is written in one batch (`settle`): its inbox entry consumed, the actor's delta, what it cost, and the
messages it sent appended to the receivers' inboxes. Answers to callers outside wait until that batch is
flushed to disk: a flush shared by every batch committed meanwhile (`group_sync.GroupSync`), so the actor
goes on to its next message while it runs. A store no host reads back (`Store.read_back` False) gets no
inbox and pending records, which only a restart reads; what they would hold is kept in memory as well,
for `quiet`."""

from __future__ import annotations

import asyncio
import inspect
import itertools
import logging
import secrets
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from ..billing import Ledger
from ..store import Batch, Store, StoreError
from .actor import Actor
from .clock import Cancellable, Clock
from .device_calls import Gate
from .group_sync import GroupSync
from .held_watch import HeldWatch
from .ic0 import OutgoingCall
from .inbox_bounds import InboxBounds
from .journal import Delta, Journal
from .messages import (
    MANAGEMENT,
    Call,
    FromActor,
    FromOutside,
    Origin,
    Outcome,
    Reject,
    Response,
    from_outside,
    from_record,
    response_to,
    to_record,
)
from .replays import Replays
from .roster import Roster
from .turn import Effects

log = logging.getLogger("moxzid")


class Delivery:
    """``deliver`` and ``settle`` may be called from any thread; the rest runs on the event loop, once
    ``start`` gave it."""

    def __init__(
        self,
        store: Store,
        journal: Journal,
        ledger: Ledger | None,
        inboxes: InboxBounds,
        roster: Roster,
        forget: Callable[[Actor], None],
        call_system: Callable[[Actor, int, str, bytes, int, Gate | None], None],
        clock: Clock,
    ):
        """``forget(actor)`` removes a deleted actor (on its thread); ``call_system(actor, callback,
        method, data, cycles, started)`` runs an actor's call to the management canister (from any
        thread), or gives the answer of one started before its message was committed."""
        self._store, self._journal, self._ledger, self._inboxes, self._roster = store, journal, ledger, inboxes, roster
        self._forget, self._call_system, self._clock = forget, call_system, clock
        # The inbox's and pending calls' records are read only by a restart (`Journal.load`): a store
        # no host reads back gets none (~26 µs less of a letters device call's ~0.32 ms).
        self._records_messages = store.read_back
        # What those records hold, by (actor, seq) and (actor, callback), kept here for `quiet`
        self._unsettled: set[tuple[str, int]] = set()
        self._held: dict[str, _Held] = {}  # by actor: the batch of messages settled with ``hold``
        self._unanswered: set[tuple[str, int]] = set()
        self._lock = threading.Lock()  # orders inbox appends: a message's place = its delivery order
        self._next_seq: dict[str, int] = {}
        self._waiting: dict[str, asyncio.Future] = {}  # ingress request id -> its caller's future
        # Messages from outside to record at the end of this turn (`_arrive`), each with its place in the
        # inboxes' bounds until then
        self._arrived: list[tuple[Actor, object, FromOutside, int]] = []
        self._arriving = itertools.count(1)
        self._loop: asyncio.AbstractEventLoop | None = None
        self.replays: Replays | None = None  # the keyed calls' outcomes, from start()
        self._expiries: set[Cancellable] = set()  # bounded-wait deadlines still to pass
        self.synced = GroupSync(store)  # what waits for batches to be on disk: answers to callers outside
        self.held_watch = HeldWatch()  # writes an actor's held messages while the next one runs long
        # Each call from outside waits under a request id of its own: this host's prefix (a restored
        # inbox's messages name another host's requests, which nobody waits for) and a count (drawing
        # each id from the OS's random source took a tenth of the event loop's time at 64 clients)
        self._requests, self._request_prefix = itertools.count(), secrets.token_hex(8)

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self.replays = Replays(self._store, loop)
        self.synced.start(loop)
        if not self._store.in_memory:  # (where no actor holds messages: `Services.settle_together`)
            self.held_watch.start()

    def stop(self) -> None:
        """Pass no more deadlines and write no held messages late: a stopped host writes nothing (the next
        start arms them again)."""
        for expiry in self._expiries:
            expiry.cancel()
        self._expiries.clear()
        self.held_watch.stop()
        self.synced.stop()

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        assert self._loop is not None, "the host is not started"
        return self._loop

    def register(self, actor: Actor, next_seq: int = 0) -> None:
        """``actor``'s inbox, whose next message goes at ``next_seq``."""
        self._next_seq[actor.name] = next_seq

    async def answered(self, send: Callable[[FromOutside], Awaitable[None] | None]) -> Outcome:
        """The answer to a caller outside: ``send(origin)`` records its call, whose answer goes to
        ``origin``; this waits for it."""
        request = f"{self._request_prefix}-{next(self._requests)}"
        answer = self._waiting[request] = self.loop.create_future()
        try:
            sent = send(FromOutside(request))
            if inspect.isawaitable(sent):
                await sent
            return await answer
        finally:
            del self._waiting[request]

    async def ingress(
        self, actor: Actor, message: Callable[[FromOutside], object], batch: Batch | None = None
    ) -> Outcome:
        """Record a message from outside in ``actor``'s inbox (with ``batch``, or with every other that
        arrives in this turn of the event loop), and wait for its answer."""
        if batch is not None:
            return await self.answered(lambda origin: self.deliver(batch, [(actor, message(origin))]))
        return await self.answered(lambda origin: self._arrive(actor, message(origin), origin))

    def _arrive(self, actor: Actor, message: object, origin: FromOutside) -> None:
        """(On the event loop) queue ``message`` to be recorded at the end of this turn, in one
        transaction with every other message from outside that arrives in it: with many clients, one
        transaction per call was a tenth of the loop's time, and each waited for the lock that the
        actors' commits hold. Nothing answers the caller before its answer, which comes after the
        record is committed, so nothing is acknowledged that a crash could lose."""
        if not self._arrived:
            self.loop.call_soon(self._record_arrived)
        # Held in the inbox's bounds from now, at a place of its own until it gets its seq, so that the
        # next call of this turn finds the room it takes (`InboxBounds.room_for`).
        arriving = -next(self._arriving)
        size = from_outside(message)
        if size is not None:
            self._inboxes.hold(actor.name, arriving, size)
        self._arrived.append((actor, message, origin, arriving))

    def _record_arrived(self) -> None:
        arrived, self._arrived = self._arrived, []
        try:
            self.deliver(Batch(), [(actor, message) for actor, message, _, _ in arrived])
        except Exception as error:  # each caller still waiting gets it, as when it recorded its own call
            for _, _, origin, _ in arrived:  # (a StoreError also stops the loop: see ``commit``)
                answer = self._waiting.get(origin.request)
                if answer is not None and not answer.done():
                    answer.set_exception(error)
        finally:  # (held at their seqs now, where they were recorded)
            for actor, _, _, arriving in arrived:
                self._inboxes.release(actor.name, arriving)

    def deliver(self, batch: Batch, messages: list[tuple[Actor, object]]) -> None:
        """Commit ``batch`` with ``messages`` appended to their actors' inboxes, then queue them."""
        with self._lock:
            queued = []
            for actor, message in messages:
                seq = self._next_seq[actor.name]
                self._next_seq[actor.name] = seq + 1
                if self._records_messages:
                    Journal.record(batch, actor.name, seq, to_record(message))
                queued.append((actor, seq, message))
            self.commit(batch)
            for actor, seq, message in queued:
                self.post(actor, seq, message)

    def resume(self, actor: Actor, inbox: list[tuple[int, Any]], pending: list[tuple[int, Any]]) -> None:
        """Go on where a restored ``actor`` (its thread started) stopped: queue again the messages its
        inbox held (``inbox``: their places and records), each keyed call among them and its open call
        contexts waiting for its outcome again, and run its calls to the management canister that
        awaited their answer (``pending``: callback, [method, argument, cycles attached])."""
        assert self.replays is not None, "started"
        messages = [(seq, from_record(record)) for seq, record in inbox]
        for origin in actor.open_origins() + [m.origin for _, m in messages if isinstance(m, Call)]:
            if isinstance(origin, FromOutside) and origin.key is not None:  # a keyed call, to run or answer again
                self.replays.resume(origin.key, origin.fingerprint)
        for seq, message in messages:
            self.post(actor, seq, message)
        for callback, (method, data, cycles) in pending:
            self._unanswered.add((actor.name, callback))
            self.loop.call_soon(self._call_system, actor, callback, method, data, cycles, None)

    def quiet(self) -> bool:
        """Whether nothing is left to run: no message waits in an actor's inbox or runs (a system task
        aside: a timer, a heartbeat), and no call to the management canister awaits its answer."""
        return not self._unsettled and not self._unanswered

    def post(self, actor: Actor, seq: int, message) -> None:
        """Queue a recorded (or restored) message for ``actor``, counting a call from outside."""
        self._unsettled.add((actor.name, seq))
        size = from_outside(message)
        if size is not None:
            self._inboxes.hold(actor.name, seq, size)
        actor.post(seq, message)

    def commit(self, batch: Batch) -> None:
        try:
            if self._ledger is not None:  # the batch's cycle changes are written as it commits
                self._ledger.commit(batch)
            else:
                self._store.commit(batch)
        except StoreError as error:
            # Going on would run messages whose effects are not recorded: stop, losing nothing.
            log.critical("cannot write state: %s; moxzid stops", error)
            self.loop.call_soon_threadsafe(self.loop.stop)
            raise

    def drop_pending(self, batch: Batch, actor: Actor, callback: int) -> None:
        """Write in ``batch`` that ``actor``'s call to the management canister ``callback`` was answered."""
        if self._records_messages:
            Journal.answered(batch, actor.name, callback)

    def system_answered(self, name: str, callback: int) -> None:
        """Actor ``name``'s call to the management canister ``callback`` no longer awaits its answer,
        which is committed (`drop_pending`'s batch), and delivered where it goes."""
        self._unanswered.discard((name, callback))

    def answer(self, batch: Batch, origin: Origin, outcome: Outcome) -> None:
        """Commit ``batch`` with ``outcome`` for ``origin``: a response in the calling actor's inbox,
        or (after a flush) the answer to a caller outside."""
        if isinstance(origin, FromActor):
            self.deliver(batch, [(self._roster.named(origin.actor), response_to(origin, outcome))])
            return
        self.commit(batch)
        future = self._waiting.get(origin.request) if isinstance(origin, FromOutside) else None
        if future is not None:
            self.synced.after(lambda: self._release([(future, outcome)], []))

    def settle(
        self, actor: Actor, consumed: int | None, effects: Effects, delta: Delta | None, *, hold: bool = False
    ) -> None:
        """Make one handled message final: consume it, write the actor's delta, what it sent
        (``effects``: its answers and calls), what it cost and what it did to its cycle balance in one
        batch, deliver the sent messages (with the cycles on them), (after a flush) answer outsiders, then
        start system calls (open the gates of those started before the commit, by callback:
        ``Turn.call``). A message that deleted its actor (delete_canister) takes the actor's state with
        it. ``hold``: the message sent nothing (`Effects.waits_for_next`), and its batch is written with
        the actor's next settle's (`turn.Held`), which writes the delta of both, or by a settle of
        nothing else (`Held.write_late`, from another thread, if the next message runs long)."""
        answers, calls, deleted = effects.answers, effects.calls, effects.deleted
        if consumed is None and delta is None and not answers and not calls:
            return
        held = self._held.get(actor.name)  # (kept where this settle fails: `turn.Held.settling`)
        batch = held.batch if held is not None else Batch()
        if self._ledger is not None:
            if effects.instructions:
                self._ledger.charge(batch, actor.name, "instructions", effects.instructions)
            self._ledger.transfer(batch, actor.name, effects.cycles, effects.burned)
        if consumed is not None:
            if self._records_messages:
                Journal.consume(batch, actor.name, consumed)
            self._inboxes.release(actor.name, consumed)
        if deleted:
            Journal.forget(batch, actor.name)
            self._forget(actor)
            for unsettled in (self._unsettled, self._unanswered):
                unsettled.difference_update({entry for entry in unsettled if entry[0] == actor.name})
        elif delta is not None:
            Journal.put_delta(batch, actor.name, delta)
        messages: list[tuple[Actor, object]] = []
        outside, keyed = [], []
        for origin, outcome in answers:
            if isinstance(origin, FromOutside):
                outside.append((origin.request, outcome))
                if origin.key is not None:  # its outcome is kept for retries, with the call's completion
                    assert self.replays is not None, "the host is started"
                    self.replays.record(batch, origin.key, outcome)
                    keyed.append((origin.key, outcome))
            elif isinstance(origin, FromActor):
                messages.append((self._roster.named(origin.actor), response_to(origin, outcome)))
        # Answers to callers still waiting (not those of a caller gone, or from before a restart) go
        # out once what they report is on disk
        futures = [(self._waiting.get(request), outcome) for request, outcome in outside]
        waiting = [(future, outcome) for future, outcome in futures if future is not None]
        consumed_seqs = [consumed] if consumed is not None else []
        if held is not None:
            waiting, keyed, consumed_seqs = held.waiting + waiting, held.keyed + keyed, held.consumed + consumed_seqs
        if hold:
            assert not messages and not calls and not deleted, "a message held for the next sent nothing"
            self._held[actor.name] = _Held(batch, waiting, keyed, consumed_seqs)
            return
        system = self._route(batch, actor, calls, messages)
        self.deliver(batch, messages)
        self._held.pop(actor.name, None)
        self._unsettled.difference_update((actor.name, seq) for seq in consumed_seqs)
        for callback, call in calls:
            if call.deadline is not None and call.callee != MANAGEMENT and self._roster.with_principal(call.callee):
                self.loop.call_soon_threadsafe(self.expire_at, actor, callback, call.deadline)
        if deleted:
            log.info("actor %s deleted", actor.name)
        if waiting or keyed:
            self.synced.after(lambda: self._release(waiting, keyed))
        # The system calls start now (a short device call runs here, on the actor's thread, and must
        # not wait for the flush).
        for callback, method, data, attached in system:
            self._call_system(actor, callback, method, data, attached, effects.started.get(callback))

    def _release(self, waiting: list[tuple[asyncio.Future, Outcome]], keyed: list[tuple[bytes, Outcome]]) -> None:
        """(On the event loop, once the batch that settled them is on disk) answer callers outside and
        keyed calls' retries."""
        for future, outcome in waiting:
            if not future.done():  # (a caller gone)
                future.set_result(outcome)
        for key, outcome in keyed:
            assert self.replays is not None, "the host is started"
            self.replays.settled(key, outcome)

    def expire_at(self, actor: Actor, callback: int, deadline: int) -> None:
        """At ``deadline`` (ns since the epoch, by the host's clock), answer ``actor``'s bounded-wait call ``callback``
        SYS_UNKNOWN, as the IC answers one whose deadline passes first; the actor drops whichever of
        that and the callee's answer comes second. No cycles come back with it: the callee may have
        taken them. A restart arms again the deadlines of the calls its actors still wait for."""

        def expire() -> None:
            self._expiries.discard(handle)
            if self._roster.with_principal(actor.principal) is actor and actor.awaits(callback):
                expired = Outcome.reject(Reject.SYS_UNKNOWN, "Call deadline has expired.")
                self.deliver(Batch(), [(actor, Response(callback, expired))])

        handle = self._clock.call_at(self.loop, deadline, expire)
        self._expiries.add(handle)

    def _route(
        self, batch: Batch, actor: Actor, calls: list[tuple[int, OutgoingCall]], messages: list[tuple[Actor, object]]
    ) -> list[tuple[int, str, bytes, int]]:
        """Route the calls ``actor`` made: to other actors' inboxes (added to ``messages``), a response
        for a callee that does not exist, or the management canister's (written as pending in
        ``batch``, returned to be run once it commits)."""
        system = []
        for callback, call in calls:
            if call.callee == MANAGEMENT:
                data = bytes(call.data)
                if self._records_messages:
                    Journal.pending(batch, actor.name, callback, [call.method, data, call.cycles])
                self._unanswered.add((actor.name, callback))
                system.append((callback, call.method, data, call.cycles))
                continue
            target = self._roster.with_principal(call.callee)
            if target is None:
                messages.append((actor, Response(callback, Outcome.no_route(call.callee, call.cycles))))
                continue
            origin = FromActor(actor.name, callback)
            messages.append(
                (target, Call(call.method, bytes(call.data), actor.principal, origin, call.deadline or 0, call.cycles))
            )
        return system


@dataclass
class _Held:
    """The batch of an actor's messages settled with ``hold``, not written yet, and what waits for it:
    callers' answers, keyed calls' outcomes, the inbox entries it consumes (`Delivery.settle`)."""

    batch: Batch
    waiting: list[tuple[asyncio.Future, Outcome]]
    keyed: list[tuple[bytes, Outcome]]
    consumed: list[int]
