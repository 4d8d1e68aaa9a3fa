"""The wasm memory all actors together may hold (``--total-memory-mb``): what bounds the RAM of an
unbounded number of actors, each within its own budget (``--actor-memory-mb``).

An actor's share is its main and its stable memory up to the last page a committed message wrote in
each (``Instance.extent``), in bytes. The pages written, not the memories' sizes: wasm memory cannot
shrink, so counting sizes would leave an actor whose one allocation failed unable to commit anything
while the total is full, and a page grown but never written costs no RAM.

While a message runs (an update, a callback, a timer, ``canister_init``, an upgrade's hooks): it may
grow the two memories together by the `room` the total has left as it begins (the total less the
other actors' shares and what the actor can write without growing, its memories' sizes: `Instance.reach`).
A growth past that answers -1, as one past ``--actor-memory-mb`` does (the engine's growth cap (`engine.rewrite`)), so
Motoko traps with "Cannot grow memory" and the message is rolled back, its growth given back. Nothing
is reserved: messages of several actors running at once each get the room left as they begin, so no
long message keeps others from growing, and together they may pass the total by what each grew, at
most (running messages - 1) x the room. Queries grow only to the actor's budget, as they keep nothing.

As a message ends, before its effects are kept, it is checked once more: if it would leave its actor
larger than before and all actors past the total, it is rolled back instead. That catches what growth
cannot: messages running at once, and pages a rolled-back growth left in the memory (zeroed, not
counted), which a later message may write without growing (at most the actor's budget). So the
committed memories of all actors never pass the total by growing; while a single message runs alone,
all actors' memory stays within the total unless its actor's memory holds such pages.

An actor's canister snapshots (take_canister_snapshot) count too, each at its memories' sizes as taken
(what it holds in the store, and in RAM where the store is memory): taking one that would pass the
total is refused (`keep_snapshots`), deleting one frees its share, and they make the room a message may
grow by smaller as any other share does.
"""

from __future__ import annotations

import os
import threading


def default_total_mb() -> int:
    """A quarter of this machine's RAM, in MiB: a byte of committed wasm memory may cost up to about
    three in RAM (the memory, the committed copy that rolls a message back, the query replicas), and
    moxzid, the device and messages under way need the rest."""
    return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 4 >> 20


class MemoryBudget:
    """Each actor's committed wasm memory in bytes, and their total against ``total_bytes``. Thread-safe:
    actors settle their own share from their own threads."""

    def __init__(self, total_bytes: int):
        self.total_bytes = total_bytes
        self._held: dict[str, int] = {}  # memories, by actor
        self._snapshots: dict[str, int] = {}  # canister snapshots, by actor
        self._sum = 0
        self._lock = threading.Lock()

    @property
    def held_bytes(self) -> int:
        """What all actors hold together now, their snapshots included."""
        return self._sum

    def admit(self, name: str, size: int) -> bool:
        """Make ``size`` actor ``name``'s share if that keeps the total within the budget, or is no more
        than its share now (shrinking or staying is always admitted); False, changing nothing, if not."""
        with self._lock:
            held = self._held.get(name, 0)
            if size > held and self._sum - held + size > self.total_bytes:
                return False
            self._set(self._held, name, size)
            return True

    def room(self, name: str, reach: int) -> int:
        """Bytes actor ``name`` may grow its memories by in a message beginning now, where it can write
        ``reach`` bytes without growing: the total less the other actors' shares, all snapshots and
        ``reach`` (0 where that leaves none). Reserves nothing: messages beginning at the same time each get it."""
        with self._lock:
            return max(0, self.total_bytes - (self._sum - self._held.get(name, 0)) - reach)

    def hold(self, name: str, size: int, snapshots: int) -> None:
        """Make ``size`` actor ``name``'s share, and ``snapshots`` its snapshots', whatever the total:
        what a restored actor holds already."""
        with self._lock:
            self._set(self._held, name, size)
            self._set(self._snapshots, name, snapshots)

    def keep_snapshots(self, name: str, size: int) -> bool:
        """Make ``size`` what actor ``name``'s snapshots hold if that keeps the total within the budget,
        or is no more than they hold now; False, changing nothing, if not."""
        with self._lock:
            held = self._snapshots.get(name, 0)
            if size > held and self._sum - held + size > self.total_bytes:
                return False
            self._set(self._snapshots, name, size)
            return True

    def release(self, name: str) -> None:
        """Actor ``name`` is gone (deleted): its share and its snapshots' are free."""
        with self._lock:
            self._sum -= self._held.pop(name, 0) + self._snapshots.pop(name, 0)

    def _set(self, shares: dict[str, int], name: str, size: int) -> None:
        self._sum += size - shares.get(name, 0)
        shares[name] = size
