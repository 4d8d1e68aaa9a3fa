"""Candid's textual values (the spec's "Values" section): what ``dfx canister call`` takes and prints.

``parse_args("(42, record { a = opt \\"x\\" })", types)`` reads an argument list typed against the
method's argument ``types`` and returns the Python values ``encode_args(types, values)`` takes (the
value model in the package docstring: ``int``, ``float``, ``str``, ``bytes``, ``Some``, ``dict``,
``tuple``, ``Principal``, ``FuncRef``, ...). ``print_values(values, types)`` writes values as
``decode_args`` returns them the way ``dfx`` prints a reply, e.g.
``(record { a = 1 : nat; b = "x" })``, breaking lines past 80 columns as ``dfx`` does.
``parse_value``/``print_value`` do the same for one value.

Reading follows the spec's typing of textual values: numbers take the expected type (``42`` is a
``nat8`` where one is expected; an integer literal is accepted where a float is); ``opt`` values are
written ``opt v`` or ``null`` (a bare value where an ``opt`` is expected is an error, as in ``dfx``);
record fields the type lacks are ignored, and missing fields and trailing arguments whose type admits
``null`` (``opt``, ``null``, ``reserved``) read as ``null``; ``reserved`` takes any value. A value may
carry a type annotation, ``(v : t)``: it is read at ``t`` and then coerced to the expected type by
Candid's subtyping, so the printed form ``1 : nat`` reads back. Two spellings beyond the spec, so that
every printed value reads back: ``NaN``, ``inf`` and ``-inf`` for floats; NUL in text prints as
``\\00`` (``dfx`` prints ``\\0``, which no Candid parser reads).

Errors are ``CandidError``s that start with ``line:column`` of the offending token and say what was
expected, e.g. ``1:9: expected nat, found text "abc"``. Input is bounded: at most
``MAX_TEXT_LENGTH`` characters, ``MAX_TOKENS`` tokens and ``MAX_DEPTH`` levels of nested values.
"""

from __future__ import annotations

import itertools
import math
import re
import struct
from collections.abc import Sequence
from decimal import Decimal
from typing import Any, NamedTuple

from .decode import decode_args
from .did import TypeGrammar
from .encode import encode_args
from .errors import CandidError
from .layout import cat, enclose, render, separated
from .layout import text as doc_text
from .lexer import Token, tokenize
from .subtype import is_subtype
from .types import (
    INT,
    NAT,
    NAT8,
    NULL,
    RESERVED,
    TEXT,
    CandidType,
    Field,
    FuncType,
    Opt,
    Primitive,
    Record,
    Service,
    Variant,
    Vec,
    accepts_null,
    did_name,
    idl_hash,
    resolve,
)
from .values import FuncRef, Principal, Some

MAX_TEXT_LENGTH = 8 << 20
MAX_TOKENS = 1_000_000  # numbers, names, punctuation: what the time to read grows with
MAX_DEPTH = 100
PRETTY_DEPTH = 10  # as dfx: deeper values, and vectors of more elements, are printed on one line
PRETTY_ELEMENTS = 10

_INT_RANGES = {"nat": (0, None), "int": (None, None)} | {
    f"{sign}{bits}": ((0, 2**bits - 1) if sign == "nat" else (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1))
    for sign in ("nat", "int")
    for bits in (8, 16, 32, 64)
}
_FLOAT_NAMES = {"NaN": "nan", "inf": "inf"}


# ---- reading ----


def parse_args(text: str, types: Sequence[CandidType]) -> list[Any]:
    """The values of an argument list ``(v1, v2, ...)`` read at ``types``; trailing arguments of types
    that admit ``null`` may be left out. Raises ``CandidError`` (``line:column: ...``)."""
    grammar = _ValueGrammar(text)
    nodes = grammar.args()
    if len(nodes) > len(types):
        where = nodes[len(types)].token.where
        raise CandidError(f"{where}: {_count(len(nodes))} given, but the method takes {len(types)}")
    for t in types[len(nodes) :]:
        if not accepts_null(t):
            end = grammar.tokens[-1].where
            raise CandidError(
                f"{end}: {_count(len(nodes))} given, but the method takes {len(types)} (the next is of type {t})"
            )
    return [_typed(node, t) for node, t in zip(nodes, types)] + [None] * (len(types) - len(nodes))


def _count(n: int) -> str:
    return f"{n} argument{'' if n == 1 else 's'}"


def parse_value(text: str, t: CandidType) -> Any:
    """One value read at type ``t`` (``42``, ``record { a = 1 }``; no surrounding parentheses needed)."""
    grammar = _ValueGrammar(text)
    node = grammar.annotated(0)
    grammar.end()
    return _typed(node, t)


class _Node(NamedTuple):
    """A value as written, before it is typed: ``kind`` is a keyword of the value grammar ("number",
    "float", "bool", "null", "text", "blob", "opt", "vec", "record", "variant", "principal", "service",
    "func") or "annotated"; ``token`` is where it starts."""

    kind: str
    token: Token
    value: Any = None  # the literal; a record's fields and a variant's field: (id, name, node, token)
    items: tuple = ()  # nested values; an annotated value's one value (its type is ``value``)


class _ValueGrammar(TypeGrammar):
    """The value grammar, on the type grammar (for annotations). It builds ``_Node`` trees."""

    def __init__(self, text: str):
        if len(text) > MAX_TEXT_LENGTH:
            raise CandidError(f"1:1: the text is {len(text)} characters long (at most {MAX_TEXT_LENGTH})")
        tokens = list(itertools.islice(tokenize(text), MAX_TOKENS + 1))
        if len(tokens) > MAX_TOKENS:
            raise CandidError(f"{tokens[-1].where}: the text has more than {MAX_TOKENS} tokens")
        super().__init__(tokens)

    def end(self) -> None:
        if self.peek().kind != "end":
            raise self.error("the end of the input")

    def args(self) -> list[_Node]:
        self.expect("(")
        nodes = self.separated(lambda: self.annotated(0), ",", ")")
        self.end()
        return nodes

    def annotated(self, depth: int) -> _Node:
        """``v`` or ``v : t``."""
        node = self.value(depth)
        if not self.accept(":"):
            return node
        try:
            t = self.datatype()
        except RecursionError:
            raise CandidError(f"{node.token.where}: the annotation's type is nested too deeply") from None
        return _Node("annotated", node.token, t, (node,))

    def reference(self, name, token):
        raise CandidError(f"{token.where}: a value's type annotation cannot name a type ({name}); write the type out")

    def value(self, depth: int) -> _Node:
        token = self.next()
        if depth >= MAX_DEPTH:
            raise CandidError(f"{token.where}: values nested deeper than {MAX_DEPTH} levels")
        kind, word = token.kind, token.value
        if kind in ("number", "float", "text"):
            return _Node(kind, token, word)
        if kind == "sign":
            return self.signed(token)
        if kind == "punct" and word == "(":
            node = self.annotated(depth + 1)
            self.expect(")")
            return node
        if kind != "name":
            raise self.error("a value", token)
        if word in ("true", "false"):
            return _Node("bool", token, word == "true")
        if word == "null":
            return _Node("null", token)
        if word in _FLOAT_NAMES:
            return _Node("float", token, _FLOAT_NAMES[word])
        if word == "opt":
            return _Node("opt", token, items=(self.value(depth + 1),))
        if word == "vec":
            self.expect("{")
            return _Node("vec", token, items=tuple(self.separated(lambda: self.annotated(depth + 1), ";", "}")))
        if word == "record":
            return _Node("record", token, self.record_fields(depth + 1))
        if word == "variant":
            self.expect("{")
            field = self.field(depth + 1, 0, variant=True)
            self.expect("}")
            return _Node("variant", token, field)
        if word in ("blob", "principal", "service", "func"):
            literal = self.next()
            if literal.kind != "text":
                raise self.error(f"a quoted text after {word}", literal)
            if word == "blob":
                return _Node("blob", token, literal.value)
            if word != "func":
                return _Node(word, token, literal)
            self.expect(".")
            return _Node("func", token, (literal, self.label()))
        raise self.error("a value", token)

    def signed(self, sign: Token) -> _Node:
        token = self.next()
        if token.kind == "number":
            return _Node("number", sign, -token.value if sign.value == "-" else token.value)
        if token.kind == "float" or (token.kind == "name" and token.value == "inf"):
            return _Node("float", sign, sign.value + str(token.value))
        raise self.error(f"a number after '{sign.value}'", token)

    def record_fields(self, depth: int) -> list[tuple[int, str | None, _Node, Token]]:
        self.expect("{")
        fields: list[tuple[int, str | None, _Node, Token]] = []
        seen: set[int] = set()

        def field():
            # an unnamed field is numbered one past the previous field, whatever that was
            entry = self.field(depth, fields[-1][0] + 1 if fields else 0, variant=False)
            field_id, name, _, token = entry
            if field_id in seen:
                raise CandidError(f"{token.where}: record field {_label(field_id, name)} is given twice")
            seen.add(field_id)
            fields.append(entry)

        self.separated(field, ";", "}")
        return fields

    def field(self, depth: int, next_id: int, variant: bool) -> tuple[int, str | None, _Node, Token]:
        """``(id, name, value, where)`` of ``label = v``; in a record also of a bare ``v`` (numbered
        ``next_id``), in a variant of a bare ``label`` (a null value)."""
        token, after = self.peek(), self.peek(1)
        labelled = after.kind == "punct" and after.value == "="
        if not (labelled or variant):
            return next_id, None, self.annotated(depth), token
        if token.kind == "number":
            self.at += 1
            if token.value > 0xFFFFFFFF:
                raise CandidError(f"{token.where}: field id {token.value} is not a 32-bit number")
            field_id, name = token.value, None
        else:
            name = self.label()
            field_id = idl_hash(name)
        node = self.annotated(depth) if self.accept("=") else _Node("null", token)
        return field_id, name, node, token


def _typed(node: _Node, t: CandidType) -> Any:
    """The Python value of ``node`` read at type ``t``."""
    e = resolve(t)
    kind = node.kind
    if kind == "annotated":
        return _annotated(node, e)
    if e == RESERVED:
        return None
    if isinstance(e, Opt):
        if kind == "null":
            return None
        if kind == "opt":
            return Some(_typed(node.items[0], e.type))
        raise _mismatch(node, e, " (write opt v, or null)")
    if isinstance(e, Primitive):
        return _primitive(node, e)
    if isinstance(e, Vec) and kind in ("vec", "blob"):
        if resolve(e.type) == NAT8:
            return node.value if kind == "blob" else bytes(_typed(item, NAT8) for item in node.items)
        if kind == "vec":
            return [_typed(item, e.type) for item in node.items]
    if isinstance(e, Record) and kind == "record":
        return _record(node, e)
    if isinstance(e, Variant) and kind == "variant":
        field_id, name, payload, where = node.value
        if field_id not in e.by_id:
            tags = ", ".join(_label(f.id, f.name) for f in e.fields[:12])
            raise CandidError(
                f"{where.where}: {_label(field_id, name)} is not a tag of the variant "
                f"(its tags: {tags}{', ...' if len(e.fields) > 12 else ''})"
            )
        field = e.by_id[field_id]
        return {field.key: _typed(payload, field.type)}
    if isinstance(e, FuncType) and kind == "func":
        literal, method = node.value
        return FuncRef(_principal(literal), method)
    if isinstance(e, Service) and kind == "service":
        return _principal(node.value)
    raise _mismatch(node, e)


def _primitive(node: _Node, e: Primitive) -> Any:
    kind, name = node.kind, e.name
    if name in _INT_RANGES and kind == "number":
        low, high = _INT_RANGES[name]
        if (low is not None and node.value < low) or (high is not None and node.value > high):
            raise CandidError(f"{node.token.where}: {node.value} is out of range for {name}")
        return node.value
    if name in ("float32", "float64") and kind in ("number", "float"):
        try:
            value = float(node.value.replace("_", "") if kind == "float" else node.value)
            return struct.unpack("<f", struct.pack("<f", value))[0] if name == "float32" else value
        except (OverflowError, ValueError):
            raise CandidError(f"{node.token.where}: {node.value} is out of range for {name}") from None
    if (name, kind) in (("bool", "bool"), ("null", "null")):
        return node.value
    if name == "text" and kind == "text":
        return node.token.text()
    if name == "principal" and kind in ("principal", "service"):  # service <: principal
        return _principal(node.value)
    raise _mismatch(node, e)


def _record(node: _Node, e: Record) -> Any:
    given = {field_id: payload for field_id, _, payload, _ in node.value}  # fields e lacks are ignored
    values = {}
    for f in e.fields:
        if f.id in given:
            values[f.key] = _typed(given[f.id], f.type)
        elif accepts_null(f.type):
            values[f.key] = None
        else:
            raise CandidError(f"{node.token.where}: record field {_label(f.id, f.name)} (of type {f.type}) is missing")
    return tuple(values.values()) if e.is_tuple else values


def _annotated(node: _Node, e: CandidType) -> Any:
    """``(v : t)`` read at ``e``: ``v`` read at ``t``, then coerced to ``e`` by Candid's subtyping, which
    the binary codec implements: the value goes through it (only when the types differ)."""
    (inner,), t = node.items, node.value
    value = _typed(inner, t)
    written = resolve(t)
    if e == RESERVED:
        return None
    if written == e or (written == NAT and e == INT):
        return value
    if not is_subtype(t, e):
        raise CandidError(f"{node.token.where}: a value of type {t} cannot be read as {e}")
    try:
        return decode_args(encode_args([t], [value]), [e])[0]
    except CandidError as err:  # e.g. `true : bool` never fits `type Fix = opt Fix`
        raise CandidError(f"{node.token.where}: this value of type {t} cannot be read as {e} ({err.reason})") from None


def _principal(literal: Token) -> Principal:
    try:
        return Principal.from_text(literal.text())
    except CandidError as err:
        raise CandidError(f"{literal.where}: {err.reason}") from None


def _mismatch(node: _Node, e: CandidType, hint: str = "") -> CandidError:
    return CandidError(f"{node.token.where}: expected {e}, found {_described(node)}{hint}")


def _described(node: _Node) -> str:
    if node.kind in ("number", "float"):
        return f"the number {node.value}"
    if node.kind == "text":
        shown = node.token.shown()
        return "text " + (shown if len(shown) <= 40 else shown[:36] + '..."')
    if node.kind in ("bool", "null"):
        return str(node.token.value)
    return {
        "opt": "an opt value",
        "vec": "a vector",
        "record": "a record",
        "variant": "a variant",
        "blob": "a blob",
        "func": "a func reference",
    }.get(node.kind, f"a {node.kind} reference")


def _label(field_id: int, name: str | None) -> str:
    return str(field_id) if name is None else did_name(name)


# ---- printing ----


def print_values(values: Sequence[Any], types: Sequence[CandidType]) -> str:
    """``values`` of ``types`` (as ``decode_args`` returns them) as ``dfx canister call`` prints a
    reply: ``(42 : nat, "x")``, one line when it fits in 80 columns."""
    if len(values) != len(types):
        raise CandidError(f"{len(types)} types but {len(values)} values")
    docs = [_pretty(v, t, PRETTY_DEPTH) for v, t in zip(values, types)]
    return render(enclose("(", separated(docs, ","), ")"))


def print_value(value: Any, t: CandidType) -> str:
    """One value of type ``t`` as ``print_values`` prints it (without the argument parentheses)."""
    return render(_pretty(value, t, PRETTY_DEPTH))


def _pretty(v: Any, t: CandidType, depth: int) -> tuple:
    """The layout document of ``v``: compound values may break over lines, down to ``depth`` levels."""
    e = resolve(t)
    if depth == 0:
        return doc_text(_flat(v, e))
    if e == TEXT:
        return doc_text(_quoted(v, single=True))
    if isinstance(e, Opt) and v is not None:
        inner = _pretty(v.value, e.type, depth - 1)
        return cat(doc_text("opt "), enclose("(", inner, ")") if _annotated_form(e.type) else inner)
    if isinstance(e, Vec) and not isinstance(v, bytes) and len(v) <= PRETTY_ELEMENTS:
        items = [_pretty(item, e.type, depth - 1) for item in v]
        return cat(doc_text("vec "), enclose("{", separated(items, ";"), "}", space=True))
    if isinstance(e, Record):
        fields = [(f, v[i] if isinstance(v, tuple) else v[f.key]) for i, f in enumerate(e.fields)]
        if all(f.id == i for i, (f, _) in enumerate(fields)):
            items = [_pretty(value, f.type, depth - 1) for f, value in fields]
        else:
            items = [_pretty_field(f, value, depth) for f, value in fields]
        return cat(doc_text("record "), enclose("{", separated(items, ";"), "}", space=True))
    if isinstance(e, Variant):
        ((key, payload),) = v.items()
        field = e.by_key[key]
        item = (
            doc_text(_label(field.id, field.name))
            if resolve(field.type) == NULL
            else _pretty_field(field, payload, depth)
        )
        return cat(doc_text("variant "), enclose("{", item, "}", space=True))
    return doc_text(_flat(v, e))


def _pretty_field(f: Field, value: Any, depth: int) -> tuple:
    return cat(doc_text(_field_label(f) + " = "), _pretty(value, f.type, depth - 1))


def _flat(v: Any, t: CandidType) -> str:
    """``v`` on one line, as ``dfx`` prints what it does not lay out (Rust's ``Debug`` of a value)."""
    e = resolve(t)
    if isinstance(e, Primitive):
        return _primitive_text(v, e)
    if isinstance(e, Opt):
        if v is None:
            return "null"
        inner = _flat(v.value, e.type)
        return f"opt ({inner})" if _annotated_form(e.type) else f"opt {inner}"
    if isinstance(e, Vec):
        if isinstance(v, bytes):
            return _blob(v)
        return "vec {" + "".join(f" {_flat(item, e.type)};" for item in v) + "}"
    if isinstance(e, Record):
        parts = []
        for i, f in enumerate(e.fields):
            value = _flat(v[i] if isinstance(v, tuple) else v[f.key], f.type)
            parts.append(f" {value};" if f.id == i else f" {_field_label(f)} = {value};")
        return "record {" + "".join(parts) + "}"
    if isinstance(e, Variant):
        ((key, payload),) = v.items()
        field = e.by_key[key]
        item = (
            _field_label(field)
            if resolve(field.type) == NULL
            else f"{_field_label(field)} = {_flat(payload, field.type)}"
        )
        return f"variant {{ {item} }}"
    if isinstance(e, FuncType):
        return f'func "{v.service}".{did_name(v.method)}'
    return f'service "{v}"'


def _primitive_text(v: Any, e: Primitive) -> str:
    name = e.name
    if name in _INT_RANGES:
        return f"{_grouped(v)} : {name}"
    if name in ("float32", "float64"):
        return f"{_float(v, name == 'float32')} : {name}"
    if name in ("null", "reserved"):
        return f"null : {name}"
    if name == "bool":
        return "true" if v else "false"
    if name == "text":
        return _quoted(v, single=False)
    return f'principal "{v}"'


def _annotated_form(t: CandidType) -> bool:
    """Whether values of ``t`` print with a type annotation (so ``opt`` puts them in parentheses)."""
    e = resolve(t)
    return isinstance(e, Primitive) and (e.name in _INT_RANGES or e.name in ("float32", "float64", "null", "reserved"))


def _field_label(f: Field) -> str:
    return _grouped(f.id) if f.name is None else did_name(f.name)


def _grouped(n: int) -> str:
    """Digits in groups of three joined by underscores, as dfx prints numbers: ``-1_000_000``."""
    digits = str(abs(n))
    head = len(digits) % 3 or 3
    groups = [digits[:head]] + [digits[i : i + 3] for i in range(head, len(digits), 3)]
    return ("-" if n < 0 else "") + "_".join(groups)


def _float(x: float, single: bool) -> str:
    """The shortest decimal that reads back as ``x`` (a float32 when ``single``), never in exponent
    form, with ``.0`` on integral values: ``3.0``, ``0.1``, ``0.0000001``."""
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    shortest = repr(x)
    if single:
        for precision in range(1, 10):
            candidate = f"{x:.{precision}g}"
            try:
                if struct.unpack("<f", struct.pack("<f", float(candidate)))[0] == x:
                    shortest = candidate
                    break
            except OverflowError:  # rounded up past the largest float32
                continue
    positional = format(Decimal(shortest), "f")
    return positional if "." in positional else positional + ".0"


_TEXT_ESCAPES = {"\t": "\\t", "\r": "\\r", "\n": "\\n", "\\": "\\\\", '"': '\\"', "\0": "\\00"}


def _quoted(s: str, single: bool) -> str:
    """``s`` in double quotes with Rust's escapes (``\\'`` too when ``single``, as dfx does at the
    top level of a layout); other unprintable characters as ``\\u{..}``."""
    out = []
    for c in s:
        if c in _TEXT_ESCAPES:
            out.append(_TEXT_ESCAPES[c])
        elif c == "'" and single:
            out.append("\\'")
        elif not c.isprintable():
            out.append(f"\\u{{{ord(c):x}}}")
        else:
            out.append(c)
    return '"' + "".join(out) + '"'


_BLOB_PRINTABLE = re.compile(rb"[\x20-\x7e\t\n\r]*")
# in a blob's printable form, these bytes are escaped too (as dfx does)
_BLOB_ESCAPES = str.maketrans({c: f"\\{ord(c):02x}" for c in "\"'`\\\t\n\r"})


def _blob(data: bytes) -> str:
    """``blob "..."``: printable ASCII as itself when every byte is printable (or tab, newline,
    carriage return), else every byte as ``\\xx``."""
    if _BLOB_PRINTABLE.fullmatch(data):
        return 'blob "' + data.decode("ascii").translate(_BLOB_ESCAPES) + '"'
    return 'blob "' + ("\\" + data.hex("\\") if data else "") + '"'
