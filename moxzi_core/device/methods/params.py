"""``moxzi_device_params``: create or replace parameters, from given values or drawn from the
device's seed (each parameter's draw is its own: seed, caller and name decide it)."""

from __future__ import annotations

import hashlib
import math

from ..budget import counted_bytes
from ..ops import DeviceError, Meta
from ..space import Space
from ..state import DeviceState


def params(device: DeviceState, caller: bytes, space: Space, specs: list[dict]):
    made = {}
    for spec in specs:  # check everything before changing anything
        name = device.limits.name("parameter", spec["name"])
        shape = device.limits.shape(f"parameter {name!r}", spec["shape"])
        ((kind, value),) = spec["init"].items()
        if kind == "values" and len(value) != 4 * math.prod(shape):
            raise DeviceError(
                f"parameter {name!r}: init values has {len(value)} bytes; "
                f"{list(shape)} float32 needs {4 * math.prod(shape)}"
            )
        if kind == "normal" and not (math.isfinite(value) and value >= 0):
            raise DeviceError(f"parameter {name!r}: normal std is {value}; expected a finite number >= 0")
        if kind == "uniform" and not (
            math.isfinite(value["low"]) and math.isfinite(value["high"]) and value["low"] <= value["high"]
        ):
            raise DeviceError(f"parameter {name!r}: uniform needs finite low <= high, got {value}")
        made[name] = (shape, spec["init"])
    device.room(caller, space, sum(n not in space.params for n in made))
    replaced = Space({**space.params, **{n: (None, Meta(shape)) for n, (shape, _) in made.items()}}, space.optimizers)
    device.admit(
        caller,
        after=counted_bytes(replaced, ()) - counted_bytes(Space(space.params, space.optimizers), ()),
        work=sum(math.prod(shape) for shape, _ in made.values()),
    )
    for name, (shape, init) in made.items():
        seed = int.from_bytes(
            hashlib.sha256(b"moxzi init\0%d\0%s\0%s" % (device.seed, caller, name.encode())).digest()[:8], "little"
        )
        space.params[name] = (device.backend.param(shape, init, seed), Meta(shape))
        for entry in space.optimizers.values():
            entry.state.forget(name)
    return None, True
