"""Triton kernels for moxzid's torch device: ``--plugins torch,triton --device torch:cuda``.

On a CUDA device this plugin's kernels replace the torch ones of ``causal_attention`` and the key/value
cache's ``attention`` (flash attention, ``attention.py``) and the AdamW optimizer (one fused launch
for all of an optimizer's parameters, ``adamw.py``), through ``Kernel`` registrations: the ops stay
moxzi's own, and ``moxzid plugins`` lists each replacement as ``op NAME@triton:BACKEND``
(``moxzid --device SPEC plugins``, moxzid's start-up log and ``Device.providers`` say which kernel a
device actually runs). Without a GPU the import fails with a clear message (``mode.py``) unless
``TRITON_INTERPRET=1`` is set, which also puts the kernels on ``torch:cpu``, run by Triton's
interpreter: that is how the tests run them.
"""

import torch

from moxzi_core.candid import Some
from moxzi_core.device import Kernel
from moxzi_core.hookspecs import hookimpl

from .adamw import FusedAdamW
from .attention import flash_attention, supports
from .mode import BACKENDS, INTERPRETING

PROVIDER = "triton"

__all__ = ["BACKENDS", "INTERPRETING", "PROVIDER", "FusedAdamW", "flash_attention", "supports"]


def _causal_attention(p, q, k, v):
    return flash_attention(q, k, v, causal=True)


def _supported(p, q, k, v) -> bool:
    """Where flash attention applies; the torch kernels run elsewhere."""
    return supports(q, k, v)


def _attention(p, q, k, v):
    """The cache's attention: query i at position tk - tq + i, or every key with ``causal = ?false``."""
    causal = p.get("causal")
    return flash_attention(q, k, v, causal=(causal.value if isinstance(causal, Some) else causal) is not False)


def _adamw(backend: str):
    """What makes ``backend``'s optimizers of kind ``#adamw`` from ``hyper`` (beta1, beta2, eps, weight_decay)."""
    device = torch.device(backend.partition(":")[2])
    return lambda hyper: FusedAdamW(device, **hyper)


@hookimpl
def register_kernels(register):
    for backend in BACKENDS:
        register(Kernel("causal_attention", backend, _causal_attention, PROVIDER, applies=_supported))
        register(Kernel("attention", backend, _attention, PROVIDER, applies=_supported))
        register(Kernel("optimizer:adamw", backend, _adamw(backend), PROVIDER))
