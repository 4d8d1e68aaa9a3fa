"""The device's Candid interface (``interface.did``) and the method types the device decodes with.

The ``Op`` variant the device accepts is built from the registered ops, so a third-party op is part of
the interface as soon as its plugin loads; the built-in ops' payload types are the ones the ``.did``
declares (``builtin_payloads``), one source of truth.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

from ..candid import CandidType, FuncType, Named, Opt, Record, Service, Variant, Vec, parse_did
from ..candid.types import Field, resolve

METHOD_PREFIX = "moxzi_device_"  # every device method's name starts so
FETCH = METHOD_PREFIX + "fetch"
# What a fetch runs (and is recorded) as, once it downloaded: its argument is an Attachment holding the
# fetch's prefix and the export's bytes (not Candid; not in interface.did), so re-running the record
# stores the same tensors without the network.
FETCHED = METHOD_PREFIX + "fetched"
# A weights import (weights.py): its argument is an Attachment holding a safetensors file and, in its
# head, the prefix of the parameters it sets. Recorded with the file, like FETCHED.
IMPORTED = METHOD_PREFIX + "imported"
# The methods whose argument is an Attachment the host gathered (not Candid), by what they answer as.
ATTACHED = {FETCHED: FETCH, IMPORTED: "weights import"}


@cache
def interface() -> Service:
    """``interface.did``, parsed."""
    return parse_did(resources.files(__package__).joinpath("interface.did").read_text())


def _named(t: CandidType, name: str) -> Named | None:
    """The type named ``name`` reachable from ``t``."""
    seen = set()

    def walk(t):
        if isinstance(t, Named):
            if t.name == name:
                return t
            if id(t) in seen:
                return None
            seen.add(id(t))
            return walk(t.type)
        if isinstance(t, (Opt, Vec)):
            return walk(t.type)
        if isinstance(t, (Record, Variant)):
            return next((n for f in t.fields if (n := walk(f.type)) is not None), None)
        if isinstance(t, FuncType):
            return next((n for a in (*t.args, *t.rets) if (n := walk(a)) is not None), None)
        return None

    return walk(t)


def builtin_payloads() -> dict[str, CandidType]:
    """Each op the ``.did`` declares, by name, with its payload type."""
    op = _named(interface().methods["moxzi_device_run"], "Op")
    variant = op and resolve(op)
    assert isinstance(variant, Variant), "interface.did declares the variant Op"
    return {f.name: f.type for f in variant.fields if f.name is not None}


def _substitute(t: CandidType, name: str, by: CandidType) -> CandidType:
    """``t`` with the type named ``name`` replaced by ``by`` (the ``.did`` has no recursive types)."""
    if isinstance(t, Named):
        return by if t.name == name else _substitute(t.type, name, by)
    if isinstance(t, Opt):
        return Opt(_substitute(t.type, name, by))
    if isinstance(t, Vec):
        return Vec(_substitute(t.type, name, by))
    if isinstance(t, (Record, Variant)):
        return type(t)([Field(f.id, f.name, _substitute(f.type, name, by)) for f in t.fields])
    if isinstance(t, FuncType):
        return FuncType(
            tuple(_substitute(a, name, by) for a in t.args), tuple(_substitute(r, name, by) for r in t.rets), t.modes
        )
    return t


def method_types(ops: dict[str, CandidType]) -> dict[str, FuncType]:
    """Every device method's type, with ``Op`` the variant of ``ops`` (name -> payload type)."""
    variant = Variant(ops)
    types = {}
    for name, t in interface().methods.items():
        func = _substitute(t, "Op", variant)
        assert isinstance(func, FuncType), f"interface.did: {name} is a method"
        types[name] = func
    return types
