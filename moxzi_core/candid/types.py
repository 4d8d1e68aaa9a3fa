"""Candid's types as immutable Python objects.

Primitive types are the constants ``NULL``, ``BOOL``, ``NAT`` ... ``PRINCIPAL`` (and ``BLOB`` for
``vec nat8``); compound types are built with ``Opt``, ``Vec``, ``Record``, ``Variant``, ``Tuple``,
``FuncType`` and ``Service``. A ``Named`` type is a name bound to a type later, which is how recursive
types are written::

    lst = Named("List")
    lst.define(Opt(Record({"head": NAT, "tail": lst})))

Types compare equal by structure, except ``Named``, which is equal only to itself.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property

from .errors import CandidError


def idl_hash(name: str) -> int:
    """The 32-bit id Candid gives a record field or variant tag called ``name``."""
    h = 0
    for byte in name.encode("utf-8"):
        h = (h * 223 + byte) & 0xFFFFFFFF
    return h


class CandidType:
    """Base of every Candid type."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Primitive(CandidType):
    """A type without components; ``opcode`` is its (negative) code in the binary format."""

    name: str
    opcode: int

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return self.name.upper()  # the constant's name


NULL = Primitive("null", -1)
BOOL = Primitive("bool", -2)
NAT = Primitive("nat", -3)
INT = Primitive("int", -4)
NAT8 = Primitive("nat8", -5)
NAT16 = Primitive("nat16", -6)
NAT32 = Primitive("nat32", -7)
NAT64 = Primitive("nat64", -8)
INT8 = Primitive("int8", -9)
INT16 = Primitive("int16", -10)
INT32 = Primitive("int32", -11)
INT64 = Primitive("int64", -12)
FLOAT32 = Primitive("float32", -13)
FLOAT64 = Primitive("float64", -14)
TEXT = Primitive("text", -15)
RESERVED = Primitive("reserved", -16)
EMPTY = Primitive("empty", -17)
PRINCIPAL = Primitive("principal", -24)

PRIMITIVES = {
    t.name: t
    for t in (
        NULL,
        BOOL,
        NAT,
        INT,
        NAT8,
        NAT16,
        NAT32,
        NAT64,
        INT8,
        INT16,
        INT32,
        INT64,
        FLOAT32,
        FLOAT64,
        TEXT,
        RESERVED,
        EMPTY,
        PRINCIPAL,
    )
}
PRIMITIVE_BY_OPCODE = {t.opcode: t for t in PRIMITIVES.values()}


@dataclass(frozen=True, slots=True)
class Opt(CandidType):
    """``opt t``: a value of ``t`` or none."""

    type: CandidType

    def __str__(self) -> str:
        return f"opt {self.type}"


@dataclass(frozen=True, slots=True)
class Vec(CandidType):
    """``vec t``: a sequence of values of ``t`` (``BLOB`` is ``vec nat8``)."""

    type: CandidType

    def __str__(self) -> str:
        return "blob" if self.type == NAT8 else f"vec {self.type}"


BLOB = Vec(NAT8)


@dataclass(frozen=True, slots=True)
class Field:
    """A record field or variant tag: its numeric ``id`` and, unless declared by number, its ``name``."""

    id: int
    name: str | None
    type: CandidType

    @property
    def key(self) -> str | int:
        """How the field is keyed in Python values: its name, or its id when it has none."""
        return self.id if self.name is None else self.name


class _FieldsType(CandidType):
    """A record or variant: fields kept sorted by id, ids unique."""

    keyword = ""

    def __init__(self, fields: Mapping[str, CandidType] | Mapping[int, CandidType] | Iterable[Field]):
        """``fields`` maps names (hashed to ids) or numeric ids to types, or is an iterable of ``Field``."""
        if isinstance(fields, Mapping):
            fields = [
                Field(key, None, t) if isinstance(key, int) else Field(idl_hash(key), key, t)
                for key, t in fields.items()
            ]
        ordered = tuple(sorted(fields, key=lambda f: f.id))
        for f in ordered:
            if not 0 <= f.id <= 0xFFFFFFFF:
                raise CandidError(f"field id {f.id} is not a 32-bit number")
        for a, b in zip(ordered, ordered[1:]):
            if a.id == b.id:
                raise CandidError(f"{self.keyword} fields {a.key!r} and {b.key!r} have the same id {a.id}")
        self.fields = ordered

    @cached_property
    def by_id(self) -> dict[int, Field]:
        return {f.id: f for f in self.fields}

    @cached_property
    def by_key(self) -> dict[str | int, Field]:
        return {f.key: f for f in self.fields}

    def __eq__(self, other) -> bool:
        return type(other) is type(self) and other.fields == self.fields

    def __hash__(self) -> int:
        return hash((self.keyword, self.fields))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self})"


class Record(_FieldsType):
    """``record { name : t; ... }``; ``Tuple`` builds the ones with numbered fields."""

    keyword = "record"

    @cached_property
    def is_tuple(self) -> bool:
        """True when the fields are unnamed and numbered 0, 1, ...: Python values are then tuples."""
        return bool(self.fields) and all(f.name is None and f.id == i for i, f in enumerate(self.fields))

    def __str__(self) -> str:
        if self.is_tuple:
            return "record " + _braces(str(f.type) for f in self.fields)
        return "record " + _braces(f"{_label(f)} : {f.type}" for f in self.fields)


class Variant(_FieldsType):
    """``variant { tag : t; ... }``; a value is one tag and its payload."""

    keyword = "variant"

    def __str__(self) -> str:
        return "variant " + _braces(f"{_label(f)} : {f.type}" for f in self.fields)


FUNC_MODES = ("query", "oneway", "composite_query")  # binary codes 1, 2, 3
# words a .did file cannot use as type names; as field or method names they must be quoted
DID_KEYWORDS = frozenset(
    {"type", "import", "service", "func", "opt", "vec", "record", "variant", "blob", *PRIMITIVES, *FUNC_MODES}
)
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def did_name(name: str) -> str:
    """``name`` as a field or method name in ``.did`` text: quoted unless it is a plain identifier."""
    if _IDENTIFIER.fullmatch(name) and name not in DID_KEYWORDS:
        return name
    escaped = "".join(c if c.isprintable() and c not in '"\\' else f"\\u{{{ord(c):x}}}" for c in name)
    return f'"{escaped}"'


def _braces(items: Iterable[str]) -> str:
    body = "; ".join(items)
    return f"{{ {body} }}" if body else "{}"


def _label(f: Field) -> str:
    return str(f.id) if f.name is None else did_name(f.name)


def Tuple(*types: CandidType) -> Record:
    """``record { t0; t1; ... }``: a record whose fields are numbered 0, 1, ..."""
    return Record({i: t for i, t in enumerate(types)})


@dataclass(frozen=True, slots=True)
class FuncType(CandidType):
    """A method's type: argument types, result types and annotations (a subset of ``FUNC_MODES``)."""

    args: tuple[CandidType, ...]
    rets: tuple[CandidType, ...]
    modes: frozenset[str] = frozenset()

    def __post_init__(self):
        object.__setattr__(self, "args", tuple(self.args))
        object.__setattr__(self, "rets", tuple(self.rets))
        object.__setattr__(self, "modes", frozenset(self.modes))
        if not self.modes <= set(FUNC_MODES) or len(self.modes) > 1:
            raise CandidError(f"a function has at most one of {', '.join(FUNC_MODES)}, got {sorted(self.modes)}")

    @property
    def signature(self) -> str:
        """The type as a method's: ``(nat) -> (text) query``."""
        modes = "".join(f" {m}" for m in sorted(self.modes))
        return f"({', '.join(map(str, self.args))}) -> ({', '.join(map(str, self.rets))}){modes}"

    def __str__(self) -> str:
        return f"func {self.signature}"


class Service(CandidType):
    """An actor interface: ``methods`` by name and, for a ``.did`` service with a constructor, the
    ``init_args`` types. As a type of values (a service reference) only ``methods`` matter."""

    __slots__ = ("methods", "init_args")

    def __init__(self, methods: Mapping[str, CandidType], init_args: Iterable[CandidType] = ()):
        self.methods = dict(sorted(methods.items(), key=lambda item: item[0].encode("utf-8")))
        self.init_args = tuple(init_args)

    def __eq__(self, other) -> bool:
        return type(other) is Service and (other.methods, other.init_args) == (self.methods, self.init_args)

    def __hash__(self) -> int:
        return hash((tuple(self.methods.items()), self.init_args))

    def __str__(self) -> str:
        return "service " + _braces(
            f"{did_name(name)} : {t.signature if isinstance(t, FuncType) else t}" for name, t in self.methods.items()
        )

    __repr__ = __str__


@dataclass(frozen=True, slots=True)
class FutureType(CandidType):
    """A type from a later version of Candid (a type-table code below -24), met only in received
    messages: its values are skipped, and read only as ``reserved`` or as an absent ``opt``."""

    opcode: int

    def __str__(self) -> str:
        return f"future type {self.opcode}"


class Named(CandidType):
    """A named type, bound once with ``define``; it may refer to itself through a compound type."""

    __slots__ = ("name", "_type")

    def __init__(self, name: str, type: CandidType | None = None):
        self.name = name
        self._type = type

    def define(self, type: CandidType) -> Named:
        if self._type is not None:
            raise CandidError(f"type {self.name} is defined twice")
        self._type = type
        return self

    @property
    def type(self) -> CandidType:
        if self._type is None:
            raise CandidError(f"type {self.name} is used but never defined")
        return self._type

    def __str__(self) -> str:
        return self.name

    __repr__ = __str__


def resolve(t: CandidType) -> CandidType:
    """``t`` with ``Named`` layers removed; a name bound (through other names) to itself is an error."""
    seen: list[Named] = []
    while isinstance(t, Named):
        if any(t is s for s in seen):
            raise CandidError(f"type {t.name} is defined as itself")
        seen.append(t)
        t = t.type
    return t


def accepts_null(t: CandidType) -> bool:
    """True for ``null``, ``opt _`` and ``reserved`` (the spec's ``null <: t``): the types a missing
    argument or record field may have, and the wire types that are not read as an ``opt``'s content."""
    t = resolve(t)
    return t in (NULL, RESERVED) or isinstance(t, Opt)
