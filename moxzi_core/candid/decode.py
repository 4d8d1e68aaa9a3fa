"""Decoding a Candid message against the types the receiver expects, with Candid's coercion rules.

The rules (the spec's "deserialisation"): ``nat`` reads as ``int``; ``reserved`` takes and drops any
value; a value under an expected ``opt`` is kept when it decodes as the optional's content and becomes
``None`` when it doesn't fit (so does ``null``/``reserved`` on the wire, and a bare value under
``opt opt t``); malformed bytes are an error even there; record fields the receiver doesn't know are
skipped, and expected fields missing from the message must be ``opt`` or ``reserved`` and read as
``None``; a variant's tag must be one the receiver knows; function and service references must have
subtypes of the expected types; extra arguments are skipped, and missing ones must be ``opt``,
``null`` or ``reserved`` and read as ``None``.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import Any

from .encode import FIXED_FORMATS
from .errors import CandidError
from .subtype import is_subtype
from .types import (EMPTY, FUNC_MODES, INT, NAT, NAT8, NULL, PRIMITIVE_BY_OPCODE, RESERVED, CandidType, Field,
                    FuncType, Named, Opt, Primitive, Record, Service, Variant, Vec, accepts_null, may_be_absent,
                    resolve)
from .values import MAX_PRINCIPAL_BYTES, FuncRef, Principal, Some
from .wire import MAGIC, Reader

DEFAULT_BUDGET = 2_000_000
MAX_DEPTH = 256


def decode_args(data: bytes, types: Sequence[CandidType] | None = None, *,
                budget: int = DEFAULT_BUDGET) -> list[Any]:
    """The arguments in ``data``, one Python value per type in ``types``.

    Without ``types`` each argument is read as the type the message declares, so record fields and
    variant tags are keyed by their numeric ids (use this for debugging only).

    ``budget`` bounds the work: one unit per value decoded or skipped and per type-table item; a vector
    whose length alone exceeds what is left fails before it is read. Any malformed, mistyped or
    over-budget input raises ``CandidError`` with the byte offset and the argument/field path.
    """
    reader = Reader(data, budget)
    try:
        return _decode(reader, types)
    except RecursionError:
        raise reader.fail("types or values nested too deeply") from None


def _decode(reader: Reader, types: Sequence[CandidType] | None) -> list[Any]:
    if reader.take(4) != MAGIC:
        raise reader.fail("not a Candid message: it does not start with DIDL", at=0)
    read_ref = _read_type_table(reader)
    wire = [read_ref() for _ in range(reader.length("argument list"))]
    decoder = _Decoder(reader)
    expected = wire if types is None else list(types)
    values = []
    for i, e in enumerate(expected):
        try:
            if i < len(wire):
                values.append(decoder.value(wire[i], e, 0))
            elif accepts_null(e):
                values.append(None)
            else:
                raise reader.fail(f"missing argument of type {e}")
        except CandidError as err:
            raise err.within(f"argument {i}") from None
    for i in range(len(expected), len(wire)):
        try:
            decoder.value(wire[i], wire[i], 0)
        except CandidError as err:
            raise err.within(f"argument {i}") from None
    if reader.remaining:
        raise reader.fail(f"{reader.remaining} bytes left after the last argument")
    return values


def _read_type_table(r: Reader):
    """Reads the type table into ``Named`` slots and returns the reader of one type reference."""
    slots = [Named(f"type{i}") for i in range(r.length("type table", 2))]
    r.charge(len(slots))

    def ref() -> CandidType:
        at = r.pos
        code = r.sleb128()
        if code >= 0:
            if code >= len(slots):
                raise r.fail(f"type index {code} is outside the type table ({len(slots)} entries)", at=at)
            return slots[code]
        if code not in PRIMITIVE_BY_OPCODE:
            raise r.fail(f"type code {code} is not a primitive type", at=at)
        return PRIMITIVE_BY_OPCODE[code]

    def fields() -> list[Field]:
        out = []
        for _ in range(r.length("field list", 2)):
            r.charge(1)
            at = r.pos
            field_id = r.leb128()
            if field_id > 0xFFFFFFFF or (out and field_id <= out[-1].id):
                raise r.fail(f"field id {field_id} is not a 32-bit number above the previous one", at=at)
            out.append(Field(field_id, None, ref()))
        return out

    method_refs = []
    for slot in slots:
        at = r.pos
        code = r.sleb128()
        if code == -18:
            slot.define(Opt(ref()))
        elif code == -19:
            slot.define(Vec(ref()))
        elif code == -20:
            slot.define(Record(fields()))
        elif code == -21:
            slot.define(Variant(fields()))
        elif code == -22:
            args = [ref() for _ in range(r.length("argument type list"))]
            rets = [ref() for _ in range(r.length("result type list"))]
            modes = []
            for _ in range(r.length("annotation list")):
                mode = r.byte()
                if not 1 <= mode <= len(FUNC_MODES):
                    raise r.fail(f"unknown function annotation {mode}", at=r.pos - 1)
                modes.append(FUNC_MODES[mode - 1])
            if len(modes) > 1:
                raise r.fail(f"a function has more than one annotation: {modes}", at=at)
            slot.define(FuncType(args, rets, modes))
        elif code == -23:
            methods = {}
            for _ in range(r.length("method list", 2)):
                r.charge(1)
                name_at = r.pos
                name = r.text("method name")
                if methods and name.encode() <= list(methods)[-1].encode():
                    raise r.fail(f"method {name!r} is out of order or repeated", at=name_at)
                methods[name] = ref()
                method_refs.append((name_at, name, methods[name]))
            slot.define(Service(methods))
        else:
            raise r.fail(f"type table entry has code {code}, not a compound type code (-18 to -23)", at=at)
    for at, name, method in method_refs:
        if not isinstance(resolve(method), FuncType):
            raise r.fail(f"method {name!r} has type {resolve(method)}, not a function type", at=at)
    return ref


_FIXED = {name: struct.Struct(fmt) for name, fmt in FIXED_FORMATS.items()}


class _Mismatch(CandidError):
    """A well-formed value that doesn't fit the expected type: under an ``opt`` it reads as null."""


class _Decoder:
    def __init__(self, reader: Reader):
        self.r = reader
        self.subtypes: dict[tuple[int, int], bool] = {}  # types live as long as the decoder
        self.sized: dict[int, bool] = {}

    def value(self, w: CandidType, e: CandidType, depth: int) -> Any:
        """Reads one value of wire type ``w`` as expected type ``e``."""
        r = self.r
        r.charge(1)
        w, e = resolve(w), resolve(e)
        if e is RESERVED:
            if w is not RESERVED:
                self.value(w, w, depth)  # reserved takes any value and drops it
            return None
        if isinstance(e, Primitive):
            if w == e or (w is NAT and e is INT):
                return self.primitive(w)
            raise self.mismatch(w, e)
        if depth >= MAX_DEPTH:
            raise r.fail(f"values nested deeper than {MAX_DEPTH} levels")
        depth += 1
        if isinstance(e, Opt):
            return self.opt(w, e, depth)
        if type(w) is not type(e):
            raise self.mismatch(w, e)
        if isinstance(e, Vec):
            return self.vec(w, e, depth)
        if isinstance(e, Record):
            return self.record(w, e, depth)
        if isinstance(e, Variant):
            at = r.pos
            index = r.leb128()
            if index >= len(w.fields):
                raise r.fail(f"variant tag index {index} is out of range ({len(w.fields)} tags)", at=at)
            wf = w.fields[index]
            ef = e.by_id.get(wf.id)
            if ef is None:
                raise _Mismatch(f"variant tag {wf.id} is not a tag of {e}", offset=at)
            try:
                return {ef.key: self.value(wf.type, ef.type, depth)}
            except CandidError as err:
                raise err.within(f".{ef.key}") from None
        if not self.subtype(w, e):
            raise self.mismatch(w, e)
        if isinstance(e, FuncType):
            self.reference_flag()
            service = self.principal()
            return FuncRef(service, r.text("method name"))
        return self.principal()  # a service reference is sent as a principal

    def mismatch(self, w: CandidType, e: CandidType) -> CandidError:
        return _Mismatch(f"expected {e}, but the message has {w}", offset=self.r.pos)

    def subtype(self, w: CandidType, e: CandidType) -> bool:
        key = (id(w), id(e))
        if key not in self.subtypes:
            self.subtypes[key] = is_subtype(w, e)
        return self.subtypes[key]

    def primitive(self, t: Primitive) -> Any:
        r = self.r
        name = t.name
        if name in _FIXED:
            fixed = _FIXED[name]
            return fixed.unpack(r.take(fixed.size))[0]
        if name == "nat":
            return r.leb128()
        if name == "int":
            return r.sleb128()
        if name == "text":
            return r.text()
        if name == "bool":
            flag = r.byte()
            if flag > 1:
                raise r.fail(f"bool must be 0 or 1, got {flag}", at=r.pos - 1)
            return flag == 1
        if name == "principal":
            return self.principal()
        if name in ("null", "reserved"):
            return None
        raise r.fail("a value of type empty cannot exist")

    def reference_flag(self) -> None:
        flag = self.r.byte()
        if flag != 1:
            raise self.r.fail(f"reference flag must be 1 (a public reference), got {flag}", at=self.r.pos - 1)

    def principal(self) -> Principal:
        r = self.r
        self.reference_flag()
        at = r.pos
        size = r.leb128()
        if size > MAX_PRINCIPAL_BYTES:
            raise r.fail(f"principal of {size} bytes (at most {MAX_PRINCIPAL_BYTES})", at=at)
        return Principal(r.take(size))

    def opt(self, w: CandidType, e: Opt, depth: int) -> Any:
        if w in (NULL, RESERVED):
            return None
        if isinstance(w, Opt):
            flag = self.r.byte()
            if flag == 0:
                return None
            if flag != 1:
                raise self.r.fail(f"opt flag must be 0 or 1, got {flag}", at=self.r.pos - 1)
            w = w.type
        elif accepts_null(e.type):
            # a bare value under `opt opt t` (or `opt null`, `opt reserved`) would be ambiguous
            self.value(w, w, depth)
            return None
        start = self.r.pos
        try:
            return Some(self.value(w, e.type, depth))
        except _Mismatch:
            self.r.pos = start
            self.value(w, w, depth)  # skipping still refuses malformed bytes
            return None

    def vec(self, w: Vec, e: Vec, depth: int) -> Any:
        r = self.r
        wt, et = resolve(w.type), resolve(e.type)
        if wt == et == NAT8:
            return r.take(r.length("blob"))
        if wt == et and isinstance(wt, Primitive) and wt.name in _FIXED:  # a fast path for numeric vectors
            fixed = _FIXED[wt.name]
            n = r.length("vector", fixed.size)
            r.charge(n)
            values = struct.unpack_from(f"<{n}{fixed.format[-1]}", r.data, r.pos)
            r.pos += n * fixed.size
            return list(values)
        n = r.length("vector", 1 if self.consumes_bytes(wt) else 0)
        if n > r.budget:
            raise r.fail(f"decode budget exceeded by a vector of {n} elements")
        items = []
        for i in range(n):
            try:
                items.append(self.value(wt, et, depth))
            except CandidError as err:
                raise err.within(f"[{i}]") from None
        return items

    def record(self, w: Record, e: Record, depth: int) -> Any:
        found = {}
        for wf in w.fields:
            ef = e.by_id.get(wf.id)
            try:
                if ef is None:
                    self.value(wf.type, wf.type, depth)
                else:
                    found[wf.id] = self.value(wf.type, ef.type, depth)
            except CandidError as err:
                raise err.within(f".{wf.id if ef is None else ef.key}") from None
        for ef in e.fields:
            if ef.id not in found:
                if not may_be_absent(ef.type):
                    raise _Mismatch(f"record has no field {ef.key} (of type {ef.type})", offset=self.r.pos)
                found[ef.id] = None
        if e.is_tuple:
            return tuple(found[f.id] for f in e.fields)
        return {f.key: found[f.id] for f in e.fields}

    def consumes_bytes(self, t: CandidType) -> bool:
        """Whether every value of wire type ``t`` takes at least one byte (so a vector of them can be
        no longer than the rest of the message)."""
        t = resolve(t)
        if id(t) not in self.sized:
            self.sized[id(t)] = False  # a record that contains itself has no finite values anyway
            if isinstance(t, Record):
                self.sized[id(t)] = any(self.consumes_bytes(f.type) for f in t.fields)
            else:
                self.sized[id(t)] = t not in (NULL, RESERVED, EMPTY)
        return self.sized[id(t)]
