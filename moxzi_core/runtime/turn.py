"""One message's turn on its actor's thread: what it produced so far, for the host to settle (`Effects`),
and the rules every entry point it runs keeps (`Turn`): the growth moxzid's total for all actors' wasm
memory allows, and the cycle balance as the message sees it."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from .canister_log import CanisterLog
from .device_calls import Gate
from .engine import Instance
from .held_watch import HELD_SECONDS
from .ic0 import OutgoingCall
from .journal import Delta, Snapshot
from .messages import MANAGEMENT, FromActor, Origin, Outcome
from .query_replicas import Replicas
from .services import Services

# The most messages of an actor written in one batch where the store writes to disk (`Held`): more
# saves less each (7/8 of the per-batch work at 8) and holds the first one's answer longer.
SETTLE_TOGETHER = 8
LET_RUN_SECONDS = 0.002  # at most how long the actor's thread lets a device call it started get under way


@dataclass
class Effects:
    """What handling one message produced, for the host to settle."""

    answers: list[tuple[Origin, Outcome]] = field(default_factory=list)
    calls: list[tuple[int, OutgoingCall]] = field(default_factory=list)
    started: dict[int, Gate] = field(default_factory=dict)  # calls started before the settle, by callback
    memory_pages: set[int] = field(default_factory=set)
    stable_pages: set[int] = field(default_factory=set)
    full: bool = False
    executed: bool = False  # an entry point completed (the canister's version moved)
    deleted: bool = False  # delete_canister: the actor and its state go
    instructions: int = 0  # wasm instructions its entry points ran (billed, trapped or not)
    trapped: bool = False  # one of its entry points trapped
    chunks: dict[bytes, bytes] = field(default_factory=dict)  # chunks uploaded to the chunk store
    chunks_cleared: bool = False  # clear_chunk_store
    snapshots: dict[bytes, Snapshot | None] = field(default_factory=dict)  # taken, or deleted (None), by id
    snapshot_parts: dict[bytes, dict[bytes, bytes | None]] = field(default_factory=dict)  # (`Delta`)
    modules: list[bytes] = field(default_factory=list)  # modules to keep (`Delta`)
    cycles: int = 0  # what it did to the balance: accepted and refunds in, attached to calls and burned out
    burned: int = 0  # cycles it burned (ic0.cycles_burn128), counted as spent

    @property
    def wrote(self) -> bool:
        """Whether the actor's record changes: its pages, an install, calls it made, an entry point that
        completed."""
        return bool(self.memory_pages or self.stable_pages or self.full or self.calls or self.executed)

    def delta(self, instance: Instance | None, state: dict | None, log: list | None) -> Delta:
        """What the store must write of the actor after the message: its ``state`` record, the pages
        of ``instance``'s memories the message changed (all of them after an install), as committed, and
        its canister's ``log`` record where that changed (`CanisterLog.changes`); with ``state`` None (no
        host reads the store back) only the chunks and snapshots, which later messages read."""
        if state is None:
            delta = Delta(None)
        elif instance is None:
            delta = Delta(state, full=True)
        elif self.full:
            delta = Delta(
                state,
                instance.memory_packer.whole(instance.memory.image()),
                instance.stable_packer.whole(instance.stable.image()),
                full=True,
            )
        else:
            delta = Delta(
                state,
                instance.memory_packer.changed(self.memory_pages, instance.memory.runs),
                instance.stable_packer.changed(self.stable_pages, instance.stable.runs),
            )
        delta.chunks, delta.chunks_cleared, delta.snapshots = self.chunks, self.chunks_cleared, self.snapshots
        delta.snapshot_parts, delta.modules = self.snapshot_parts, self.modules
        if log is not None and state is not None:
            delta.log = log
        return delta

    @property
    def waits_for_next(self) -> bool:
        """Whether the message may be settled in one batch with the actor's next (`Held`): it sent
        nothing (no calls, no answer to another actor) and wrote nothing besides its memories' pages
        and its state record, which the next message's delta writes again."""
        return not (
            self.calls or self.started or self.deleted or self.full or self.chunks or self.chunks_cleared
        ) and not (self.snapshots or self.snapshot_parts or self.modules or self._answers_actors)

    @property
    def _answers_actors(self) -> bool:
        return any(isinstance(origin, FromActor) for origin, _ in self.answers)


class Held:
    """Group commit at the actor: the messages an actor settled without writing them yet, so that one
    batch writes several (`Delivery.settle`'s ``hold``). With many callers an actor's inbox holds the
    next call as one settles, and each call of a counter rewrites the same four pages: packing them
    (zstd), the state record's CBOR and an LMDB transaction took ~120 µs of the ~175 µs each call cost
    more with a state directory than in memory. Their answers wait for the batch, as every answer to a
    caller outside waits for its batch to be on disk, so a crash loses nothing acknowledged: the inbox
    still holds what a batch not written consumed, and a restart runs it again (as it runs what a host
    that stopped held: no caller was answered for it).

    The next message's settle writes the batch, unless that message runs past `HELD_SECONDS`: then the
    host's `HeldWatch` writes it alone (``write_late``), from what the held messages left: the state
    record and log taken as the last was held, and the pages they wrote as committed, which stay so
    until the next message commits (`Replicas.changes`; read holding `Replicas.committing`)."""

    def __init__(self, services: Services, replicas: Replicas, write: Callable[[Delta], None]):
        """``write(delta)``: settle the held messages with ``delta`` (nothing more: `Delivery.settle`)."""
        self.most = services.settle_together  # messages in one batch at most (their answers wait for the last)
        self.count = 0
        self._memory_pages: set[int] = set()
        self._stable_pages: set[int] = set()
        self._watch, self._replicas, self._write = services.held_watch, replicas, write
        self._late: _Late | None = None  # what ``write_late`` writes, from when the last was held until a settle

    @contextlib.contextmanager
    def settling(
        self,
        effects: Effects,
        queued: int,
        consumes: bool,
        now: Callable[[], tuple[Instance | None, dict | None, CanisterLog]],
    ) -> Iterator[tuple[Delta | None, bool]]:
        """Around the settle of the message whose ``effects`` these are (``queued``: messages in the
        actor's inbox now; ``consumes``: it consumes its inbox entry; ``now()``: the actor's instance,
        state record and log now): yields what the store must write of the actor (None: nothing) and
        whether the message is held for the next (`Effects.waits_for_next`; then nothing is written).
        Unless it is held, the messages held before are written with it: their pages added to its
        ``effects``, forgotten once that settle went through, and kept for the next where it failed (an
        internal error: `Actor._fail` writes them)."""
        with self._replicas.committing:  # (a late write running now ends first, and none comes after)
            self._late = None
        instance, state, log = now()
        if self._hold(effects, queued):
            late = _Late(instance, state, log.record() if log.changed else None, self._replicas.changes)
            yield None, True
            self._late = late
            if self._watch is not None:
                self._watch.add(self.write_late)
            return
        held = self.count > 0
        if held:
            effects.memory_pages |= self._memory_pages
            effects.stable_pages |= self._stable_pages
        changed = held or consumes or effects.wrote or log.changed  # (the log: a trapped task's prints and trap)
        yield (effects.delta(instance, state, log.changes()) if changed else None), False
        if held:
            self.count, self._memory_pages, self._stable_pages = 0, set(), set()

    def _hold(self, effects: Effects, queued: int) -> bool:
        """Whether the message whose ``effects`` these are waits for the next, keeping the pages it
        wrote; False when its own batch is written."""
        if not queued or self.count + 1 >= self.most or not effects.waits_for_next:
            return False
        self.count += 1
        self._memory_pages |= effects.memory_pages
        self._stable_pages |= effects.stable_pages
        return True

    def write_late(self, now: float) -> float | None:
        """(`HeldWatch`'s thread) Write the messages held if the last was held `HELD_SECONDS` before
        ``now`` (a `time.perf_counter` time) and the actor committed nothing since; when they are due if
        they still wait, else None."""
        with self._replicas.committing:
            late = self._late
            if late is None or now < late.due:
                return None if late is None else late.due
            self._late = None
            if late.changes != self._replicas.changes:  # (a commit of the next message: its settle writes them)
                return None
            effects = Effects(memory_pages=self._memory_pages, stable_pages=self._stable_pages)
            self._write(effects.delta(late.instance, late.state, late.log))
            self.count, self._memory_pages, self._stable_pages = 0, set(), set()
            return None


@dataclass
class _Late:
    """What the messages an actor holds left, for `Held.write_late`: its instance, state record and log
    record (None: unchanged) as the last was held, how many times its committed state had changed then
    (`Replicas.changes`), and when to write them without the next message."""

    instance: Instance | None
    state: dict | None
    log: list | None
    changes: int
    due: float = field(default_factory=lambda: time.perf_counter() + HELD_SECONDS)


class Turn:
    """The message actor ``name`` is handling now; a new one for each message."""

    def __init__(self, name: str, principal: bytes, services: Services):
        self.name, self.principal = name, principal
        self.effects = Effects()
        self._memory_budget = services.memory_budget
        self._ledger = services.ledger
        self._start_early = services.start_early
        self._early = True  # until one of its calls to the management canister did not start early

    def call(self, callback: int, call: OutgoingCall) -> None:
        """The message made ``call``, whose answer goes to ``callback``. A call of a system method that
        would run on a thread of its own starts now, before the message is committed, so it runs while
        this thread commits and settles the message; its answer waits for the settle
        (``DeviceCalls.start_early``). The entry point that made it has completed, and none runs after
        that in the same message, so the call is final. Once one of the message's calls to the
        management canister does not start now, none after it does: they start at the settle, in the
        order the message made them."""
        self.effects.calls.append((callback, call))
        if call.callee == MANAGEMENT and self._early:
            started = self._start_early(self.name, self.principal, call.method, bytes(call.data))
            if started is None:
                self._early = False
            else:
                self.effects.started[callback] = started
                started.let_run(LET_RUN_SECONDS)

    def end(self) -> None:
        """The message is over: a call started for it (``call``) that its settle did not take (it was
        cut short by the host stopping, or failed) is never answered, as it was never made."""
        for started in self.effects.started.values():
            started.cancel()

    def answer(self, origin: Origin, outcome: Outcome) -> None:
        self.effects.answers.append((origin, outcome))

    def begin(self, instance: Instance) -> None:
        """Begin an entry point that may commit on ``instance``: it may grow the memories only into what
        moxzid's total for all actors' wasm memory has left (`memory_budget`)."""
        instance.begin(self._memory_budget.room(self.name, instance.reach()))

    def past_total(self, instance: Instance) -> str | None:
        """None if the memories ``instance`` has now fit moxzid's total for all actors' wasm memory (they
        become this actor's share: `memory_budget`), else why the message that grew them must be rolled
        back."""
        size = instance.extent(committing=True)
        budget = self._memory_budget
        if budget.admit(self.name, size):
            return None
        return (
            f"moxzid's wasm memory for all actors is spent: actor {self.name} would hold {size >> 20} MiB "
            f"(heap and stable memory written), and all actors more than {budget.total_bytes >> 20} MiB "
            "(moxzid --total-memory-mb); the message's growth was given back"
        )

    def balance(self) -> int:
        """The actor's cycle balance as the running message sees it: the ledger's, with what the message
        did to it so far (settled with the message)."""
        ledger_balance = self._ledger.balance(self.name) if self._ledger is not None else 0
        return ledger_balance + self.effects.cycles

    def burn(self, cycles: int) -> None:
        """Cycles a completed canister_init or upgrade hook burned (ic0.cycles_burn128), settled with the
        message that ran it (install_code, an upgrade). A manifest actor's first canister_init runs
        before any message, and what it burns is not taken."""
        self.effects.cycles -= cycles
        self.effects.burned += cycles
