"""moxzid's tensor device on PyTorch: ``--device torch:cpu``, ``torch:cuda`` or ``torch:mps``.

Registers the built-in ops with their torch kernels, the ``torch`` backend, the ``burn`` names the seeds'
tutorials use for it (``burn.py``) and its settings, ``--device-threads`` (``threads.py``) and
``--cuda-graphs`` (``graphs.py``, ``static.py``), through the same hooks a third party's plugin uses. Its
public API, for plugins that build on it (the Triton plugin's fused AdamW keeps this AdamW's state; an
op's kernel declared ``capturable`` may be captured in a CUDA graph), is what ``__all__`` names.
"""

from moxzi_core.device import builtin_op
from moxzi_core.hookspecs import hookimpl

from . import burn, graphs
from .backend import TorchBackend
from .kernels import KERNELS, capturable
from .optimizers import AdamW
from .threads import SETTING as DEVICE_THREADS

__all__ = ["AdamW", "TorchBackend", "capturable"]


@hookimpl
def register_settings(register):
    register(DEVICE_THREADS)
    register(graphs.SETTING)


@hookimpl
def register_ops(register):
    for name, kernel in KERNELS.items():
        register(builtin_op(name, {"torch": kernel}))


@hookimpl
def register_backends(register):
    register("torch", TorchBackend, settings=True, ranks=True, specs=TorchBackend.specs)
    register("burn", burn.burn_backend, settings=True, ranks=True, specs=burn.specs)
