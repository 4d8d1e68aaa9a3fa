"""The wasm memory all actors together may hold (``--total-memory-mb``): what bounds the RAM of an
unbounded number of actors, each within its own budget (``--actor-memory-mb``).

An actor's share is its main and its stable memory up to the last page a committed message wrote in
each (``Instance.extent``), in bytes. The pages written, not the memories' sizes: wasm memory cannot
shrink, so counting sizes would leave an actor whose one allocation failed unable to commit anything
while the total is full, and a page grown but never written costs no RAM. A message is checked as it
ends, before its effects are kept: if it would leave its actor larger than before and all actors past
the total, it is rolled back instead (its growth given back, as a trapped message's is). So the
committed memories of all actors never pass the total by growing; during a message an actor may grow
to its own budget first, and loses that growth when the message is refused.
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
        self._held: dict[str, int] = {}
        self._sum = 0
        self._lock = threading.Lock()

    @property
    def held_bytes(self) -> int:
        """What all actors hold together now."""
        return self._sum

    def admit(self, name: str, size: int) -> bool:
        """Make ``size`` actor ``name``'s share if that keeps the total within the budget, or is no more
        than its share now (shrinking or staying is always admitted); False, changing nothing, if not."""
        with self._lock:
            held = self._held.get(name, 0)
            if size > held and self._sum - held + size > self.total_bytes:
                return False
            self._set(name, held, size)
            return True

    def hold(self, name: str, size: int) -> None:
        """Make ``size`` actor ``name``'s share whatever the total: what a restored actor holds already."""
        with self._lock:
            self._set(name, self._held.get(name, 0), size)

    def release(self, name: str) -> None:
        """Actor ``name`` is gone (deleted): its share is free."""
        with self._lock:
            self._sum -= self._held.pop(name, 0)

    def _set(self, name: str, held: int, size: int) -> None:
        self._held[name] = size
        self._sum += size - held
