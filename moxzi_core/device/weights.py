"""An actor's weights out of the device and into it as safetensors files (`moxzi weights export|import`).

An export reads the actor's parameters (and, if asked, its publications) in one turn of the device,
so a training run cannot change some of them half-way, into a file a tensor at a time. An import is a
device call of the actor's own, ``IMPORTED`` (methods/imported.py), whose argument is the file as an
``Attachment`` (spooled into the store as it arrives): recorded like any call that changes the
device, so it survives a crash and replays; it checks the whole file before it changes anything.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, BinaryIO

from .. import __version__
from ..candid import Principal
from .interface import IMPORTED
from .ops import DeviceError
from .weights_file import MAX_HEADER_BYTES, Layout, WeightsFileError, read_layout
from .weights_file import write as write_weights

__all__ = ["IMPORTED", "MAX_HEADER_BYTES", "WeightsFileError", "export", "layout"]

if TYPE_CHECKING:
    from .limits import DeviceLimits
    from .state import DeviceState

PUBLICATIONS = "moxzi.publications"  # metadata: which tensors are publications (comma-separated)


def export(device: DeviceState, caller: bytes, out: BinaryIO, *, prefix: str = "", publications: bool = False) -> int:
    """Write ``caller``'s parameters named ``prefix``... (without the prefix) and, with ``publications``,
    its publications named so, as a safetensors file to ``out``; the number of tensors. Holds the
    device for ``caller`` meanwhile (call it on a thread of its own)."""
    return device.schedule.submit(caller, lambda: _export(device, caller, out, prefix, publications)).result()


def _export(device: DeviceState, caller: bytes, out: BinaryIO, prefix: str, publications: bool) -> int:
    with device.schedule.turn(None, False):
        space = device.spaces.get(caller)
        chosen = {
            n.removeprefix(prefix): t for n, (t, _) in (space.params.items() if space else ()) if n.startswith(prefix)
        }
        published = {
            name.removeprefix(prefix): p.tensor
            for (owner, name), p in device.publications.items()
            if owner == caller and publications and name.startswith(prefix)
        }
        both = sorted(chosen.keys() & published.keys())
        if both:
            raise DeviceError(
                f"a parameter and a publication are both named {both[0]!r}: export them one at a time "
                "(without --publications, or with a --prefix only the publications have)"
            )
        tensors = {**chosen, **published}
        metadata = {"moxzi": __version__, "principal": Principal(caller).to_text()}
        if published:
            metadata[PUBLICATIONS] = ",".join(sorted(published))
        shapes = [(name, "F32", tuple(tensors[name].shape)) for name in sorted(tensors)]
        write_weights(out, shapes, lambda name: device.backend.to_bytes(tensors[name]), metadata)
        return len(tensors)


def layout(limits: DeviceLimits, file: BinaryIO, size: int) -> Layout:
    """The layout of a safetensors file within a device's ``limits`` (``WeightsFileError`` if not): a
    function of picklable values, so that it can run in another process."""
    return read_layout(
        file, size, max_tensors=limits.max_entries, max_name_bytes=limits.max_name_bytes, max_dims=limits.max_dims
    )
