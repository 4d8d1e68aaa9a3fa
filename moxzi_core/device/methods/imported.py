"""``moxzi_device_imported``: a weights import (`moxzi weights import`, ../weights.py). Its argument is
the safetensors file as an ``Attachment`` the host spooled as it arrived, the prefix in its head; an
actor never calls it. Recorded with the file, so a restart sets the same parameters."""

from __future__ import annotations

import io
from typing import cast

from ...runtime.attachments import Attachment
from ..budget import entry_bytes, tensor_bytes
from ..ops import DeviceError, Meta
from ..schedule import checkpoint
from ..space import Space
from ..state import DeviceState
from ..weights import layout
from ..weights_file import FLOAT_DTYPES, Tensor, WeightsFileError, float32_values


def imported(device: DeviceState, caller: bytes, space: Space, attachment: Attachment):
    """The file's tensors become ``caller``'s parameters named prefix + name: set where they exist (the
    same shape, or the call is refused naming the tensor) or created; the optimizer state of each one
    set starts over. All or nothing; holds nothing but the tensors it makes (and, for a dtype other
    than float32, one tensor's file bytes)."""
    prefix = attachment.head.decode()
    file = attachment.open()
    try:
        found = layout(device.limits, file, attachment.size)
    except WeightsFileError as error:
        raise DeviceError(f"not a safetensors file moxzi reads: {error}") from None
    incoming: dict[str, tuple[Tensor, Meta]] = {}
    for t in found.tensors:
        name = device.limits.name("parameter", prefix + t.name)
        meta = Meta(device.limits.shape(f"parameter {name!r}", t.shape))
        held = space.params.get(name)
        if held is not None and held[1].shape != meta.shape:
            raise DeviceError(
                f"tensor {t.name!r} is {list(t.shape)}, but parameter {name!r} is {list(held[1].shape)}: "
                "nothing was imported"
            )
        if t.dtype not in FLOAT_DTYPES:
            raise DeviceError(f"tensor {t.name!r} is {t.dtype}; import reads {', '.join(FLOAT_DTYPES)}")
        incoming[name] = (t, meta)
    device.room(caller, space, sum(n not in space.params for n in incoming))
    device.admit(
        caller,
        during=sum(tensor_bytes(m) for _, m in incoming.values()),
        after=sum(entry_bytes(n, m) for n, (_, m) in incoming.items() if n not in space.params),
        work=sum(m.numel for _, m in incoming.values()),
    )
    made = {}
    for name, (t, meta) in incoming.items():
        checkpoint()  # nothing is set before every tensor is made
        # the tensors lie in the order read_layout gives, without holes: read on from the header, into
        # a buffer the backend keeps (a 400 MB tensor takes 400 MB, not twice that)
        data = bytearray(t.nbytes)
        if cast(io.BufferedIOBase, file).readinto(data) != t.nbytes:  # buffered: it fills what it can
            raise DeviceError(f"the file ends inside tensor {t.name!r}: nothing was imported")
        made[name] = (device.backend.param(meta.shape, {"values": float32_values(t, data)}, 0), meta)
    for name, value in made.items():
        space.params[name] = value
        for entry in space.optimizers.values():
            entry.state.forget(name)
    return None, True
