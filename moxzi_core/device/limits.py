"""The device's limits (``DeviceLimits``) and the checks every method makes against them before it
changes anything: a name's length, a shape's dims and elements, a space's entries."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from .ops import DeviceError

# What a backend does per millisecond at least, in element operations (Op.cost): a call's device time
# is expected to be at most its work over this, and that time's price is what it reserves of its
# actor's cycles before it runs.
WORK_PER_MS = 2_000_000


@dataclass(frozen=True)
class DeviceLimits:
    max_dims: int = 8
    max_elements: int = 1 << 28  # per tensor: 1 GiB of float32
    max_input_bytes: int = 256 << 20  # all inputs of one run together
    max_ops: int = 20_000  # per program
    max_name_bytes: int = 256
    max_entries: int = 100_000  # of one actor (--device-actor-entries): see budget.entries
    max_exports: int = 256  # live exports of one actor
    max_fetch_bytes: int = 4 << 30  # one fetch's download
    fetch_seconds: float = 600.0  # one fetch's download, start to end
    call_seconds: float | None = 60.0  # one call's device time (schedule.py); None: no limit

    def name(self, what: str, name: str) -> str:
        """``name``, once it is 1 to ``max_name_bytes`` bytes long."""
        if not name or len(name.encode()) > self.max_name_bytes:
            raise DeviceError(f"{what} {name!r}: expected 1 to {self.max_name_bytes} bytes")
        return name

    def shape(self, what: str, shape: Iterable[int]) -> tuple[int, ...]:
        """``shape`` as a tuple, once it has at most ``max_dims`` dims and ``max_elements`` elements."""
        shape = tuple(shape)
        if len(shape) > self.max_dims:
            raise DeviceError(f"{what}: {len(shape)} dims; the limit is {self.max_dims}")
        if math.prod(shape) > self.max_elements:
            raise DeviceError(f"{what}: {math.prod(shape)} elements; the limit is {self.max_elements}")
        return shape

    def room(self, held: int, adding: int) -> None:
        """Raises unless an actor holding ``held`` entries (``budget.entries``) can hold ``adding`` more."""
        if adding > 0 and held + adding > self.max_entries:
            raise DeviceError(
                f"the space would hold {held + adding} entries; the limit is {self.max_entries} (--device-actor-entries)"
            )
