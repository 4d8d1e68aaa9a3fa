"""How an actor's memories lie in the store: 64 KiB chunks, each compressed with zstd, and no value at
all for a chunk that holds what the module's initial image holds there (zeros past that image's end).

A chunk is a wasm page, 16 of the 4 KiB pages whose writes the memories track: a message that wrote a
page writes its chunk again. Why not the 4 KiB pages themselves: LMDB keeps a value larger than about
half its own 4 KiB page on overflow pages of its own, whole pages after a 16-byte header, so a 4 KiB
value took two pages (gpt.mo's 248 MiB of heap, 63,512 values, took ~500 MB of the file). A compressed
64 KiB chunk (a Motoko heap compresses 2.5-2.8x at zstd's level 1) wastes half a page on average, and
zstd level 1 packs one in ~0.3 ms (lz4 is about twice as fast, but compresses the same heap 1.9x).
Each value carries zstd's checksum, so a damaged chunk is found when it is read back.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping

import zstandard

from ..store import StoreError
from .memory import PAGE

CHUNK = 1 << 16
PAGES_PER_CHUNK = CHUNK // PAGE
LEVEL = 1
_ZEROS = bytes(CHUNK)
_codecs = threading.local()  # a zstd context serves one thread at a time: one per actor thread


def chunks_holding(pages: Iterable[int]) -> list[int]:
    """The chunks that hold these 4 KiB pages, in order."""
    return sorted({page // PAGES_PER_CHUNK for page in pages})


def chunks_of_image(image: bytes) -> dict[int, bytes]:
    """A whole memory's contents, chunk by chunk."""
    return {n: image[n * CHUNK : (n + 1) * CHUNK] for n in range(-(-len(image) // CHUNK))}


def chunks_of_pages(pages: Mapping[int, bytes], page_size: int) -> dict[int, bytes]:
    """The chunks that hold the given pages (others zero), each a whole chunk."""
    chunks: dict[int, bytearray] = {}
    for number, content in pages.items():
        at = number * page_size
        chunk = chunks.setdefault(at // CHUNK, bytearray(CHUNK))
        chunk[at % CHUNK : at % CHUNK + len(content)] = content
    return {number: bytes(chunk) for number, chunk in chunks.items()}


def pack(content: bytes, number: int, initial: bytes) -> bytes | None:
    """Chunk ``number`` (``content``: at most CHUNK bytes) as the store keeps it; None when it needs
    no value, holding what ``initial`` (the module's initial image) holds there."""
    base = initial[number * CHUNK : number * CHUNK + len(content)]
    if content[: len(base)] == base and content[len(base) :] == _ZEROS[: len(content) - len(base)]:
        return None
    return _codec().compressor.compress(content)


def unpack(packed: bytes) -> bytes:
    """A chunk's contents; raises ValueError for a value that is not one (damaged, or too large)."""
    try:
        if not 0 <= zstandard.frame_content_size(packed) <= CHUNK:  # (-1: a frame that does not say)
            raise ValueError("a memory chunk is damaged (not a zstd frame of at most 64 KiB)")
        return _codec().decompressor.decompress(packed)
    except zstandard.ZstdError as error:
        raise ValueError(f"a memory chunk is damaged ({error})") from None


class Stored:
    """A memory of ``size`` bytes as the store holds it: its stored chunks, packed, by number; ``what``
    names it in errors (the store, the actor)."""

    def __init__(self, size: int, chunks: dict[int, bytes], what: str):
        self.size, self.chunks, self.what = size, chunks, what

    def over(self, initial: bytes) -> bytearray:
        """The whole memory: the stored chunks, and elsewhere what ``initial`` holds (zeros past it).
        Raises StoreError for a damaged chunk or one beyond ``size``."""
        image = bytearray(self.size)
        image[: min(len(initial), self.size)] = initial[: self.size]
        for number, packed in self.chunks.items():
            at = number * CHUNK
            try:
                content = unpack(packed)
                if at + len(content) > self.size:
                    raise ValueError(f"a memory chunk at {at} lies outside {self.size} bytes")
            except ValueError as error:
                raise StoreError(f"{self.what} is corrupt: {error}") from None
            image[at : at + len(content)] = content
        return image


class _Codec:
    def __init__(self) -> None:
        self.compressor = zstandard.ZstdCompressor(level=LEVEL, write_checksum=True)
        self.decompressor = zstandard.ZstdDecompressor()


def _codec() -> _Codec:
    codec = getattr(_codecs, "codec", None)
    if codec is None:
        codec = _codecs.codec = _Codec()
    return codec
