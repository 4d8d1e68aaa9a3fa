"""What a backend keeps between one caller's runs besides the tensors the device holds for it: the torch
backend's static forms of cached plans (``--cuda-graphs``), with their buffers and graphs' memory.

It is a cache, counted as the caller's own bytes (``budget.counted_bytes``) from the moment it is kept,
so a caller cannot hold more than its budget through it: ``Keeping.keep`` makes nothing that the byte
budget has no room for (the run goes on without it), and a call the budget would refuse drops the
kept first (``DeviceState.admit``): kept bytes never keep a call out. The device drops what holds a
parameter or optimizer its caller no longer has (replaced or deleted: ``Space.forget_stale``), a
restore drops everything, and each drop gives the bytes back as the holdings are counted afresh at the
call's end.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Protocol


class Kept(Protocol):
    """One thing a backend keeps for a caller (``Space.kept``)."""

    bytes: int  # what it holds on the device, at the most
    holds: tuple  # the caller's parameters (backend tensors) and optimizers' states it holds on to


class Keeping:
    """A run's hold on what the backend keeps for the run's caller: ``Backend.execute`` gets one, made
    with the caller's ``kept`` (``Space.kept``) and ``room_for(nbytes)``, whether the byte budget lets
    the caller keep ``nbytes`` more (``DeviceState.room_for``)."""

    def __init__(self, kept: OrderedDict[Any, Kept], room_for: Callable[[int], bool]):
        self.kept, self.room_for = kept, room_for
        self.changed = False  # whether the run kept or dropped anything (what its caller holds changed)

    def get(self, key: Any) -> Any:
        """What is kept under ``key`` (now the most recently used), or None."""
        found = self.kept.get(key)
        if found is not None:
            self.kept.move_to_end(key)
        return found

    def keep(self, key: Any, nbytes: int, make: Callable[[], Kept], most: int) -> Kept | None:
        """``make()`` (of ``nbytes``), kept under ``key`` as the most recently used, the least recently
        used beyond ``most`` dropped, if the byte budget has room for ``nbytes`` beside what the caller
        holds and its calls under way (this one's peak included), and what the device does; else None,
        and ``make`` is not called."""
        if not self.room_for(nbytes):
            return None
        kept = make()
        assert kept.bytes == nbytes, "what is kept is what was admitted"
        self.changed = True
        self.kept[key] = kept
        while len(self.kept) > most:
            self.kept.popitem(last=False)
        return kept

    def drop(self, key: Any) -> None:
        if self.kept.pop(key, None) is not None:
            self.changed = True
