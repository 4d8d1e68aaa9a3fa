"""moxzi's tensor device: per-actor spaces of parameters on a backend, and programs of ops.

The host gets the device as system methods of the management canister::

    registry, _ = plugins.load(["torch", ...])
    device = open_device(registry, "torch:cpu")
    host = Host(specs, limits, system_methods=device.system_methods(), system_state=device)

Plugins extend it through ``register_ops`` (``Op``), ``register_kernels`` (``Kernel``),
``register_backends`` (``Backend``) and ``register_transports`` (``transfer.Transport``).
"""

from __future__ import annotations

import functools
import inspect
from typing import TYPE_CHECKING

from .budget import DeviceBudget
from .ops import FLOAT, INTS, Check, DeviceError, Kernel, Meta, Op, Source
from .program import Plan, Step
from .replicas import GroupError, LocalRanks, Ranks, ReplicatedDevice
from .rows import MEAN, Rows
from .schedule import TimeLimit, checkpoint
from .service import Backend, Device, DeviceLimits, Optimizer, TrainGroup, TrainStep

if TYPE_CHECKING:  # settings imports the runtime, which the device does not need
    from ..settings import Settings

__all__ = [
    "open_device",
    "Device",
    "DeviceLimits",
    "DeviceBudget",
    "DeviceError",
    "Op",
    "Kernel",
    "Check",
    "Meta",
    "Source",
    "Plan",
    "Step",
    "Backend",
    "Optimizer",
    "TrainStep",
    "TrainGroup",
    "FLOAT",
    "INTS",
    "Ranks",
    "GroupError",
    "LocalRanks",
    "ReplicatedDevice",
    "Rows",
    "MEAN",
    "checkpoint",
    "TimeLimit",
]


def open_device(
    registry,
    spec: str,
    *,
    seed: int = 0,
    settings: Settings | None = None,
    limits: DeviceLimits = DeviceLimits(),
    budget: DeviceBudget = DeviceBudget(),
    ranks: Ranks | None = None,
    local: LocalRanks | None = None,
) -> Device:
    """The device for ``--device SPEC`` (``torch:cpu``, ``torch:cuda``) with the registered ops.
    ``registry`` is what ``moxzi_core.plugins.load`` returned; the backend's plugin must be loaded.
    A backend factory that takes ``settings`` gets them (its plugin's flags); without them, its defaults.
    ``budget``: the bytes each actor, and all together, may hold (``--device-actor-mb``, ``--device-total-mb``).
    With ``ranks`` of a world above 1, a replica in that group (``replicas.py``), formed before this
    returns; ``local``: the other ranks this process starts (and ends when the device closes)."""
    family = spec.split(":", 1)[0]
    factory = registry.backends.get(family)
    if factory is None:
        have = ", ".join(sorted(registry.backends)) or "none (load a backend plugin, e.g. torch)"
        working = [s for name, f in sorted(registry.backends.items()) for s in getattr(f, "specs", lambda: [])()]
        works = f"; --device values that work here: {', '.join(working)}" if working else ""
        raise DeviceError(f"--device {spec}: no backend {family!r}; loaded backends: {have}{works}")
    if settings is not None and "settings" in inspect.signature(factory).parameters:
        factory = functools.partial(factory, settings=settings)
    if ranks is None or ranks.world == 1:
        return Device(factory(spec), registry.ops, registry.kernels, seed=seed, limits=limits, budget=budget)
    if "ranks" not in inspect.signature(factory).parameters:
        raise DeviceError(f"--device {spec}: backend {family!r} cannot span ranks (--device-world)")
    try:
        backend = factory(spec, ranks=ranks)
    except GroupError:
        if local is not None:
            local.stop(False)
        raise
    return ReplicatedDevice(
        backend, registry.ops, registry.kernels, seed=seed, limits=limits, budget=budget, local=local
    )
