"""Data-parallel runs: proving that a plan can run on slices of its batch, one slice per rank.

A run marks inputs as split (``Run.split``): their first dim is the batch's rows, and each of the
device's ranks gets an equal, contiguous slice of them. Before that is allowed, every op the plan runs
must show, through its row rule, that it never mixes rows of different batch elements. Each value of
the plan then has a kind:

- ``None``: it does not depend on the split inputs, so it is the same on every rank;
- ``Rows(dim, per_row)``: its ``dim`` holds ``per_row`` entries per batch row, so the ranks' values,
  concatenated along ``dim`` in rank order, are the whole batch's value;
- ``MEAN``: a mean over the batch's rows (a loss), reached only through ops that are linear in it, so
  the mean of the ranks' values is the whole batch's value. Averaging the ranks' gradients of such a
  loss gives the whole batch's gradient.

An op's row rule ``rule(payload, c: RowCheck) -> kind`` sees its operands' kinds and types in the
order its shape rule read them, and raises ``c.fail(...)`` for anything it cannot prove; it is called
only when some operand is split or a mean. An op without a row rule (a plugin's) refuses split operands.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

from ..candid import Some
from .ops import DeviceError, Meta
from .program import Plan


@dataclass(frozen=True, slots=True)
class Rows:
    dim: int
    per_row: int  # entries along ``dim`` per batch row


MEAN = "mean"
Kind = Rows | str | None


@dataclass
class RowCheck:
    """What a row rule sees: its operands' kinds and types, and its result's type."""

    index: int
    op: str
    kinds: list[Kind]
    metas: list[Meta]
    out: Meta
    batch: int  # rows of the whole batch

    def fail(self, message: str) -> DeviceError:
        return DeviceError(
            f"op {self.index} ({self.op}): {message}; the run splits its inputs' rows "
            f"across ranks, so no op may mix rows"
        )

    @property
    def split(self) -> list[Rows]:
        return [k for k in self.kinds if isinstance(k, Rows)]

    def only(self, kind: Kind) -> Rows:
        """``kind``, after checking every split operand agrees with it and nothing is a mean."""
        if MEAN in self.kinds:
            raise self.fail("it is not linear in a mean over the split rows")
        if any(k != kind for k in self.split):
            raise self.fail("its operands are split along different dims")
        assert isinstance(kind, Rows), "a rule runs where an operand is split"
        return kind


def analyse(plan: Plan, split: list[int], rules: dict[str, Callable | None]) -> Plan:
    """``plan`` with each value's kind (``Plan.rows``) and the batch's rows (``Plan.batch``) when inputs
    ``split`` are split by rows; raises ``DeviceError`` naming the first op that mixes rows, or a loss
    that is not a mean over them."""
    kinds: list[Kind] = []
    batch = None
    for src, meta in zip(plan.sources, plan.source_metas):
        if src.kind != "input" or src.key not in split:
            kinds.append(None)
            continue
        if not meta.shape or meta.shape[0] == 0:
            raise DeviceError(f"split: input {src.key} is {meta}; a split input needs rows (a first dim > 0)")
        if batch is not None and meta.shape[0] != batch:
            raise DeviceError(
                f"split: input {src.key} has {meta.shape[0]} rows but another split input has "
                f"{batch}; split inputs share their rows"
            )
        batch = meta.shape[0]
        kinds.append(Rows(0, 1))
    if batch is None:
        raise DeviceError("split: the program reads none of the split inputs")
    kinds += [None] * len(plan.metas)
    metas = [*plan.source_metas, *plan.metas]
    for step in plan.steps:
        operand_kinds = [kinds[s] for s in step.slots]
        if all(k is None for k in operand_kinds):
            continue
        check = RowCheck(
            step.index, step.op, operand_kinds, [metas[s] for s in step.slots], plan.metas[step.index], batch
        )
        rule = rules.get(step.op)
        if rule is None:
            raise check.fail("this op has no rule for split rows")
        kinds[step.out] = rule(step.payload, check)
    return dataclasses.replace(plan, rows=tuple(kinds), batch=batch)


def check_loss(plan: Plan, loss: int) -> None:
    if plan.rows and isinstance(plan.rows[plan.slot(loss)], Rows):
        raise DeviceError(
            f"train.loss: register {loss} is split by rows; a split run's loss must be a mean "
            f"over them (cross_entropy, or mean over the split dim)"
        )


def local(plan: Plan, world: int) -> Plan:
    """The plan a rank runs on its ``plan.batch // world`` rows: literal sizes along split dims (a
    reshape's shape) scaled to its slice."""
    rows = plan.batch // world
    steps = []
    for step in plan.steps:
        kind = plan.rows[step.out]
        if step.op == "reshape" and isinstance(kind, Rows):
            payload = step.payload
            assert isinstance(payload, dict), "reshape's payload is a record"
            shape = list(payload["shape"])
            shape[kind.dim] = kind.per_row * rows
            step = dataclasses.replace(step, payload={**payload, "shape": shape})
        steps.append(step)
    return dataclasses.replace(plan, steps=tuple(steps))


# --- the built-in ops' row rules ----------------------------------------------------------------
def _opt(v):
    return v.value if isinstance(v, Some) else v


def _keep(p, c: RowCheck) -> Kind:  # linear in its one operand: rows and means pass through
    return c.kinds[0]


def _pointwise(p, c: RowCheck) -> Kind:  # elementwise but not linear
    return c.only(c.kinds[0])


def _not_last(p, c: RowCheck) -> Kind:  # normalises or softmaxes over the last dim
    k = c.only(c.kinds[0])
    if k.dim == len(c.metas[0].shape) - 1:
        raise c.fail("it works along the split dim")
    return k


def _narrow(p, c: RowCheck) -> Kind:
    k = c.kinds[0]
    if isinstance(k, Rows) and k.dim == p["dim"]:
        raise c.fail(f"it narrows dim {k.dim}, the split rows")
    return k


def _reshape(p, c: RowCheck) -> Kind:
    k, x, out = c.kinds[0], c.metas[0], c.out
    if not isinstance(k, Rows):
        return k
    d = k.dim
    if len(out.shape) > d and out.shape[:d] == x.shape[:d] and out.shape[d] % c.batch == 0:
        return Rows(d, out.shape[d] // c.batch)
    raise c.fail(f"x is {x} with its rows in dim {d}; {out} keeps no dim whose entries are whole rows")


def _transpose(p, c: RowCheck) -> Kind:
    k = c.kinds[0]
    if isinstance(k, Rows) and k.dim in (p["a"], p["b"]):
        return Rows(p["b"] if k.dim == p["a"] else p["a"], k.per_row)
    return k


def _concat(p, c: RowCheck) -> Kind:
    if all(k in (MEAN, None) for k in c.kinds):
        return MEAN
    if any(k is None for k in c.kinds):
        raise c.fail("it joins split and unsplit tensors")
    k = c.only(c.kinds[0])
    if k.dim == p["dim"]:
        raise c.fail("it joins along the split rows")
    return k


def _embedding(p, c: RowCheck) -> Kind:
    if c.kinds[0] is not None:
        raise c.fail("its table depends on the split rows")
    return c.kinds[1]


def _linear(p, c: RowCheck) -> Kind:
    k = c.kinds[0]
    if any(w is not None for w in c.kinds[1:]):
        raise c.fail("its weight or bias depends on the split rows")
    if isinstance(k, Rows) and k.dim == len(c.metas[0].shape) - 1:
        raise c.fail("it sums over the split rows")
    return k


def _broadcast_dims(c: RowCheck, dims: list[int | None], matrix_dims: int = 0) -> Kind:
    """``dims``: the output dim each operand's rows land in (None: unsplit, or summed away). Every split
    operand must land its rows in the same output dim, and every unsplit one must broadcast along it
    (unless it is one of the last ``matrix_dims``, which a matrix product does not broadcast)."""
    n = len(c.out.shape)
    split = c.split
    target = None
    for k, d in zip(c.kinds, dims):
        if isinstance(k, Rows):
            if d is None:
                raise c.fail("it sums over the split rows")
            if target not in (None, d) or k.per_row != split[0].per_row:
                raise c.fail("its operands are split along different dims")
            target = d
    assert target is not None, "a rule runs where an operand is split (a mean: _means)"
    for k, meta in zip(c.kinds, c.metas):
        if k is None and target < n - matrix_dims:
            j = target - (n - len(meta.shape))
            if 0 <= j < len(meta.shape) and meta.shape[j] != 1:
                raise c.fail(f"an unsplit operand, {meta}, lines up with the split rows")
    return Rows(target, split[0].per_row)


def _means(c: RowCheck, linear_in_all: bool) -> Kind:
    if any(isinstance(k, Rows) for k in c.kinds):
        raise c.fail("it combines split rows with a mean over them")
    if not linear_in_all and sum(k == MEAN for k in c.kinds) > 1:
        raise c.fail("it multiplies means over the split rows")
    return MEAN


def _elementwise(linear_in_all: bool):
    def rule(p, c: RowCheck) -> Kind:
        if MEAN in c.kinds:
            return _means(c, linear_in_all)
        n = len(c.out.shape)
        return _broadcast_dims(
            c, [n - len(m.shape) + k.dim if isinstance(k, Rows) else None for k, m in zip(c.kinds, c.metas)]
        )

    return rule


def _matmul(p, c: RowCheck) -> Kind:
    if MEAN in c.kinds:
        return _means(c, False)
    n = len(c.out.shape)
    (ka, kb), (a, b) = c.kinds, c.metas
    dims = []
    for k, m, contracted in ((ka, a, len(a.shape) - 1), (kb, b, len(b.shape) - 2)):
        dims.append(None if not isinstance(k, Rows) or k.dim == contracted else n - len(m.shape) + k.dim)
    if isinstance(ka, Rows) and isinstance(kb, Rows) and dims[0] != dims[1]:
        raise c.fail("its operands are split along different dims")
    return _broadcast_dims(c, dims, matrix_dims=2)


def _attention(p, c: RowCheck) -> Kind:
    k = c.only(c.kinds[0])
    if any(kind != k for kind in c.kinds) or k.dim not in (0, 1):
        raise c.fail("q, k and v must all be split along the batch or the heads dim")
    return k


def _reduce(mean: bool):
    def rule(p, c: RowCheck) -> Kind:
        k, dim = c.kinds[0], _opt(p.get("dim"))
        if k == MEAN:
            return MEAN
        assert isinstance(k, Rows), "a rule runs where its operand is split"
        if dim is None or dim == k.dim:
            if not mean:
                raise c.fail("it sums over the split rows (use mean: the ranks average their gradients)")
            return MEAN
        return Rows(k.dim - (dim < k.dim), k.per_row)

    return rule


def _cross_entropy(p, c: RowCheck) -> Kind:
    logits, targets = c.kinds
    if not (isinstance(logits, Rows) and logits == targets and logits.dim == 0):
        raise c.fail("logits and targets must both be split along their first dim")
    return MEAN


def _rope(p, c: RowCheck) -> Kind:
    k = c.kinds[0]
    if isinstance(k, Rows) and k.dim >= 2:
        raise c.fail("its positions run along the split rows")
    return k


RULES: dict[str, Callable] = {
    "input": _keep,
    "param": _keep,
    "shared": _keep,
    "load": _keep,
    "store": _keep,
    "scale": _keep,
    "narrow": _narrow,
    "reshape": _reshape,
    "transpose": _transpose,
    "concat": _concat,
    "embedding": _embedding,
    "linear": _linear,
    "matmul": _matmul,
    "rms_norm": _not_last,
    "layer_norm": _not_last,
    "softmax": _not_last,
    "rope": _rope,
    "rope_from": _rope,
    "causal_attention": _attention,
    "attention": _attention,
    "add": _elementwise(True),
    "mul": _elementwise(False),
    "relu": _pointwise,
    "gelu": _pointwise,
    "silu": _pointwise,
    "sum": _reduce(False),
    "mean": _reduce(True),
    "cross_entropy": _cross_entropy,
}
