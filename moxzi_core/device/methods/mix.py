"""``moxzi_device_mix``: weighted sums of the caller's parameters and publications it may read, into
its parameters (every sum computed from the values before the call, then assigned)."""

from __future__ import annotations

from ..budget import entry_bytes, tensor_bytes
from ..ops import DeviceError, Source, unwrap
from ..space import Space
from ..state import DeviceState


def mix(device: DeviceState, caller: bytes, space: Space, mixes: list[dict]):
    planned = []
    for m in mixes:
        into = device.limits.name("into", m["into"])
        if not m["terms"]:
            raise DeviceError(f"mix into {into!r}: no terms")
        terms, shape = [], None
        for t in m["terms"]:
            owner = unwrap(t["owner"])
            if owner is None:
                found = space.params.get(t["name"])
                if found is None:
                    raise DeviceError(f"mix into {into!r}: this actor has no parameter {t['name']!r}")
            else:
                found = device.source(caller, space, [], Source("shared", (owner.bytes, t["name"])))
            tensor, meta = found
            if shape is not None and meta != shape:
                raise DeviceError(f"mix into {into!r}: {t['name']!r} is {meta} but the first term is {shape}")
            shape = meta
            terms.append((t["weight"], tensor))
        if into in space.params and space.params[into][1] != shape:
            raise DeviceError(f"mix into {into!r}: it is {space.params[into][1]} but the terms are {shape}")
        assert shape is not None  # there are terms
        planned.append((into, terms, shape))
    device.room(caller, space, len({i for i, _, _ in planned} - set(space.params)))
    created = {into: shape for into, _, shape in planned if into not in space.params}
    device.admit(
        caller,
        during=sum(tensor_bytes(shape) for _, _, shape in planned),
        after=sum(entry_bytes(into, shape) for into, shape in created.items()),
        work=sum(shape.numel * len(terms) for _, terms, shape in planned),
    )
    sums = [(into, device.backend.weighted_sum(terms), shape) for into, terms, shape in planned]
    for into, value, shape in sums:
        space.params[into] = (value, shape)
    return None, True
