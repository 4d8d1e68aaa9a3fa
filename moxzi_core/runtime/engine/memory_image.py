"""How an actor's memories lie in the store: 64 KiB chunks, each compressed with zstd, and no value at
all for a chunk that holds what the module's initial image holds there (zeros past that image's end);
a few 4 KiB pages written since a chunk was packed, each a value of its own beside it.

A chunk is a wasm page, 16 of the 4 KiB pages whose writes the memories track. Why not the 4 KiB pages
themselves: LMDB keeps a value larger than about half its own 4 KiB page on overflow pages of its own,
whole pages after a 16-byte header, so a 4 KiB value took two pages (gpt.mo's 248 MiB of heap, 63,512
values, took ~500 MB of the file). A compressed 64 KiB chunk (a Motoko heap compresses 2.5-2.8x at
zstd's level 1; lz4 is about twice as fast but compresses the same heap 1.9x) wastes half a page on
average.

Compressing 64 KiB costs ~0.1 ms, and rewriting a chunk's value costs LMDB its ~6 pages, which a
message that wrote one page of it should not pay each time: up to `MAX_PATCHES` pages of a chunk are
written as patches, each page compressed alone (at a faster level, `PATCH_LEVEL`) and stored under the chunk's name and its number in
the chunk, read over the chunk's value (or over the initial image's chunk, when it has none). Past
that, the chunk is packed whole and its patches go. (A store that keeps its values in memory takes a
patch for every page of a chunk written, or the chunk whole where a message wrote every page of it.)
Under ``memory/`` (or ``stable-memory/``)::

    <chunk, 8 bytes big-endian>          the chunk's value
    <chunk, 8 bytes><page in it, 1 byte>  a patch: that page's value

A value (a chunk's or a patch's) is a byte 0 and the zstd frame of its bytes, or, for a store that
keeps its values in memory (`Store.in_memory`: compressing would only cost time there), a byte 255
and the bytes themselves. Journal layout 5 wrote a chunk's patches inside its value instead: a count
k (1-4), k x (page: 1 byte, frame's length: 4 bytes little-endian), their frames, then the chunk's
(none: the initial image's chunk); those are read as they are. Every frame carries zstd's checksum,
so a damaged chunk or patch is found when it is read back.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping, Sequence

import numpy as np
import zstandard

from ...store import StoreError
from .memory import PAGE

CHUNK = 1 << 16
PAGES_PER_CHUNK = CHUNK // PAGE
LEVEL = 1  # a chunk's zstd level
# A patch's: it is packed on the actor's thread for every page a message wrote, before its next
# message, and a chunk holds a few at most (`MAX_PATCHES`). zstd's fast level -1 packs a 4 KiB page of a
# Motoko heap ~40% sooner than level 1, its frame ~5% larger (7.65x against 8.0x), read as any frame is.
PATCH_LEVEL = -1
# What ``repack`` (``moxzid compact``) compresses again at, off the write path: a gpt.mo heap's chunks
# (garbage, a quarter of it random Nat64s) take 0.85 of level 1's bytes, ~30 ms a chunk (level 19: 0.84,
# ~65 ms); levels 3-9 take more than level 1. Any level reads back at the same speed.
COLD_LEVEL = 15
MAX_PATCHES = 4  # patches a chunk may have; a message that would give it more packs it whole
_FRAME, _RAW = 0, 255  # a value's first byte: a zstd frame follows, or the bytes themselves
_FRAME_BYTE, _RAW_BYTE = bytes([_FRAME]), bytes([_RAW])
_ZEROS = bytes(CHUNK)
_codecs = threading.local()  # a zstd context serves one thread at a time: one per actor thread


def chunk_name(number: int) -> bytes:
    """The key of chunk ``number``'s value, after its memory's prefix."""
    return number.to_bytes(8, "big")


def patch_name(number: int, page: int) -> bytes:
    """The key of the patch of page ``page`` (0-15) of chunk ``number``, after its memory's prefix."""
    return (number << 8 | page).to_bytes(9, "big")  # (chunk_name(number) + bytes([page]), in one step)


def chunks_of_pages(pages: Mapping[int, bytes], page_size: int) -> dict[int, bytes]:
    """The chunks that hold the given pages (others zero), each a whole chunk."""
    chunks: dict[int, bytearray] = {}
    for number, content in pages.items():
        at = number * page_size
        chunk = chunks.setdefault(at // CHUNK, bytearray(CHUNK))
        chunk[at % CHUNK : at % CHUNK + len(content)] = content
    return {number: bytes(chunk) for number, chunk in chunks.items()}


def pack(content: bytes | memoryview, number: int, initial: bytes, compress: bool = True) -> bytes | None:
    """Chunk ``number`` (``content``: CHUNK bytes), packed whole (``compress``ed or not); None when it
    needs no value, holding what ``initial`` (the module's initial image) holds there."""
    own = _initial_chunk(initial, number)
    # (startswith, not ==: a memoryview compares with bytes a byte at a time, 85 µs a chunk)
    if len(content) >= len(own) and own.startswith(content[: len(own)]) and _ZEROS.startswith(content[len(own) :]):
        return None
    return _value(content, compress)


def _value(content: bytes | memoryview, compress: bool, patch: bool = False) -> bytes:
    """A chunk's value (a ``patch``'s: a page's, compressed at `PATCH_LEVEL`)."""
    if not compress:
        return _RAW_BYTE + content
    codec = _codec()
    return _FRAME_BYTE + (codec.patcher if patch else codec.compressor).compress(content)


class Packer:
    """Packs one memory's chunks for the store (an instance's main memory over its initial image, or
    its stable memory over zeros) as values by name (`chunk_name`, `patch_name`; None: delete it),
    knowing which patches the store holds: those it wrote, and those of the memory it was given
    (``adopt``). What it knows is what the store holds once the batch it packed for commits (moxzid
    stops if one does not). ``compress``: False for a store that keeps its values in memory."""

    def __init__(self, initial: bytes = b"", compress: bool = True):
        self.initial, self.compress = initial, compress
        self._patched: dict[int, set[int]] = {}  # chunk -> its pages that have patches

    def adopt(self, stored: Stored) -> None:
        """The memory is ``stored`` (restored from the store)."""
        self._patched = {number: set(pages) for number, pages in stored.patches.items()}

    def whole(self, image: bytes) -> dict[bytes, bytes | None]:
        """Every chunk of a whole memory (a full snapshot, which replaces all the store held)."""
        self._patched = {}
        count = -(-len(image) // CHUNK)
        return {
            chunk_name(n): pack(image[n * CHUNK : (n + 1) * CHUNK], n, self.initial, self.compress)
            for n in range(count)
        }

    def changed(
        self, pages: Iterable[int], read: Callable[[list[int], int], Sequence[bytes | memoryview]]
    ) -> dict[bytes, bytes | None]:
        """The values for ``pages`` (4 KiB page numbers a message wrote), their contents from
        ``read(numbers, pages)``: each run of ``pages`` pages numbered ``number * pages`` on
        (`TrackedMemory.runs`: views, each copied into its value here)."""
        if not pages:
            return {}
        by_chunk: dict[int, list[int]] = {}
        for page in sorted(pages):
            by_chunk.setdefault(page // PAGES_PER_CHUNK, []).append(page)
        values: dict[bytes, bytes | None] = {}
        patched, whole = [], []
        for number, written in by_chunk.items():
            if self._whole(number, written):
                whole.append(number)
            else:
                patched.extend(written)
                self._patched.setdefault(number, set()).update(page % PAGES_PER_CHUNK for page in written)
        for page, content in zip(patched, read(patched, 1)):
            values[patch_name(*divmod(page, PAGES_PER_CHUNK))] = _value(content, self.compress, patch=True)
        for number, content in zip(whole, read(whole, PAGES_PER_CHUNK)):
            values[chunk_name(number)] = pack(content, number, self.initial, self.compress)
            for at in self._patched.pop(number, ()):
                values[patch_name(number, at)] = None
        return values

    def _whole(self, number: int, written: list[int]) -> bool:
        """Whether chunk ``number``, of whose pages a message wrote ``written``, is packed whole (its
        patches deleted) rather than given patches for them."""
        if not self.compress:
            # A store in memory pays nothing per byte, but a value costs Python steps in each of the
            # packing, the batch and the store: a chunk written whole is one value, not 16 patches
            # (gpt.mo's train step writes ~24 whole chunks: ~50 values instead of ~400). A chunk
            # written in part gets patches, never copied whole for a few of its pages.
            return len(written) == PAGES_PER_CHUNK
        has = self._patched.get(number)
        return len(written) + (len(has.difference(p % PAGES_PER_CHUNK for p in written)) if has else 0) > MAX_PATCHES


class Stored:
    """A memory of ``size`` bytes as the store holds it: its values by name (`chunk_name`,
    `patch_name`); ``what`` names it in errors (the store, the actor). Raises StoreError for a name
    that is neither."""

    def __init__(self, size: int, values: Iterable[tuple[bytes, bytes]], what: str):
        self.size, self.what = size, what
        self.chunks: dict[int, bytes] = {}
        self.patches: dict[int, dict[int, bytes]] = {}  # chunk -> page in it -> the page's value
        for name, value in values:
            number = int.from_bytes(name[:8], "big")
            if len(name) == 8:
                self.chunks[number] = value
            elif len(name) == 9 and name[8] < PAGES_PER_CHUNK:
                self.patches.setdefault(number, {})[name[8]] = value
            else:
                raise StoreError(f"{what} is corrupt: {name.hex()} names no memory chunk")

    def over(self, initial: bytes) -> bytearray:
        """The whole memory: the stored chunks and patches, and elsewhere what ``initial`` holds (zeros
        past it). Raises StoreError for a damaged chunk or one beyond ``size``."""
        image = bytearray(self.size)
        self.write([np.frombuffer(image, dtype=np.uint8)], initial)
        return image

    def chunk(self, number: int) -> bytes | None:
        """Chunk ``number``'s contents, its patches applied; None where the store holds no value for
        it (the initial image's chunk, which this does not know). Raises ValueError for a damaged one."""
        value = self.chunks.get(number)
        if value is None or value[0] not in (_FRAME, _RAW):  # (layout 5's patches inline: over the initial image)
            return None
        content = _content(value, CHUNK)
        if len(content) != CHUNK:
            raise ValueError(f"a memory chunk at {number * CHUNK} is {len(content)} bytes")
        patches = self.patches.get(number, {})
        if not patches:
            return content
        patched = bytearray(content)
        for page, patch in patches.items():
            patched[page * PAGE : (page + 1) * PAGE] = _page(patch)
        return bytes(patched)

    def read(self, at: int, length: int) -> bytes | None:
        """The bytes at ``at`` (within one chunk or across several), as `chunk` gives them; None where
        one of their chunks is unknown."""
        parts = []
        for number in range(at // CHUNK, -(-(at + length) // CHUNK)):
            content = self.chunk(number)
            if content is None:
                return None
            parts.append(content)
        start = at % CHUNK
        return b"".join(parts)[start : start + length]

    def cleared(self, ranges: Iterable[tuple[int, int]]) -> dict[bytes, bytes | None]:
        """The values by name (None: delete it) that hold zeros in ``ranges`` and this memory elsewhere:
        each stored chunk that overlaps one, packed again at COLD_LEVEL with its patches folded in
        (their values deleted); a chunk the store holds no value for (the initial image's) keeps it, and
        its patches get zeros in the ranges."""
        spans: dict[int, list[tuple[int, int]]] = {}
        for start, end in ranges:
            for number in range(start // CHUNK, -(-end // CHUNK)):
                at = number * CHUNK
                spans.setdefault(number, []).append((max(start, at) - at, min(end, at + CHUNK) - at))
        values: dict[bytes, bytes | None] = {}
        compressor = zstandard.ZstdCompressor(level=COLD_LEVEL, write_checksum=True)
        for number, zeroed in spans.items():
            if number not in self.chunks:  # its patches over the initial image's chunk: zeros in those
                for page, patch in self.patches.get(number, {}).items():
                    if any(start < (page + 1) * PAGE and end > page * PAGE for start, end in zeroed):
                        within = [(start - page * PAGE, end - page * PAGE) for start, end in zeroed]
                        values[patch_name(number, page)] = _FRAME_BYTE + compressor.compress(
                            _zeroed(_page(patch), within)
                        )
                continue
            known = _ZEROS if zeroed == [(0, CHUNK)] else self.chunk(number)
            if known is None:
                continue
            values[chunk_name(number)] = _FRAME_BYTE + compressor.compress(_zeroed(known, zeroed))
            for page in self.patches.get(number, {}):
                values[patch_name(number, page)] = None
        return values

    def write(self, images: Sequence[np.ndarray], initial: bytes) -> int:
        """Write the whole memory (`over`) into each of ``images``, ``size`` bytes that hold zeros: a
        restored instance's own memory and its committed copy, so that no copy of it is made first (a
        heap of 320 MiB costs as much again to fill and copy). Return where what it wrote ends: past
        it, the memory is zero. Chunks that hold zeros are not written. The copies are numpy's and
        zstd decompresses, both without the GIL: actors restored side by side run at once."""

        def put(at: int, content: bytes) -> None:
            source = np.frombuffer(content, dtype=np.uint8)
            for image in images:
                image[at : at + len(source)] = source

        put(0, initial[: self.size])
        numbers = self.chunks.keys() | self.patches.keys()
        for number in numbers:
            at = number * CHUNK
            try:
                if at + CHUNK > self.size:
                    raise ValueError(f"a memory chunk at {at} lies outside {self.size} bytes")
                value, own = self.chunks.get(number, b""), _initial_chunk(initial, number)
                content = _unpack(value, own + _ZEROS[: CHUNK - len(own)])
                if len(content) != CHUNK:
                    raise ValueError(f"a memory chunk at {at} is {len(content)} bytes")
                put(at, content)
                for page, patch in self.patches.get(number, {}).items():
                    put(at + page * PAGE, _page(patch))
            except ValueError as error:
                raise StoreError(f"{self.what} is corrupt: {error}") from None
        return max(min(len(initial), self.size), (max(numbers) + 1) * CHUNK if numbers else 0)


def _zeroed(content: bytes, spans: Iterable[tuple[int, int]]) -> bytes:
    """``content`` with zeros in ``spans`` (offsets in it; what lies outside it changes nothing)."""
    cleared = bytearray(content)
    for start, end in spans:
        start, end = max(start, 0), min(end, len(cleared))
        cleared[start:end] = _ZEROS[: max(end - start, 0)]
    return bytes(cleared)


def chunk_of(value: bytes | None) -> bytes:
    """A whole chunk's contents from its value over zeros (None: zeros); raises ValueError for a value
    that is not one."""
    return _unpack(value or b"", _ZEROS)


def _page(patch: bytes) -> bytes:
    try:
        content = _content(patch, PAGE)
    except (IndexError, zstandard.ZstdError, ValueError) as error:
        raise ValueError(f"a memory page's patch is damaged ({error})") from None
    if len(content) != PAGE:
        raise ValueError("a memory page's patch is not a page")
    return content


def _content(value: bytes, most: int) -> bytes:
    """The bytes a value holds (`_value`)."""
    if value[0] == _RAW:
        return value[1:]
    if value[0] != _FRAME:
        raise ValueError(f"a value of kind {value[0]}")
    return _decompress(value[1:], most)


def _unpack(value: bytes, initial: bytes) -> bytes:
    """A chunk's contents from its value (none: ``initial``, the initial image's chunk); raises
    ValueError for a value that is not one (damaged, or too large). A value of layout 5 may carry
    patches inline (over ``initial``, when it has no frame), applied here."""
    if not value:
        return initial
    try:
        if value[0] in (_FRAME, _RAW):
            return _content(value, CHUNK)
        count, at, patches = value[0], 1 + 5 * value[0], []
        for i in range(count):
            page, size = value[1 + 5 * i], int.from_bytes(value[2 + 5 * i : 6 + 5 * i], "little")
            patches.append((page, value[at : at + size]))
            at += size
        frame = value[at:]
        content = bytearray(_decompress(frame, CHUNK) if frame else initial)
        for page, patch in patches:
            if page >= PAGES_PER_CHUNK or len(page_content := _decompress(patch, PAGE)) != PAGE:
                raise ValueError("a patch is not a page of the chunk")
            content[page * PAGE : (page + 1) * PAGE] = page_content
        return bytes(content)
    except (IndexError, zstandard.ZstdError, ValueError) as error:
        raise ValueError(f"a memory chunk is damaged ({error})") from None


def _decompress(frame: bytes, most: int) -> bytes:
    if not 0 <= zstandard.frame_content_size(frame) <= most:  # (-1: a frame that does not say)
        raise ValueError(f"not a zstd frame of at most {most} bytes")
    return _codec().decompressor.decompress(frame)


def repack(values: Sequence[bytes]) -> list[bytes | None]:
    """Chunks' and patches' values (`pack`, `Packer.changed`) compressed again at COLD_LEVEL, on every
    core: each value's replacement, or None where it gains nothing (not smaller; a raw value; a layout 5
    value, patches inside) or does not unpack (left for the restore that reads it to report)."""
    at: list[int] = []
    contents: list[bytes | bytearray | memoryview] = []
    for i, value in enumerate(values):
        if value[:1] == _FRAME_BYTE:
            try:
                contents.append(_decompress(value[1:], CHUNK))
            except (zstandard.ZstdError, ValueError):
                continue
            at.append(i)
    repacked: list[bytes | None] = [None] * len(values)
    if contents:
        compressor = zstandard.ZstdCompressor(level=COLD_LEVEL, write_checksum=True)
        frames = compressor.multi_compress_to_buffer(contents, threads=-1)
        for k, i in enumerate(at):
            frame = frames[k].tobytes()
            if len(frame) + 1 < len(values[i]):
                repacked[i] = _FRAME_BYTE + frame
    return repacked


def _initial_chunk(initial: bytes, number: int) -> bytes:
    return initial[number * CHUNK : (number + 1) * CHUNK]


class _Codec:
    def __init__(self) -> None:
        self.compressor = zstandard.ZstdCompressor(level=LEVEL, write_checksum=True)
        self.patcher = zstandard.ZstdCompressor(level=PATCH_LEVEL, write_checksum=True)
        self.decompressor = zstandard.ZstdDecompressor()


def _codec() -> _Codec:
    codec = getattr(_codecs, "codec", None)
    if codec is None:
        codec = _codecs.codec = _Codec()
    return codec
