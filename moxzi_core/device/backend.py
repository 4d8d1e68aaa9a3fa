"""What a backend plugin provides (``register_backends``): a ``Backend`` and its optimizers.

Tensors are opaque to the core: the device hands a backend the bytes and shapes it checked, and gets
back whatever the backend uses for a tensor.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol

from .kept import Keeping
from .program import Plan

OPTIMIZER_KINDS = ("adamw", "sgd")  # the `kind` variant of interface.did


class Optimizer(Protocol):
    def step(self, params: list[tuple[str, Any]], lr: float, clip: float | None = None) -> None:
        """Update the named parameters that have gradients; with ``clip``, first scale their gradients
        together to global L2 norm at most ``clip``."""

    def forget(self, name: str) -> None:
        """Drop the state kept for parameter ``name`` (it was replaced or deleted)."""

    def export(self) -> Iterator[tuple[str, Any]]:
        """Its state for a snapshot, a parameter at a time: (parameter name, plain values: ints, floats,
        bytes, lists), made as they are asked for, so a snapshot holds one parameter's at once."""

    def restore(self, state: Iterable[tuple[str, Any]]) -> None:
        """Replace its state with what ``export`` gave, reading ``state`` to its end (it is read from the
        snapshot as it is consumed)."""

    def held_bytes(self) -> int:
        """The bytes its state holds (moments, momentum buffers). Optional: ``Device.usage`` counts 0
        for an optimizer without it."""


class Backend(Protocol):
    """What a backend plugin provides (``register_backends``). Tensors are opaque to the core."""

    name: str  # e.g. "torch:cpu"
    family: str  # e.g. "torch": which ops' kernels it runs

    def tensor(self, data: bytes | bytearray | memoryview, elem: str, shape: tuple[int, ...]) -> Any:
        """An input or a stored tensor from little-endian bytes; it may keep a writable buffer's memory (a
        bytearray, a fetch's writable memoryview: the caller hands it over)."""

    def param(self, shape: tuple[int, ...], init: dict, seed: int) -> Any:
        """A parameter from ``init`` (``{"values": little-endian float32}``, ``normal``, ``uniform``,
        ``zeros`` or ``ones``); it may keep the memory of writable values (a bytearray or array: the
        caller hands it over)."""

    def copy(self, t: Any) -> Any: ...
    def weighted_sum(self, terms: list[tuple[float, Any]]) -> Any: ...
    def to_bytes(self, t: Any) -> bytes: ...  # little-endian float32
    def save(self, t: Any) -> bytes: ...  # little-endian, float32 or (integer tensors) int64: see tensor()
    def to_scalar(self, t: Any) -> float: ...
    def optimizer(self, kind: str, hyper: dict) -> Optimizer:
        """A new optimizer of ``kind`` (``OPTIMIZER_KINDS``); ``hyper``: beta1, beta2, eps, weight_decay."""

    def execute(
        self, plan: Plan, sources: list[Any], wanted: list[int], train: TrainStep | None, keeping: Keeping
    ) -> list[Any]:
        """Run ``plan`` on ``sources``; with ``train``, backpropagate, clip and step. Returns the values
        of the registers in ``wanted`` (computed before any step), detached. Call ``checkpoint()``
        (``moxzi_core.device``) between ops, up to the step: other actors' calls run there, and a run
        past its time limit stops there (it raises); without it a run holds the device to its end.
        Whatever it keeps on the device for later runs of the caller (``keeping``, ``kept.py``) counts
        against the caller's byte budget; it may ignore ``keeping``."""


@dataclass
class TrainGroup:
    optimizer: Optimizer
    lr: float
    params: list[tuple[str, int]]  # (name, source slot) of its parameters the program reads


@dataclass
class TrainStep:
    loss: int  # register
    groups: list[TrainGroup]
    clip: float | None
