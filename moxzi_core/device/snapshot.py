"""A copy of everything the device holds, and putting one back (``Device.snapshot``/``restore``).

A snapshot is a CBOR sequence read and written an entry at a time, so memory holds one entry's bytes
at once: a head (format and seed), then per space its parameters, optimizers (each followed by its
state, a parameter at a time, up to ``moments end``) and stored tensors, then the publications, then
``end``. Restored on a device with the same seed and ops, it continues exactly where the copy was
taken: the same later calls give the same bytes.
"""

from __future__ import annotations

from typing import BinaryIO

import cbor2

from .ops import FLOAT, DeviceError, Meta
from .space import OptimizerEntry, Publication, Space, readers_from_state, readers_to_state
from .state import DeviceState

FORMAT = 3  # an item per entry, and per parameter of an optimizer's state


def write_snapshot(device: DeviceState, out: BinaryIO) -> None:
    """Write everything ``device`` holds to ``out`` (holding the device meanwhile)."""

    def tensor(value, meta: Meta):
        return [meta.dtype, list(meta.shape), device.backend.save(value)]

    def optimizer(caller: bytes, name: str, e: OptimizerEntry) -> None:
        if not hasattr(e.state, "export"):
            raise DeviceError(
                f"the {e.kind} optimizer {device.providers[f'optimizer:{e.kind}']!r} provides "
                f"cannot be snapshotted: it has no export()"
            )
        cbor2.dump(["optimizer", caller, name, [e.kind, e.params, e.lr, e.hyper]], out)
        for param, state in e.state.export():
            cbor2.dump(["moments", param, state], out)
        cbor2.dump(["moments end"], out)

    with device.schedule.turn():
        cbor2.dump({"format": FORMAT, "seed": device.seed}, out)
        for caller, space in device.spaces.items():
            cbor2.dump(["space", caller], out)
            for name, pm in space.params.items():
                cbor2.dump(["param", caller, name, tensor(*pm)], out)
            for name, e in space.optimizers.items():
                optimizer(caller, name, e)
            for name, sm in space.stored.items():
                cbor2.dump(["stored", caller, name, tensor(*sm)], out)
        for (owner, name), p in device.publications.items():
            cbor2.dump(["publication", owner, name, [tensor(p.tensor, p.meta), readers_to_state(p.readers)]], out)
        cbor2.dump(["end"], out)


def read_snapshot(device: DeviceState, snapshot: BinaryIO) -> None:
    """Replace everything ``device`` holds with ``snapshot``, read an entry at a time; raises
    DeviceError, changing nothing, when it is of another format or seed, or damaged."""
    items = cbor2.CBORDecoder(snapshot)
    head = items.decode()
    if head.get("format") != FORMAT or head.get("seed") != device.seed:
        raise DeviceError(
            f"a snapshot of format {head.get('format')} and device seed {head.get('seed')} "
            f"cannot be restored on format {FORMAT} with seed {device.seed}"
        )

    def tensor(dtype, shape, raw):
        return device.backend.tensor(raw, FLOAT if dtype == FLOAT else "i64", tuple(shape)), Meta(tuple(shape), dtype)

    def optimizer(kind, params, lr, hyper):
        entry = OptimizerEntry(kind, list(params), lr, dict(hyper), device.kernels[f"optimizer:{kind}"](dict(hyper)))
        entry.state.restore(moments())
        return entry

    def moments():  # the items after an optimizer's, up to "moments end", read as restore asks
        while (item := items.decode())[0] == "moments":
            yield item[1], item[2]
        if item != ["moments end"]:
            raise ValueError(f"an optimizer's state ends with {item[0]!r}")

    spaces: dict[bytes, Space] = {}
    publications: dict[tuple[bytes, str], Publication] = {}
    try:
        while (item := items.decode()) != ["end"]:
            kind, owner, *rest = item
            if kind == "space":
                spaces[owner] = Space()
            elif kind == "param":
                name, (_, shape, raw) = rest
                spaces[owner].params[name] = (
                    device.backend.param(tuple(shape), {"values": raw}, 0),
                    Meta(tuple(shape)),
                )
            elif kind == "optimizer":
                spaces[owner].optimizers[rest[0]] = optimizer(*rest[1])
            elif kind == "stored":
                spaces[owner].stored[rest[0]] = tensor(*rest[1])
            elif kind == "publication":
                name, (t, readers) = rest
                value, meta = tensor(*t)
                publications[(owner, name)] = Publication(value, meta, readers_from_state(readers))
            else:
                raise ValueError(f"an entry of kind {kind!r}")
    except (cbor2.CBORDecodeError, ValueError, TypeError, KeyError) as error:
        raise DeviceError(f"the snapshot is damaged: {error}") from None
    if snapshot.read(1):
        raise DeviceError("the snapshot is damaged: it goes on after its end")
    with device.schedule.turn():
        device.spaces, device.publications = spaces, publications
        device.holdings.clear()
        for caller in {*spaces, *(owner for owner, _ in publications)}:
            device.holdings.set(caller, device.counted(caller))
