"""``moxzi_device_publish``: copy some of the caller's parameters as publications, named prefix +
name, that the readers it names may read (``shared`` sources, ``mix`` terms)."""

from __future__ import annotations

from ..budget import tensor_bytes
from ..ops import DeviceError, unwrap
from ..space import Publication, Space, readers_from_candid
from ..state import DeviceState


def publish(device: DeviceState, caller: bytes, space: Space, spec: dict):
    missing = [n for n in spec["names"] if n not in space.params]
    if missing:
        raise DeviceError(f"no parameter named {', '.join(map(repr, missing))}")
    readers = readers_from_candid(unwrap(spec["readers"]))
    for n in spec["names"]:
        device.limits.name("publication", spec["prefix"] + n)
    fresh = sum((caller, spec["prefix"] + n) not in device.publications for n in spec["names"])
    device.limits.room(space, fresh + device.publications_of(caller))
    copies = {spec["prefix"] + n: space.params[n][1] for n in spec["names"]}
    device.admit(
        caller,
        after=sum(tensor_bytes(m) - device.publication_bytes(caller, full) for full, m in copies.items()),
        work=sum(m.numel for m in copies.values()),
    )
    for n in spec["names"]:
        tensor, meta = space.params[n]
        device.publications[(caller, spec["prefix"] + n)] = Publication(device.backend.copy(tensor), meta, readers)
    return None, True
