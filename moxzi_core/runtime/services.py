"""What an actor uses of its host, as one record the host makes once and hands every actor: so an actor
reaches the host only through these, and the actor module needs nothing of the host's."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from ..billing import Ledger
from ..events import Events
from .clock import Clock
from .device_calls import Gate
from .engine import Instance, Limits
from .held_watch import HeldWatch
from .journal import Snapshot
from .memory_budget import MemoryBudget
from .messages import Manage, Outcome
from .queries import Queries


class Snapshots(Protocol):
    """Actors' canister snapshots as the store holds them (`journal.Journal`)."""

    def snapshot_of(self, name: str, snapshot_id: bytes) -> Snapshot: ...
    def snapshot_meta(self, name: str, snapshot_id: bytes) -> dict: ...
    def snapshot_chunk(self, name: str, snapshot_id: bytes, kind: bytes, number: int) -> bytes: ...
    def snapshot_wasm_chunks(self, name: str, snapshot_id: bytes) -> dict[bytes, bytes]: ...
    def snapshot_wasm_chunk(self, name: str, snapshot_id: bytes, digest: bytes) -> bytes | None: ...
    def chunk(self, name: str, digest: bytes) -> bytes | None: ...
    def module(self, digest: bytes) -> bytes: ...


@dataclass(frozen=True)
class Services:
    limits: Limits
    events: Events
    ledger: Ledger | None  # charges instructions and holds balances, when moxzid charges cycles
    memory_budget: MemoryBudget  # all actors' wasm memory together (--total-memory-mb)
    queries: Queries  # runs a query method called as an update (replicated), and composite queries' calls
    instantiate: Callable[..., Instance]  # a fresh instance of a module (`modules.Modules.instantiate`)
    settle: Callable[..., None]  # makes a handled message final (`delivery.Delivery.settle`)
    # Starts a device call before the message that made it is committed (`DeviceCalls.start_early`).
    start_early: Callable[[str, bytes, str, bytes], Gate | None]
    # Runs a management call on the actor it acts on, its caller's right checked (`management.on_target`).
    manage: Callable[[Any, Manage], Outcome | None]
    snapshots: Snapshots  # actors' canister snapshots, the modules they name and the chunk stores they copy
    compile: Callable[[bytes, bytes, str], None]  # prepare and compile a module once (`modules.Modules.remember`)
    clock: Clock  # when the actor's timer and heartbeat are due
    # Whether a later host reads the store back (`store.Store.read_back`): else an actor's memory pages
    # and state record, which only a restart reads, are not written.
    store_read_back: bool = True
    # The most messages of an actor settled in one batch (`turn.Held`): 1 where each is written alone.
    settle_together: int = 1
    held_watch: HeldWatch | None = None  # writes a batch held while the next message runs long (`turn.Held`)
