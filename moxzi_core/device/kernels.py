"""Which kernel runs each op (and which factory makes each optimizer kind) on one backend, and who
provides it: an override registered for this exact backend beats one for its family, which beats the
op's own kernel for the family (or the backend's optimizer)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

from .backend import OPTIMIZER_KINDS, Backend
from .ops import Kernel, Op


def choose_kernels(backend: Backend, ops: dict[str, Op], kernels: Sequence[Kernel]) -> dict[str, tuple[Callable, str]]:
    """By op name, and by ``optimizer:KIND`` for each optimizer kind: (the kernel or factory, its
    provider). Ops without a kernel on ``backend`` are left out."""
    chosen: dict[str, tuple[int, Callable, str]] = {
        f"optimizer:{kind}": (0, functools.partial(backend.optimizer, kind), backend.name) for kind in OPTIMIZER_KINDS
    }
    for name, op in ops.items():
        if backend.family in op.kernels:
            chosen[name] = (0, op.kernels[backend.family], backend.family)
    for k in kernels:
        if k.backend in (backend.family, backend.name):
            rank = 2 if k.backend == backend.name else 1
            if k.op in chosen and rank >= chosen[k.op][0]:
                chosen[k.op] = (rank, k.fn if k.applies is None else _guarded(k, chosen[k.op][1]), k.provider)
    return {name: (fn, provider) for name, (_, fn, provider) in chosen.items()}


def _guarded(kernel: Kernel, replaced: Callable) -> Callable:
    """``kernel.fn`` where ``kernel.applies``, else the kernel it replaces."""

    def run(p, *operands):
        return kernel.fn(p, *operands) if kernel.applies(p, *operands) else replaced(p, *operands)

    return run
