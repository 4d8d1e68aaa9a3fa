"""One message's turn on its actor's thread: what it produced so far, for the host to settle (`Effects`),
and the rules every entry point it runs keeps (`Turn`): the growth moxzid's total for all actors' wasm
memory allows, and the cycle balance as the message sees it."""

from __future__ import annotations

from dataclasses import dataclass, field

from .canister_log import CanisterLog
from .device_calls import Gate
from .engine import Instance
from .ic0 import OutgoingCall
from .journal import Delta, Snapshot
from .messages import MANAGEMENT, FromActor, Origin, Outcome
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

    def delta(self, instance: Instance | None, state: dict | None, log: CanisterLog) -> Delta:
        """What the store must write of the actor after the message: its ``state`` record, the pages
        of ``instance``'s memories the message changed (all of them after an install) and its canister's
        ``log`` if that changed; with ``state`` None (no host reads the store back) only the chunks and
        snapshots, which later messages read."""
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
        if log.take_changed() and state is not None:
            delta.log = log.record()
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
    that stopped held: no caller was answered for it)."""

    def __init__(self, most: int):
        self.most = most  # messages in one batch at most (their answers wait for the last)
        self.count = 0
        self._memory_pages: set[int] = set()
        self._stable_pages: set[int] = set()

    def hold(self, effects: Effects, queued: int) -> bool:
        """Whether the message whose ``effects`` these are waits for the next (``queued``: messages
        in the actor's inbox now), keeping the pages it wrote; False when its own batch is written."""
        if not queued or self.count + 1 >= self.most or not effects.waits_for_next:
            return False
        self.count += 1
        self._memory_pages |= effects.memory_pages
        self._stable_pages |= effects.stable_pages
        return True

    def writing(self, effects: Effects, held: bool) -> bool:
        """Before the settle of the message whose ``effects`` these are: unless it is ``held``, add the
        held messages' pages to them; whether any was held (its delta must then be written, with the
        actor's state record). Once that settle went through, `written` forgets them; where it failed
        (an internal error: `Actor._fail` writes them) they are kept for the next. (Not a context
        manager: a generator's, once a message, cost ~3 µs on an actor's thread after a device call.)"""
        if held or not self.count:
            return False
        effects.memory_pages |= self._memory_pages
        effects.stable_pages |= self._stable_pages
        return True

    def written(self) -> None:
        """The held messages were settled with the one `writing` added them to."""
        self.count, self._memory_pages, self._stable_pages = 0, set(), set()


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
