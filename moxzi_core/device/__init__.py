"""moxzi's tensor device: per-actor spaces of parameters on a backend, and programs of ops.

The host gets the device as system methods of the management canister::

    registry, _ = plugins.load(["torch", ...])
    device = open_device(registry, "torch:cpu")
    host = Host(specs, config, system_methods=device.system_methods(), system_state=device)

Plugins extend it through ``register_ops`` (``Op``; the built-in ones: ``builtin_op``),
``register_kernels`` (``Kernel``), ``register_backends`` (``Backend``) and ``register_transports``
(``transfer.Transport``).

The device answers calls with the runtime's ``Outcome`` and runs on the threads and journal records
of the runtime's system calls, so importing it imports the runtime (not the other way round: the host
knows the device only as system methods and a ``SystemState``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from .backend import Backend, Optimizer, TrainGroup, TrainStep
from .budget import DeviceBudget
from .builtin import op as builtin_op
from .kept import Keeping, Kept
from .limits import DeviceLimits
from .ops import FLOAT, INTS, Check, DeviceError, Kernel, Meta, Op, Source
from .program import Plan, Step
from .ranks import GroupError, LocalRanks, Ranks, ReplicatedDevice
from .rows import MEAN, Rows
from .schedule import TimeLimit, checkpoint
from .service import Device

if TYPE_CHECKING:
    from ..registry import BackendFactory
    from ..settings import Settings

__all__ = [
    "open_device",
    "builtin_op",
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
    "Keeping",
    "Kept",
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


class _HasBackends(Protocol):
    """What ``open_device`` reads of ``moxzi_core.registry.Registry``."""

    backends: dict[str, BackendFactory]
    ops: dict[str, Op]
    kernels: list[Kernel]


def open_device(
    registry: _HasBackends,
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
    A backend factory registered as taking ``settings`` gets them (its plugin's flags); without them,
    its defaults.
    ``budget``: the bytes each actor, and all together, may hold (``--device-actor-mb``, ``--device-total-mb``).
    With ``ranks`` of a world above 1, a replica in that group (``ranks.py``), formed before this
    returns; ``local``: the other ranks this process starts (and ends when the device closes)."""
    family = spec.split(":", 1)[0]
    factory = registry.backends.get(family)
    if factory is None:
        have = ", ".join(sorted(registry.backends)) or "none (load a backend plugin, e.g. torch)"
        working = [s for _, f in sorted(registry.backends.items()) if f.specs is not None for s in f.specs()]
        works = f"; --device values that work here: {', '.join(working)}" if working else ""
        raise DeviceError(f"--device {spec}: no backend {family!r}; loaded backends: {have}{works}")
    options = {"settings": settings} if settings is not None and factory.settings else {}
    if ranks is None or ranks.world == 1:
        return Device(factory(spec, **options), registry.ops, registry.kernels, seed=seed, limits=limits, budget=budget)
    if not factory.ranks:
        raise DeviceError(f"--device {spec}: backend {family!r} cannot span ranks (--device-world)")
    try:
        backend = factory(spec, ranks=ranks, **options)
    except GroupError:
        if local is not None:
            local.stop(False)
        raise
    return ReplicatedDevice(
        backend, registry.ops, registry.kernels, seed=seed, limits=limits, budget=budget, local=local
    )
