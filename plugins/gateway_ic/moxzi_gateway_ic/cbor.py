"""A strict, bounded CBOR decoder for request bodies from the outside.

Only what IC requests use: unsigned and negative integers, byte and text strings, arrays, maps, the
self-describing tag 55799 and the simple values false, true and null. Indefinite lengths, floats,
other tags and duplicate map keys are refused. Nesting deeper than ``max_depth`` and more than
``max_items`` items in all are refused before any of them is built, so a small body cannot make a
large structure. Answers are encoded with cbor2 (untagged: every client accepts that).
"""

from __future__ import annotations

SELF_DESCRIBED = 55799


class CborError(ValueError):
    """The bytes are not CBOR this decoder accepts; the message says what and where."""


def decode(data: bytes, *, max_depth: int = 16, max_items: int = 10_000):
    """The value ``data`` encodes (exactly one item, nothing after it)."""
    reader = _Reader(bytes(data), max_depth, max_items)
    value = reader.item(0)
    if reader.pos != len(reader.data):
        raise CborError(f"{len(reader.data) - reader.pos} byte(s) after the value")
    return value


class _Reader:
    def __init__(self, data: bytes, max_depth: int, max_items: int):
        self.data, self.pos = data, 0
        self.max_depth, self.items_left = max_depth, max_items

    def take(self, n: int) -> bytes:
        if n > len(self.data) - self.pos:
            raise CborError(f"truncated at byte {self.pos}: {n} more byte(s) needed")
        chunk = self.data[self.pos : self.pos + n]
        self.pos += n
        return chunk

    def head(self) -> tuple[int, int]:
        """(major type, argument) of the next item."""
        start = self.pos
        initial = self.take(1)[0]
        major, info = initial >> 5, initial & 31
        if info < 24:
            return major, info
        if info <= 27:
            return major, int.from_bytes(self.take(1 << (info - 24)), "big")
        raise CborError(f"byte {start}: additional information {info} (indefinite length or reserved) is not accepted")

    def item(self, depth: int):
        if depth > self.max_depth:
            raise CborError(f"nested deeper than {self.max_depth}")
        self.items_left -= 1
        if self.items_left < 0:
            raise CborError("too many items")
        start = self.pos
        major, arg = self.head()
        if major == 0:
            return arg
        if major == 1:
            return -1 - arg
        if major == 2:
            return self.take(arg)
        if major == 3:
            try:
                return self.take(arg).decode()
            except UnicodeDecodeError:
                raise CborError(f"byte {start}: a text string that is not UTF-8") from None
        if major in (4, 5):
            if arg > self.items_left:  # refused before allocating anything for it
                raise CborError(f"byte {start}: {arg} entries is more than this request may hold")
            if major == 4:
                return [self.item(depth + 1) for _ in range(arg)]
            result = {}
            for _ in range(arg):
                key = self.item(depth + 1)
                if not isinstance(key, (str, int, bytes)):
                    raise CborError(f"byte {start}: a map key must be a text, byte string or integer")
                if key in result:
                    raise CborError(f"byte {start}: the map key {key!r} appears twice")
                result[key] = self.item(depth + 1)
            return result
        if major == 6:
            if arg != SELF_DESCRIBED:
                raise CborError(f"byte {start}: tag {arg} is not accepted")
            return self.item(depth + 1)
        simple = {20: False, 21: True, 22: None}
        if self.data[start] & 31 < 24 and arg in simple:
            return simple[arg]
        raise CborError(f"byte {start}: simple value or float {arg} is not accepted")
