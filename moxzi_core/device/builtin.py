"""The built-in ops: their shape rules, row rules and costs, and ``BUILTIN``, the one table that gives
each op its three; their payload types come from ``interface.did``.

A backend plugin registers them with its kernels: ``register(builtin_op("linear", {"torch": fn}))``
(``moxzi_core.device.builtin_op``). Each shape rule reads operands in the order the kernel takes them
(see ``ops.Check``); each row rule sees them in that order too (see ``rows.py``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, NamedTuple

from .interface import builtin_payloads
from .ops import FLOAT, Check, Meta, Op, broadcast, ordinal, unwrap
from .rows import MEAN, Kind, RowCheck, Rows


# --- sources and side effects ---------------------------------------------------------------
def _input(p, c: Check) -> Meta:
    return c.source("input", p)


def _param(p, c: Check) -> Meta:
    return c.source("param", p)


def _shared(p, c: Check) -> Meta:
    return c.source("shared", (p["owner"].bytes, p["name"]))


def _load(p, c: Check) -> Meta:
    return c.source("load", p)


def _store(p, c: Check) -> Meta:
    x = c.reg(p["x"])
    c.store(p["name"])
    return x


# --- moving data around ---------------------------------------------------------------------
def _narrow(p, c: Check) -> Meta:
    x = c.reg(p["x"])
    d = c.dim("x", x, p["dim"])
    if p["start"] + p["len"] > x.shape[d]:
        raise c.fail(f"x is {x}: start {p['start']} + len {p['len']} is past the end of dim {d} ({x.shape[d]})")
    return Meta(x.shape[:d] + (p["len"],) + x.shape[d + 1 :], x.dtype)


def _reshape(p, c: Check) -> Meta:
    x = c.reg(p["x"])
    shape = tuple(p["shape"])
    if math.prod(shape) != x.numel:
        raise c.fail(
            f"x is {x} ({x.numel} elements) but the shape [{', '.join(map(str, shape))}] has {math.prod(shape)}"
        )
    return Meta(shape, x.dtype)


def _transpose(p, c: Check) -> Meta:
    x = c.reg(p["x"])
    a, b = c.dim("x", x, p["a"]), c.dim("x", x, p["b"])
    shape = list(x.shape)
    shape[a], shape[b] = shape[b], shape[a]
    return Meta(tuple(shape), x.dtype)


def _concat(p, c: Check) -> Meta:
    if not p["xs"]:
        raise c.fail("xs is empty; expected at least one register")
    metas = [c.reg(r, f"xs[{i}]") for i, r in enumerate(p["xs"])]
    first = metas[0]
    d = c.dim("xs[0]", first, p["dim"])
    for i, m in enumerate(metas[1:], 1):
        same = len(m.shape) == len(first.shape) and all(
            a == b for j, (a, b) in enumerate(zip(m.shape, first.shape)) if j != d
        )
        if not same or m.dtype != first.dtype:
            raise c.fail(f"xs[0] is {first} but xs[{i}] is {m}: expected the same type and dims but dim {d}")
    return Meta(first.shape[:d] + (sum(m.shape[d] for m in metas),) + first.shape[d + 1 :], first.dtype)


# --- layers -------------------------------------------------------------------------------------
def _embedding(p, c: Check) -> Meta:
    table = c.rank("table", c.float("table", c.reg(p["table"], "table")), 2)
    ids = c.int("ids", c.reg(p["ids"], "ids"))
    return Meta(ids.shape + table.shape[1:])


def _linear(p, c: Check) -> Meta:
    x = c.rank("x", c.float("x", c.reg(p["x"], "x")), at_least=1)
    w = c.rank("w", c.float("w", c.reg(p["w"], "w")), 2)
    if w.shape[1] != x.shape[-1]:
        raise c.fail(f"x is {x} but w is {w}: expected w's second dim to be {x.shape[-1]}")
    b = unwrap(p.get("b"))
    if b is not None:
        bm = c.float("b", c.reg(b, "b"))
        if bm.shape != (w.shape[0],):
            raise c.fail(f"w is {w} but b is {bm}: expected b to be [{w.shape[0]}]")
    return Meta(x.shape[:-1] + (w.shape[0],))


def _matmul(p, c: Check) -> Meta:
    a = c.rank("a", c.float("a", c.reg(p["a"], "a")), at_least=2)
    b = c.rank("b", c.float("b", c.reg(p["b"], "b")), at_least=2)
    if a.shape[-1] != b.shape[-2]:
        raise c.fail(f"a is {a} but b is {b}: expected b's {ordinal(len(b.shape) - 2)} dim to be {a.shape[-1]}")
    batch = broadcast(c, Meta(a.shape[:-2]), Meta(b.shape[:-2]))
    return Meta(batch + (a.shape[-2], b.shape[-1]))


def _last_dim(p, c: Check) -> Meta:
    return c.rank("x", c.float("x", c.reg(p)), at_least=1)


def _rope_shape(c: Check, x: Meta) -> Meta:
    c.rank("x", c.float("x", x), 4)
    if x.shape[3] % 2:
        raise c.fail(f"x is {x}: expected [batch, heads, time, head size] with an even head size")
    return x


def _rope(p, c: Check) -> Meta:
    return _rope_shape(c, c.reg(p))


def _rope_from(p, c: Check) -> Meta:
    return _rope_shape(c, c.reg(p["x"]))


def _qkv(p, c: Check) -> tuple[Meta, Meta, Meta]:
    q, k, v = (c.rank(n, c.float(n, c.reg(p[n], n)), 4) for n in ("q", "k", "v"))
    if k.shape[:2] != q.shape[:2] or k.shape[3] != q.shape[3]:
        raise c.fail(f"q is {q} but k is {k}: expected k to be [{q.shape[0]}, {q.shape[1]}, _, {q.shape[3]}]")
    if v.shape[:3] != k.shape[:3]:
        raise c.fail(f"k is {k} but v is {v}: expected v to be [{', '.join(map(str, k.shape[:3]))}, _]")
    return q, k, v


def _causal_attention(p, c: Check) -> Meta:
    q, k, v = _qkv(p, c)
    if k.shape[2] != q.shape[2]:
        raise c.fail(f"q is {q} but k is {k}: expected the same time dim (for a cache, use attention)")
    return Meta(q.shape[:3] + (v.shape[3],))


def _attention(p, c: Check) -> Meta:
    q, k, v = _qkv(p, c)
    if unwrap(p.get("causal")) is not False and q.shape[2] > k.shape[2]:
        raise c.fail(f"q is {q} but k is {k}: a causal attention needs no more queries than keys")
    return Meta(q.shape[:3] + (v.shape[3],))


# --- elementwise, reductions, loss ------------------------------------------------------------
def _binary(p, c: Check) -> Meta:
    a = c.float("a", c.reg(p["a"], "a"))
    b = c.float("b", c.reg(p["b"], "b"))
    return Meta(broadcast(c, a, b))


def _scale(p, c: Check) -> Meta:
    return c.float("x", c.reg(p["x"]))


def _unary(p, c: Check) -> Meta:
    return c.float("x", c.reg(p))


def _reduce(p, c: Check) -> Meta:
    x = c.float("x", c.reg(p["x"]))
    dim = unwrap(p.get("dim"))
    if dim is None:
        return Meta(())
    d = c.dim("x", x, dim)
    return Meta(x.shape[:d] + x.shape[d + 1 :])


def _cross_entropy(p, c: Check) -> Meta:
    logits = c.rank("logits", c.float("logits", c.reg(p["logits"], "logits")), 2)
    targets = c.rank("targets", c.int("targets", c.reg(p["targets"], "targets")), 1)
    if targets.shape[0] != logits.shape[0]:
        raise c.fail(f"logits is {logits} but targets is {targets}: expected targets to be [{logits.shape[0]}]")
    return Meta((), FLOAT)


# --- costs (Op.cost): ops that contract a dimension do that many multiply-adds per element of their
# result; every other built-in op touches each element of its operands and result about once.
def _contracting(out: Meta, operands: list[Meta]) -> int:  # linear, matmul
    return out.numel * operands[0].shape[-1]


def _attending(out: Meta, operands: list[Meta]) -> int:  # q @ k^T, then the weights @ v
    return (operands[0].numel + out.numel) * operands[1].shape[2]


# --- row rules (rows.py): how each op's result is split when its operands are ------------------
def _keep(p, c: RowCheck) -> Kind:  # linear in its one operand: rows and means pass through
    return c.kinds[0]


def _pointwise(p, c: RowCheck) -> Kind:  # elementwise but not linear
    return c.only(c.kinds[0])


def _not_last(p, c: RowCheck) -> Kind:  # normalises or softmaxes over the last dim
    k = c.only(c.kinds[0])
    if k.dim == len(c.metas[0].shape) - 1:
        raise c.fail("it works along the split dim")
    return k


def _narrow_rows(p, c: RowCheck) -> Kind:
    k = c.kinds[0]
    if isinstance(k, Rows) and k.dim == p["dim"]:
        raise c.fail(f"it narrows dim {k.dim}, the split rows")
    return k


def _reshape_rows(p, c: RowCheck) -> Kind:
    k, x, out = c.kinds[0], c.metas[0], c.out
    if not isinstance(k, Rows):
        return k
    d = k.dim
    if len(out.shape) > d and out.shape[:d] == x.shape[:d] and out.shape[d] % c.batch == 0:
        return Rows(d, out.shape[d] // c.batch)
    raise c.fail(f"x is {x} with its rows in dim {d}; {out} keeps no dim whose entries are whole rows")


def _transpose_rows(p, c: RowCheck) -> Kind:
    k = c.kinds[0]
    if isinstance(k, Rows) and k.dim in (p["a"], p["b"]):
        return Rows(p["b"] if k.dim == p["a"] else p["a"], k.per_row)
    return k


def _concat_rows(p, c: RowCheck) -> Kind:
    if all(k in (MEAN, None) for k in c.kinds):
        return MEAN
    if any(k is None for k in c.kinds):
        raise c.fail("it joins split and unsplit tensors")
    k = c.only(c.kinds[0])
    if k.dim == p["dim"]:
        raise c.fail("it joins along the split rows")
    return k


def _embedding_rows(p, c: RowCheck) -> Kind:
    if c.kinds[0] is not None:
        raise c.fail("its table depends on the split rows")
    return c.kinds[1]


def _linear_rows(p, c: RowCheck) -> Kind:
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


def _matmul_rows(p, c: RowCheck) -> Kind:
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


def _attention_rows(p, c: RowCheck) -> Kind:
    k = c.only(c.kinds[0])
    if any(kind != k for kind in c.kinds) or k.dim not in (0, 1):
        raise c.fail("q, k and v must all be split along the batch or the heads dim")
    return k


def _reduce_rows(mean: bool):
    def rule(p, c: RowCheck) -> Kind:
        k, dim = c.kinds[0], unwrap(p.get("dim"))
        if k == MEAN:
            return MEAN
        assert isinstance(k, Rows), "a rule runs where its operand is split"
        if dim is None or dim == k.dim:
            if not mean:
                raise c.fail("it sums over the split rows (use mean: the ranks average their gradients)")
            return MEAN
        return Rows(k.dim - (dim < k.dim), k.per_row)

    return rule


def _cross_entropy_rows(p, c: RowCheck) -> Kind:
    logits, targets = c.kinds
    if not (isinstance(logits, Rows) and logits == targets and logits.dim == 0):
        raise c.fail("logits and targets must both be split along their first dim")
    return MEAN


def _rope_rows(p, c: RowCheck) -> Kind:
    k = c.kinds[0]
    if isinstance(k, Rows) and k.dim >= 2:
        raise c.fail("its positions run along the split rows")
    return k


class Rules(NamedTuple):
    """A built-in op's rules: its shape rule (``Op.rule``), row rule (``Op.rows``) and cost (``Op.cost``)."""

    shape: Callable[[Any, Check], Meta]
    rows: Callable[[Any, RowCheck], Kind]
    cost: Callable[[Meta, list[Meta]], int] | None = None


BUILTIN: dict[str, Rules] = {
    "input": Rules(_input, _keep),
    "param": Rules(_param, _keep),
    "shared": Rules(_shared, _keep),
    "load": Rules(_load, _keep),
    "store": Rules(_store, _keep),
    "narrow": Rules(_narrow, _narrow_rows),
    "reshape": Rules(_reshape, _reshape_rows),
    "transpose": Rules(_transpose, _transpose_rows),
    "concat": Rules(_concat, _concat_rows),
    "embedding": Rules(_embedding, _embedding_rows),
    "linear": Rules(_linear, _linear_rows, _contracting),
    "matmul": Rules(_matmul, _matmul_rows, _contracting),
    "rms_norm": Rules(_last_dim, _not_last),
    "layer_norm": Rules(_last_dim, _not_last),
    "rope": Rules(_rope, _rope_rows),
    "rope_from": Rules(_rope_from, _rope_rows),
    "causal_attention": Rules(_causal_attention, _attention_rows, _attending),
    "attention": Rules(_attention, _attention_rows, _attending),
    "add": Rules(_binary, _elementwise(True)),
    "mul": Rules(_binary, _elementwise(False)),
    "scale": Rules(_scale, _keep),
    "relu": Rules(_unary, _pointwise),
    "gelu": Rules(_unary, _pointwise),
    "silu": Rules(_unary, _pointwise),
    "softmax": Rules(_last_dim, _not_last),
    "sum": Rules(_reduce, _reduce_rows(False)),
    "mean": Rules(_reduce, _reduce_rows(True)),
    "cross_entropy": Rules(_cross_entropy, _cross_entropy_rows),
}


def op(name: str, kernels: dict) -> Op:
    """The built-in op ``name`` with ``kernels`` (backend family -> kernel)."""
    rules = BUILTIN[name]
    return Op(name, builtin_payloads()[name], rules.shape, kernels, rules.rows, rules.cost)
