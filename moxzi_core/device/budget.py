"""The device's byte budget: what each actor may hold on the device, and all actors together.

An actor's bytes are those of its parameters, its optimizers' state, its stored tensors, its
publications (a publication others read still counts against its publisher), its live exports (their
records, and the tensors they hold that are no longer a publication's: ``export_bytes``) and what the
backend keeps between its runs (``kept.py``: a cache that gives way to any call the budget would refuse). An
optimizer's state is counted at the most it can hold (``state_copies`` of each of its parameters) from
the moment it is created, so what a training step will allocate was admitted before the first one. A call that would
take an actor past ``actor_bytes``, or the device past ``total_bytes``, at its peak (a run's results and
gradients, from the plan's shapes, count while it runs) is refused before it changes anything; a call
that adds nothing (a delete, a run within budget) is never refused, so an actor over a budget that was
lowered can still free bytes.

Bytes are counted as held, not as sent: a tensor's data at the size the backend keeps its elements
(``HELD_SIZES``: integers as int64, Backend.tensor), and beside it what keeping it by name costs moxzid's
memory: ``ENTRY_BYTES`` and the name's characters for every name kept (a parameter, stored tensor,
publication, optimizer, each parameter an optimizer is over, each reader a publication names),
``TENSOR_BYTES`` for every tensor object (a state copy of an optimizer included) and ``OPTIMIZER_BYTES``
for an optimizer's record, ``EXPORT_BYTES`` for an export's record and its token. The constants were measured on torch:cpu (CPython 3.11, RSS over 20,000 to
50,000 of each: a zero-element parameter 618 bytes, a plain tensor 457, a dict slot with its tuple and
Meta 348, a 250-character name 317, an AdamW state slot 169, an empty optimizer 822 to 861, a principal
in a reader set 106; by tracemalloc, an export's record with its token 305 and each tensor it names 127
with a short name) and rounded up, so they count at least what is held.

Nothing here is stored: what each actor holds is counted from the device's own state (``counted_bytes``), after
every change and after a restore, so after a restart it is counted afresh from what the store rebuilt.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .ops import HELD_SIZES, DeviceError, Meta

if TYPE_CHECKING:
    from .space import Publication, Readers, Space
    from .transfer import Export

MB = 1 << 20
ACTOR_MB = 8 << 10  # 8 GiB: the most one run's results could hold before budgets existed
TOTAL_MB = 32 << 10
ENTRY_BYTES = 448  # a name kept: its slot, record and string object, beside its characters
TENSOR_BYTES = 640  # a tensor object, beside its data
OPTIMIZER_BYTES = 1024  # an optimizer's record and backend object, beside its name
EXPORT_BYTES = 512  # an export's record, token and table slot, beside the names it lists


@dataclass(frozen=True)
class DeviceBudget:
    """Bytes one actor may hold on the device (``--device-actor-mb``), and all actors together
    (``--device-total-mb``)."""

    actor_bytes: int = ACTOR_MB * MB
    total_bytes: int = TOTAL_MB * MB


class OverBudget(DeviceError):
    """A call would pass a byte budget: the device's (``total``) or else the actor's."""

    def __init__(self, message: str, total: bool):
        super().__init__(message)
        self.total = total


def tensor_bytes(meta: Meta) -> int:
    """A tensor's data as the backend holds it."""
    return HELD_SIZES[meta.dtype] * math.prod(meta.shape)


def name_bytes(name: str) -> int:
    """Keeping ``name``: ENTRY_BYTES and its characters (up to four bytes each beyond ASCII, as Python
    may hold them)."""
    return ENTRY_BYTES + len(name) * (1 if name.isascii() else 4)


def entry_bytes(name: str, meta: Meta) -> int:
    """A parameter or stored tensor kept by ``name``."""
    return name_bytes(name) + TENSOR_BYTES + tensor_bytes(meta)


def publication_bytes(name: str, meta: Meta, readers: Readers) -> int:
    """A publication, with the principals it names as readers."""
    named = sum(ENTRY_BYTES + len(p) for p in readers) if isinstance(readers, frozenset) else 0
    return entry_bytes(name, meta) + named


def state_copies(kind: str, hyper: dict) -> int:
    """How many copies of a parameter an optimizer of ``kind`` keeps at most: AdamW its two moments,
    SGD its momentum buffer (none without momentum)."""
    if kind == "sgd":
        return 1 if hyper.get("beta1") else 0
    return 2


def optimizer_bytes(name: str, kind: str, hyper: dict, params: Iterable[tuple[str, Meta]]) -> int:
    """The most an optimizer ``name`` of ``kind`` over these (name, type) parameters holds: its record,
    its list of their names, and its state."""
    copies = state_copies(kind, hyper)
    return (
        OPTIMIZER_BYTES
        + name_bytes(name)
        + sum(name_bytes(p) + copies * (TENSOR_BYTES + tensor_bytes(m)) for p, m in params)
    )


def export_record_bytes(names: Iterable[str]) -> int:
    """An export's record, listing tensors by these ``names``."""
    return EXPORT_BYTES + sum(name_bytes(n) for n in names)


def export_bytes(exports: Iterable[Export], publications: Iterable[Publication]) -> int:
    """What an owner's live ``exports`` hold beside its ``publications``: their records, and each tensor
    they hold that is no publication's any more (replaced or deleted since the export was made) once."""
    published = {id(p.tensor) for p in publications}  # (live objects: their ids are unique)
    held = 0
    for export in exports:
        held += export_record_bytes(name for name, _, _ in export.tensors)
        for _, meta, tensor in export.tensors:
            if id(tensor) not in published:
                published.add(id(tensor))
                held += TENSOR_BYTES + tensor_bytes(meta)
    return held


def held_bytes(
    space: Space, publications: Iterable[tuple[str, Publication]], exports: Iterable[Export] = ()
) -> dict[str, int]:
    """The bytes an actor holds, by what holds them: ``space``, the (name, publication) it owns and
    its live ``exports``."""
    publications = list(publications)
    return {
        "parameters": sum(entry_bytes(n, meta) for n, (_, meta) in space.params.items()),
        "optimizers": sum(
            optimizer_bytes(n, e.kind, e.hyper, ((p, space.params[p][1]) for p in e.params if p in space.params))
            for n, e in space.optimizers.items()
        ),
        "stored": sum(entry_bytes(n, meta) for n, (_, meta) in space.stored.items()),
        "publications": sum(publication_bytes(n, p.meta, p.readers) for n, p in publications),
        "exports": export_bytes(exports, (p for _, p in publications)),
        "kept": sum(k.bytes for k in space.kept.values()),
    }


def counted_bytes(space: Space, publications: Iterable[tuple[str, Publication]], exports: Iterable[Export] = ()) -> int:
    """The bytes an actor holds (``held_bytes``, all together)."""
    return sum(held_bytes(space, publications, exports).values())


def entries(space: Space, publications: Iterable[Publication]) -> int:
    """The entries an actor holds (``DeviceLimits.max_entries``): its parameters, stored tensors,
    optimizers and each parameter they are over, publications and each reader they name."""
    named = sum(1 + (len(p.readers) if isinstance(p.readers, frozenset) else 0) for p in publications)
    return len(space.params) + len(space.stored) + sum(1 + len(e.params) for e in space.optimizers.values()) + named


class Holdings:
    """What each caller holds (``counted_bytes``), and all of them together, with what the calls under
    way were admitted to add while they run (calls of different callers take turns on the device, so
    several may be under way at once). Changed only by the call holding the device."""

    def __init__(self) -> None:
        self.by_caller: dict[bytes, int] = {}
        self.total = 0
        self.running: dict[bytes, int] = {}  # bytes admitted to calls under way, by caller (read-only)
        self.running_total = 0

    def set(self, caller: bytes, held: int) -> None:
        self.total += held - self.by_caller.get(caller, 0)
        self.by_caller[caller] = held

    def clear(self) -> None:
        self.by_caller, self.total = {}, 0

    def admit(self, budget: DeviceBudget, caller: bytes, during: int, after: int) -> int:
        """Admit a call of ``caller`` that holds ``during`` more bytes while it runs and ``after`` more
        (negative: fewer) once it is done, or raise ``OverBudget`` when that passes ``budget`` beside
        what is held and what the calls under way may add. A call that adds nothing is always
        admitted. Returns the bytes admitted, which ``done`` gives back when the call ends."""
        adds = max(during, after, 0)
        if adds == 0:
            return 0
        held = self.by_caller.get(caller, 0) + self.running.get(caller, 0)
        if held + adds > budget.actor_bytes:
            raise OverBudget(
                f"the actor would hold {held + adds} bytes on the device ({held} now and {adds} more "
                f"{'while it runs' if during >= after else 'after it'}); its budget is {budget.actor_bytes} "
                f"(--device-actor-mb): delete what it no longer needs",
                total=False,
            )
        total = self.total + self.running_total
        if total + adds > budget.total_bytes:
            raise OverBudget(
                f"the device would hold {total + adds} bytes for all actors ({total} now, this actor "
                f"{held}); its budget is {budget.total_bytes} (--device-total-mb)",
                total=True,
            )
        self.running[caller] = self.running.get(caller, 0) + adds
        self.running_total += adds
        return adds

    def done(self, caller: bytes, admitted: int, held: int) -> None:
        """A call ``admit`` admitted ``admitted`` bytes for has ended; ``caller`` now holds ``held``."""
        if admitted:
            left = self.running[caller] - admitted
            if left:
                self.running[caller] = left
            else:
                del self.running[caller]
            self.running_total -= admitted
        self.set(caller, held)
