"""The built-in ops' shape rules; their payload types come from ``interface.did``.

A backend plugin registers them with its kernels: ``register(builtin.op("linear", {"torch": fn}))``.
Each rule reads operands in the order the kernel takes them (see ``ops.Check``).
"""

from __future__ import annotations

import math
from collections.abc import Callable

from ..candid import Some
from . import rows
from .interface import builtin_payloads
from .ops import FLOAT, Check, Meta, Op, broadcast, ordinal


def _opt(v):
    return None if v is None else v.value if isinstance(v, Some) else v


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
    b = _opt(p.get("b"))
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
    if _opt(p.get("causal")) is not False and q.shape[2] > k.shape[2]:
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
    dim = _opt(p.get("dim"))
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


RULES = {
    "input": _input,
    "param": _param,
    "shared": _shared,
    "load": _load,
    "store": _store,
    "narrow": _narrow,
    "reshape": _reshape,
    "transpose": _transpose,
    "concat": _concat,
    "embedding": _embedding,
    "linear": _linear,
    "matmul": _matmul,
    "rms_norm": _last_dim,
    "layer_norm": _last_dim,
    "rope": _rope,
    "rope_from": _rope_from,
    "causal_attention": _causal_attention,
    "attention": _attention,
    "add": _binary,
    "mul": _binary,
    "scale": _scale,
    "relu": _unary,
    "gelu": _unary,
    "silu": _unary,
    "softmax": _last_dim,
    "sum": _reduce,
    "mean": _reduce,
    "cross_entropy": _cross_entropy,
}

# Ops that contract a dimension do that many multiply-adds per element of their result (Op.cost);
# every other built-in op touches each element of its operands and result about once.
COSTS: dict[str, Callable[[Meta, list[Meta]], int]] = {
    "linear": lambda out, operands: out.numel * operands[0].shape[-1],
    "matmul": lambda out, operands: out.numel * operands[0].shape[-1],
    # q @ k^T, then the weights @ v: (query elements + result elements) x keys
    "attention": lambda out, operands: (operands[0].numel + out.numel) * operands[1].shape[2],
    "causal_attention": lambda out, operands: (operands[0].numel + out.numel) * operands[1].shape[2],
}


def op(name: str, kernels: dict) -> Op:
    """The built-in op ``name`` with ``kernels`` (backend family -> kernel)."""
    return Op(name, builtin_payloads()[name], RULES[name], kernels, rows.RULES[name], COSTS.get(name))
