"""Decoding a Candid message against the types the receiver expects, with Candid's coercion rules.

The rules (the spec's "deserialisation" and "coercion", as of its October 2025 revision): ``nat``
reads as ``int``, and a service reference as a ``principal``; ``reserved`` takes and drops any value; a
value under an expected ``opt`` is kept when it decodes as the optional's content and becomes ``None``
when it doesn't fit; ``null`` and ``reserved`` on the wire become ``None``; a bare value (of a wire type
other than ``null``, ``reserved`` and ``opt``) is read as the content even when that is an ``opt``
itself (``true : bool`` at ``opt opt bool`` is ``Some(Some(True))``); malformed bytes are an error even
under an ``opt``; record fields the receiver doesn't know are skipped, and expected fields missing
from the message must be ``null``, ``opt`` or ``reserved`` and read as ``None``; a variant's tag must
be one the receiver knows; function and service references must have subtypes of the expected types;
extra arguments are skipped, and missing ones must be ``null``, ``opt`` or ``reserved`` and read as
``None``.
"""

from __future__ import annotations

import builtins
import struct
import threading
from collections.abc import Callable, Sequence
from typing import Any

from .errors import CandidError
from .subtype import is_subtype
from .template import Span, Template, blob, learn
from .types import (
    EMPTY,
    INT,
    NAT,
    NAT8,
    NULL,
    PRINCIPAL,
    RESERVED,
    CandidType,
    FuncType,
    FutureType,
    Opt,
    Primitive,
    Record,
    Service,
    Variant,
    Vec,
    accepts_null,
    resolve,
)
from .typetable import read_type_table
from .values import MAX_PRINCIPAL_BYTES, FuncRef, Principal, Some
from .wire import FIXED_FORMATS, MAGIC, Reader

# The default budget is DEFAULT_BUDGET plus BUDGET_PER_BYTE per byte of the message: room for any
# message whose values take bytes, so only messages of many byte-less values (nulls, empty records)
# use up the constant, and a 13-byte `vec null` of length 10^9 fails at once.
DEFAULT_BUDGET = 100_000
BUDGET_PER_BYTE = 2
MAX_DEPTH = 256
REPEAT_BYTES = 1 << 16  # (Decoder) a message repeated whole is remembered up to this size

ValueReader = Callable[[int], Any]  # reads one value; the argument is the nesting depth


def decode_args(data: bytes, types: Sequence[CandidType] | None = None, *, budget: int | None = None) -> list[Any]:
    """The arguments in ``data``, one Python value per type in ``types``.

    Without ``types`` each argument is read as the type the message declares, so record fields and
    variant tags are keyed by their numeric ids (use this for debugging only).

    ``budget`` bounds the work: one unit per value decoded or skipped and per type-table item, by
    default ``DEFAULT_BUDGET + BUDGET_PER_BYTE * len(data)``; a vector whose length alone exceeds what
    is left fails before it is read. Any malformed, mistyped or over-budget input raises
    ``CandidError`` with the byte offset and the argument/field path.
    """
    reader = Reader(data, DEFAULT_BUDGET + BUDGET_PER_BYTE * len(data) if budget is None else budget)
    try:
        return _decode(reader, types)
    except RecursionError:
        raise reader.fail("types or values nested too deeply") from None


class Decoder:
    """Decodes message after message against the same ``types`` (a method's argument, say), with what
    ``decode_args`` gives and raises for each, but doing less for what repeats.

    A message's head (its type table and argument types) is parsed, and the readers for it built, once
    per distinct head: a later message whose bytes begin with a head seen before reuses them (the
    ``heads`` most recently used are kept). A value of a type in ``remember`` that repeats byte for byte
    where the previous one of that type began is not decoded again: the previous value is given, and the
    budget charged what decoding it cost. A message as long as the one before of its head that differs
    from it only inside its leaves (blobs' contents, fixed-size numbers) is read from that one's
    template (``template.py``): its leaves, and the containers on their paths, read anew. A message of
    at most ``REPEAT_BYTES`` that repeats the one before byte for byte (a training loop's step on the
    same batch) is not read at all: the value given for that one is given again. Parsing is a
    function of the bytes it reads alone, so each gives what decoding from scratch gives. Remembered
    values, a template's values off its leaves' paths and a repeated message's whole value are shared
    by the results of the messages that repeat them: callers must not change them. Safe to use from
    several threads at once.
    """

    def __init__(self, types: Sequence[CandidType], *, remember: Sequence[CandidType] = (), heads: int = 16):
        self.types = list(types)
        self._remember = frozenset(id(resolve(t)) for t in remember)
        self._size = heads
        self._heads: list[_Head] = []  # most recently used last; a head in use is taken out
        self._lock = threading.Lock()
        self._last: tuple[bytes, list[Any], int] | None = None  # the last message, its value and its cost

    def decode(self, data: bytes, *, budget: int | None = None) -> list[Any]:
        """As ``decode_args(data, types, budget=budget)``."""
        budget = DEFAULT_BUDGET + BUDGET_PER_BYTE * len(data) if budget is None else budget
        data = bytes(data)
        last = self._last
        if last is not None and last[0] == data and last[2] <= budget:
            return last[1]
        with self._lock:
            head = next((h for h in reversed(self._heads) if h.cost <= budget and data.startswith(h.key, 4)), None)
            if head is not None:
                self._heads.remove(head)
        if head is None:
            head = _Head(Reader(data, budget), self.types, self._remember)
        else:
            head.reuse(data, budget)
        try:
            template = head.template if head.template is not None and head.template.cost <= budget else None
            values = None if template is None else template.read(data)
            if values is not None and template is not None:
                cost = template.cost
            else:
                spans: list[Span] = []
                head.r.spans = spans
                values = head.values()
                cost = budget - head.r.budget
                # learnt from a message as long as the one before: a run of messages that differ in
                # length (a growing context) is never walked
                if len(data) == head.length:
                    head.template = learn(data, spans, values, head.wire, head.expected, self._remember, cost)
                head.length = len(data)
            if len(data) <= REPEAT_BYTES:
                self._last = (data, values, cost)
            return values
        except RecursionError:
            raise head.r.fail("types or values nested too deeply") from None
        finally:
            head.r.data, head.r.spans = b"", None  # the message's bytes are not kept
            with self._lock:
                self._heads.append(head)
                if len(self._heads) > self._size:
                    del self._heads[0]


class _Head:
    """A message's head read, with the readers of its values: decodes that message and, through
    ``reuse``, others that begin with the same head bytes (``key``)."""

    def __init__(self, r: Reader, types: Sequence[CandidType] | None, remember: frozenset[int] = frozenset()):
        self.r = r
        if r.take(4) != MAGIC:
            raise r.fail("not a Candid message: it does not start with DIDL", at=0)
        before = r.budget
        read_type = read_type_table(r)
        self.wire = [read_type() for _ in range(r.length("argument list"))]
        self.key, self.cost, self.start = r.data[4 : r.pos], before - r.budget, r.pos
        self.expected = self.wire if types is None else list(types)
        self.readers = _Readers(r, remember)
        self.template: Template | None = None  # (Decoder) the last message's, if it has one
        self.length = -1  # (Decoder) the last message's length

    def reuse(self, data: bytes, budget: int) -> None:
        """Read ``data`` next, which begins with this head (and has the budget to pay for it)."""
        self.r.data, self.r.pos, self.r.budget = data, self.start, budget - self.cost

    def values(self) -> list[Any]:
        return _values(self.r, self.wire, self.expected, self.readers)


def _decode(r: Reader, types: Sequence[CandidType] | None) -> list[Any]:
    head = _Head(r, types)
    return _values(r, head.wire, head.expected, head.readers)


def _values(r: Reader, wire: list[CandidType], expected: list[CandidType], readers: _Readers) -> list[Any]:
    values: list[Any] = []
    for i in range(max(len(wire), len(expected))):
        try:
            if i >= len(wire):
                if not accepts_null(expected[i]):
                    raise r.fail(f"missing argument of type {expected[i]}")
                values.append(None)
                continue
            r.charge(1)
            if i < len(expected):
                values.append(readers.get(wire[i], expected[i])(0))
            else:
                readers.get(wire[i], wire[i])(0)  # an extra argument, read to check it and dropped
        except CandidError as err:
            raise err.within(f"argument {i}") from None
    if r.remaining:
        raise r.fail(f"{r.remaining} bytes left after the last argument")
    return values


class _Mismatch(CandidError):
    """A well-formed value that doesn't fit the expected type: under an ``opt`` it reads as null."""


_FIXED = {name: struct.Struct(fmt) for name, fmt in FIXED_FORMATS.items()}


class _Readers:
    """One reader per (wire type, expected type) pair, built when the pair is first met.

    The coercion is decided once per pair, where it depends on the types alone; a value that doesn't
    fit raises ``_Mismatch`` only when one is actually read (an empty vector of them is fine). Each
    value costs one unit of budget, charged by whatever contains it.
    """

    def __init__(self, r: Reader, remember: frozenset[int] = frozenset()):
        self.r = r
        self.built: dict[tuple[int, int], ValueReader] = {}  # the types outlive this object
        self.sized: dict[int, bool] = {}
        self.remember = remember  # ids of expected types whose values repeat (Decoder)

    def get(self, wire: CandidType, expected: CandidType) -> ValueReader:
        w, e = resolve(wire), resolve(expected)
        key = (id(w), id(e))
        if key not in self.built:
            # a recursive type meets this pair again while its reader is being built
            self.built[key] = lambda depth: self.built[key](depth)
            read = self.build(w, e)
            self.built[key] = self.remembered(read) if id(e) in self.remember else read
        return self.built[key]

    def remembered(self, read: ValueReader) -> ValueReader:
        """``read``, giving the value it read last (and charging what that cost) when the bytes it read
        then come next again, at the same depth."""
        r = self.r
        last: tuple[bytes, int, Any, int] | None = None  # (bytes, depth, value, budget it cost)

        def read_again(depth: int) -> Any:
            nonlocal last
            if last is not None:
                span, at_depth, value, cost = last
                if at_depth == depth and cost <= r.budget and r.data.startswith(span, r.pos):
                    r.pos += len(span)
                    r.budget -= cost
                    return value
            start, budget, spans = r.pos, r.budget, r.spans
            r.spans = None  # a remembered value's bytes are compared whole (template.py)
            try:
                value = read(depth)
            finally:
                r.spans = spans
            last = (r.data[start : r.pos], depth, value, budget - r.budget)
            return value

        return read_again

    def build(self, w: CandidType, e: CandidType) -> ValueReader:
        if e == RESERVED:
            return self.dropped(w)
        if isinstance(e, Opt):
            return self.opt(w, e)
        if isinstance(w, FutureType) and w == e:
            return self.future_value
        if isinstance(e, Primitive):
            if w == e or (w == NAT and e == INT):
                return self.primitive(w)
            if e == PRINCIPAL and isinstance(w, Service):  # service <: principal: the same bytes
                return self.principal
        elif type(w) is type(e):
            if isinstance(w, Vec) and isinstance(e, Vec):
                return self.vec(w, e)
            if isinstance(w, Record) and isinstance(e, Record):
                return self.record(w, e)
            if isinstance(w, Variant) and isinstance(e, Variant):
                return self.variant(w, e)
            if is_subtype(w, e):
                return self.func_ref if isinstance(e, FuncType) else self.principal
        return self.mismatch(f"expected {e}, but the message has {w}")

    def mismatch(self, reason: str) -> ValueReader:
        def read(depth: int):
            raise _Mismatch(reason, offset=self.r.pos)

        return read

    def dropped(self, w: CandidType) -> ValueReader:
        if w == RESERVED:
            return lambda depth: None
        skip = self.get(w, w)

        def read(depth: int) -> None:
            skip(depth)  # reserved takes any value and drops it

        return read

    def primitive(self, t: Primitive) -> ValueReader:
        r = self.r
        if t.name in _FIXED:
            fixed = _FIXED[t.name]

            def unpack(data: bytes, start: int, end: int) -> Any:
                return fixed.unpack_from(data, start)[0]

            def read_fixed(depth: int) -> Any:
                start = r.pos
                value = fixed.unpack(r.take(fixed.size))[0]
                if r.spans is not None:
                    r.spans.append((start, r.pos, unpack))
                return value

            return read_fixed
        if t in (NULL, RESERVED):
            return lambda depth: None
        if t == EMPTY:
            return self.malformed("a value of type empty cannot exist")
        readers: dict[str, Callable[[], Any]] = {
            "nat": r.leb128,
            "int": r.sleb128,
            "text": r.text,
            "bool": self.bool,
            "principal": self.principal,
        }
        read = readers[t.name]
        return lambda depth: read()

    def malformed(self, reason: str) -> ValueReader:
        def read(depth: int):
            raise self.r.fail(reason)

        return read

    def bool(self) -> bool:
        flag = self.r.byte()
        if flag > 1:
            raise self.r.fail(f"bool must be 0 or 1, got {flag}", at=self.r.pos - 1)
        return flag == 1

    def reference_flag(self) -> None:
        flag = self.r.byte()
        if flag != 1:
            raise self.r.fail(f"reference flag must be 1 (a public reference), got {flag}", at=self.r.pos - 1)

    def principal(self, depth: int = 0) -> Principal:
        r = self.r
        self.reference_flag()
        at = r.pos
        size = r.leb128()
        if size > MAX_PRINCIPAL_BYTES:
            raise r.fail(f"principal of {size} bytes (at most {MAX_PRINCIPAL_BYTES})", at=at)
        return Principal(r.take(size))

    def func_ref(self, depth: int) -> FuncRef:
        self.reference_flag()
        service = self.principal()
        return FuncRef(service, self.r.text("method name"))

    def future_value(self, depth: int) -> None:
        """Skips a value of a future type: its byte count, its reference count, its bytes."""
        size = self.r.leb128()
        self.r.leb128()
        self.r.take(size)

    def too_deep(self) -> CandidError:
        # (each container's reader checks its depth inline: a call per value showed in a run's decoding)
        return self.r.fail(f"values nested deeper than {MAX_DEPTH} levels")

    def opt(self, w: CandidType, e: Opt) -> ValueReader:
        r = self.r
        if w in (NULL, RESERVED):
            return lambda depth: None
        # a bare value (its wire type is neither null, reserved nor opt) is read as the content, even
        # when that is itself an opt: `true : bool` at `opt opt bool` is `opt opt true`
        content = resolve(w.type) if isinstance(w, Opt) else w
        inner, skip = self.get(content, e.type), self.get(content, content)

        flagged = isinstance(w, Opt)

        def read(depth: int) -> Any:
            if depth >= MAX_DEPTH:
                raise self.too_deep()
            depth += 1
            if flagged:
                flag = r.byte()
                if flag == 0:
                    return None
                if flag != 1:
                    raise r.fail(f"opt flag must be 0 or 1, got {flag}", at=r.pos - 1)
            r.charge(1)
            start = r.pos
            try:
                return Some(inner(depth))
            except _Mismatch:
                r.pos = start
                skip(depth)  # skipping still refuses malformed bytes
                return None

        return read

    def vec(self, w: Vec, e: Vec) -> ValueReader:
        r = self.r
        wt, et = resolve(w.type), resolve(e.type)
        if wt == et == NAT8:

            def read_blob(depth: int) -> bytes:
                n = r.length("blob")
                if r.spans is not None:
                    r.spans.append((r.pos, r.pos + n, blob))
                return r.take(n)

            return read_blob
        if wt == et and isinstance(wt, Primitive) and wt.name in _FIXED:
            return self.numbers(_FIXED[wt.name])
        element, min_size = self.get(wt, et), 1 if self.consumes_bytes(wt) else 0

        def read(depth: int) -> list:
            if depth >= MAX_DEPTH:
                raise self.too_deep()
            depth += 1
            n = r.length("vector", min_size)
            r.charge(n, f"a vector of {n} elements")
            items = []
            for i in range(n):
                try:
                    items.append(element(depth))
                except CandidError as err:
                    raise err.within(f"[{i}]") from None
            return items

        return read

    def numbers(self, fixed: struct.Struct) -> ValueReader:
        """Vectors of one fixed-size number type, unpacked in one go."""
        r = self.r

        code = fixed.format[-1]

        def unpack(data: bytes, start: int, end: int) -> list:
            return list(struct.unpack_from(f"<{(end - start) // fixed.size}{code}", data, start))

        def read(depth: int) -> list:
            n = r.length("vector", fixed.size)
            r.charge(n)
            values = struct.unpack_from(f"<{n}{code}", r.data, r.pos)
            if r.spans is not None:
                r.spans.append((r.pos, r.pos + n * fixed.size, unpack))
            r.pos += n * fixed.size
            return list(values)

        return read

    def record(self, w: Record, e: Record) -> ValueReader:
        r = self.r
        missing = [f for f in e.fields if f.id not in w.by_id and not accepts_null(f.type)]
        if missing:
            return self.mismatch(f"record has no field {missing[0].key} (of type {missing[0].type})")
        # per wire field: the key it fills (None: skipped), how to read it, where it is for errors
        steps = []
        for wf in w.fields:
            ef = e.by_id.get(wf.id)
            reader = self.get(wf.type, wf.type if ef is None else ef.type)
            steps.append((None if ef is None else ef.key, reader, f".{wf.id if ef is None else ef.key}"))
        keys = [f.key for f in e.fields]
        as_tuple = e.is_tuple

        units = len(steps)

        def read(depth: int) -> Any:
            if depth >= MAX_DEPTH:
                raise self.too_deep()
            depth += 1
            if units > r.budget:
                r.charge(units)  # raises
            r.budget -= units
            values = dict.fromkeys(keys)  # absent optional fields stay None
            for key, reader, segment in steps:
                try:
                    value = reader(depth)
                except CandidError as err:
                    raise err.within(segment) from None
                if key is not None:
                    values[key] = value
            return tuple(values.values()) if as_tuple else values

        return read

    def variant(self, w: Variant, e: Variant) -> ValueReader:
        r = self.r
        # per wire tag index: the expected tag's key and how to read its payload, or None if unknown
        tags = []
        for wf in w.fields:
            ef = e.by_id.get(wf.id)
            tags.append(None if ef is None else (ef.key, self.get(wf.type, ef.type)))

        def read(depth: int) -> dict:
            if depth >= MAX_DEPTH:
                raise self.too_deep()
            depth += 1
            at = r.pos
            index = r.leb128()
            if index >= len(tags):
                raise r.fail(f"variant tag index {index} is out of range ({len(tags)} tags)", at=at)
            tag = tags[index]
            if tag is None:
                raise _Mismatch(f"variant tag {w.fields[index].id} is not a tag of {e}", offset=at)
            key, payload = tag
            r.charge(1)
            try:
                return {key: payload(depth)}
            except CandidError as err:
                raise err.within(f".{key}") from None

        return read

    def consumes_bytes(self, t: CandidType) -> builtins.bool:  # (the method bool shadows the type here)
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
