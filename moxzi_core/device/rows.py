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
The built-in ops' row rules are in ``builtin.py``, beside their shape rules.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

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
