"""Python values that have no built-in counterpart: principals, present optionals, function references."""

from __future__ import annotations

import base64
import binascii
import zlib
from dataclasses import dataclass
from typing import Any, NamedTuple

from .errors import CandidError

MAX_PRINCIPAL_BYTES = 29


@dataclass(frozen=True, slots=True, order=True)
class Principal:
    """An Internet-Computer principal: up to 29 opaque bytes, ordered by those bytes.

    Its textual form is base32 (lowercase, unpadded) of a big-endian CRC-32 of the bytes followed by the
    bytes, in dash-separated groups of five: ``Principal(b"\\x04")`` is ``"2vxpx-eai"`` (anonymous),
    ``Principal(b"")`` is ``"aaaaa-aa"`` (the management canister).
    """

    bytes: bytes

    def __post_init__(self):
        if not isinstance(self.bytes, bytes) or len(self.bytes) > MAX_PRINCIPAL_BYTES:
            raise CandidError(f"a principal is at most {MAX_PRINCIPAL_BYTES} bytes, got {self.bytes!r}")

    @classmethod
    def from_text(cls, text: str) -> Principal:
        """Parse the textual form; rejects bad characters, a wrong checksum and non-canonical grouping."""
        if not isinstance(text, str):
            raise CandidError(f"expected principal text, got {text!r}")
        squashed = text.replace("-", "").upper()
        try:
            decoded = base64.b32decode(squashed + "=" * (-len(squashed) % 8))
        except (binascii.Error, ValueError):
            raise CandidError(f"not a principal: {text!r} is not base32") from None
        if len(decoded) < 4:
            raise CandidError(f"not a principal: {text!r} is too short")
        principal = cls(decoded[4:])
        if zlib.crc32(principal.bytes).to_bytes(4, "big") != decoded[:4]:
            raise CandidError(f"not a principal: {text!r} has a wrong checksum")
        if principal.to_text() != text:
            raise CandidError(f"not a principal: {text!r} is not in canonical form ({principal.to_text()})")
        return principal

    def to_text(self) -> str:
        checked = zlib.crc32(self.bytes).to_bytes(4, "big") + self.bytes
        letters = base64.b32encode(checked).decode("ascii").rstrip("=").lower()
        return "-".join(letters[i : i + 5] for i in range(0, len(letters), 5))

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        return f"Principal.from_text({self.to_text()!r})"


@dataclass(frozen=True, slots=True)
class Some:
    """A present ``opt`` value; an absent one is ``None``. ``Some(None)`` is ``opt null``'s non-null value."""

    value: Any


class FuncRef(NamedTuple):
    """A reference to a method of another actor (a Candid ``func`` value)."""

    service: Principal
    method: str
