"""``moxzi_device_list`` and ``moxzi_device_delete``: what the caller holds on the device (its
parameters, optimizers, stored tensors and publications), and deleting some of it."""

from __future__ import annotations

from typing import Any

from ...candid import Some
from ..ops import DeviceError
from ..space import Space, readers_to_candid
from ..state import DeviceState


def list_entries(device: DeviceState, caller: bytes, space: Space):
    entries: list[dict[str, Any]] = [
        {"kind": {"param": None}, "name": n, "shape": list(m.shape), "readers": None}
        for n, (_, m) in sorted(space.params.items())
    ]
    entries += [
        {"kind": {"optimizer": None}, "name": n, "shape": [], "readers": None} for n in sorted(space.optimizers)
    ]
    entries += [
        {"kind": {"stored": None}, "name": n, "shape": list(m.shape), "readers": None}
        for n, (_, m) in sorted(space.stored.items())
    ]
    entries += [
        {
            "kind": {"publication": None},
            "name": n,
            "shape": list(p.meta.shape),
            "readers": Some(readers_to_candid(p.readers)),
        }
        for (owner, n), p in sorted(device.publications.items())
        if owner == caller
    ]
    return entries, False


def delete(device: DeviceState, caller: bytes, space: Space, items: list[dict]):
    tables: dict[str, dict[str, Any]] = {"param": space.params, "optimizer": space.optimizers, "stored": space.stored}
    for item in items:
        ((kind, _),) = item["kind"].items()
        exists = (
            (caller, item["name"]) in device.publications if kind == "publication" else item["name"] in tables[kind]
        )
        if not exists:
            raise DeviceError(f"delete: this actor holds no {kind} named {item['name']!r}")
    device.admit(caller)  # it only gives bytes back
    for item in items:
        ((kind, _),) = item["kind"].items()
        if kind == "publication":
            device.publications.pop((caller, item["name"]), None)
        else:
            tables[kind].pop(item["name"], None)
        if kind == "param":
            for entry in space.optimizers.values():
                if item["name"] in entry.params:
                    entry.params.remove(item["name"])
                entry.state.forget(item["name"])
    return None, True
