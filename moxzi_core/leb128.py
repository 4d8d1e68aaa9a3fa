"""LEB128, the variable-length integers of both Candid's binary format and WebAssembly: the one
encoder and the one bounded decoder that `candid.wire` and `runtime.engine.rewrite` share."""

from __future__ import annotations


class LebError(ValueError):
    """A LEB128 number that runs past its data (``truncated``) or past ``max_bytes`` bytes."""

    def __init__(self, truncated: bool):
        super().__init__("truncated" if truncated else "too long")
        self.truncated = truncated


def unsigned(n: int) -> bytes:
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


def signed(n: int) -> bytes:
    """Signed LEB128 of ``n``."""
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if (n == 0 and not byte & 0x40) or (n == -1 and byte & 0x40):
            out.append(byte)
            return bytes(out)
        out.append(byte | 0x80)


def read(data: bytes, pos: int, end: int, max_bytes: int, *, is_signed: bool = False) -> tuple[int, int]:
    """The number at ``data[pos:end]`` and the position after it. Raises LebError when it does not end
    before ``end`` or within ``max_bytes`` bytes; a longer encoding is refused before it is summed."""
    start, result, shift = pos, 0, 0
    while True:
        if pos >= end:
            raise LebError(truncated=True)
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            break
        if pos - start >= max_bytes:
            raise LebError(truncated=False)
    if is_signed and byte & 0x40:
        result -= 1 << shift
    return result, pos
