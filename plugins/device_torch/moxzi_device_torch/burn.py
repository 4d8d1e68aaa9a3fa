"""``--device burn:cpu``, ``burn:cuda`` and ``burn:metal``: the names the seeds' tutorials use (after the
Rust framework Burn, which they were written for), served by the torch backend as torch:cpu, torch:cuda
and torch:mps, so their commands run as written."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from moxzi_core.device import DeviceError, Ranks

from .backend import TorchBackend

if TYPE_CHECKING:
    from moxzi_core.settings import Settings

log = logging.getLogger("moxzi.torch")

TORCH_KIND = {"cpu": "cpu", "cuda": "cuda", "metal": "mps"}


def burn_backend(spec: str, ranks: Ranks | None = None, settings: Settings | None = None) -> TorchBackend:
    """The torch backend for ``burn:KIND``."""
    kind = spec.partition(":")[2] or "cpu"
    if kind not in TORCH_KIND:
        raise DeviceError(f"--device {spec}: burn names burn:cpu, burn:cuda and burn:metal (torch serves them)")
    torch_spec = f"torch:{TORCH_KIND[kind]}"
    if torch_spec not in TorchBackend.specs():
        raise DeviceError(
            f"--device {spec} is {torch_spec}, and torch sees no such device; here it runs on {', '.join(specs())}"
        )
    backend = TorchBackend(torch_spec, ranks=ranks, settings=settings)
    log.info("--device %s: served by the torch backend as %s", spec, backend.name)
    return backend


def specs() -> list[str]:
    """The burn names that work here: those whose torch device does."""
    torch_specs = TorchBackend.specs()
    return [f"burn:{burn}" for burn, kind in TORCH_KIND.items() if f"torch:{kind}" in torch_specs]
