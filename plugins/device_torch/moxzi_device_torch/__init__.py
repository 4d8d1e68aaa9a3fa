"""moxzid's tensor device on PyTorch: ``--device torch:cpu``, ``torch:cuda`` or ``torch:mps``.

Registers the built-in ops with their torch kernels, the ``torch`` backend, the ``burn`` names the seeds'
tutorials use for it (``burn.py``) and its settings, ``--device-threads`` (``threads.py``) and
``--cuda-graphs`` (``graphs.py``, ``static.py``; both declared in ``settings.py``), through the same hooks a third party's plugin uses. Its
public API, for plugins that build on it (the Triton plugin's fused AdamW keeps this AdamW's state; an
op's kernel declared ``capturable`` may be captured in a CUDA graph), is what ``__all__`` names.
"""

import importlib

from moxzi_core.hookspecs import hookimpl

from . import settings

__all__ = ["AdamW", "TorchBackend", "capturable"]
# Where each name of ``__all__`` lives: imported when first asked for, as torch is only then (its import
# takes seconds, which `moxzid --help` and `moxzid plugins` would otherwise wait for).
_LAZY = {"AdamW": ".optimizers", "TorchBackend": ".backend", "capturable": ".kernels"}


def __getattr__(name: str):
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(_LAZY[name], __name__), name)


@hookimpl
def register_settings(register):
    register(settings.THREADS)
    register(settings.CUDA_GRAPHS)


@hookimpl
def register_ops(register):
    from moxzi_core.device import builtin_op

    from .kernels import KERNELS

    for name, kernel in KERNELS.items():
        register(builtin_op(name, {"torch": kernel}))


@hookimpl
def register_backends(register):
    from . import burn
    from .backend import TorchBackend

    register("torch", TorchBackend, settings=True, ranks=True, specs=TorchBackend.specs)
    register("burn", burn.burn_backend, settings=True, ranks=True, specs=burn.specs)
