"""``moxzi_device_publish``: copy some of the caller's parameters as publications, named prefix +
name, that the readers it names may read (``shared`` sources, ``mix`` terms)."""

from __future__ import annotations

from ..budget import publication_bytes
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
    copies = {spec["prefix"] + n: space.params[n][1] for n in spec["names"]}
    named = len(readers) if isinstance(readers, frozenset) else 0
    replaced = [device.publications.get((caller, full)) for full in copies]
    device.room(
        caller,
        space,
        sum(
            1 + named - (0 if r is None else 1 + (len(r.readers) if isinstance(r.readers, frozenset) else 0))
            for r in replaced
        ),
    )
    device.admit(
        caller,
        after=sum(
            publication_bytes(full, m, readers) - device.publication_bytes(caller, full) for full, m in copies.items()
        ),
        work=sum(m.numel for m in copies.values()),
    )
    for n in spec["names"]:
        tensor, meta = space.params[n]
        device.publications[(caller, spec["prefix"] + n)] = Publication(device.backend.copy(tensor), meta, readers)
    return None, True
