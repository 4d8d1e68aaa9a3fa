"""The type table at the head of a Candid message: the types its values are written in."""

from __future__ import annotations

from collections.abc import Callable

from .types import (
    FUNC_MODES,
    PRIMITIVE_BY_OPCODE,
    CandidType,
    Field,
    FuncType,
    FutureType,
    Named,
    Opt,
    Record,
    Service,
    Variant,
    Vec,
    resolve,
)
from .wire import Reader


def read_type_table(r: Reader) -> Callable[[], CandidType]:
    """Reads the type table into ``Named`` slots (``type0``, ``type1``, ...) and returns the reader of
    one type reference (a primitive type or a slot). Malformed tables raise ``CandidError``."""
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
        out: list[Field] = []
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
            slot.define(FuncType(tuple(args), tuple(rets), frozenset(modes)))
        elif code == -23:
            methods, previous = {}, None
            for _ in range(r.length("method list", 2)):
                r.charge(1)
                name_at = r.pos
                name = r.text("method name")
                if previous is not None and name.encode() <= previous:
                    raise r.fail(f"method {name!r} is out of order or repeated", at=name_at)
                previous = name.encode()
                methods[name] = ref()
                method_refs.append((name_at, name, methods[name]))
            slot.define(Service(methods))
        elif code < -24:  # a future type: its description is skipped by its length
            r.take(r.length("future type"))
            slot.define(FutureType(code))
        else:
            raise r.fail(f"type table entry has code {code}, not a compound or future type code", at=at)
    for at, name, method in method_refs:
        if not isinstance(resolve(method), FuncType):
            raise r.fail(f"method {name!r} has type {resolve(method)}, not a function type", at=at)
    return ref
