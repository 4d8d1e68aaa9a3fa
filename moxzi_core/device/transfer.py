"""Moving publications between machines: exports, their wire format, and the checks a fetch makes.

The network itself is a plugin's: a ``Transport`` (registered through ``register_transports``) serves
the device's exports and downloads the URLs of the schemes it names; the ``http`` plugin's serves
``http://HOST:PORT/export/<token>`` with ``--device-listen``. Everything a transport must not get
wrong is here, so every transport keeps the same guarantees: the body's layout, the header checked
before any data is kept, the digest checked as the bytes arrive, memory bounded to a few chunks.

An export is a URL ``PREFIX/<token>`` (the serving transport's prefix) for some of an actor's publications, as they
were when it was made (it holds the publications' tensors, which are never changed in place, so
exporting copies nothing). The token (``secrets.token_urlsafe(32)``: 256 random bits) is its only
authentication: on an untrusted network, put TLS in front of the transport. A URL serves
``uses`` downloads (default 1; a use counts when a download starts) until it expires (default and
longest: ten minutes).

Exports are ephemeral: they live in this process's memory, are never recorded nor part of a device
snapshot, and are gone after a restart. They change nothing a restart must rebuild. While it serves, an
export counts against its owner's device budget (``budget.export_bytes``): its record and names, and the
tensors it holds that are no longer a publication's (replaced or deleted since). A download under way
holds its export's tensors until it ends. Of the exports that no longer serve, each owner's last
``max_per_actor`` are remembered (a 410 that says why); an older token is a 404.

The body of an export, which a fetch checks before it stores anything::

    magic            b"MOXZIEX1"
    header length    u64, little-endian (at most MAX_HEADER_BYTES, 64 MiB)
    header           CBOR [[name, dtype, shape], ...]   dtype "f32": little-endian float32
    data             each tensor's bytes, row-major, in header order
    digest           sha256 of everything before it (32 bytes)

``Exports.body`` streams it tensor by tensor and hashes each chunk while the previous one is sent, so an
export holds at most one tensor's bytes beyond the publications themselves. ``download`` reads the
header first (it rejects a body that is too large before downloading it), then streams the rest into
the host's spool (the store's parts of a new attachment, as they come; without a store, a temporary
file), hashing each chunk while the next one arrives and writing it up to ``WRITES_AHEAD`` chunks
behind (the store writes 4 MiB batches), and checking the digest at the end.
That file, with the fetch's prefix and source as its head (``Attachment.head``), is the argument of the
call a fetch runs as (``moxzi_device_fetched``, recorded with its parts), so re-running the record at
start-up stores the same tensors without the network. The file holds the body alone, so its own
sha256, which the store keeps to check the parts it gives back, is the body's digest continued over its
last 32 bytes: the bytes are hashed once. Reading the file back (``Fetched``) holds one tensor's bytes
at a time.
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import contextlib
import hashlib
import io
import math
import secrets
import struct
import threading
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any, BinaryIO, Protocol, cast

import cbor2
import numpy as np

from ..runtime.attachments import Attachment, Spool
from .ops import ELEM_SIZES, FLOAT, DeviceError, Meta

MAGIC = b"MOXZIEX1"
# The largest header an export can have: 100,000 tensors (a space's most) of a 256-byte name, a type
# and 8 dims each take about 35 MB of CBOR.
MAX_HEADER_BYTES = 64 << 20
DIGEST_BYTES = 32
MAX_SOURCE_CHARS = 1024  # of the URL a fetched file names as its source
MAX_HEAD_BYTES = 16 << 10  # a fetched file's prefix (a device name's start) and source
LIFETIME_SECONDS = 600  # the longest an export serves, and the default
CHUNK = 1 << 20  # what a body hands the transport at a time, and what a download reads at a time
WRITES_AHEAD = 3  # chunks a download may have received and not yet written into its spool


class Download(Protocol):
    """One download's body as a transport receives it."""

    size: int | None  # the body's length as announced (Content-Length), None if not announced

    async def read(self, n: int) -> bytes:
        """Up to ``n`` bytes, b"" at the end of the body. Raises DeviceError when the transfer fails."""


class Transport(Protocol):
    """Moves export bodies over some network (see the module docstring)."""

    schemes: tuple[str, ...]  # the URL schemes it downloads, e.g. ("http", "https")

    async def start(self, exports: Exports) -> str | None:
        """Serve ``exports`` if this transport's settings ask it to: the URL prefix its exports get
        (``http://HOST:PORT/export``), or None when it serves nothing. Raises OSError when it cannot."""

    async def stop(self) -> None:
        """Stop serving."""

    def open(self, url: str) -> contextlib.AbstractAsyncContextManager[Download]:
        """The body at ``url``, which has one of ``schemes``. Raises DeviceError saying why not (an
        error status, a refused connection); it may time out a connection that stalls."""


@dataclass
class Export:
    owner: bytes
    tensors: list[tuple[str, Meta, Any]]  # exported name, type, the publication's tensor
    uses_left: int
    allowed: int
    expires: float  # time.monotonic()


class Exports:
    """One device's live exports. ``offer`` runs on the device's worker; ``take`` and ``body`` on the
    serving transport's event loop."""

    def __init__(self, save: Callable[[Any], bytes], max_per_actor: int):
        self._save = save  # a tensor's little-endian bytes (Backend.save)
        self._max_per_actor = max_per_actor
        self._lock = threading.Lock()
        self._live: dict[str, Export] = {}
        # token -> (why it no longer serves, forget at, owner), oldest first
        self._gone: dict[str, tuple[str, float, bytes]] = {}
        self._retired: set[bytes] = set()  # owners of exports gone since ``retired`` was last asked
        # When the next export expires or gone one is forgotten: every device call asks (``retired``),
        # and until then there is nothing to look for.
        self._due = math.inf
        self.prefix: str | None = None  # set by the transport that serves them (Transport.start)

    # --- the table ---------------------------------------------------------------------------
    def offer(self, owner: bytes, tensors: list[tuple[str, Meta, Any]], uses: int, seconds: int) -> str:
        """A new export's URL. Raises DeviceError when nothing serves exports or ``owner`` has too many."""
        if self.prefix is None:
            raise DeviceError("this moxzid serves no exports: start it with --device-listen HOST:PORT")
        token = secrets.token_urlsafe(32)
        with self._lock:
            self._forget_old(time.monotonic())
            live = sum(e.owner == owner for e in self._live.values())
            if live >= self._max_per_actor:
                raise DeviceError(f"this actor has {live} live exports; the limit is {self._max_per_actor}")
            export = self._live[token] = Export(owner, tensors, uses, uses, time.monotonic() + seconds)
            self._due = min(self._due, export.expires)
        return f"{self.prefix}/{token}"

    def of(self, owner: bytes) -> list[Export]:
        """``owner``'s exports that still serve."""
        with self._lock:
            self._forget_old(time.monotonic())
            return [e for e in self._live.values() if e.owner == owner]

    def retired(self) -> set[bytes]:
        """The owners of the exports that stopped serving (used up, expired) since this was last asked:
        what they hold on the device is less than last counted."""
        with self._lock:
            self._forget_old(time.monotonic())
            retired, self._retired = self._retired, set()
            return retired

    def live(self) -> list[tuple[str, Export]]:
        """The exports that still serve, as (URL with its token redacted, export), oldest first."""
        with self._lock:
            self._forget_old(time.monotonic())
            return [(redact(f"{self.prefix}/{token}"), export) for token, export in self._live.items()]

    def take(self, token: str) -> Export | tuple[int, str]:
        """The export for one download (counting the use), or (HTTP-like status, why not): 404 for a
        token never issued, 410 for one used up or expired."""
        now = time.monotonic()
        with self._lock:
            self._forget_old(now)
            export = self._live.get(token)
            if export is None:
                if token in self._gone:
                    return 410, self._gone[token][0]
                return 404, "there is no export with this token"
            export.uses_left -= 1
            if export.uses_left == 0:
                self._retire(token, f"the export is used up: it allowed {_downloads(export.allowed)}", export.expires)
            return export

    def _forget_old(self, now: float) -> None:
        if now < self._due:
            return
        for token in [t for t, e in self._live.items() if e.expires <= now]:
            self._retire(token, "the export expired", self._live[token].expires + LIFETIME_SECONDS)
        for token in [t for t, (_, until, _) in self._gone.items() if until <= now]:
            del self._gone[token]
        expiries = [e.expires for e in self._live.values()]
        self._due = min(expiries + [until for _, until, _ in self._gone.values()], default=math.inf)

    def _retire(self, token: str, why: str, forget_at: float) -> None:
        """The export ``token`` serves no more: remembered as gone, ``why``, until ``forget_at``, as one
        of its owner's last ``max_per_actor`` (so what an actor's exports leave behind is bounded too)."""
        owner = self._live.pop(token).owner
        self._retired.add(owner)
        self._gone[token] = (why, forget_at, owner)
        self._due = min(self._due, forget_at)
        theirs = [t for t, (_, _, o) in self._gone.items() if o == owner]
        for old in theirs[: len(theirs) - self._max_per_actor]:
            del self._gone[old]

    async def body(self, export: Export) -> AsyncIterator[bytes | memoryview]:
        """The export's body (see the module docstring) in chunks of at most CHUNK bytes; its length is
        ``body_size(export)``. Each tensor's bytes are made off the event loop, one tensor at a time."""
        head = _body_head(export)
        digest = hashlib.sha256(head)
        yield head
        for _, _, tensor in export.tensors:  # made off the event loop and off the device's worker
            data = memoryview(await asyncio.to_thread(self._save, tensor))
            for at in range(0, len(data), CHUNK):
                # the chunk is hashed (hashlib lets go of the GIL) while the transport sends it
                hashing = asyncio.ensure_future(asyncio.to_thread(digest.update, data[at : at + CHUNK]))
                try:
                    yield data[at : at + CHUNK]
                finally:
                    await hashing
            del data
        yield digest.digest()


def body_size(export: Export) -> int:
    """The length of ``Exports.body(export)``."""
    return len(_body_head(export)) + _data_bytes(m for _, m, _ in export.tensors) + DIGEST_BYTES


def _body_head(export: Export) -> bytes:
    """What an export's body starts with: the magic, the header's length and the header."""
    header = cbor2.dumps([[name, meta.dtype, list(meta.shape)] for name, meta, _ in export.tensors])
    return MAGIC + struct.pack("<Q", len(header)) + header


# --- fetching ----------------------------------------------------------------------------------
@dataclass
class InFlight:
    """A download as it goes, for watchers: ``size`` once the body announced it, ``received`` so far."""

    url: str  # redacted
    size: int | None = None
    received: int = 0


async def download(
    transport: Transport,
    url: str,
    prefix: str,
    max_bytes: int,
    seconds: float,
    spool: Callable[[], Spool],
    flight: InFlight | None = None,
) -> Attachment:
    """The argument of the call a fetch runs as: the export's body from ``url`` through ``transport``, at
    most ``max_bytes`` of it, within ``seconds``, written into a new ``spool()``, with ``prefix`` and the
    URL (its token shortened) as its head. The header is checked before the data is read, the digest as
    it is; ``flight`` follows the bytes as they arrive. Raises DeviceError saying what went wrong (the
    spool discarded)."""
    where = redact(url)
    flight = flight or InFlight(where)
    head = _head(prefix, where)
    if len(head) > MAX_HEAD_BYTES:
        raise DeviceError(f"{where}: the prefix is {len(prefix.encode())} bytes; names are far shorter")
    out = spool()
    try:
        try:
            async with asyncio.timeout(seconds), transport.open(url) as body:
                digest = await _read(body, where, max_bytes, out, flight)
        except TimeoutError:
            raise DeviceError(f"{where}: the download took longer than {seconds:g} s or stalled") from None
        return await asyncio.to_thread(out.finish, digest, head)
    except BaseException:
        out.discard()
        raise


def _head(prefix: str, where: str) -> bytes:
    """A fetched file's head: CBOR [prefix, where it came from (its first MAX_SOURCE_CHARS characters)]."""
    return cbor2.dumps([prefix, where[:MAX_SOURCE_CHARS]])


async def _read(body: Download, where: str, max_bytes: int, out: Spool, flight: InFlight) -> bytes:
    """Check and keep the body in ``out``: the sha256 of what ``out`` then holds."""
    size = flight.size = body.size
    if size is None:
        raise DeviceError(f"{where}: the answer has no Content-Length; not an export")
    if size > max_bytes:
        raise DeviceError(f"{where}: the export is {size} bytes; the limit is {max_bytes}")
    start = await _exactly(body, len(MAGIC) + 8, where)
    if start[: len(MAGIC)] != MAGIC:
        raise DeviceError(f"{where}: the answer is not an export (no {MAGIC.decode()} at its start)")
    header_size = struct.unpack_from("<Q", start, len(MAGIC))[0]
    if header_size > MAX_HEADER_BYTES:  # it is read whole into memory: refused before a byte of it is
        raise DeviceError(f"{where}: the export's header is {header_size} bytes; the limit is {MAX_HEADER_BYTES}")
    if len(start) + header_size + DIGEST_BYTES > size:
        raise DeviceError(f"{where}: the export's header ({header_size} bytes) does not fit its {size} bytes")
    header = await _exactly(body, header_size, where)
    data = _data_bytes(m for _, m in _header(header))
    if len(start) + header_size + data + DIGEST_BYTES != size:
        raise DeviceError(
            f"{where}: the export's header describes {len(start) + header_size + data + DIGEST_BYTES}"
            f" bytes, but it is {size}"
        )
    digest = hashlib.sha256()
    # Off the event loop, on threads of their own: each chunk is hashed while the next one arrives, and
    # written (in order, on one thread) while the next ones arrive and are hashed, up to WRITES_AHEAD
    # chunks behind: a store's write of a batch (every 4 MiB) takes longer than a chunk's arrival, and
    # waiting for it with each chunk stopped the download meanwhile.
    loop, writer = asyncio.get_running_loop(), concurrent.futures.ThreadPoolExecutor(1, "moxzi-fetch-write")
    hashing = asyncio.ensure_future(asyncio.to_thread(_hash, digest, [start, header]))
    writes = collections.deque([loop.run_in_executor(writer, _write, out, [start, header])])
    flight.received += len(start) + len(header)
    try:
        left = data
        while left:
            pieces = await _chunk(body, min(CHUNK, left), flight)
            if not pieces:
                raise DeviceError(f"{where}: the export was cut off after {size - DIGEST_BYTES - left} of {size} bytes")
            await hashing
            hashing = asyncio.ensure_future(asyncio.to_thread(_hash, digest, pieces))
            writes.append(loop.run_in_executor(writer, _write, out, pieces))
            while len(writes) > WRITES_AHEAD:
                await writes.popleft()
            left -= sum(map(len, pieces))
        await hashing
        while writes:
            await writes.popleft()
    finally:  # nothing writes into the spool once this ends (it is discarded or finished next)
        await asyncio.wait([hashing, *writes])
        await asyncio.to_thread(writer.shutdown, cancel_futures=True)  # a write a cancel left running
    sent = await _exactly(body, DIGEST_BYTES, where)
    if sent != digest.digest():
        raise DeviceError(f"{where}: the export's sha256 digest does not match its bytes (corrupted in transfer)")
    await asyncio.to_thread(out.write, sent)
    flight.received += len(sent)
    digest.update(sent)  # the body's digest, continued: the whole file's
    return digest.digest()


def _hash(digest: Any, pieces: list[bytes]) -> None:
    for piece in pieces:
        digest.update(piece)


def _write(out: Spool, pieces: list[bytes]) -> None:
    for piece in pieces:
        out.write(piece)


async def _chunk(body: Download, n: int, flight: InFlight) -> list[bytes]:
    """Up to ``n`` bytes, fewer only at the end of the body (none: an empty list), as the pieces the
    transport handed over: what it has at hand is often less, and each chunk costs a hop to a worker
    thread; joined, they would be copied on the event loop. ``flight`` counts the bytes as they arrive."""
    pieces, got = [], 0
    while got < n:
        piece = await body.read(n - got)
        if not piece:
            break
        pieces.append(piece)
        got += len(piece)
        flight.received += len(piece)
    return pieces


async def _exactly(body: Download, n: int, where: str) -> bytes:
    got = bytearray()
    while len(got) < n:
        chunk = await body.read(n - len(got))
        if not chunk:
            raise DeviceError(
                f"{where}: the export was cut off ({len(got)} of {n} bytes of "
                f"its {'digest' if n == DIGEST_BYTES else 'header'})"
            )
        got += chunk
    return bytes(got)


class Fetched:
    """A fetched file (``download``) read front to back, with its head: ``prefix``, ``source`` (the URL,
    shortened) and ``described`` (the tensors' names and types) at once; the tensors by ``tensors``.
    Raises DeviceError, prefixed by the source, for a file not laid out as an export. Its digest is not
    hashed again: ``download`` checked it as the bytes arrived, and a recorded file comes back from the
    store checked against its own sha256 (``Attachment``) once read to the end."""

    def __init__(self, reader: BinaryIO, head: bytes):
        self._reader = cast(io.BufferedIOBase, reader)  # buffered: readinto fills all it can
        self.source = "the recorded fetch"
        try:
            self.prefix, self.source = cbor2.loads(head)
        except (cbor2.CBORDecodeError, ValueError, TypeError):
            raise DeviceError("the recorded fetch has no prefix and source") from None
        start = self._exactly(len(MAGIC) + 8)
        if start[: len(MAGIC)] != MAGIC:
            raise DeviceError(f"{self.source}: the bytes are not an export")
        header_size = struct.unpack_from("<Q", start, len(MAGIC))[0]
        if header_size > MAX_HEADER_BYTES:
            raise DeviceError(f"{self.source}: the export's header is {header_size} bytes")
        try:
            self.described = _header(self._exactly(header_size))
        except DeviceError as error:
            raise DeviceError(f"{self.source}: {error}") from None

    def tensors(self, make: Callable[[memoryview, Meta], Any]) -> list:
        """``make(bytes, type)`` of each tensor in ``described``'s order (the bytes are the tensor's
        own, writable: ``make`` may keep them), once all of them and the digest after them were read
        to the file's end."""
        made = [make(self._exactly(meta.numel * ELEM_SIZES[meta.dtype], _unzeroed), meta) for _, meta in self.described]
        self._exactly(DIGEST_BYTES)
        if self._reader.read(1):
            raise DeviceError(f"{self.source}: the export's size does not match its header (padded)")
        return made

    def _exactly(self, n: int, new: Callable[[int], Any] = bytearray) -> Any:
        data = new(n)
        if self._reader.readinto(data) != n:  # a buffered reader gives all it asks for but at the end
            raise DeviceError(f"{self.source}: the export is cut off (truncated)")
        return data


def _unzeroed(n: int) -> memoryview:
    """``n`` writable bytes, not zeroed first: the read fills them all, and zeroing a tensor's bytearray
    first was a pass of its own (64 MiB: ~36 ms of CPU, where numpy's memory and the copy took ~9 ms)."""
    return np.empty(n, np.uint8).data


def _header(raw: bytes | bytearray) -> list[tuple[str, Meta]]:
    """The (name, type) list a header describes; raises DeviceError for anything else."""
    try:
        entries = cbor2.loads(raw)
    except (cbor2.CBORDecodeError, ValueError, TypeError, RecursionError):
        raise DeviceError("the export's header is not CBOR") from None
    if not isinstance(entries, list):
        raise DeviceError("the export's header is not a list of tensors")
    out, seen = [], set()
    for n, entry in enumerate(entries):
        ok = (
            isinstance(entry, list)
            and len(entry) == 3
            and isinstance(entry[0], str)
            and entry[1] == FLOAT
            and isinstance(entry[2], list)
            and all(isinstance(d, int) and not isinstance(d, bool) and 0 <= d < 2**32 for d in entry[2])
        )
        if not ok:
            raise DeviceError(f'the export\'s tensor {n} is {entry!r:.100}; expected [name, "f32", shape]')
        if entry[0] in seen:
            raise DeviceError(f"the export names tensor {entry[0]!r} twice")
        seen.add(entry[0])
        out.append((entry[0], Meta(tuple(entry[2]), FLOAT)))
    return out


def _data_bytes(metas) -> int:
    return sum(math.prod(m.shape) * ELEM_SIZES[m.dtype] for m in metas)


def _downloads(n: int) -> str:
    return "1 download" if n == 1 else f"{n} downloads"


def redact(url: str) -> str:
    """``url`` as messages, logs and events show it: an export token (the path's last part) cut to its
    first 6 characters, and what could hold a secret elsewhere (a query, a fragment, a user and
    password) replaced by ``…``, so no part of a token is shown whole wherever the URL put it."""
    scheme, slashes, rest = url.partition("://")
    if not slashes:
        scheme, rest = "", url
    end = min((i for i in (rest.find("?"), rest.find("#")) if i >= 0), default=len(rest))
    rest, secret = rest[:end], rest[end : end + 1]
    authority, slash, path = rest.partition("/") if slashes else ("", "", rest)
    if "@" in authority:
        authority = "…@" + authority.rpartition("@")[2]
    base, last, token = path.rpartition("/")
    if len(token) > 12:
        path = f"{base}{last}{token[:6]}…"
    return f"{scheme}{slashes}{authority}{slash}{path}{secret and secret + '…'}"
