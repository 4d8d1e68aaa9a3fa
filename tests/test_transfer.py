"""A fetch's download and the file it keeps (moxzi_core.device.transfer), over an in-process transport
that hands the body out in small pieces: the digest is checked, memory stays bounded, the file is hashed
once and the store checks what it gives back against that digest."""

import contextlib
import hashlib
import io
import tracemalloc

import pytest

from moxzi_core.device import DeviceError
from moxzi_core.device.ops import Meta
from moxzi_core.device.transfer import DIGEST_BYTES, Exports, Fetched, body_size, download, redact
from moxzi_core.runtime.attachments import TemporarySpool
from moxzi_core.runtime.journal import Journal
from moxzi_core.store import Batch, MemoryStore, StoreError

URL = "fake://exporter/export/0123456789abcdefghijklmnop"


async def export_body(tensors: dict[str, bytes]) -> bytes:
    """The body moxzid's exports serve for these float32 tensors (save() is the identity here)."""
    exports = Exports(lambda t: t, max_per_actor=1)
    exports.prefix = "fake://exporter/export"
    token = exports.offer(b"\x01", [(n, Meta((len(t) // 4,)), t) for n, t in tensors.items()], 1, 60)
    export = exports.take(token.rpartition("/")[2])
    body = b"".join([bytes(chunk) async for chunk in exports.body(export)])
    assert len(body) == body_size(export)
    return body


class PieceTransport:
    """Serves ``body`` for any URL, ``piece`` bytes a read at most; counts the downloads opened."""

    schemes = ("fake",)

    def __init__(self, body: bytes, piece: int):
        self.body, self.piece, self.opened = body, piece, 0

    @contextlib.asynccontextmanager
    async def open(self, url):
        self.opened += 1
        yield Pieces(self.body, self.piece)


class Pieces:
    def __init__(self, body: bytes, piece: int):
        self.size, self._body, self._piece, self._at = len(body), memoryview(body), piece, 0

    async def read(self, n: int) -> bytes:
        piece = bytes(self._body[self._at : self._at + min(n, self._piece)])
        self._at += len(piece)
        return piece


TENSORS = {"w": bytes(range(256)) * 4096, "b": b"\x01\x00\x80\x3f" * 1000}  # 1 MiB and 4,000 bytes


async def test_a_download_is_hashed_once_and_the_store_checks_its_parts_against_that():
    body = await export_body(TENSORS)
    fetched = await download(PieceTransport(body, 1000), URL, "far/", len(body), 60, TemporarySpool)
    kept = fetched.open().read()  # a temporary file, until fetched.close()
    assert kept == body and fetched.sha256 == hashlib.sha256(kept).digest()
    export = Fetched(io.BytesIO(kept), fetched.head)
    assert (export.prefix, export.source) == ("far/", "fake://exporter/export/012345…")
    assert [(n, m.shape) for n, m in export.described] == [("w", (262144,)), ("b", (1000,))]
    assert [bytes(t) for t in export.tensors(lambda data, meta: data)] == list(TENSORS.values())

    journal = Journal(MemoryStore())
    journal.put_attachment(fetched)  # the digest is the download's: not hashed again
    recorded = Batch()
    Journal.system_call(recorded, 0, b"\x01", "moxzi_device_fetched", fetched)
    journal.store.commit(recorded)
    [(_, (_, _, stored))] = journal.system_calls()
    assert stored.open().read() == kept and stored.head == fetched.head  # read to its end: parts checked
    parts = [k for k, _ in journal.store.scan(b"system/parts/" + fetched.ident)]
    damaged = Batch()
    damaged.put(parts[0], b"\x00" + journal.store.get(parts[0])[1:])
    journal.store.commit(damaged)
    with pytest.raises(StoreError, match="do not match their sha256"):
        stored.open().read()
    fetched.close()


@pytest.mark.parametrize("damage", ["data", "digest"])
async def test_a_corrupted_body_is_refused(damage):
    body = bytearray(await export_body(TENSORS))
    body[-DIGEST_BYTES - 10 if damage == "data" else -1] ^= 0x40
    with pytest.raises(DeviceError, match="sha256 digest does not match its bytes"):
        await download(PieceTransport(bytes(body), 777), URL, "far/", len(body), 60, TemporarySpool)


async def test_a_prefix_too_long_for_any_name_is_refused_before_the_download():
    transport = PieceTransport(await export_body(TENSORS), 1000)
    with pytest.raises(DeviceError, match="the prefix is 20000 bytes"):
        await download(transport, URL, "p" * 20_000, 10 << 20, 60, TemporarySpool)
    assert transport.opened == 0


async def test_a_download_holds_a_few_chunks_whatever_the_export_size():
    body = await export_body({f"t{i}": bytes([i]) * (4 << 20) for i in range(16)})  # 64 MiB
    transport = PieceTransport(body, 64 << 10)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        fetched = await download(transport, URL, "far/", len(body), 120, TemporarySpool)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    try:
        assert fetched.size == len(body)
        assert peak - before < 8 << 20, f"peak {(peak - before) / 2**20:.1f} MiB for a 64 MiB download"
    finally:
        fetched.close()


async def test_a_download_into_the_store_writes_its_parts_as_they_come():
    """With a store, the body goes into an attachment's parts as it arrives (no temporary file), kept
    with the download's digest and the fetch's head; a corrupted body leaves nothing behind."""
    body = await export_body({f"t{i}": bytes([i]) * (3 << 20) for i in range(3)})  # 9 MiB: 3 batches
    journal = Journal(MemoryStore())
    fetched = await download(PieceTransport(body, 100_000), URL, "far/", len(body), 60, journal.attachment_writer)
    assert fetched.ident is not None and journal.attachments() == [fetched.ident]
    parts = [part for _, part in journal.store.scan(b"system/parts/" + fetched.ident)]
    # values all alike, none large: the transport's pieces (100,000 bytes) cut into whole parts
    assert b"".join(parts) == body and {len(part) for part in parts[:-1]} == {64 << 10}
    assert fetched.open().read() == body and fetched.sha256 == hashlib.sha256(body).digest()
    recorded = Batch()
    Journal.system_call(recorded, 0, b"\x01", "moxzi_device_fetched", fetched)
    journal.store.commit(recorded)
    [(_, (_, _, stored))] = journal.system_calls()
    assert stored.open().read() == body and stored.head == fetched.head  # checked against the digest

    damaged = bytearray(body)
    damaged[100] ^= 1
    with pytest.raises(DeviceError, match="sha256 digest does not match"):
        await download(PieceTransport(bytes(damaged), 100_000), URL, "far/", len(body), 60, journal.attachment_writer)
    assert journal.attachments() == [fetched.ident]  # the refused download's parts are gone


@pytest.mark.parametrize(
    "url, shown",
    [
        ("http://h:7/export/TOKEN-0123456789abcdef", "http://h:7/export/TOKEN-…"),
        ("http://h:7/export/TOKEN-0123456789abcdef?via=/x", "http://h:7/export/TOKEN-…?…"),
        ("http://h:7/export/TOKEN-0123456789abcdef#/x", "http://h:7/export/TOKEN-…#…"),
        ("http://h:7/fetch?token=TOKEN-0123456789abcdef", "http://h:7/fetch?…"),
        ("https://user:TOKEN-0123456789abcdef@h/x", "https://…@h/x"),
        ("http://h:7/export/short", "http://h:7/export/short"),
    ],
)
def test_a_token_is_redacted_wherever_the_url_puts_it(url, shown):
    assert redact(url) == shown
    assert "0123456789abcdef" not in redact(url)
