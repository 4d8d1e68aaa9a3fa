"""Candid's subtype relation ``wire <: expected`` between types, used where the spec decides by type
rather than by value: whether a function or service reference may be read as the expected one."""

from __future__ import annotations

from .errors import CandidError
from .types import (
    EMPTY,
    INT,
    NAT,
    PRINCIPAL,
    RESERVED,
    CandidType,
    FuncType,
    Opt,
    Primitive,
    Record,
    Service,
    Variant,
    Vec,
    accepts_null,
    resolve,
)

MAX_TYPE_DEPTH = 200


def is_subtype(wire: CandidType, expected: CandidType) -> bool:
    """True when every value of ``wire`` can be read as a value of ``expected``.

    Recursive types are compared coinductively: a pair met again while it is being compared is assumed
    to hold. Any type is a subtype of ``opt t`` (values that don't fit become null); a service type is
    a subtype of ``principal``; a record (or argument list) may lack fields whose type admits null.
    """
    return _Check().holds(wire, expected, 0)


class _Check:
    def __init__(self) -> None:
        # Pairs of resolved types (by identity: both stay reachable from the caller's types).
        self.assumed: set[tuple[int, int]] = set()

    def holds(self, wire: CandidType, expected: CandidType, depth: int) -> bool:
        if depth > MAX_TYPE_DEPTH:
            raise CandidError(f"types nested deeper than {MAX_TYPE_DEPTH} levels")
        w, e = resolve(wire), resolve(expected)
        if e == RESERVED or w in (EMPTY, e) or isinstance(e, Opt):
            return True
        if isinstance(e, Primitive) or isinstance(w, Primitive):
            return (w == NAT and e == INT) or (e == PRINCIPAL and isinstance(w, Service))
        pair = (id(w), id(e))
        if pair in self.assumed:
            return True
        self.assumed.add(pair)
        depth += 1
        if isinstance(e, Vec) and isinstance(w, Vec):
            return self.holds(w.type, e.type, depth)
        if isinstance(e, Record) and isinstance(w, Record):
            return all(
                self.holds(w.by_id[f.id].type, f.type, depth) if f.id in w.by_id else accepts_null(f.type)
                for f in e.fields
            )
        if isinstance(e, Variant) and isinstance(w, Variant):
            return all(f.id in e.by_id and self.holds(f.type, e.by_id[f.id].type, depth) for f in w.fields)
        if isinstance(e, FuncType) and isinstance(w, FuncType):
            return (
                w.modes == e.modes
                and self.sequence_holds(e.args, w.args, depth)
                and self.sequence_holds(w.rets, e.rets, depth)
            )
        if isinstance(e, Service) and isinstance(w, Service):
            return all(name in w.methods and self.holds(w.methods[name], t, depth) for name, t in e.methods.items())
        return False

    def sequence_holds(self, sub: tuple, sup: tuple, depth: int) -> bool:
        """Argument/result sequences, like tuple records: extra ``sub`` entries are ignored, and missing
        ones must admit null."""
        return all(self.holds(sub[i], t, depth) if i < len(sub) else accepts_null(t) for i, t in enumerate(sup))
