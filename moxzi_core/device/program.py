"""Programs: checking a list of ops against the caller's sources, and the plan a backend executes.

A plan is built once per distinct (program, input types, outputs) and reused while the sources it read
keep their shapes: a training loop sends the same program every step and pays for checking once.
"""

from __future__ import annotations

import functools
import hashlib
import pickle
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

from .ops import FLOAT, HELD_SIZES, SOURCES, Check, DeviceError, Meta, Op, Source


@dataclass(frozen=True)
class Step:
    """One op to execute: ``kernel(payload, *values[slots])`` becomes value ``out``."""

    index: int
    op: str
    kernel: Callable
    payload: object
    slots: tuple[int, ...]
    out: int


@dataclass(frozen=True)
class Plan:
    """A checked program. Values are numbered sources first, then registers: register ``r`` is value
    ``len(sources) + r``. Steps whose results nothing needs are left out."""

    sources: tuple[Source, ...]
    source_metas: tuple[Meta, ...]
    metas: tuple[Meta, ...]  # of every register
    steps: tuple[Step, ...]
    stores: tuple[tuple[int, str], ...]  # (register, name), in program order
    rows: tuple = ()  # with split inputs, each value's kind (rows.py): how it is split across ranks
    batch: int = 0  # with split inputs, the whole batch's rows
    peak_bytes: int = (
        0  # what a run holds at most: its inputs, and its results (with gradients when it trains), as held
    )
    work: int = 0  # element operations its steps do (Op.cost; three times over when it trains)

    def slot(self, register: int) -> int:
        return len(self.sources) + register

    # Read by every run of the plan (methods/run.py), so made once per plan.
    @functools.cached_property
    def param_slots(self) -> dict[str, int]:
        """The value slot of each parameter the plan reads, by name."""
        return {src.key: i for i, src in enumerate(self.sources) if src.kind == "param"}

    @functools.cached_property
    def shared_owners(self) -> frozenset[bytes]:
        """The principals whose publications the plan reads."""
        return frozenset(src.key[0] for src in self.sources if src.kind == "shared")


def check(
    program: Sequence[dict],
    ops: dict[str, Op],
    kernels: dict[str, Callable],
    resolve_source: Callable[[Source], Meta],
    scalars: Sequence[int],
    tensors: Sequence[int],
    loss: int | None,
    max_elements: int,
) -> Plan:
    """Check every op in order, then the requested registers, and build the plan that computes them
    (and the program's stores), with what running it holds at its peak (a run keeps every result until
    it ends, and a gradient for each when it trains) and the work it does, both from the shapes alone.
    Raises ``DeviceError`` naming the first bad op or request."""
    metas: list[Meta] = []
    sources: dict[Source, int] = {}
    source_metas: list[Meta] = []
    operands: list[list[int | Source]] = []
    stores: list[tuple[int, str]] = []

    def resolve(src: Source) -> Meta:
        meta = resolve_source(src)
        if src not in sources:
            sources[src] = len(sources)
            source_metas.append(meta)
        return meta

    for i, entry in enumerate(program):
        ((name, payload),) = entry.items()
        op = ops.get(name)
        if op is None:  # only possible for a tag the Candid type knows but no backend kernel has
            raise DeviceError(f"op {i} ({name}): this device has no such op")
        c = Check(i, name, metas, resolve)
        meta = op.rule(payload, c)
        if meta.numel > max_elements:
            raise c.fail(f"the result {meta} has {meta.numel} elements; the limit is {max_elements}")
        metas.append(meta)
        operands.append(c.operands)
        stores.extend((i, s) for s in c.stores)

    _check_outputs(metas, scalars, tensors, loss)
    # Keep only what the requested registers and the stores need.
    needed = set()
    todo = [*scalars, *tensors, *([] if loss is None else [loss]), *(r for r, _ in stores)]
    while todo:
        r = todo.pop()
        if r not in needed:
            needed.add(r)
            todo.extend(o for o in operands[r] if isinstance(o, int))

    def meta_of(operand: int | Source) -> Meta:
        return metas[operand] if isinstance(operand, int) else source_metas[sources[operand]]

    trains = loss is not None
    held = 0
    for r in needed:
        ((name, _),) = program[r].items()
        size = metas[r].numel * HELD_SIZES[metas[r].dtype]
        if name not in SOURCES:
            held += size * (2 if trains else 1)  # its gradient beside it
        elif trains and name == "param":
            held += size  # the parameter is held already; its gradient is not
    # as the backend holds them: a u8 input's element takes 8 bytes (ops.HELD_SIZES)
    inputs = sum(m.numel * HELD_SIZES[m.dtype] for src, m in zip(sources, source_metas) if src.kind == "input")
    work = 0
    for r in needed:
        ((name, _),) = program[r].items()
        cost, operand_metas = ops[name].cost, [meta_of(o) for o in operands[r]]
        work += cost(metas[r], operand_metas) if cost else metas[r].numel + sum(m.numel for m in operand_metas)
    n = len(sources)
    steps = []
    for i in sorted(needed):
        ((name, payload),) = program[i].items()
        slots = tuple(n + o if isinstance(o, int) else sources[o] for o in operands[i])
        steps.append(Step(i, name, kernels[name], payload, slots, n + i))
    return Plan(
        tuple(sources),
        tuple(source_metas),
        tuple(metas),
        tuple(steps),
        tuple(stores),
        peak_bytes=held + inputs,
        work=work * (3 if trains else 1),  # the backward pass costs about twice the forward
    )


def _check_outputs(metas: list[Meta], scalars: Sequence[int], tensors: Sequence[int], loss: int | None) -> None:
    """The requested registers exist; scalars and the loss hold one element; the loss is float."""
    n = len(metas)
    for what, regs in (("scalars", scalars), ("tensors", tensors), ("train.loss", [] if loss is None else [loss])):
        for r in regs:
            if not 0 <= r < n:
                raise DeviceError(f"{what}: register {r} does not exist; the program has {n} ops")
            if what != "tensors" and metas[r].numel != 1:
                raise DeviceError(f"{what}: register {r} is {metas[r]}; expected one element")
    if loss is not None and metas[loss].dtype != FLOAT:
        raise DeviceError(f"train.loss: register {loss} is {metas[loss]}; expected float32")


class PlanCache:
    """Recently used plans by program key, least recently used evicted first."""

    def __init__(self, size: int = 64):
        self.size = size
        self.hits = self.misses = 0
        self._plans: OrderedDict[tuple, Plan] = OrderedDict()
        # The digests of the programs keyed last, by the program object (kept, so its id is not reused).
        self._programs: OrderedDict[int, tuple[object, bytes]] = OrderedDict()

    def key(self, program: Sequence[dict], *parts: Hashable) -> tuple:
        """The key of a program and the hashable values beside it: a digest of the program (pickle is
        ~10x faster than repr on a 100-op program) with the values themselves (a tuple of them hashes
        in ~1 µs, where pickling and digesting them took ~14). A program given again as the same
        object (the device's decoder gives a program that repeats byte for byte as the one object) is
        not pickled again; programs are not changed."""
        known = self._programs.get(id(program))
        if known is None or known[0] is not program:
            known = (program, _digest(program))
            self._programs[id(program)] = known
            while len(self._programs) > self.size:
                self._programs.popitem(last=False)
        return (known[1], parts)

    def get(self, key: tuple) -> Plan | None:
        plan = self._plans.get(key)
        if plan is None:
            self.misses += 1
        else:
            self.hits += 1
            self._plans.move_to_end(key)
        return plan

    def put(self, key: tuple, plan: Plan) -> None:
        self._plans[key] = plan
        while len(self._plans) > self.size:
            self._plans.popitem(last=False)


def _digest(value) -> bytes:
    return hashlib.blake2b(pickle.dumps(value, protocol=5), digest_size=16).digest()
