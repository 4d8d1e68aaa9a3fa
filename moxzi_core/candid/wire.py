"""Byte-level pieces of the binary format: the magic number, LEB128 numbers, and a bounded reader."""

from __future__ import annotations

from .errors import CandidError

MAGIC = b"DIDL"
MAX_NUMBER_BYTES = 1024  # a nat/int of up to 7168 bits; longer LEB128 is refused as a resource attack

# struct formats of the fixed-size number types (little-endian, as Candid sends them)
FIXED_FORMATS = {
    "nat8": "<B", "nat16": "<H", "nat32": "<I", "nat64": "<Q",
    "int8": "<b", "int16": "<h", "int32": "<i", "int64": "<q",
    "float32": "<f", "float64": "<d",
}


def leb128(n: int) -> bytes:
    """Unsigned LEB128 of ``n >= 0``."""
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def sleb128(n: int) -> bytes:
    """Signed LEB128 of ``n``."""
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if (n == 0 and not byte & 0x40) or (n == -1 and byte & 0x40):
            out.append(byte)
            return bytes(out)
        out.append(byte | 0x80)


class Reader:
    """Reads a message front to back. Every failure is a ``CandidError`` naming the byte offset.

    ``budget`` is what decoding may still spend: each value decoded or skipped costs one unit, and the
    type table costs one unit per entry, field and method.
    """

    __slots__ = ("data", "pos", "budget")

    def __init__(self, data: bytes, budget: int):
        self.data = bytes(data)
        self.pos = 0
        self.budget = budget

    def fail(self, reason: str, at: int | None = None) -> CandidError:
        return CandidError(reason, offset=self.pos if at is None else at)

    def charge(self, units: int, what: str = "") -> None:
        if units > self.budget:
            raise self.fail(f"decode budget exceeded{' by ' if what else ''}{what}")
        self.budget -= units

    @property
    def remaining(self) -> int:
        return len(self.data) - self.pos

    def byte(self) -> int:
        if self.pos >= len(self.data):
            raise self.fail("message ends early: expected 1 more byte")
        self.pos += 1
        return self.data[self.pos - 1]

    def take(self, n: int) -> bytes:
        if n > len(self.data) - self.pos:
            raise self.fail(f"message ends early: expected {n} bytes, {self.remaining} left")
        self.pos += n
        return self.data[self.pos - n : self.pos]

    def leb128(self) -> int:
        data, pos, start = self.data, self.pos, self.pos
        result = shift = 0
        while True:
            if pos >= len(data):
                raise self.fail("message ends inside a LEB128 number", at=start)
            byte = data[pos]
            pos += 1
            result |= (byte & 0x7F) << shift
            if byte < 0x80:
                self.pos = pos
                return result
            shift += 7
            if pos - start >= MAX_NUMBER_BYTES:
                raise self.fail(f"LEB128 number longer than {MAX_NUMBER_BYTES} bytes", at=start)

    def sleb128(self) -> int:
        start = self.pos
        result = self.leb128()
        bits = 7 * (self.pos - start)
        return result - (1 << bits) if result >> (bits - 1) else result

    def length(self, what: str, item_size: int = 1) -> int:
        """A LEB128 count of ``what`` whose items take at least ``item_size`` bytes each; a count that
        could not fit in the rest of the message is refused before anything is allocated."""
        start = self.pos
        n = self.leb128()
        if n * item_size > self.remaining:
            raise self.fail(f"{what} of length {n} runs past the end of the message", at=start)
        return n

    def text(self, what: str = "text") -> str:
        start = self.pos
        raw = self.take(self.length(what))
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as e:
            raise self.fail(f"{what} is not valid UTF-8 ({e.reason})", at=start) from None
