"""A decoded message as a template for the next ones of the same head (``Decoder``): a message whose
bytes are the same except inside its leaves (blobs' contents, fixed-size numbers and vectors of them)
decodes to the same value with those leaves read anew from it.

What a leaf holds never decides how the rest of a message is read (its length, where one ends, is in
the bytes around it), so the bytes around the leaves being the same means the same structure, the same
decoding cost and the same value around them. While a message is decoded its leaf readers note where
each leaf lay (``Reader.spans``); ``learn`` then finds each leaf's place in the value by walking it
with its types in the order the message holds them, and gives up (no template) when the two counts of
leaves differ: a leaf inside something dropped (an unknown field, ``reserved``, an ``opt`` whose
content did not fit) has no place in the value. Values of remembered types (``Decoder(remember=)``)
are neither walked nor noted: their bytes are compared whole.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .types import NAT8, NULL, RESERVED, CandidType, FutureType, Opt, Primitive, Record, Variant, Vec, resolve
from .values import Some
from .wire import FIXED_FORMATS

Unpack = Callable[[bytes, int, int], Any]  # a leaf's value from the message's bytes [start:end]
Span = tuple[int, int, Unpack]
_SOME = object()  # the step into a Some on a leaf's path


class Template:
    """A message's bytes outside its leaves, its leaves' places, and its value."""

    def __init__(self, data: bytes, spans: list[Span], paths: list[tuple], values: list[Any], cost: int):
        self.length, self.cost = len(data), cost
        self.leaves = spans
        self.segments: list[tuple[int, bytes]] = []  # (where, bytes) between the leaves
        at = 0
        for start, end, _ in spans:
            if start > at:
                self.segments.append((at, data[at:start]))
            at = end
        if at < len(data):
            self.segments.append((at, data[at:]))
        self.patch: dict = {}  # the leaves' paths as a tree: step -> subtree, or the leaf's index
        for i, path in enumerate(paths):
            node = self.patch
            for step in path[:-1]:
                node = node.setdefault(step, {})
            node[path[-1]] = i
        self.values = _patched(values, self.patch, [None] * len(spans))  # (not holding the leaves: inputs)

    def read(self, data: bytes) -> list[Any] | None:
        """``data``'s value, if it is this message but for its leaves; else None."""
        if len(data) != self.length:
            return None
        for at, segment in self.segments:
            if not data.startswith(segment, at):
                return None
        leaves = [unpack(data, start, end) for start, end, unpack in self.leaves]
        return _patched(self.values, self.patch, leaves)


def learn(
    data: bytes,
    spans: list[Span],
    values: list[Any],
    wire: list[CandidType],
    expected: list[CandidType],
    remembered: frozenset[int],
    cost: int,
) -> Template | None:
    """The template of a message decoded to ``values`` (its leaves noted in ``spans``), or None."""
    paths: list[tuple] = []
    for i, (w, e) in enumerate(zip(wire, expected)):
        _walk(values[i], w, e, (i,), paths, remembered)
    return Template(data, spans, paths, values, cost) if len(paths) == len(spans) else None


def _walk(value: Any, w: CandidType, e: CandidType, path: tuple, out: list[tuple], remembered: frozenset[int]) -> None:
    """Append the paths of ``value``'s leaves to ``out``, in the order the message holds them."""
    w, e = resolve(w), resolve(e)
    if id(e) in remembered or e == RESERVED or isinstance(w, FutureType):
        return
    if isinstance(e, Opt):
        if w not in (NULL, RESERVED) and isinstance(value, Some):
            _walk(value.value, w.type if isinstance(w, Opt) else w, e.type, (*path, _SOME), out, remembered)
    elif isinstance(e, Primitive):
        if w == e and e.name in FIXED_FORMATS:
            out.append(path)
    elif isinstance(e, Vec) and isinstance(w, Vec):
        wt, et = resolve(w.type), resolve(e.type)
        if wt == et and (wt == NAT8 or (isinstance(wt, Primitive) and wt.name in FIXED_FORMATS)):
            out.append(path)  # the blob, or the numbers, as one leaf
        else:
            for i, item in enumerate(value):
                _walk(item, wt, et, (*path, i), out, remembered)
    elif isinstance(e, Record) and isinstance(w, Record):
        index = {f.id: i for i, f in enumerate(e.fields)} if e.is_tuple else None
        for wf in w.fields:
            ef = e.by_id.get(wf.id)
            if ef is not None:
                key = ef.key if index is None else index[ef.id]
                _walk(value[key], wf.type, ef.type, (*path, key), out, remembered)
    elif isinstance(e, Variant) and isinstance(w, Variant):
        ((key, payload),) = value.items()
        ef = e.by_key[key]
        _walk(payload, w.by_id[ef.id].type, ef.type, (*path, key), out, remembered)


def _patched(value: Any, patch: dict | int, leaves: list[Any]) -> Any:
    """``value`` with the leaves at ``patch``'s paths replaced, its containers on them copied (the rest
    is shared with the template's value)."""
    if isinstance(patch, int):
        return leaves[patch]
    if isinstance(value, Some):
        return Some(_patched(value.value, patch[_SOME], leaves))
    copy = dict(value) if isinstance(value, dict) else list(value)
    for step, below in patch.items():
        copy[step] = _patched(value[step], below, leaves)
    return tuple(copy) if isinstance(value, tuple) else copy


def blob(data: bytes, start: int, end: int) -> bytes:
    return data[start:end]
