"""``moxzi_device_fetch``: download another machine's export and store its tensors as the caller's
publications, in two halves. ``download`` runs on the event loop (no device call waits for the
network) and gives the ``FETCHED`` call to run, its argument the downloaded export; ``fetched`` is that
call, which the host runs and records like any other, so a restart stores the same tensors without
the network."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from ...candid import DEFAULT_BUDGET, CandidError, decode_args
from ...runtime.attachments import Attachment, Spool, TemporarySpool
from ...runtime.messages import Outcome, Reject
from ..budget import publication_bytes, tensor_bytes
from ..interface import FETCH, FETCHED
from ..ops import FLOAT, DeviceError, Meta
from ..schedule import checkpoint
from ..space import Publication, Space
from ..state import DeviceState
from ..transfer import Fetched, InFlight, redact
from ..transfer import download as downloaded


async def download(
    device: DeviceState, caller: bytes, arg: bytes, spool: Callable[[], Spool] = TemporarySpool
) -> tuple[str, Attachment] | Outcome:
    """The fetch's first half: the FETCHED call to run, with the export downloaded, or a reject."""
    try:
        (spec,) = decode_args(arg, device.types[FETCH].args, budget=DEFAULT_BUDGET + len(arg))
        url = spec["url"]
        scheme, colon, _ = url.partition("://")
        transport = device.transports.get(scheme) if colon else None
        if transport is None:
            known = ", ".join(f"{s}://" for s in device.transports) or "none: no transport plugin is loaded"
            raise DeviceError(f"{redact(url)}: expected a URL this moxzid can download ({known})")
    except CandidError as error:
        return Outcome.reject(Reject.CANISTER_REJECT, f"{FETCH}: the argument does not match interface.did: {error}")
    except DeviceError as error:
        return Outcome.reject(Reject.CANISTER_REJECT, f"{FETCH}: {error}")
    flight, started = InFlight(redact(url)), time.monotonic()
    device.fetches[id(flight)] = (caller, flight, started)
    device.fetching(caller, flight, "start", started)
    failure: str | None = "the download was interrupted"  # unless it ends either way below
    try:
        limits = device.limits
        fetched = await downloaded(
            transport, url, spec["prefix"], limits.max_fetch_bytes, limits.fetch_seconds, spool, flight
        )
        failure = None
        return FETCHED, fetched
    except DeviceError as failed:
        failure = str(failed)
        return Outcome.reject(Reject.CANISTER_REJECT, f"{FETCH}: {failure}")
    finally:
        del device.fetches[id(flight)]
        device.fetching(caller, flight, "end", started, failure)


def fetched(device: DeviceState, caller: bytes, space: Space, attached: Attachment):
    """Store an export's tensors, once its layout, digest, names and shapes check out, as publications
    of the caller that only it may read, named prefix + name (replacing any of those names). Holds
    one tensor's bytes at a time beyond the tensors it makes."""
    export = Fetched(attached.open(), attached.head)
    names = []
    for name, meta in export.described:
        full = device.limits.name("publication", export.prefix + name)
        device.limits.shape(f"publication {full!r}", meta.shape)
        names.append(full)
    device.room(caller, space, sum((caller, full) not in device.publications for full in names))
    incoming = {full: meta for full, (_, meta) in zip(names, export.described)}
    device.admit(
        caller,
        during=sum(tensor_bytes(m) for m in incoming.values()),
        after=sum(
            publication_bytes(full, m, None) - device.publication_bytes(caller, full) for full, m in incoming.items()
        ),
        work=sum(m.numel for m in incoming.values()),
    )

    def make(data: memoryview, meta: Meta) -> Any:
        checkpoint()  # nothing is stored before every tensor is made
        return device.backend.tensor(data, FLOAT, meta.shape)

    made = export.tensors(make)
    for full, (_, meta), tensor in zip(names, export.described, made):
        device.publications[(caller, full)] = Publication(tensor, meta, None)
    return None, True
