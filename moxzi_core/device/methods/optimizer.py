"""``moxzi_device_optimizer``: create or replace a named optimizer over some of the caller's
parameters (its state is counted against the byte budget at the most it can hold, from now on)."""

from __future__ import annotations

import math

from ..budget import optimizer_bytes
from ..ops import DeviceError, unwrap
from ..space import OptimizerEntry, Space
from ..state import DeviceState


def optimizer(device: DeviceState, caller: bytes, space: Space, spec: dict):
    name = device.limits.name("optimizer", spec["name"])
    missing = [p for p in spec["params"] if p not in space.params]
    if missing:
        raise DeviceError(f"optimizer {name!r}: no parameter named {', '.join(map(repr, missing))}")
    kind = next(iter(unwrap(spec["kind"]) or {"adamw": None}))
    hyper = {k: spec[k] for k in ("beta1", "beta2", "eps", "weight_decay")}
    for k, v in (("lr", spec["lr"]), *hyper.items()):
        if not math.isfinite(v) or v < 0:
            raise DeviceError(f"optimizer {name!r}: {k} is {v}; expected a finite number >= 0")
    params = list(dict.fromkeys(spec["params"]))
    old = space.optimizers.get(name)
    device.room(caller, space, 1 + len(params) - (0 if old is None else 1 + len(old.params)))
    device.admit(
        caller,
        after=optimizer_bytes(name, kind, hyper, ((p, space.params[p][1]) for p in params))
        - (
            0
            if old is None
            else optimizer_bytes(name, old.kind, old.hyper, ((p, space.params[p][1]) for p in old.params))
        ),
    )
    state = device.kernels[f"optimizer:{kind}"](hyper)
    space.optimizers[name] = OptimizerEntry(kind, params, spec["lr"], hyper, state, 0 if old is None else old.steps)
    return None, True
