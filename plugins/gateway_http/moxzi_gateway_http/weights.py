"""``GET /weights/ACTOR`` and ``PUT /weights/ACTOR``: an actor's weights as a safetensors file, out and in
(moxzi_core.device.weights; `moxzi weights export|import`). Both stream: an export is written to a
temporary file in one turn of the device and sent from it, an import is written into the store (or a
temporary file) as it arrives, checked from its header on, then run as the actor's device call.

- ``GET /weights/ACTOR?prefix=P&publications=1``: 200 with the file; 404 without a device; 409 when a
  parameter and an exported publication share a name.
- ``PUT /weights/ACTOR?prefix=P`` with the file as the body (``Content-Length`` required: 411): 200
  ``{"imported": [names]}``; 400 for a malformed file (the header says what), 413 past
  ``MAX_IMPORT_BYTES``; the device's refusal (a shape that differs, the byte budget) answers as a
  rejected call does (422). A signed import (``controllers.py``) whose body's sha256 is not the signed
  one: 401, and nothing is imported.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import tempfile
from urllib.parse import quote

from aiohttp import web

from moxzi_core.device import Device, DeviceError
from moxzi_core.device import weights as device_weights
from moxzi_core.device.weights import layout
from moxzi_core.errors import MessageTooLarge, MoxziError
from moxzi_core.host_api import GatewayHost
from moxzi_core.runtime.messages import Outcome

from .codec import Codec
from .controllers import BadSignature

MAX_IMPORT_BYTES = 16 * 2**30  # a file larger than any device budget moxzid is likely to have
CHUNK = 2**20  # bytes read, written or sent at a time


class NoDevice(MoxziError):
    status = 404


class BadWeights(MoxziError):
    status = 400


class LengthRequired(MoxziError):
    status = 411


class WeightsConflict(MoxziError):
    status = 409


def _device(host: GatewayHost) -> Device:
    if not isinstance(host.system_state, Device):
        raise NoDevice("moxzid has no tensor device: start it with --device to export or import weights")
    return host.system_state


async def export(request: web.Request, host: GatewayHost, actor: str) -> web.StreamResponse:
    device = _device(host)
    starting = host.starting()
    if starting is not None:  # the device's state may not be rebuilt yet
        raise starting
    prefix = request.query.get("prefix", "")
    publications = request.query.get("publications", "") in ("1", "true", "yes")
    caller = host.info(actor).principal.bytes
    with tempfile.TemporaryFile() as file:
        try:
            await asyncio.to_thread(
                device_weights.export, device, caller, file, prefix=prefix, publications=publications
            )
        except DeviceError as error:
            raise WeightsConflict(f"weights of {actor}: {error}") from None
        size = file.seek(0, io.SEEK_END)
        file.seek(0)
        response = web.StreamResponse(
            headers={
                "Content-Type": "application/octet-stream",
                "Content-Length": str(size),
                "Content-Disposition": f"attachment; filename*=UTF-8''{quote(actor)}.safetensors",
            }
        )
        await response.prepare(request)
        while chunk := await asyncio.to_thread(file.read, CHUNK):
            await response.write(chunk)
        await response.write_eof()
    return response


async def import_(
    request: web.Request,
    host: GatewayHost,
    actor: str,
    body_secs: float,
    codec: Codec,
    signed_sha256: bytes | None = None,
) -> tuple[list[str], Outcome]:
    """The parameters the file sets (prefix + name) and the outcome of the import. The header is read
    by ``codec`` (in a codec process when it is large: reading a 100,000-tensor header takes about a
    second, and on the event loop every other request would wait). ``signed_sha256``: the hash a signed
    request said its body has; a body with another is refused (401) once it has arrived, and nothing is
    imported."""
    device = _device(host)
    prefix = request.query.get("prefix", "")
    if len(prefix.encode()) >= device.limits.max_name_bytes:
        raise BadWeights(f"prefix {prefix[:80]!r}: longer than a parameter name may be")
    size = request.content_length
    if size is None:
        raise LengthRequired("a weights import needs the file's Content-Length")
    if size > MAX_IMPORT_BYTES:
        raise MessageTooLarge(f"the file is {size} bytes; an import takes at most {MAX_IMPORT_BYTES}")
    head, body = b"", request.content

    async def read() -> bytes:  # the next piece of the body; one slower than body_secs is a 408
        try:
            async with asyncio.timeout(body_secs):
                return await body.read(CHUNK)
        except TimeoutError:
            raise BadWeights(f"the body stopped arriving for {body_secs:g} s (--http-body-secs)") from None

    # The header first, checked before anything is stored: a malformed file is refused early.
    while len(head) < 8 or len(head) < 8 + min(int.from_bytes(head[:8], "little"), device_weights.MAX_HEADER_BYTES):
        piece = await read()
        if not piece:
            break
        head += piece
    try:
        found = await codec.run(len(head), layout, device.limits, io.BytesIO(head), size)
    except device_weights.WeightsFileError as error:
        raise BadWeights(f"not a safetensors file moxzi reads: {error}") from None
    names = [prefix + t.name for t in found.tensors]

    spool, digest, received = host.system_spool(), hashlib.sha256(), 0
    try:
        while head:
            await asyncio.to_thread(spool.write, head)
            digest.update(head)
            received += len(head)
            head = await read()
        if received != size:
            raise BadWeights(f"the body has {received} bytes, but Content-Length says {size}")
        if signed_sha256 is not None and digest.digest() != signed_sha256:
            raise BadSignature(
                f"the body's sha256 is {digest.hexdigest()}, but the request's signature is for a body whose "
                f"sha256 is {signed_sha256.hex()}: nothing was imported"
            )
    except BaseException:
        spool.discard()
        raise
    attachment = spool.finish(digest.digest(), prefix.encode())
    return names, await host.call_system_for(actor, device_weights.IMPORTED, attachment)
