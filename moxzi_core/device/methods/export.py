"""``moxzi_device_export``: offer some of the caller's publications at a URL another machine's device
fetches (``transfer.Exports``; a transport serves them). It changes nothing a restart must rebuild, so
it is not recorded; while it serves, it counts against the caller's device budget (``budget.export_bytes``)."""

from __future__ import annotations

from ..budget import export_record_bytes
from ..ops import DeviceError, unwrap
from ..space import Space
from ..state import DeviceState
from ..transfer import LIFETIME_SECONDS


def export(device: DeviceState, caller: bytes, space: Space, spec: dict):
    names, prefix = spec["names"], spec["prefix"]
    if not names:
        raise DeviceError("names is empty; expected the publications to export")
    if len(set(names)) != len(names):
        raise DeviceError("names lists a publication twice")
    missing = [prefix + n for n in names if (caller, prefix + n) not in device.publications]
    if missing:
        raise DeviceError(f"this actor has no publication named {', '.join(map(repr, missing))}")
    uses = unwrap(spec["uses"])
    uses = 1 if uses is None else uses
    if uses < 1:
        raise DeviceError(f"uses is {uses}; expected at least 1")
    seconds = unwrap(spec["seconds"])
    seconds = LIFETIME_SECONDS if seconds is None else seconds
    if not 1 <= seconds <= LIFETIME_SECONDS:
        raise DeviceError(
            f"seconds is {seconds}; expected 1 to {LIFETIME_SECONDS} (an export serves ten minutes at most)"
        )
    device.admit(caller, after=export_record_bytes(names))  # its tensors are its publications': counted
    published = [(n, device.publications[(caller, prefix + n)]) for n in names]
    return device.exports.offer(caller, [(n, p.meta, p.tensor) for n, p in published], uses, seconds), False
