"""AdamW for every parameter of an optimizer in one Triton launch, and gradient clipping in two more.

The update is ``torch.optim.AdamW``'s (single-tensor form, as the torch device's ``AdamW`` writes it),
element by element, in the same order and with the same roundings where torch:cpu has them:

    p  = p * (1 - lr * wd)                        decoupled weight decay
    m  = m + (1 - b1) * (g - m)                   lerp, one rounding (an fma), as torch's vector lerp
    v  = v * b2 + ((1 - b2) * g) * g              addcmul, the last step an fma, as torch's
    p  = p + (-lr / bc1 * m) / (sqrt(v) / sqrt(bc2) + eps)       bc_i = 1 - b_i ** step, per parameter

so the numbers agree with torch to the last bit or two (torch:cpu's vectorised sqrt is not correctly
rounded; CUDA torch turns the division by sqrt(bc2) into a multiplication).

One launch covers all parameters: a table of addresses (parameter, gradient, both moments, per tensor)
and a table of blocks (which tensor, where in it); program ``i`` updates block ``i``. The address
tables are rebuilt only when a tensor moves (gradients usually come back at the same addresses); what
changes every step (lr and the bias corrections, per tensor since a replaced parameter restarts its
count) is one small table copied to the device.

With ``clip``, a first launch writes each block's sum of squared gradients, a one-program launch adds
them up (in a fixed order: the same bits every run) into ``min(1, clip / (norm + 1e-6))``,
``torch.nn.utils.clip_grad_norm_``'s coefficient, and the update scales the gradients by it. The torch
device passes a train step's clip to its optimizer when the step has one; across several optimizers it
clips the gradients itself first (the norm is over all of them).

The state (by parameter name), ``forget``, ``export`` and ``restore`` are the torch device's ``AdamW``'s,
inherited, so a device snapshot taken with either optimizer restores on the other (and then continues
within those last bits of the one that kept going; on the same one, bit for bit).
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl

from moxzi_device_torch import AdamW

from .mode import INTERPRETING

# Elements per program: large in the interpreter, where each program costs Python time.
BLOCK = 8192 if INTERPRETING else 4096
NUM_WARPS = 8


@triton.jit
def _tensor_pointer(addresses, n_tensors, t, which: tl.constexpr, ALIGNED: tl.constexpr):
    """The float32 address of tensor ``which`` (0 param, 1 grad, 2 exp_avg, 3 exp_avg_sq) of tensor ``t``."""
    ptr = tl.load(addresses + which * n_tensors + t).to(tl.pointer_type(tl.float32))
    if ALIGNED:  # lets full blocks use vector loads; an address read from memory has no known alignment
        ptr = tl.multiple_of(ptr, 16)
    return ptr


@triton.jit
def _block(block_tensor, block_start, numels, BLOCK: tl.constexpr):
    """This program's block: its index, its tensor ``t``, where it starts in ``t``, its elements' offsets
    in ``t``, and t's size."""
    pid = tl.program_id(0)
    t = tl.load(block_tensor + pid)
    start = tl.multiple_of(tl.load(block_start + pid), BLOCK)
    offs = start + tl.arange(0, BLOCK)
    return pid, t, start, offs, tl.load(numels + t)


@triton.jit
def _sum_squares_kernel(
    addresses, numels, block_tensor, block_start, n_tensors, partials, ALIGNED: tl.constexpr, BLOCK: tl.constexpr
):
    pid, t, start, offs, n = _block(block_tensor, block_start, numels, BLOCK)
    g_ptr = _tensor_pointer(addresses, n_tensors, t, 1, ALIGNED)
    if start + BLOCK <= n:  # a full block: no mask, vector loads
        g = tl.load(g_ptr + offs)
    else:
        g = tl.load(g_ptr + offs, mask=offs < n, other=0.0)
    tl.store(partials + pid, tl.sum(g * g, axis=0))


@triton.jit
def _clip_scale_kernel(partials, n_partials, max_norm, scale, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    total = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_partials, BLOCK):
        total += tl.load(partials + start + offs, mask=start + offs < n_partials, other=0.0)
    norm = tl.sqrt_rn(tl.sum(total, axis=0))
    tl.store(scale, tl.minimum(tl.div_rn(max_norm, norm + 1e-6), 1.0))


@triton.jit
def _adamw_block(
    ptrs,
    offs,
    n,
    scale,
    neg_step_size,
    bc2_sqrt,
    hyper,
    WEIGHT_SMALL: tl.constexpr,
    CLIP: tl.constexpr,
    MASKED: tl.constexpr,
):
    """The update of one block of one tensor; ``ptrs``: its (param, grad, exp_avg, exp_avg_sq) addresses."""
    p_ptr, g_ptr, m_ptr, v_ptr = ptrs
    decay, weight, b2, one_minus_b2, eps = hyper
    if MASKED:
        mask = offs < n
    else:
        mask = None
    p = tl.load(p_ptr + offs, mask=mask)
    g = tl.load(g_ptr + offs, mask=mask)
    m = tl.load(m_ptr + offs, mask=mask)
    v = tl.load(v_ptr + offs, mask=mask)
    if CLIP:
        g = g * scale
    p = p * decay
    if WEIGHT_SMALL:  # torch's lerp: start + w * (end - start) for w < 0.5, else end + (w - 1) * (end - start)
        m = tl.fma(weight, g - m, m)
    else:
        m = tl.fma(weight - 1.0, g - m, g)
    v = tl.fma(one_minus_b2 * g, g, v * b2)
    denom = tl.div_rn(tl.sqrt_rn(v), bc2_sqrt) + eps
    p = p + tl.div_rn(neg_step_size * m, denom)
    tl.store(p_ptr + offs, p, mask=mask)
    tl.store(m_ptr + offs, m, mask=mask)
    tl.store(v_ptr + offs, v, mask=mask)


@triton.jit
def _adamw_kernel(
    addresses,
    numels,
    block_tensor,
    block_start,
    n_tensors,
    per_tensor,
    clip_scale,
    hyper,
    WEIGHT_SMALL: tl.constexpr,
    CLIP: tl.constexpr,
    ALIGNED: tl.constexpr,
    BLOCK: tl.constexpr,
):
    """``hyper``: (decay, weight, b2, one_minus_b2, eps), the same for every tensor."""
    _, t, start, offs, n = _block(block_tensor, block_start, numels, BLOCK)
    ptrs = (
        _tensor_pointer(addresses, n_tensors, t, 0, ALIGNED),
        _tensor_pointer(addresses, n_tensors, t, 1, ALIGNED),
        _tensor_pointer(addresses, n_tensors, t, 2, ALIGNED),
        _tensor_pointer(addresses, n_tensors, t, 3, ALIGNED),
    )
    neg_step_size = tl.load(per_tensor + t)  # -lr / bc1
    bc2_sqrt = tl.load(per_tensor + n_tensors + t)
    scale = 1.0
    if CLIP:
        scale = tl.load(clip_scale)
    # Two calls because MASKED must be a compile-time constant: a full block, no mask, vector loads.
    if start + BLOCK <= n:
        _adamw_block(ptrs, offs, n, scale, neg_step_size, bc2_sqrt, hyper, WEIGHT_SMALL, CLIP, False)
    else:
        _adamw_block(ptrs, offs, n, scale, neg_step_size, bc2_sqrt, hyper, WEIGHT_SMALL, CLIP, True)


class _Tables:
    """The device-side address and block tables for one list of (param, grad, exp_avg, exp_avg_sq)."""

    def __init__(self, quads: list[tuple[torch.Tensor, ...]], device: torch.device):
        n = len(quads)
        numels = [q[0].numel() for q in quads]
        blocks = [(t, start) for t, numel in enumerate(numels) for start in range(0, numel, BLOCK)]
        addresses = [q[which].data_ptr() for which in range(4) for q in quads]
        self.n_tensors, self.n_blocks = n, len(blocks)
        self.aligned = all(a % 16 == 0 for a in addresses)
        self.addresses = torch.tensor(addresses, dtype=torch.int64).to(device)
        self.numels = torch.tensor(numels, dtype=torch.int64).to(device)
        self.block_tensor = torch.tensor([t for t, _ in blocks], dtype=torch.int32).to(device)
        self.block_start = torch.tensor([s for _, s in blocks], dtype=torch.int64).to(device)
        self.partials = torch.empty(len(blocks), dtype=torch.float32, device=device)
        self.clip_scale = torch.empty(1, dtype=torch.float32, device=device)
        # How the per-block kernels compile and launch; no fp fusion: the only fmas are _adamw_block's own
        self.options = {"ALIGNED": self.aligned, "BLOCK": BLOCK, "num_warps": NUM_WARPS, "enable_fp_fusion": False}

    def args(self):
        return self.addresses, self.numels, self.block_tensor, self.block_start, self.n_tensors


class FusedAdamW(AdamW):
    """The torch device's ``AdamW`` (the device's ``Optimizer`` protocol), with a ``step`` that updates
    every named float32 parameter that has a gradient in one kernel launch (three with ``clip``)."""

    def __init__(self, device: torch.device, beta1: float, beta2: float, eps: float, weight_decay: float):
        super().__init__(device, beta1, beta2, eps, weight_decay)
        self._tables: tuple[tuple, _Tables] | None = None

    @torch.no_grad()
    def step(self, params: list[tuple[str, torch.Tensor]], lr: float, clip: float | None = None) -> None:
        """One AdamW step at ``lr`` for the parameters with gradients; with ``clip``, their gradients
        are first scaled together to global L2 norm at most ``clip`` (the gradients are not changed)."""
        params = [(name, p) for name, p in params if p.grad is not None]
        for name, p in params:  # before any state changes
            if p.dtype != torch.float32 or not p.is_contiguous():
                raise TypeError(
                    f"fused AdamW: parameter {name!r} is {p.dtype} with strides {p.stride()}; "
                    f"expected contiguous float32"
                )
        quads, per_step = [], []
        for name, p in params:
            state = self.state.get(name)
            if state is None:
                state = self.state[name] = [0, torch.zeros_like(p), torch.zeros_like(p)]
            state[0] += 1
            step = state[0]
            grad = p.grad
            assert grad is not None  # params keeps those with gradients
            quads.append((p, grad.contiguous(), state[1], state[2]))
            per_step.append((-lr / (1 - self.beta1**step), (1 - self.beta2**step) ** 0.5))
        if not quads:
            return
        tables = self._tables_for(quads)
        per_tensor = torch.tensor([s for s, _ in per_step] + [b for _, b in per_step], dtype=torch.float32)
        per_tensor = per_tensor.to(quads[0][0].device, non_blocking=True)
        grid = (tables.n_blocks,)
        if clip is not None:
            _sum_squares_kernel[grid](*tables.args(), tables.partials, **tables.options)
            _clip_scale_kernel[(1,)](
                tables.partials,
                tables.n_blocks,
                clip,
                tables.clip_scale,
                BLOCK=1024,
                num_warps=4,
                enable_fp_fusion=False,
            )
        weight = 1 - self.beta1
        hyper = (1 - lr * self.weight_decay, weight, self.beta2, 1 - self.beta2, self.eps)
        _adamw_kernel[grid](
            *tables.args(),
            per_tensor,
            tables.clip_scale,
            hyper,
            WEIGHT_SMALL=weight < 0.5,
            CLIP=clip is not None,
            **tables.options,
        )

    def _tables_for(self, quads) -> _Tables:
        key = tuple((q[0].numel(), *(t.data_ptr() for t in q)) for q in quads)
        if self._tables is None or self._tables[0] != key:
            self._tables = (key, _Tables(quads, quads[0][0].device))
        return self._tables[1]

    def forget(self, name: str) -> None:
        super().forget(name)
        self._tables = None

    def restore(self, state) -> None:
        super().restore(state)
        self._tables = None  # they point at the replaced moments (step would see that, but why keep them)
