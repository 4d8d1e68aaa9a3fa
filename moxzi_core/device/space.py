"""What the device holds for its callers: each actor's ``Space`` and the ``Publication``s it shares.

A publication is a copy of a parameter (or a fetched tensor) that its owner lets others read; its
``readers`` are None (the owner alone), ``"anyone"``, or a frozenset of principals' bytes. The
``readers_*`` functions convert them to and from interface.did's ``Readers`` and a snapshot's form.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from ..candid import Principal
from .backend import Optimizer
from .kept import Kept
from .ops import Meta

Readers = None | str | frozenset  # None: the owner alone; "anyone"; or principals' bytes


@dataclass
class OptimizerEntry:
    kind: str
    params: list[str]
    lr: float
    hyper: dict  # beta1, beta2, eps, weight_decay
    state: Optimizer
    steps: int = 0  # training steps taken since the device opened (under this name, replaced or not)


@dataclass
class Space:
    """One actor's part of the device."""

    params: dict[str, tuple[Any, Meta]] = field(default_factory=dict)
    optimizers: dict[str, OptimizerEntry] = field(default_factory=dict)
    stored: dict[str, tuple[Any, Meta]] = field(default_factory=dict)
    # What the backend keeps between its runs (kept.py: the torch backend's static forms), by the
    # backend's key, least recently used first; counted against its budget.
    kept: OrderedDict[Any, Kept] = field(default_factory=OrderedDict)

    def forget_stale(self) -> bool:
        """Drop from ``kept`` what holds a parameter or an optimizer this space no longer has; whether
        anything was."""
        held = {id(t) for t, _ in self.params.values()} | {id(e.state) for e in self.optimizers.values()}
        stale = [k for k, kept in self.kept.items() if any(id(o) not in held for o in kept.holds)]
        for key in stale:
            del self.kept[key]
        return bool(stale)


@dataclass
class Publication:
    tensor: Any
    meta: Meta
    readers: Readers

    def readable_by(self, owner: bytes, caller: bytes) -> bool:
        return (
            caller == owner
            or self.readers == "anyone"
            or (isinstance(self.readers, frozenset) and caller in self.readers)
        )


def readers_from_candid(value: dict | None) -> Readers:
    """interface.did's ``opt Readers`` (decoded, the option unwrapped) as a publication's readers."""
    if value is None:
        return None
    ((kind, principals),) = value.items()
    return "anyone" if kind == "anyone" else frozenset(p.bytes for p in principals)


def readers_to_candid(readers: Readers) -> dict:
    if readers is None:
        return {"principals": []}
    if readers == "anyone":
        return {"anyone": None}
    return {"principals": [Principal(b) for b in sorted(readers)]}


def readers_to_state(readers: Readers) -> None | str | list:
    """As a snapshot holds them (CBOR has no sets)."""
    return sorted(readers) if isinstance(readers, frozenset) else readers


def readers_from_state(state: None | str | list) -> Readers:
    return frozenset(state) if isinstance(state, list) else state
