"""moxzi's tensor device: per-actor spaces of parameters on a backend, and programs of ops.

The host gets the device as system methods of the management canister::

    registry, _ = plugins.load(["torch", ...])
    device = open_device(registry, "torch:cpu")
    host = Host(specs, limits, system_methods=device.system_methods(), system_state=device)

Plugins extend it through ``register_ops`` (``Op``), ``register_kernels`` (``Kernel``),
``register_backends`` (``Backend``) and ``register_transports`` (``transfer.Transport``).
"""

from __future__ import annotations

from .ops import FLOAT, INTS, Check, DeviceError, Kernel, Meta, Op, Source
from .program import Plan, Step
from .service import Backend, Device, DeviceLimits, Optimizer, TrainGroup, TrainStep

__all__ = ["open_device", "Device", "DeviceLimits", "DeviceError", "Op", "Kernel", "Check", "Meta",
           "Source", "Plan", "Step", "Backend", "Optimizer", "TrainStep", "TrainGroup", "FLOAT", "INTS"]


def open_device(registry, spec: str, *, seed: int = 0, limits: DeviceLimits = DeviceLimits()) -> Device:
    """The device for ``--device SPEC`` (``torch:cpu``, ``torch:cuda``) with the registered ops.
    ``registry`` is what ``moxzi_core.plugins.load`` returned; the backend's plugin must be loaded."""
    family = spec.split(":", 1)[0]
    factory = registry.backends.get(family)
    if factory is None:
        have = ", ".join(sorted(registry.backends)) or "none (load a backend plugin, e.g. torch)"
        raise DeviceError(f"--device {spec}: no backend {family!r}; loaded backends: {have}")
    return Device(factory(spec), registry.ops, registry.kernels, seed=seed, limits=limits)
