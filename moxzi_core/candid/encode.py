"""Encoding Python values (see the package docstring for the value model) as a Candid message."""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from typing import Any

from .errors import CandidError
from .types import FUNC_MODES, NAT8, CandidType, FuncType, Opt, Primitive, Record, Service, Variant, Vec, resolve
from .values import Principal, Some
from .wire import FIXED_FORMATS, MAGIC, MAX_NUMBER_BYTES, leb128, sleb128

ValueWriter = Callable[[Any, bytearray], None]  # appends one value's bytes, or raises CandidError

# The largest nat or int (in magnitude) the decoder reads back: LEB128 carries 7 bits a byte, and
# an int's sign takes one of them.
MAX_NUMBER_BITS = 7 * MAX_NUMBER_BYTES - 1


def encode_args(types: Sequence[CandidType], values: Sequence[Any]) -> bytes:
    """The complete message (``DIDL``, type table, argument types, values) for ``values`` of ``types``.

    Raises ``CandidError`` naming the argument and the field path of the first value that doesn't fit.
    """
    if len(types) != len(values):
        raise CandidError(f"{len(types)} argument types but {len(values)} values")
    return Encoder(types).encode(values)


class Encoder:
    """Messages of ``types``, whose header (``DIDL``, type table, argument types) and value writers are
    made once: for a method's results, encoded again with every call (``encode_args`` makes them anew)."""

    def __init__(self, types: Sequence[CandidType]):
        self.types = tuple(types)
        try:
            table = _TypeTable()
            refs = [table.ref(t) for t in self.types]
            writers = _Writers()
            self._writers = [writers.get(t) for t in self.types]
        except RecursionError:
            raise CandidError("types or values nested too deeply") from None
        self._head = b"".join(
            [MAGIC, leb128(len(table.entries)), *table.entries, leb128(len(refs)), *(sleb128(r) for r in refs)]
        )

    def encode(self, values: Sequence[Any]) -> bytes:
        """The complete message for ``values``; raises ``CandidError`` as ``encode_args`` does."""
        if len(self.types) != len(values):
            raise CandidError(f"{len(self.types)} argument types but {len(values)} values")
        body = bytearray(self._head)
        try:
            for i, (write, v) in enumerate(zip(self._writers, values)):
                try:
                    write(v, body)
                except CandidError as e:
                    raise e.within(f"argument {i}") from None
        except RecursionError:
            raise CandidError("types or values nested too deeply") from None
        return bytes(body)


class _TypeTable:
    """The type table a message's values are written in: one entry per compound type used."""

    def __init__(self) -> None:
        self.index: dict[CandidType, int] = {}
        self.entries: list[bytes] = []

    def ref(self, t: CandidType) -> int:
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
        ref = lambda component: sleb128(self.ref(component))  # noqa: E731
        if isinstance(t, Opt):
            return sleb128(-18) + ref(t.type)
        if isinstance(t, Vec):
            return sleb128(-19) + ref(t.type)
        if isinstance(t, (Record, Variant)):
            opcode = -20 if isinstance(t, Record) else -21
            return b"".join([sleb128(opcode), leb128(len(t.fields)), *(leb128(f.id) + ref(f.type) for f in t.fields)])
        if isinstance(t, FuncType):
            return b"".join(
                [
                    sleb128(-22),
                    leb128(len(t.args)),
                    *map(ref, t.args),
                    leb128(len(t.rets)),
                    *map(ref, t.rets),
                    leb128(len(t.modes)),
                    *(bytes([FUNC_MODES.index(m) + 1]) for m in sorted(t.modes)),
                ]
            )
        if isinstance(t, Service):
            return b"".join(
                [sleb128(-23), leb128(len(t.methods)), *(_text(name) + ref(m) for name, m in t.methods.items())]
            )
        raise CandidError(f"not a Candid type: {t!r}")


def _mismatch(t: CandidType, v: Any) -> CandidError:
    shown = repr(v)
    return CandidError(f"expected {t}, got {shown if len(shown) <= 60 else shown[:57] + '...'}")


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _length(n: int, out: bytearray) -> None:
    """A vector's length: one byte below 128 (most results' lists), without building the LEB128."""
    if n < 0x80:
        out.append(n)
    else:
        out += leb128(n)


def _text(s: str) -> bytes:
    try:
        raw = s.encode("utf-8")
    except UnicodeEncodeError:
        raise CandidError(f"text {s!r} cannot be encoded as UTF-8") from None
    return leb128(len(raw)) + raw


def _principal(v: Principal) -> bytes:
    return b"\x01" + leb128(len(v.bytes)) + v.bytes


class _Writers:
    """One writer per type, built when the type is first met (recursive types reach themselves)."""

    def __init__(self) -> None:
        self.built: dict[int, ValueWriter] = {}  # by the id of a resolved type; the types outlive this

    def get(self, t: CandidType) -> ValueWriter:
        t = resolve(t)
        key = id(t)
        if key not in self.built:
            self.built[key] = lambda v, out: self.built[key](v, out)
            self.built[key] = self.build(t)
        return self.built[key]

    def build(self, t: CandidType) -> ValueWriter:
        if isinstance(t, Primitive):
            return self.primitive(t)
        if isinstance(t, Opt):
            return self.opt(t)
        if isinstance(t, Vec):
            return self.vec(t)
        if isinstance(t, Record):
            return self.tuple(t) if t.is_tuple else self.record(t)
        if isinstance(t, Variant):
            return self.variant(t)
        if isinstance(t, FuncType):
            return self.func_ref(t)
        if isinstance(t, Service):
            return self.service_ref(t)
        raise CandidError(f"not a Candid type: {t!r}")

    @staticmethod
    def primitive(t: Primitive) -> ValueWriter:
        if t.name in FIXED_FORMATS:
            fixed = struct.Struct(FIXED_FORMATS[t.name])
            is_float = t.name.startswith("float")

            def write_fixed(v, out):
                if not (_is_int(v) or (is_float and isinstance(v, float))):
                    raise _mismatch(t, v)
                try:
                    out += fixed.pack(v)
                except (struct.error, OverflowError):
                    raise _mismatch(t, v) from None

            return write_fixed
        # (is this value acceptable, its bytes)
        accepts, encode = {
            "nat": (lambda v: _is_int(v) and v >= 0, leb128),
            "int": (_is_int, sleb128),
            "text": (lambda v: isinstance(v, str), _text),
            "bool": (lambda v: isinstance(v, bool), lambda v: b"\x01" if v else b"\x00"),
            "null": (lambda v: v is None, lambda v: b""),
            "reserved": (lambda v: v is None, lambda v: b""),
            "empty": (lambda v: False, None),
            "principal": (lambda v: isinstance(v, Principal), _principal),
        }[t.name]

        def write(v, out):
            if not accepts(v):
                raise _mismatch(t, v)
            if t.name in ("nat", "int") and v.bit_length() > MAX_NUMBER_BITS:
                # Encodable, but no decoder of ours would read it back (MAX_NUMBER_BYTES).
                raise CandidError(f"expected {t} of at most {MAX_NUMBER_BITS} bits, got one of {v.bit_length()} bits")
            out += encode(v)

        return write

    def opt(self, t: Opt) -> ValueWriter:
        content = self.get(t.type)

        def write(v, out):
            if v is None:
                out.append(0)
            elif isinstance(v, Some):
                out.append(1)
                content(v.value, out)
            else:
                raise CandidError(f"expected {t} as None or Some(...), got {v!r}")

        return write

    def vec(self, t: Vec) -> ValueWriter:
        element_type = resolve(t.type)
        if element_type == NAT8:

            def write_blob(v, out):
                if not isinstance(v, (bytes, bytearray)):
                    raise _mismatch(t, v)
                _length(len(v), out)
                out += v

            return write_blob
        element = self.get(element_type)
        numbers = element_type.name if isinstance(element_type, Primitive) else None
        accepted = {int, float} if numbers in ("float32", "float64") else {int}
        code = FIXED_FORMATS[numbers][-1] if numbers in FIXED_FORMATS else None  # struct's, for all at once

        def write(v, out):
            if not isinstance(v, (list, tuple)):
                raise _mismatch(t, v)
            _length(len(v), out)
            if code is not None and accepted.issuperset(map(type, v)):  # (no generator: a device call's answer)
                # all at once; a value out of range falls through to the loop below, which names it
                try:
                    out += struct.pack(f"<{len(v)}{code}", *v)
                    return
                except (struct.error, OverflowError):
                    pass
            for i, item in enumerate(v):
                try:
                    element(item, out)
                except CandidError as e:
                    raise e.within(f"[{i}]") from None

        return write

    def tuple(self, t: Record) -> ValueWriter:
        fields = [(self.get(f.type), f".{f.id}") for f in t.fields]

        def write(v, out):
            if not isinstance(v, tuple) or len(v) != len(fields):
                raise _mismatch(t, v)
            for (field, segment), item in zip(fields, v):
                try:
                    field(item, out)
                except CandidError as e:
                    raise e.within(segment) from None

        return write

    def record(self, t: Record) -> ValueWriter:
        fields = [(f.key, self.get(f.type), f".{f.key}") for f in t.fields]
        keys = set(t.by_key)

        def write(v, out):
            if not isinstance(v, dict) or v.keys() != keys:
                raise self.record_mismatch(t, v)
            for key, field, segment in fields:
                try:
                    field(v[key], out)
                except CandidError as e:
                    raise e.within(segment) from None

        return write

    @staticmethod
    def record_mismatch(t: Record, v: Any) -> CandidError:
        if not isinstance(v, dict):
            return _mismatch(t, v)
        missing = [f.key for f in t.fields if f.key not in v]
        unknown = [k for k in v if k not in t.by_key]
        return CandidError(f"expected {t}, but fields {missing} are missing and {unknown} unknown")

    def variant(self, t: Variant) -> ValueWriter:
        tags = {f.key: (leb128(i), self.get(f.type)) for i, f in enumerate(t.fields)}

        def write(v, out):
            if not isinstance(v, dict) or len(v) != 1:
                raise _mismatch(t, v)
            ((tag, payload),) = v.items()
            if tag not in tags:
                raise _mismatch(t, v)
            index, content = tags[tag]
            out += index
            try:
                content(payload, out)
            except CandidError as e:
                raise e.within(f".{tag}") from None

        return write

    @staticmethod
    def func_ref(t: FuncType) -> ValueWriter:
        def write(v, out):
            if not (isinstance(v, tuple) and len(v) == 2 and isinstance(v[0], Principal) and isinstance(v[1], str)):
                raise _mismatch(t, v)
            out += b"\x01" + _principal(v[0]) + _text(v[1])

        return write

    @staticmethod
    def service_ref(t: Service) -> ValueWriter:
        def write(v, out):
            if not isinstance(v, Principal):
                raise _mismatch(t, v)
            out += _principal(v)

        return write
