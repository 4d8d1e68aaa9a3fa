"""The built-in ops' torch kernels: ``kernel(payload, *operands)``, operands in the order the op's
shape rule read them (``moxzi_core/device/builtin.py``). Shapes are checked before a kernel runs.
Every one is declared ``capturable``: a cached plan's static form (``static.py``) may run it."""

from __future__ import annotations

from collections.abc import Callable

import torch
import torch.nn.functional as F

from moxzi_core.candid import Some
from moxzi_core.device import DeviceError, Step

ROPE_BASE = 10000.0
NORM_EPS = 1e-5


def _opt(v):
    return v.value if isinstance(v, Some) else v


def _identity(p, x):
    return x


_rope_tables: dict[tuple, tuple[torch.Tensor, torch.Tensor]] = {}


def rope(x: torch.Tensor, start: int) -> torch.Tensor:
    """Rotary positions start..start+t-1 on x [b, heads, t, d]: dims i and i + d/2 rotate together by
    position * base^(-2i/d)."""
    t, d = x.shape[-2], x.shape[-1]
    key = (start, t, d, x.device)
    tables = _rope_tables.get(key)
    if tables is None:
        inv_freq = ROPE_BASE ** (-torch.arange(0, d, 2, dtype=torch.float64) / d)  # [d/2]
        angles = torch.arange(start, start + t, dtype=torch.float64)[:, None] * inv_freq  # [t, d/2]
        tables = (angles.cos().to(x.dtype).to(x.device), angles.sin().to(x.dtype).to(x.device))
        if len(_rope_tables) > 256:
            _rope_tables.clear()
        _rope_tables[key] = tables
    cos, sin = tables
    x1, x2 = x[..., : d // 2], x[..., d // 2 :]
    return torch.cat((x1 * cos - x2 * sin, x1 * sin + x2 * cos), dim=-1)


def attention(p, q, k, v):
    """q [b, h, tq, d] over k, v [b, h, tk, _]; causal: query i sits at position tk - tq + i."""
    tq, tk = q.shape[2], k.shape[2]
    if _opt(p.get("causal")) is False:
        return F.scaled_dot_product_attention(q, k, v)
    if tq == tk:
        return F.scaled_dot_product_attention(q, k, v, is_causal=True)
    mask = torch.ones(tq, tk, dtype=torch.bool, device=q.device).tril(diagonal=tk - tq)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=mask)


def _reduce(fn):
    def kernel(p, x):
        dim = _opt(p["dim"])
        return fn(x) if dim is None else fn(x, dim)

    return kernel


KERNELS = {
    "input": _identity,
    "param": _identity,
    "shared": _identity,
    "load": _identity,
    "store": _identity,
    "narrow": lambda p, x: x.narrow(p["dim"], p["start"], p["len"]),
    "reshape": lambda p, x: x.reshape(p["shape"]),
    "transpose": lambda p, x: x.transpose(p["a"], p["b"]),
    "concat": lambda p, *xs: torch.cat(xs, p["dim"]),
    "embedding": lambda p, table, ids: F.embedding(ids, table),
    "linear": lambda p, x, w, b=None: F.linear(x, w, b),
    "matmul": lambda p, a, b: torch.matmul(a, b),
    "rms_norm": lambda p, x: F.rms_norm(x, (x.shape[-1],), eps=NORM_EPS),
    "layer_norm": lambda p, x: F.layer_norm(x, (x.shape[-1],), eps=NORM_EPS),
    "rope": lambda p, x: rope(x, 0),
    "rope_from": lambda p, x: rope(x, p["start"]),
    "causal_attention": lambda p, q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=True),
    "attention": attention,
    "add": lambda p, a, b: a + b,
    "mul": lambda p, a, b: a * b,
    "scale": lambda p, x: x * p["by"],
    "relu": lambda p, x: F.relu(x),
    "gelu": lambda p, x: F.gelu(x),
    "silu": lambda p, x: F.silu(x),
    "softmax": lambda p, x: torch.softmax(x, dim=-1),
    "sum": _reduce(torch.sum),
    "mean": _reduce(torch.mean),
    "cross_entropy": lambda p, logits, targets: F.cross_entropy(logits, targets),
}


_CAPTURABLE: set[Callable] = set()


def capturable(kernel: Callable) -> Callable:
    """Declare a torch kernel fit for a cached plan's static form and its CUDA graph (``static.py``):
    it reads no value back to the host and chooses nothing by one, its result's shape follows from its
    payload and its operands' shapes, and a tensor it keeps between calls it keeps for good (or lists
    in ``held_tensors``). Returns the kernel. A kernel not declared keeps its plans uncaptured."""
    _CAPTURABLE.add(kernel)
    return kernel


def is_capturable(kernel: Callable) -> bool:
    return kernel in _CAPTURABLE


def held_tensors() -> list[torch.Tensor]:
    """The tensors kernels keep between calls (rope's tables): a captured graph reads them where they
    are, so it keeps them from being freed when the table cache is cleared."""
    return [t for tables in _rope_tables.values() for t in tables]


def call(step: Step, values: list):
    """Run one step of a plan on ``values``; an error names the op."""
    try:
        return step.kernel(step.payload, *[values[s] for s in step.slots])
    except Exception as error:
        raise DeviceError(f"op {step.index} ({step.op}): {error}") from None


for _kernel in KERNELS.values():
    capturable(_kernel)
