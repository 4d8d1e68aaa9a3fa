"""How an actor's memories lie in the store: 64 KiB chunks, each compressed with zstd, and no value at
all for a chunk that holds what the module's initial image holds there (zeros past that image's end).

A chunk is a wasm page, 16 of the 4 KiB pages whose writes the memories track. Why not the 4 KiB pages
themselves: LMDB keeps a value larger than about half its own 4 KiB page on overflow pages of its own,
whole pages after a 16-byte header, so a 4 KiB value took two pages (gpt.mo's 248 MiB of heap, 63,512
values, took ~500 MB of the file). A compressed 64 KiB chunk (a Motoko heap compresses 2.5-2.8x at
zstd's level 1; lz4 is about twice as fast but compresses the same heap 1.9x) wastes half a page on
average.

Compressing 64 KiB costs ~0.1 ms, which a message that wrote one page of a chunk should not pay each
time: a `Packer` keeps the values it packed last for the chunks written most recently, and writes a
few changed pages of one of those as patches, each page compressed alone, after the chunk's last whole
frame. A value is::

    k (1 byte), k x (page in the chunk: 1 byte, its frame's length: 4 bytes, little-endian),
    the k pages' frames, then the chunk's frame (none: the initial image's chunk)

Every frame carries zstd's checksum, so a damaged chunk is found when it is read back.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

import zstandard

from ..store import StoreError
from .memory import PAGE

CHUNK = 1 << 16
PAGES_PER_CHUNK = CHUNK // PAGE
LEVEL = 1
MAX_PATCHES = 4  # pages a value may carry after its chunk's frame; more, and the chunk is packed whole
RECENT = 128  # chunks whose values a Packer keeps (a few MB): the ones messages write again
_ZEROS = bytes(CHUNK)
_codecs = threading.local()  # a zstd context serves one thread at a time: one per actor thread


def chunks_of_pages(pages: Mapping[int, bytes], page_size: int) -> dict[int, bytes]:
    """The chunks that hold the given pages (others zero), each a whole chunk."""
    chunks: dict[int, bytearray] = {}
    for number, content in pages.items():
        at = number * page_size
        chunk = chunks.setdefault(at // CHUNK, bytearray(CHUNK))
        chunk[at % CHUNK : at % CHUNK + len(content)] = content
    return {number: bytes(chunk) for number, chunk in chunks.items()}


def pack(content: bytes, number: int, initial: bytes) -> bytes | None:
    """Chunk ``number`` (``content``: at most CHUNK bytes), packed whole; None when it needs no value,
    holding what ``initial`` (the module's initial image) holds there."""
    return _Packed.of(content, _initial_chunk(initial, number)).value()


@dataclass
class _Packed:
    """A chunk's value: its whole frame (empty: the initial image's chunk) and patches, by page."""

    frame: bytes
    patches: dict[int, bytes] = field(default_factory=dict)

    @classmethod
    def of(cls, content: bytes, initial: bytes) -> _Packed:
        if content[: len(initial)] == initial and content[len(initial) :] == _ZEROS[: len(content) - len(initial)]:
            return cls(b"")
        return cls(_codec().compressor.compress(content))

    def value(self) -> bytes | None:
        if not self.frame and not self.patches:
            return None
        pages = sorted(self.patches)
        header = b"".join(bytes([page]) + len(self.patches[page]).to_bytes(4, "little") for page in pages)
        return b"".join([bytes([len(pages)]), header, *(self.patches[page] for page in pages), self.frame])


class Packer:
    """Packs one memory's chunks for the store (an instance's main memory over its initial image, or
    its stable memory over zeros), keeping the values of the `RECENT` chunks packed last so that a few
    pages changed in one of those are packed alone. What it keeps is what the store holds once the
    batch it packed for commits (moxzid stops if one does not)."""

    def __init__(self, initial: bytes = b""):
        self.initial = initial
        self._recent: OrderedDict[int, _Packed] = OrderedDict()

    def whole(self, image: bytes) -> dict[int, bytes | None]:
        """Every chunk of a whole memory (a full snapshot, which replaces all the store held)."""
        self._recent.clear()
        return self._pack_whole({n: image[n * CHUNK : (n + 1) * CHUNK] for n in range(-(-len(image) // CHUNK))})

    def changed(self, pages: Iterable[int], read: Callable[[list[int], int], list[bytes]]) -> dict[int, bytes | None]:
        """The values of the chunks that hold ``pages`` (4 KiB page numbers a message wrote), their
        contents from ``read(numbers, pages)``: each run of ``pages`` pages numbered ``number * pages``
        on (`TrackedMemory.runs`)."""
        by_chunk: dict[int, set[int]] = {}
        for page in pages:
            by_chunk.setdefault(page // PAGES_PER_CHUNK, set()).add(page)
        values, whole = {}, []
        for number, written in sorted(by_chunk.items()):
            packed = self._recent.get(number)
            if packed is None or len(packed.patches.keys() | {p % PAGES_PER_CHUNK for p in written}) > MAX_PATCHES:
                whole.append(number)
                continue
            ordered = sorted(written)
            for page, content in zip(ordered, read(ordered, 1)):
                packed.patches[page % PAGES_PER_CHUNK] = _codec().compressor.compress(content)
            self._recent.move_to_end(number)
            values[number] = packed.value()
        values.update(self._pack_whole(dict(zip(whole, read(whole, PAGES_PER_CHUNK)))))
        return values

    def _pack_whole(self, chunks: dict[int, bytes]) -> dict[int, bytes | None]:
        values = {}
        for number, content in chunks.items():
            packed = _Packed.of(content, _initial_chunk(self.initial, number))
            self._recent[number] = packed
            self._recent.move_to_end(number)
            values[number] = packed.value()
        while len(self._recent) > RECENT:
            self._recent.popitem(last=False)
        return values


class Stored:
    """A memory of ``size`` bytes as the store holds it: its chunks' values, by number; ``what`` names
    it in errors (the store, the actor)."""

    def __init__(self, size: int, chunks: dict[int, bytes], what: str):
        self.size, self.chunks, self.what = size, chunks, what

    def over(self, initial: bytes) -> bytearray:
        """The whole memory: the stored chunks, and elsewhere what ``initial`` holds (zeros past it).
        Raises StoreError for a damaged chunk or one beyond ``size``."""
        image = bytearray(self.size)
        image[: min(len(initial), self.size)] = initial[: self.size]
        for number, value in self.chunks.items():
            at = number * CHUNK
            try:
                content = _unpack(value, _initial_chunk(initial, number))
                if at + len(content) > self.size:
                    raise ValueError(f"a memory chunk at {at} lies outside {self.size} bytes")
            except ValueError as error:
                raise StoreError(f"{self.what} is corrupt: {error}") from None
            image[at : at + len(content)] = content
        return image


def _unpack(value: bytes, initial: bytes) -> bytes:
    """A chunk's contents from its value (``initial``: the initial image's chunk); raises ValueError
    for a value that is not one (damaged, or too large)."""
    try:
        count, at, patches = value[0], 1 + 5 * value[0], []
        for i in range(count):
            page, size = value[1 + 5 * i], int.from_bytes(value[2 + 5 * i : 6 + 5 * i], "little")
            patches.append((page, value[at : at + size]))
            at += size
        frame = value[at:]
        content = bytearray(_decompress(frame, CHUNK) if frame else initial + _ZEROS[: CHUNK - len(initial)])
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


def _initial_chunk(initial: bytes, number: int) -> bytes:
    return initial[number * CHUNK : (number + 1) * CHUNK]


class _Codec:
    def __init__(self) -> None:
        self.compressor = zstandard.ZstdCompressor(level=LEVEL, write_checksum=True)
        self.decompressor = zstandard.ZstdDecompressor()


def _codec() -> _Codec:
    codec = getattr(_codecs, "codec", None)
    if codec is None:
        codec = _codecs.codec = _Codec()
    return codec
