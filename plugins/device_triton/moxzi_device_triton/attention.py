"""Flash attention (FlashAttention-2 style) forward and backward in Triton, as an autograd Function.

``flash_attention(q, k, v, causal)`` attends ``q [b, h, tq, d]`` to ``k, v [b, h, tk, d]`` with scale
``1/sqrt(d)``; causal, query ``i`` sits at position ``tk - tq + i`` and sees keys ``0..tk - tq + i``
(the device's ``attention`` op: ``tq == tk`` is ``causal_attention``, ``tq < tk`` a key/value cache).

Forward: one program per (block of queries, batch x head) keeps its queries' running max and sum of
``exp`` (the online softmax) and never holds more than a [BLOCK_M, BLOCK_N] tile of scores; it writes
the output and, per query, the log-sum-exp (base 2), which is all the backward needs. Key blocks that
every query of the block may see run without a mask; only those on the causal diagonal or past the
end of the keys are masked. Backward: ``delta = rowsum(dO * O)``, then one kernel in two passes: one
program per key block accumulates dK and dV over the query blocks that see it, then one per query block
accumulates dQ, so no atomics are needed. Every score tile is recomputed from q, k and the saved
log-sum-exp. The kernels share small ``@triton.jit`` helpers (tile pointers, bounds, loads), which
Triton inlines.

Any lengths (tiles past the end are masked), head sizes up to 128 (a compile-time constant, padded to
a power of two >= 16 with masked loads), float32, float16 and bfloat16; float32 matmuls run in full
precision (no TF32), the halves in their own precision with float32 accumulation. In Triton's
interpreter, loads are upcast to float32 at once (its bfloat16 arithmetic is wrong). Anything else
(other dtypes, head sizes over 128, v's head size not q's) goes to the torch kernel.
"""

from __future__ import annotations

import math

import torch
import triton
import triton.language as tl

from .mode import INTERPRETING

LOG2E = 1.4426950408889634
DTYPES = (torch.float32, torch.float16, torch.bfloat16)
MAX_HEAD = 128


@triton.jit
def _head(n_heads):
    """This program's (batch x head) index ``bh`` and its batch ``b`` and head ``h``."""
    bh = tl.program_id(1)
    return bh, bh // n_heads, bh % n_heads


@triton.jit
def _ptrs(base, strides, b, h, rows, offs_d, TRANSPOSED: tl.constexpr):
    """Pointers to ``rows`` of head (b, h) of a [b, h, n, d] tensor with ``strides``: a [rows, D] tile,
    or [D, rows] if TRANSPOSED."""
    head = base + b * strides[0] + h * strides[1]
    if TRANSPOSED:
        ptrs = head + rows[None, :] * strides[2] + offs_d[:, None] * strides[3]
    else:
        ptrs = head + rows[:, None] * strides[2] + offs_d[None, :] * strides[3]
    return ptrs


@triton.jit
def _inside(rows, n_rows, offs_d, head_dim, TRANSPOSED: tl.constexpr):
    """Which elements of a [rows, D] tile (or [D, rows] if TRANSPOSED) lie in an [n_rows, head_dim] matrix."""
    if TRANSPOSED:
        inside = (rows[None, :] < n_rows) & (offs_d[:, None] < head_dim)
    else:
        inside = (rows[:, None] < n_rows) & (offs_d[None, :] < head_dim)
    return inside


@triton.jit
def _load(ptrs, mask, UPCAST: tl.constexpr):
    """A tile, 0 where ``mask`` is false; in float32 if UPCAST (the interpreter's bfloat16 arithmetic is wrong)."""
    tile = tl.load(ptrs, mask=mask, other=0.0)
    if UPCAST:
        tile = tile.to(tl.float32)
    return tile


@triton.jit
def _key_blocks(start_m, shift, n_keys, CAUSAL: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    """For the query block at ``start_m``: the key blocks before ``unmasked_end`` need no mask (every query
    of the block sees all their keys); those from there to ``end`` do (the causal diagonal, the keys' end)."""
    if CAUSAL:
        seen_by_all = tl.minimum(start_m + shift + 1, n_keys)
        end = tl.minimum(start_m + BLOCK_M + shift, n_keys)
    else:
        seen_by_all = n_keys
        end = n_keys
    return seen_by_all // BLOCK_N * BLOCK_N, end


@triton.jit
def _visible(rows, cols, n_keys, shift, CAUSAL: tl.constexpr):
    """[rows, cols]: key ``cols`` exists and (causal) query ``rows``, at key position row + shift, sees it."""
    keep = cols[None, :] < n_keys
    if CAUSAL:
        keep = keep & (cols[None, :] <= rows[:, None] + shift)
    return keep


@triton.jit
def _fwd_kernel(
    Q,
    K,
    V,
    O,
    LSE,
    qk_scale,
    n_queries,
    n_keys,
    HEAD_DIM: tl.constexpr,
    n_heads,
    s_q,
    s_k,
    s_v,
    s_o,
    CAUSAL: tl.constexpr,
    UPCAST: tl.constexpr,
    PRECISION: tl.constexpr,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_D: tl.constexpr,
):
    start_m = tl.program_id(0) * BLOCK_M
    bh, b, h = _head(n_heads)
    offs_m = start_m + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, BLOCK_D)
    shift = n_keys - n_queries  # query i sits at key position i + shift
    q_mask = _inside(offs_m, n_queries, offs_d, HEAD_DIM, False)
    q = _load(_ptrs(Q, s_q, b, h, offs_m, offs_d, False), q_mask, UPCAST)
    k_ptrs = _ptrs(K, s_k, b, h, offs_n, offs_d, True)
    v_ptrs = _ptrs(V, s_v, b, h, offs_n, offs_d, False)

    acc = tl.zeros([BLOCK_M, BLOCK_D], dtype=tl.float32)
    m_i = tl.full([BLOCK_M], -1.0e30, dtype=tl.float32)  # finite: rows past the end see no key at all
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    unmasked_end, end = _key_blocks(start_m, shift, n_keys, CAUSAL, BLOCK_M, BLOCK_N)
    # The unmasked key blocks, then the masked ones: ``masked`` is a compile-time constant (static_range
    # unrolls), so these are two loops, the first compiled without the mask.
    for masked in tl.static_range(2):
        if masked:
            lo, hi = unmasked_end, end
        else:
            lo, hi = 0, unmasked_end
        for start_n in range(lo, hi, BLOCK_N):  # one key block's share of the running (acc, max, sum)
            cols = start_n + offs_n
            k = _load(k_ptrs + start_n * s_k[2], _inside(cols, n_keys, offs_d, HEAD_DIM, True), UPCAST)  # [D, BLOCK_N]
            v = _load(v_ptrs + start_n * s_v[2], _inside(cols, n_keys, offs_d, HEAD_DIM, False), UPCAST)  # [BLOCK_N, D]
            qk = tl.dot(q, k, input_precision=PRECISION) * qk_scale  # [BLOCK_M, BLOCK_N], log2 units
            if masked:
                qk = tl.where(_visible(offs_m, cols, n_keys, shift, CAUSAL), qk, float("-inf"))
            m_new = tl.maximum(m_i, tl.max(qk, 1))
            p = tl.math.exp2(qk - m_new[:, None])
            alpha = tl.math.exp2(m_i - m_new)
            l_i = l_i * alpha + tl.sum(p, 1)
            acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v, input_precision=PRECISION)
            m_i = m_new

    l_i = tl.where(l_i == 0.0, 1.0, l_i)  # only rows past the end, which are not stored
    out = acc / l_i[:, None]
    tl.store(LSE + bh * n_queries + offs_m, m_i + tl.math.log2(l_i), mask=offs_m < n_queries)
    tl.store(_ptrs(O, s_o, b, h, offs_m, offs_d, False), out.to(O.dtype.element_ty), mask=q_mask)


@triton.jit
def _delta_kernel(
    O,
    DO,
    DELTA,
    n_queries,
    HEAD_DIM: tl.constexpr,
    n_heads,
    s_o,
    s_do,
    BLOCK_M: tl.constexpr,
    BLOCK_D: tl.constexpr,
):
    """delta[i] = sum_d dO[i, d] * O[i, d]: the softmax backward's row term."""
    offs_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    bh, b, h = _head(n_heads)
    offs_d = tl.arange(0, BLOCK_D)
    mask = _inside(offs_m, n_queries, offs_d, HEAD_DIM, False)
    o = tl.load(_ptrs(O, s_o, b, h, offs_m, offs_d, False), mask=mask, other=0.0)
    do = tl.load(_ptrs(DO, s_do, b, h, offs_m, offs_d, False), mask=mask, other=0.0)
    tl.store(DELTA + bh * n_queries + offs_m, tl.sum(o.to(tl.float32) * do.to(tl.float32), 1), mask=offs_m < n_queries)


@triton.jit
def _bwd_kernel(
    Q,
    K,
    V,
    DO,
    DQ,
    DK,
    DV,
    LSE,
    DELTA,
    qk_scale,
    sm_scale,
    n_queries,
    n_keys,
    HEAD_DIM: tl.constexpr,
    n_heads,
    s_q,
    s_k,
    s_v,
    s_do,
    KEYS: tl.constexpr,
    CAUSAL: tl.constexpr,
    UPCAST: tl.constexpr,
    PRECISION: tl.constexpr,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_D: tl.constexpr,
):
    """One of the backward's two passes, chosen at compile time. KEYS: program (key block, b x h)
    accumulates its keys' dK and dV over the query blocks that see them; else program (query block, b x h)
    accumulates its queries' dQ over the key blocks they see. DQ, DK and DV are contiguous."""
    bh, b, h = _head(n_heads)
    offs_d = tl.arange(0, BLOCK_D)
    shift = n_keys - n_queries
    if KEYS:
        start_n = tl.program_id(0) * BLOCK_N
        offs_n = start_n + tl.arange(0, BLOCK_N)
        offs_m = tl.arange(0, BLOCK_M)
        kv_mask = _inside(offs_n, n_keys, offs_d, HEAD_DIM, False)
        k = _load(_ptrs(K, s_k, b, h, offs_n, offs_d, False), kv_mask, UPCAST)
        v = _load(_ptrs(V, s_v, b, h, offs_n, offs_d, False), kv_mask, UPCAST)
        q_ptrs = _ptrs(Q, s_q, b, h, offs_m, offs_d, True)
        do_ptrs = _ptrs(DO, s_do, b, h, offs_m, offs_d, False)
        lse_ptr = LSE + bh * n_queries
        delta_ptr = DELTA + bh * n_queries
        dk = tl.zeros([BLOCK_N, BLOCK_D], dtype=tl.float32)
        dv = tl.zeros([BLOCK_N, BLOCK_D], dtype=tl.float32)
        if CAUSAL:  # queries before start_n - shift see none of these keys; from sees_all on, all of them
            first = tl.maximum(start_n - shift, 0) // BLOCK_M * BLOCK_M
            sees_all = tl.minimum(tl.cdiv(tl.maximum(start_n + BLOCK_N - 1 - shift, 0), BLOCK_M) * BLOCK_M, n_queries)
        else:
            first = 0
            sees_all = 0
        for unmasked in tl.static_range(2):  # the masked query blocks, then the rest: as in _fwd_kernel
            if unmasked:
                lo, hi = tl.maximum(sees_all, first), n_queries
            else:
                lo, hi = first, sees_all
            for start_m in range(lo, hi, BLOCK_M):  # scores transposed: [BLOCK_N, BLOCK_M]
                rows = start_m + offs_m
                in_rows = rows < n_queries
                qT = _load(q_ptrs + start_m * s_q[2], in_rows[None, :] & (offs_d[:, None] < HEAD_DIM), UPCAST)
                do = _load(do_ptrs + start_m * s_do[2], in_rows[:, None] & (offs_d[None, :] < HEAD_DIM), UPCAST)
                lse = tl.load(lse_ptr + rows, mask=in_rows, other=float("inf"))  # rows past the end: p = 0
                delta = tl.load(delta_ptr + rows, mask=in_rows, other=0.0)
                pT = tl.math.exp2(tl.dot(k, qT, input_precision=PRECISION) * qk_scale - lse[None, :])
                if unmasked == 0:
                    pT = tl.where(offs_n[:, None] <= rows[None, :] + shift, pT, 0.0)
                dv += tl.dot(pT.to(do.dtype), do, input_precision=PRECISION)
                dpT = tl.dot(v, tl.trans(do), input_precision=PRECISION)
                dsT = pT * (dpT - delta[None, :])
                dk += tl.dot(dsT.to(qT.dtype), tl.trans(qT), input_precision=PRECISION)
        out = bh * n_keys * HEAD_DIM + offs_n[:, None] * HEAD_DIM + offs_d[None, :]
        tl.store(DK + out, (dk * sm_scale).to(DK.dtype.element_ty), mask=kv_mask)
        tl.store(DV + out, dv.to(DV.dtype.element_ty), mask=kv_mask)
    else:
        start_m = tl.program_id(0) * BLOCK_M
        offs_m = start_m + tl.arange(0, BLOCK_M)
        offs_n = tl.arange(0, BLOCK_N)
        row = offs_m < n_queries
        q_mask = _inside(offs_m, n_queries, offs_d, HEAD_DIM, False)
        q = _load(_ptrs(Q, s_q, b, h, offs_m, offs_d, False), q_mask, UPCAST)
        do = _load(_ptrs(DO, s_do, b, h, offs_m, offs_d, False), q_mask, UPCAST)
        lse = tl.load(LSE + bh * n_queries + offs_m, mask=row, other=float("inf"))
        delta = tl.load(DELTA + bh * n_queries + offs_m, mask=row, other=0.0)
        k_ptrs = _ptrs(K, s_k, b, h, offs_n, offs_d, True)
        v_ptrs = _ptrs(V, s_v, b, h, offs_n, offs_d, True)
        dq = tl.zeros([BLOCK_M, BLOCK_D], dtype=tl.float32)
        unmasked_end, end = _key_blocks(start_m, shift, n_keys, CAUSAL, BLOCK_M, BLOCK_N)
        for masked in tl.static_range(2):  # the unmasked key blocks, then the masked ones: as in _fwd_kernel
            if masked:
                lo, hi = unmasked_end, end
            else:
                lo, hi = 0, unmasked_end
            for start_n in range(lo, hi, BLOCK_N):
                cols = start_n + offs_n
                kv_mask = _inside(cols, n_keys, offs_d, HEAD_DIM, True)
                kT = _load(k_ptrs + start_n * s_k[2], kv_mask, UPCAST)
                vT = _load(v_ptrs + start_n * s_v[2], kv_mask, UPCAST)
                p = tl.math.exp2(tl.dot(q, kT, input_precision=PRECISION) * qk_scale - lse[:, None])
                if masked:
                    p = tl.where(_visible(offs_m, cols, n_keys, shift, CAUSAL), p, 0.0)
                dp = tl.dot(do, vT, input_precision=PRECISION)
                ds = p * (dp - delta[:, None])
                dq += tl.dot(ds.to(kT.dtype), tl.trans(kT), input_precision=PRECISION)
        out = bh * n_queries * HEAD_DIM + offs_m[:, None] * HEAD_DIM + offs_d[None, :]
        tl.store(DQ + out, (dq * sm_scale).to(DQ.dtype.element_ty), mask=q_mask)


def _config(head_dim: int, backward: bool) -> dict:
    """Tile sizes: large in the interpreter (each tile costs Python time), else sized for the GPU's
    shared memory at this head size (the backward holds more tiles: smaller query blocks, fewer stages)."""
    if INTERPRETING:
        return {"BLOCK_M": 64, "BLOCK_N": 64}
    return {
        "BLOCK_M": 64 if backward else 128,
        "BLOCK_N": 64 if head_dim <= 64 else 32,
        "num_warps": 4 if backward or head_dim <= 64 else 8,
        "num_stages": 2 if backward else 3,
        "enable_fp_fusion": True,
    }


def _launch_args(q: torch.Tensor, causal: bool) -> dict:
    d = q.shape[-1]
    return {
        "CAUSAL": causal,
        "UPCAST": INTERPRETING,
        "PRECISION": "ieee" if q.dtype == torch.float32 else "tf32",  # tf32 is ignored for halves
        "BLOCK_D": max(16, triton.next_power_of_2(d)),
    }


def _strides(*tensors: torch.Tensor) -> tuple:
    """Each tensor's strides, one tuple each: how the kernels take a [b, h, n, d] tensor's layout."""
    return tuple(t.stride() for t in tensors)


class FlashAttention(torch.autograd.Function):
    """``flash_attention`` with its backward; see the module's docstring."""

    @staticmethod
    def forward(ctx, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, causal: bool) -> torch.Tensor:
        b, h, tq, d = q.shape
        tk = k.shape[2]
        o = torch.empty_like(q)
        lse = torch.empty((b, h, tq), device=q.device, dtype=torch.float32)
        sm_scale = 1.0 / math.sqrt(d)
        cfg = _config(d, backward=False)
        _fwd_kernel[(triton.cdiv(tq, cfg["BLOCK_M"]), b * h)](
            q, k, v, o, lse, sm_scale * LOG2E, tq, tk, d, h, *_strides(q, k, v, o), **_launch_args(q, causal), **cfg
        )
        ctx.save_for_backward(q, k, v, o, lse)
        ctx.causal = causal
        return o

    @staticmethod
    def backward(ctx, do: torch.Tensor):
        q, k, v, o, lse = ctx.saved_tensors
        if do.stride(-1) != 1:  # e.g. the gradient of a transpose: rows of dO must be contiguous to load fast
            do = do.contiguous()
        b, h, tq, d = q.shape
        tk = k.shape[2]
        sm_scale = 1.0 / math.sqrt(d)
        args = _launch_args(q, ctx.causal)
        delta = torch.empty_like(lse)
        _delta_kernel[(triton.cdiv(tq, 64), b * h)](
            o, do, delta, tq, d, h, *_strides(o, do), BLOCK_M=64, BLOCK_D=args["BLOCK_D"], enable_fp_fusion=True
        )
        dq = torch.empty(q.shape, device=q.device, dtype=q.dtype)
        dk = torch.empty(k.shape, device=k.device, dtype=k.dtype)
        dv = torch.empty(v.shape, device=v.device, dtype=v.dtype)
        cfg = _config(d, backward=True)
        inputs = (q, k, v, do)
        operands = (*inputs, dq, dk, dv, lse, delta, sm_scale * LOG2E, sm_scale, tq, tk, d, h, *_strides(*inputs))
        _bwd_kernel[(triton.cdiv(tk, cfg["BLOCK_N"]), b * h)](*operands, KEYS=True, **args, **cfg)
        _bwd_kernel[(triton.cdiv(tq, cfg["BLOCK_M"]), b * h)](*operands, KEYS=False, **args, **cfg)
        return dq, dk, dv, None


def supports(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> bool:
    """Whether the kernels take these operands (else the caller uses torch's attention)."""
    d = q.shape[-1]
    return (
        q.dim() == k.dim() == v.dim() == 4
        and q.dtype == k.dtype == v.dtype
        and q.dtype in DTYPES
        and k.shape[-1] == v.shape[-1] == d
        and 1 <= d <= MAX_HEAD
        and q.shape[2] > 0
        and k.shape[2] > 0
        and (q.is_cuda or INTERPRETING)
    )


def flash_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, causal: bool = True) -> torch.Tensor:
    """softmax(q k^T / sqrt(d), causal mask aligned to the last key) v, differentiable in q, k, v.
    The operands must satisfy ``supports``."""
    return FlashAttention.apply(q, k, v, causal)
