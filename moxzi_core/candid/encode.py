"""Encoding Python values (see the package docstring for the value model) as a Candid message."""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import Any

from .errors import CandidError
from .types import (FUNC_MODES, NAT8, CandidType, FuncType, Opt, Primitive, Record, Service, Variant, Vec,
                    resolve)
from .values import Principal, Some
from .wire import MAGIC, leb128, sleb128

# struct formats of the fixed-size number types (little-endian, as Candid sends them)
FIXED_FORMATS = {
    "nat8": "<B", "nat16": "<H", "nat32": "<I", "nat64": "<Q",
    "int8": "<b", "int16": "<h", "int32": "<i", "int64": "<q",
    "float32": "<f", "float64": "<d",
}


def encode_args(types: Sequence[CandidType], values: Sequence[Any]) -> bytes:
    """The complete message (``DIDL``, type table, argument types, values) for ``values`` of ``types``.

    Raises ``CandidError`` naming the argument and the field path of the first value that doesn't fit.
    """
    if len(types) != len(values):
        raise CandidError(f"{len(types)} argument types but {len(values)} values")
    encoder = _Encoder()
    refs = [encoder.type_ref(t) for t in types]
    body = bytearray()
    for i, (t, v) in enumerate(zip(types, values)):
        try:
            encoder.value(t, v, body)
        except CandidError as e:
            raise e.within(f"argument {i}") from None
        except RecursionError:
            raise CandidError("value nested too deeply").within(f"argument {i}") from None
    head = b"".join([MAGIC, leb128(len(encoder.entries)), *encoder.entries,
                     leb128(len(refs)), *(sleb128(r) for r in refs)])
    return head + body


def _mismatch(t: CandidType, v: Any) -> CandidError:
    shown = repr(v)
    return CandidError(f"expected {t}, got {shown if len(shown) <= 60 else shown[:57] + '...'}")


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


class _Encoder:
    def __init__(self):
        self.index: dict[CandidType, int] = {}
        self.entries: list[bytes] = []

    def type_ref(self, t: CandidType) -> int:
        """The type's opcode (primitives) or its type-table index, adding entries as needed."""
        t = resolve(t)
        if isinstance(t, Primitive):
            return t.opcode
        if t not in self.index:
            self.index[t] = len(self.entries)
            self.entries.append(b"")  # reserved before the components, so recursive references find it
            self.entries[self.index[t]] = self.entry(t)
        return self.index[t]

    def entry(self, t: CandidType) -> bytes:
        ref = lambda component: sleb128(self.type_ref(component))  # noqa: E731
        if isinstance(t, Opt):
            return sleb128(-18) + ref(t.type)
        if isinstance(t, Vec):
            return sleb128(-19) + ref(t.type)
        if isinstance(t, (Record, Variant)):
            opcode = -20 if isinstance(t, Record) else -21
            return b"".join([sleb128(opcode), leb128(len(t.fields)),
                             *(leb128(f.id) + ref(f.type) for f in t.fields)])
        if isinstance(t, FuncType):
            return b"".join([sleb128(-22), leb128(len(t.args)), *map(ref, t.args),
                             leb128(len(t.rets)), *map(ref, t.rets), leb128(len(t.modes)),
                             *(bytes([FUNC_MODES.index(m) + 1]) for m in sorted(t.modes))])
        if isinstance(t, Service):
            return b"".join([sleb128(-23), leb128(len(t.methods)),
                             *(_text(name) + ref(m) for name, m in t.methods.items())])
        raise CandidError(f"not a Candid type: {t!r}")

    def value(self, t: CandidType, v: Any, out: bytearray) -> None:
        t = resolve(t)
        if isinstance(t, Primitive):
            out += self.primitive(t, v)
        elif isinstance(t, Opt):
            if v is None:
                out.append(0)
            elif isinstance(v, Some):
                out.append(1)
                self.value(t.type, v.value, out)
            else:
                raise CandidError(f"expected {t} as None or Some(...), got {v!r}")
        elif isinstance(t, Vec):
            self.vec(t, v, out)
        elif isinstance(t, Record):
            self.record(t, v, out)
        elif isinstance(t, Variant):
            if not isinstance(v, dict) or len(v) != 1 or next(iter(v)) not in t.index_by_key:
                raise _mismatch(t, v)
            (tag, payload), = v.items()
            out += leb128(t.index_by_key[tag])
            try:
                self.value(t.by_key[tag].type, payload, out)
            except CandidError as e:
                raise e.within(f".{tag}") from None
        elif isinstance(t, FuncType):
            if not (isinstance(v, tuple) and len(v) == 2 and isinstance(v[0], Principal) and isinstance(v[1], str)):
                raise _mismatch(t, v)
            out += b"\x01\x01" + leb128(len(v[0].bytes)) + v[0].bytes + _text(v[1])
        elif isinstance(t, Service):
            if not isinstance(v, Principal):
                raise _mismatch(t, v)
            out += b"\x01" + leb128(len(v.bytes)) + v.bytes
        else:
            raise CandidError(f"not a Candid type: {t!r}")

    def primitive(self, t: Primitive, v: Any) -> bytes:
        name = t.name
        if name in FIXED_FORMATS:
            if not (_is_int(v) or (isinstance(v, float) and name.startswith("float"))):
                raise _mismatch(t, v)
            try:
                return struct.pack(FIXED_FORMATS[name], v)
            except (struct.error, OverflowError):
                raise _mismatch(t, v) from None
        if name == "nat" and _is_int(v) and v >= 0:
            return leb128(v)
        if name == "int" and _is_int(v):
            return sleb128(v)
        if name == "text" and isinstance(v, str):
            return _text(v)
        if name == "bool" and isinstance(v, bool):
            return b"\x01" if v else b"\x00"
        if name in ("null", "reserved") and v is None:
            return b""
        if name == "principal" and isinstance(v, Principal):
            return b"\x01" + leb128(len(v.bytes)) + v.bytes
        raise _mismatch(t, v)

    def vec(self, t: Vec, v: Any, out: bytearray) -> None:
        if resolve(t.type) == NAT8:
            if not isinstance(v, (bytes, bytearray)):
                raise _mismatch(t, v)
            out += leb128(len(v)) + v
            return
        if not isinstance(v, (list, tuple)):
            raise _mismatch(t, v)
        out += leb128(len(v))
        element = resolve(t.type)
        if isinstance(element, Primitive) and element.name in FIXED_FORMATS:
            # a fast path for numeric vectors; a value that doesn't fit falls through to the per-item
            # loop below, which names it
            accepted = (int, float) if element.name.startswith("float") else (int,)
            if all(type(item) in accepted for item in v):
                try:
                    out += struct.pack(f"<{len(v)}{FIXED_FORMATS[element.name][-1]}", *v)
                    return
                except (struct.error, OverflowError):
                    pass
        for i, item in enumerate(v):
            try:
                self.value(t.type, item, out)
            except CandidError as e:
                raise e.within(f"[{i}]") from None

    def record(self, t: Record, v: Any, out: bytearray) -> None:
        if t.is_tuple:
            if not isinstance(v, tuple) or len(v) != len(t.fields):
                raise _mismatch(t, v)
            items = v
        else:
            if not isinstance(v, dict):
                raise _mismatch(t, v)
            missing = [f.key for f in t.fields if f.key not in v]
            unknown = [k for k in v if k not in t.by_key]
            if missing or unknown:
                raise CandidError(f"expected {t}, but fields {missing} are missing and {unknown} unknown")
            items = [v[f.key] for f in t.fields]
        for f, item in zip(t.fields, items):
            try:
                self.value(f.type, item, out)
            except CandidError as e:
                raise e.within(f".{f.key}") from None


def _text(s: str) -> bytes:
    try:
        raw = s.encode("utf-8")
    except UnicodeEncodeError:
        raise CandidError(f"text {s!r} cannot be encoded as UTF-8") from None
    return leb128(len(raw)) + raw
