"""GPU benchmark of the Triton plugin's kernels (plugins/device_triton) against PyTorch's.

Attention, causal, forward and forward + backward: ``flash_attention`` against
``F.scaled_dot_product_attention`` with the flash backend and against a naive implementation (the
T x T scores in memory), at nanoGPT's Shakespeare config (B=12, H=4, T=64, D=32) and at B=4, H=32,
T=1k..8k, D=64 and 128, in bfloat16 and float16. Reports ms, TFLOP/s (causal: half the T x T work;
the backward counts 2.5 forwards) and the ratio of torch's time to ours (above 1: we are faster).

AdamW, one step over every parameter of a model (the Shakespeare config's 803k parameters, and
GPT-2 small's 124M): the plugin's fused kernel against ``torch.optim.AdamW(fused=True)`` and
``(foreach=True)``, with and without clipping to global norm 1.0; ms and GB/s (28 bytes per
parameter: read the parameter, its gradient and both moments, write three of them).

Each case first checks our result against torch's. Needs a CUDA GPU: ``python bench/triton_kernels.py``
(``--quick`` for the smaller sizes only).
"""

from __future__ import annotations

import argparse
import functools
import math
import sys
from pathlib import Path

import torch
import torch.nn.functional as F

if not torch.cuda.is_available():
    sys.exit(
        "bench/triton_kernels.py needs a CUDA GPU: torch sees none (the Triton kernels are tested on the "
        "CPU, in Triton's interpreter, by plugins/device_triton/tests/test_device_triton.py; they are not benchmarked there)"
    )

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "plugins" / "device_triton"))
import triton.testing
from torch.nn.attention import SDPBackend, sdpa_kernel

from moxzi_device_triton import FusedAdamW, flash_attention

DEVICE = "cuda"
SHAKESPEARE = (12, 4, 64, 32)  # attention's B, H, T, D
LENGTHS = (1024, 2048, 4096, 8192)
MODELS = {"Shakespeare 803k": (4, 128, 65), "GPT-2 small 124M": (12, 768, 50257)}  # layers, width, vocab
NAIVE_MAX_SCORES = 1 << 31  # beyond this many score elements the naive forward + backward would not fit


def naive_attention(q, k, v):
    t = q.shape[2]
    scores = (q @ k.transpose(-1, -2)) * (1.0 / math.sqrt(q.shape[-1]))
    mask = torch.ones(t, t, dtype=torch.bool, device=q.device).tril()
    return scores.masked_fill(~mask, float("-inf")).softmax(-1) @ v


def torch_flash(q, k, v):
    with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
        return F.scaled_dot_product_attention(q, k, v, is_causal=True)


def ours(q, k, v):
    return flash_attention(q, k, v, causal=True)


def timed(fn, backward: bool, q, k, v, do) -> float:
    """Median ms of fn's forward, or forward and backward."""
    if not backward:
        return triton.testing.do_bench(lambda: fn(q, k, v))

    def step():
        fn(q, k, v).backward(do)
        q.grad = k.grad = v.grad = None

    return triton.testing.do_bench(step)


def cell(ms: float | None, per_ms: float, unit: float) -> str:
    """``ms (rate)``, the rate being ``per_ms / ms * unit``; a dash when not measured."""
    return f"{ms:8.3f} ({per_ms / ms * unit:6.1f})" if ms is not None else f"{'-':>17}"


def check_attention(q, k, v, do) -> None:
    """Ours against torch's flash attention, forward and gradients."""
    results = []
    for fn in (ours, torch_flash):
        out = fn(q, k, v)
        out.backward(do)
        results.append([out, q.grad, k.grad, v.grad])
        q.grad = k.grad = v.grad = None
    for name, a, b in zip(("out", "dq", "dk", "dv"), *results):
        err = ((a.float() - b.float()).abs().max() / b.float().abs().max()).item()
        if err > 2e-2:
            raise SystemExit(f"attention {tuple(q.shape)} {q.dtype}: {name} differs from torch by {err:.2e}")


def bench_attention(quick: bool) -> None:
    sizes = [SHAKESPEARE] + [(4, 32, t, d) for d in (64, 128) for t in (LENGTHS[:2] if quick else LENGTHS)]
    print("causal attention, ms (TFLOP/s); ratio = torch ms / ours ms")
    print(f"{'dtype':<9}{'B,H,T,D':<18}{'pass':<9}{'ours':>18}{'torch flash':>18}{'ratio':>7}{'naive':>18}{'ratio':>7}")
    for dtype in (torch.bfloat16, torch.float16):
        for b, h, t, d in sizes:
            gen = torch.Generator(device=DEVICE).manual_seed(0)
            q, k, v, do = (torch.randn(b, h, t, d, device=DEVICE, dtype=dtype, generator=gen) for _ in range(4))
            q, k, v = (x.requires_grad_() for x in (q, k, v))
            check_attention(q, k, v, do)
            fwd_flops = 2 * 2 * b * h * t * t * d * 0.5
            for backward, flops in ((False, fwd_flops), (True, 3.5 * fwd_flops)):
                ms = {fn.__name__: timed(fn, backward, q, k, v, do) for fn in (ours, torch_flash)}
                naive = timed(naive_attention, backward, q, k, v, do) if b * h * t * t <= NAIVE_MAX_SCORES else None
                print(
                    f"{str(dtype)[6:]:<9}{f'{b},{h},{t},{d}':<18}{'fwd+bwd' if backward else 'fwd':<9}"
                    f"{cell(ms['ours'], flops, 1e-9):>18}{cell(ms['torch_flash'], flops, 1e-9):>18}"
                    f"{ms['torch_flash'] / ms['ours']:>7.2f}{cell(naive, flops, 1e-9):>18}"
                    f"{(naive / ms['ours'] if naive else float('nan')):>7.2f}"
                )
            del q, k, v, do
            torch.cuda.empty_cache()


def model_shapes(layers: int, width: int, vocab: int) -> list[tuple[int, ...]]:
    """A GPT's weight shapes (as bench/device_step.weights makes them, plus norms' weights)."""
    shapes = [(vocab, width)]
    for _ in range(layers):
        shapes += [(3 * width, width), (width, width), (4 * width, width), (width, 4 * width), (width,), (width,)]
    return shapes + [(vocab, width)]


def bench_adamw(quick: bool) -> None:
    models = {name: model_shapes(*config) for name, config in MODELS.items() if not quick or name == "Shakespeare 803k"}
    hyper = {"beta1": 0.9, "beta2": 0.99, "eps": 1e-8, "weight_decay": 0.1}
    lr = 1e-3
    print("\nAdamW step, ms (GB/s at 28 bytes per parameter); ratio = torch ms / ours ms")
    print(f"{'model':<20}{'clip':<6}{'ours':>18}{'fused=True':>18}{'ratio':>7}{'foreach=True':>18}{'ratio':>7}")
    for name, shapes in models.items():
        gen = torch.Generator(device=DEVICE).manual_seed(0)
        start = [torch.randn(s, device=DEVICE, generator=gen) for s in shapes]
        grads = [torch.randn(s, device=DEVICE, generator=gen) for s in shapes]
        n = sum(p.numel() for p in start)
        for clip in (None, 1.0):
            ours_params = [p.clone().requires_grad_() for p in start]
            for p, g in zip(ours_params, grads):
                p.grad = g
            named = [(str(i), p) for i, p in enumerate(ours_params)]
            fused = FusedAdamW(torch.device(DEVICE), **hyper)
            ms = {"ours": triton.testing.do_bench(functools.partial(fused.step, named, lr, clip=clip))}
            for kind in ("fused", "foreach"):
                params = [p.clone().requires_grad_() for p in start]
                for p, g in zip(params, grads):
                    p.grad = g
                opt = torch.optim.AdamW(
                    params,
                    lr=lr,
                    betas=(hyper["beta1"], hyper["beta2"]),
                    eps=hyper["eps"],
                    weight_decay=hyper["weight_decay"],
                    **{kind: True},
                )
                ms[kind] = triton.testing.do_bench(functools.partial(torch_adamw_step, opt, params, clip))
            check_adamw(start, grads, hyper, lr, clip)
            print(
                f"{name:<20}{clip!s:<6}{cell(ms['ours'], 28 * n, 1e-6):>18}{cell(ms['fused'], 28 * n, 1e-6):>18}"
                f"{ms['fused'] / ms['ours']:>7.2f}{cell(ms['foreach'], 28 * n, 1e-6):>18}"
                f"{ms['foreach'] / ms['ours']:>7.2f}"
            )


def torch_adamw_step(opt: torch.optim.AdamW, params: list[torch.Tensor], clip: float | None) -> None:
    if clip is not None:
        torch.nn.utils.clip_grad_norm_(params, clip, foreach=True)
    opt.step()


def check_adamw(start, grads, hyper, lr, clip) -> None:
    """Ten steps of ours against torch's single-tensor AdamW (the device's reference) from the same start."""
    ref = [p.clone().requires_grad_() for p in start]
    ours_params = [p.clone().requires_grad_() for p in start]
    opt = torch.optim.AdamW(
        ref,
        lr=lr,
        betas=(hyper["beta1"], hyper["beta2"]),
        eps=hyper["eps"],
        weight_decay=hyper["weight_decay"],
        foreach=False,
    )
    fused = FusedAdamW(torch.device(DEVICE), **hyper)
    for _ in range(10):
        for r, o, g in zip(ref, ours_params, grads):
            r.grad, o.grad = g.clone(), g.clone()
        if clip is not None:
            torch.nn.utils.clip_grad_norm_(ref, clip, foreach=False)
        opt.step()
        fused.step([(str(i), p) for i, p in enumerate(ours_params)], lr, clip=clip)
    worst = max(((a - b).abs().max() / b.abs().max()).item() for a, b in zip(ours_params, ref))
    if worst > 1e-5:
        raise SystemExit(f"AdamW differs from torch by {worst:.2e} (relative) after 10 steps")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the smaller sizes only")
    args = parser.parse_args()
    print(f"{torch.cuda.get_device_name()}; torch {torch.__version__}, triton {triton.__version__}")
    bench_attention(args.quick)
    bench_adamw(args.quick)


if __name__ == "__main__":
    main()
