"""moxzid's tensor device on PyTorch: ``--device torch:cpu``, ``torch:cuda`` or ``torch:mps``.

Registers the built-in ops with their torch kernels, the ``torch`` backend, the ``burn`` names the seeds'
tutorials use for it (``burn.py``) and its ``--device-threads`` setting (``threads.py``), through the same hooks a third party's plugin uses. Its public API, for plugins that build on it (the Triton plugin's fused
AdamW keeps this AdamW's state), is what ``__all__`` names.
"""

from moxzi_core.device import builtin_op
from moxzi_core.hookspecs import hookimpl

from . import burn
from .backend import AdamW, TorchBackend
from .kernels import KERNELS
from .threads import SETTING as DEVICE_THREADS

__all__ = ["AdamW", "TorchBackend"]


@hookimpl
def register_settings(register):
    register(DEVICE_THREADS)


@hookimpl
def register_ops(register):
    for name, kernel in KERNELS.items():
        register(builtin_op(name, {"torch": kernel}))


@hookimpl
def register_backends(register):
    register("torch", TorchBackend, settings=True, ranks=True, specs=TorchBackend.specs)
    register("burn", burn.burn_backend, settings=True, ranks=True, specs=burn.specs)
