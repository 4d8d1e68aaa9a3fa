"""Attachments: a system call's argument too large to hold in memory at once (a fetched export, a
weights import, the device's copy), kept in the store in parts of its own, a value each, and the spools
that write one as its bytes arrive. The journal names them in its records (``Journal.put_attachment``)."""

from __future__ import annotations

import hashlib
import io
import secrets
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from typing import BinaryIO, Protocol

import cbor2

from ..store import Batch, Store, StoreError

SYSTEM_ATTACHED = b"system/attached/"  # an attachment's index: [size, sha256, head]
SYSTEM_PARTS = b"system/parts/"  # its parts, by attachment and number
BATCH = 4 << 20  # an attachment is written this much per batch: what memory holds of it at a time
# An attachment's part, a value each: small and all alike, so that the pages a dropped attachment frees
# serve the next one (and the memory chunks), where a value of 4 MiB needed a free run of 1,025 pages
# that a store's freed pages seldom hold, and grew the file by each copy of the device.
_PART = 1 << 16
_MOST_PARTS = 1 << 10  # read in one ``Store.read_into``: 64 MiB


def _u64(n: int) -> bytes:
    return n.to_bytes(8, "big")


@dataclass
class Attachment:
    """A system call's argument too large to hold in memory at once (a fetched export): ``size`` bytes,
    read through ``open``. A record keeps it in parts of its own (``Journal.put_attachment``)."""

    size: int
    open: Callable[[], BinaryIO]  # a reader from its first byte
    close: Callable[[], None] = lambda: None  # release what holds it (a temporary file)
    ident: bytes | None = None  # where its parts lie in the store, once there
    sha256: bytes | None = None  # of its bytes, when whoever wrote them hashed them as they went
    head: bytes = b""  # a few bytes about them (a fetch's prefix and source), kept in the index

    @classmethod
    def of_file(cls, file: BinaryIO, sha256: bytes | None = None, head: bytes = b"") -> Attachment:
        """What ``file`` holds (a temporary file, closed with the attachment); ``sha256``: its bytes'
        digest, if the writer knows it (the store then keeps it without hashing them again)."""
        return cls(file.seek(0, io.SEEK_END), lambda: (file.seek(0), file)[1], file.close, sha256=sha256, head=head)


class Spool(Protocol):
    """Where a gathered argument too large for memory is written as it comes: ``write`` its bytes in
    order, then ``finish`` (the Attachment holding them) or ``discard``."""

    def write(self, data: bytes) -> None: ...
    def finish(self, sha256: bytes, head: bytes) -> Attachment: ...
    def discard(self) -> None: ...


class TemporarySpool:
    """A Spool in a temporary file, for a host that records nothing (no store)."""

    def __init__(self) -> None:
        self._file = tempfile.TemporaryFile()

    def write(self, data: bytes) -> None:
        self._file.write(data)

    def finish(self, sha256: bytes, head: bytes) -> Attachment:
        return Attachment.of_file(self._file, sha256, head)

    def discard(self) -> None:
        self._file.close()


class AttachmentWriter:
    """A Spool into the store: an attachment written as its bytes come, 4 MiB per batch (what memory holds of it
    at a time), rather than into a temporary file and copied in later. ``finish`` gives the Attachment,
    in the store already; ``discard`` drops what was written. Until a record or the copy names it,
    start-up drops it. The writes are cut into whole parts whatever their sizes (a fetch writes the
    pieces its transport received), each part a view of the write's bytes, not a copy; only a part that
    spans two writes is joined (a copy of at most a part). Written from one thread at a time."""

    def __init__(self, store: Store):
        self._store, self.ident = store, secrets.token_bytes(8)
        self._pending: list[bytes | memoryview] = []  # whole parts, committed a batch at a time
        self._begun: list[memoryview] = []  # the next part's bytes so far, from the last writes
        self._pending_bytes = self._begun_bytes = self._size = self._parts = 0
        batch = Batch()
        batch.put(SYSTEM_ATTACHED + self.ident, cbor2.dumps([0, None, b""]))  # found, if we stop here
        store.commit(batch)

    def write(self, data: bytes) -> None:
        view = memoryview(bytes(data))  # (bytes(data) is data itself, not a copy): the parts are views of it
        self._size += len(view)
        if self._begun:  # the part the last writes began, completed from this one's start
            taken = view[: _PART - self._begun_bytes]
            self._begun.append(taken)
            self._begun_bytes += len(taken)
            view = view[len(taken) :]
            if self._begun_bytes == _PART:
                self._part(b"".join(self._begun))
                self._begun, self._begun_bytes = [], 0
        whole = len(view) - len(view) % _PART
        for at in range(0, whole, _PART):
            self._part(view[at : at + _PART])
        if whole < len(view):
            self._begun, self._begun_bytes = [view[whole:]], len(view) - whole

    def finish(self, sha256: bytes, head: bytes) -> Attachment:
        """The attachment, whose bytes' digest is ``sha256`` (the writer's: not hashed again here). Read
        back at once, its parts are not checked against it (they were just written); read from a
        record, they are."""
        if self._begun:
            self._part(b"".join(self._begun))
        if self._pending:
            self._commit_parts()
        batch = Batch()
        batch.put(SYSTEM_ATTACHED + self.ident, cbor2.dumps([self._size, sha256, head]))
        self._store.commit(batch)
        store, ident = self._store, self.ident
        return Attachment(
            self._size,
            lambda: io.BufferedReader(StoredParts(store, ident, check=False)),
            ident=ident,
            sha256=sha256,
            head=head,
        )

    def discard(self) -> None:
        batch = Batch()
        drop(batch, self.ident)
        self._store.commit(batch)

    def _part(self, data: bytes | memoryview) -> None:
        self._pending.append(data)
        self._pending_bytes += len(data)
        if self._pending_bytes >= BATCH:
            self._commit_parts()

    def _commit_parts(self) -> None:
        batch = Batch()
        for data in self._pending:
            self._parts = put_parts(batch, self.ident, self._parts, data)
        self._store.commit(batch)
        self._pending, self._pending_bytes = [], 0


def put_parts(batch: Batch, ident: bytes, n: int, data: bytes | memoryview) -> int:
    """Put ``data`` as attachment ``ident``'s parts from part ``n`` on (views of it, not copies: it must
    not change until the batch is committed); the number of the next part."""
    view = memoryview(data)
    for at in range(0, len(view), _PART):
        batch.put(SYSTEM_PARTS + ident + b"/" + _u64(n), view[at : at + _PART])
        n += 1
    return n


class StoredParts(io.RawIOBase):
    """An attachment's bytes, read from the store a part at a time; with ``check``, checked against its
    digest at the end (raises StoreError there if they differ)."""

    def __init__(self, store: Store, ident: bytes, check: bool = True):
        self._store, self._ident, self._check_digest = store, ident, check
        self._next, self._part, self._digest = 0, memoryview(b""), hashlib.sha256()

    def readable(self) -> bool:
        return True

    def readinto(self, into) -> int:
        if not self._part and len(into) >= _PART:  # a tensor's bytes: many parts in one read, one copy
            into = memoryview(into).cast("B")
            keys = [self._key(self._next + i) for i in range(min(len(into) // _PART + 1, _MOST_PARTS))]
            n = sum(sizes := self._store.read_into(keys, into))
            if sizes:
                self._next += len(sizes)
                if self._check_digest:
                    self._digest.update(into[:n])
                return n
        if not self._part:
            part = self._store.get(self._key(self._next))
            if part is None:
                self._check()
                return 0
            self._next, self._part = self._next + 1, memoryview(part)
            if self._check_digest:
                self._digest.update(part)
        n = min(len(into), len(self._part))
        into[:n] = self._part[:n]
        self._part = self._part[n:]
        return n

    def _key(self, n: int) -> bytes:
        return SYSTEM_PARTS + self._ident + b"/" + _u64(n)

    def _check(self) -> None:
        if not self._check_digest:
            return
        index = self._store.get(SYSTEM_ATTACHED + self._ident)
        if index is None or cbor2.loads(index)[1] != self._digest.digest():
            raise StoreError(
                f"{self._store.description}: attachment {self._ident.hex()} (a recorded fetch "
                "or the device's copy) is damaged: its bytes do not match their sha256"
            )


def drop(batch: Batch, ident: bytes) -> None:
    """Drop attachment ``ident``: its index and its parts."""
    batch.delete(SYSTEM_ATTACHED + ident)
    batch.clear_prefix(SYSTEM_PARTS + ident + b"/")
