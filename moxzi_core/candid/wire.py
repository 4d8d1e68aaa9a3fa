"""Byte-level pieces of the binary format: the magic number, LEB128 numbers (``moxzi_core.leb128``),
and a bounded reader."""

from __future__ import annotations

from .. import leb128 as _leb128
from .errors import CandidError

MAGIC = b"DIDL"
MAX_NUMBER_BYTES = 1024  # a nat/int of up to 7168 bits; longer LEB128 is refused as a resource attack

# struct formats of the fixed-size number types (little-endian, as Candid sends them)
FIXED_FORMATS = {
    "nat8": "<B",
    "nat16": "<H",
    "nat32": "<I",
    "nat64": "<Q",
    "int8": "<b",
    "int16": "<h",
    "int32": "<i",
    "int64": "<q",
    "float32": "<f",
    "float64": "<d",
}


class Reader:
    """Reads a message front to back. Every failure is a ``CandidError`` naming the byte offset.

    ``budget`` is what decoding may still spend: each value decoded or skipped costs one unit, and the
    type table costs one unit per entry, field and method.
    """

    __slots__ = ("data", "pos", "budget", "spans")

    def __init__(self, data: bytes, budget: int):
        self.data = bytes(data)
        self.pos = 0
        self.budget = budget
        self.spans: list | None = None  # where the leaves lay, while a Decoder notes them (template.py)

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

    def leb128(self, *, is_signed: bool = False) -> int:
        pos = self.pos
        if not is_signed and pos < len(self.data) and self.data[pos] < 0x80:  # one byte: most counts and tags
            self.pos = pos + 1
            return self.data[pos]
        try:
            value, self.pos = _leb128.read(self.data, self.pos, len(self.data), MAX_NUMBER_BYTES, is_signed=is_signed)
        except _leb128.LebError as error:
            raise self.fail(
                "message ends inside a LEB128 number"
                if error.truncated
                else f"LEB128 number longer than {MAX_NUMBER_BYTES} bytes"
            ) from None
        return value

    def sleb128(self) -> int:
        return self.leb128(is_signed=True)

    def length(self, what: str, item_size: int = 1) -> int:
        """A LEB128 count of ``what`` whose items take at least ``item_size`` bytes each; a count that
        could not fit in the rest of the message is refused before anything is allocated."""
        start = self.pos
        n = self.leb128()
        if n * item_size > len(self.data) - self.pos:
            raise self.fail(f"{what} of length {n} runs past the end of the message", at=start)
        return n

    def text(self, what: str = "text") -> str:
        start = self.pos
        raw = self.take(self.length(what))
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as e:
            raise self.fail(f"{what} is not valid UTF-8 ({e.reason})", at=start) from None


leb128 = _leb128.unsigned
sleb128 = _leb128.signed
