"""The device's op model: what an op is, how a program's shapes are checked, and kernel overrides.

An op is registered through the ``register_ops`` hook as an ``Op``: its name (the tag of the ``Op``
variant in Candid), its Candid payload type, a shape rule, and a kernel per backend family. The rule
reads its operands through a ``Check`` and returns the ``Meta`` (shape and element type) of its result;
the operands it read, in order, are what the kernel receives::

    def rule(p, c):                      # p: the decoded payload, c: a Check
        x = c.float("x", c.reg(p))       # reads register p, which must hold float32
        return x                         # the result has x's shape and type

    Op("square", NAT32, rule, {"torch": lambda p, x: x * x})

A ``Kernel`` registered through ``register_kernels`` replaces an op's kernel on one backend (``torch:cuda``)
or a whole family (``torch``), so a plugin can add e.g. a Triton attention without redefining the op.
A ``Kernel`` for ``optimizer:adamw`` (or ``optimizer:sgd``) replaces the optimizer: its ``fn(hyper)``
returns an object with ``step(params, lr)`` and ``forget(name)`` (see ``backend.Optimizer``).
"""

from __future__ import annotations

import builtins
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from itertools import zip_longest
from typing import Any

from ..candid import CandidType, Some

FLOAT = "f32"
INTS = ("u8", "i32", "i64")
ELEM_SIZES = {"u8": 1, "i32": 4, "i64": 8, "f32": 4}  # as sent and saved
HELD_SIZES = {"u8": 8, "i32": 8, "i64": 8, "f32": 4}  # as a backend holds them: integers as int64 (Backend.tensor)


class DeviceError(Exception):
    """A call the device refuses; the message says what was wrong (and for a program, which op)."""


@dataclass(frozen=True, slots=True)
class Meta:
    """What a register holds, as far as checking is concerned: its shape and element type."""

    shape: tuple[int, ...]
    dtype: str = FLOAT

    @property
    def numel(self) -> int:
        return math.prod(self.shape)

    def __str__(self) -> str:
        dims = f"[{', '.join(map(str, self.shape))}]"
        return dims if self.dtype == FLOAT else f"{self.dtype} {dims}"


@dataclass(frozen=True)
class Op:
    """One op of the device. ``rule(payload, check) -> Meta``; ``kernels`` maps a backend family
    (``"torch"``) to ``kernel(payload, *operands) -> tensor``; ``rows`` is its row rule for runs that
    split their batch across ranks (``rows.py``), None to refuse split operands."""

    name: str
    payload: CandidType
    rule: Callable[[Any, Check], Meta]
    kernels: Mapping[str, Callable] = field(default_factory=dict)
    rows: Callable | None = None
    # The element operations its kernel does, from its result's and operands' types (what a run is
    # expected to cost before it runs); None: one per element of its result and of its operands.
    cost: Callable[[Meta, list[Meta]], int] | None = None


@dataclass(frozen=True)
class Kernel:
    """An alternative kernel for op ``op`` on ``backend`` (a family such as ``torch`` or one device
    such as ``torch:cuda``), provided by ``provider``. The most specific backend wins. With ``applies``,
    the kernel runs only where ``applies(payload, *operands)`` is true, and the kernel it replaces runs
    elsewhere (e.g. shapes a fused kernel does not handle)."""

    op: str
    backend: str
    fn: Callable
    provider: str
    applies: Callable[..., bool] | None = None


SOURCES = ("input", "param", "shared", "load")  # ops whose kernel is the identity on their source


# Source operands: what an op reads besides registers. Resolved afresh on every run.
@dataclass(frozen=True, slots=True)
class Source:
    kind: str  # "input", "param", "shared", "load"
    key: Any  # input number, name, or (owner principal bytes, name)


class Check:
    """What a shape rule sees: the registers before its op, and the caller's sources."""

    def __init__(self, index: int, op: str, metas: list[Meta], resolve_source: Callable[[Source], Meta]):
        self.index, self.op = index, op
        self._metas = metas
        self._resolve = resolve_source
        self.operands: list[int | Source] = []
        self.stores: list[str] = []

    def fail(self, message: str) -> DeviceError:
        """An error naming this op; ``raise c.fail("...")``."""
        return DeviceError(f"op {self.index} ({self.op}): {message}")

    def reg(self, r: int, what: str = "x") -> Meta:
        """Read register ``r`` as operand ``what``."""
        if not 0 <= r < self.index:
            before = f"registers 0..{self.index - 1}" if self.index else "no registers"
            raise self.fail(f"{what} is register {r}, but only {before} come before it")
        self.operands.append(r)
        return self._metas[r]

    def source(self, kind: str, key: Any) -> Meta:
        """Read a source (input, parameter, publication, stored tensor); raises if there is none."""
        src = Source(kind, key)
        meta = self._resolve(src)  # raises DeviceError naming what is missing
        self.operands.append(src)
        return meta

    def store(self, name: str) -> None:
        self.stores.append(name)

    def float(self, what: str, m: Meta) -> Meta:
        if m.dtype != FLOAT:
            raise self.fail(f"{what} is {m}; expected a float32 tensor")
        return m

    def int(self, what: str, m: Meta) -> Meta:
        if m.dtype not in INTS:
            raise self.fail(f"{what} is {m}; expected integer ids (u8, i32 or i64)")
        return m

    # (below, the method int shadows the type: builtins.int)
    def rank(self, what: str, m: Meta, n: builtins.int | None = None, at_least: builtins.int = 0) -> Meta:
        if (n is not None and len(m.shape) != n) or len(m.shape) < at_least:
            want = f"{n} dims" if n is not None else f"at least {at_least} dim(s)"
            raise self.fail(f"{what} is {m}; expected {want}")
        return m

    def dim(self, what: str, m: Meta, d: builtins.int) -> builtins.int:
        if not 0 <= d < len(m.shape):
            raise self.fail(f"dim {d} of {what}, which is {m}, does not exist")
        return d


def unwrap(v: Any) -> Any:
    """A decoded ``opt`` field's value: ``Some(x)`` as x; None (and a field given bare) as it is."""
    return v.value if isinstance(v, Some) else v


def ordinal(i: int) -> str:
    words = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")
    return words[i] if i < len(words) else f"{i + 1}th"


def broadcast(c: Check, a: Meta, b: Meta, names=("a", "b")) -> tuple[int, ...]:
    """NumPy broadcasting of two shapes, or an error naming both."""
    out = []
    for x, y in zip_longest(reversed(a.shape), reversed(b.shape), fillvalue=1):
        if x != y and 1 not in (x, y):
            raise c.fail(f"{names[0]} is {a} and {names[1]} is {b}: the shapes do not broadcast")
        out.append(y if x == 1 else x)
    return tuple(reversed(out))
