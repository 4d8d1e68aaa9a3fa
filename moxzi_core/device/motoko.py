"""The device's interface as Motoko types: ``mo:moxzi/Device`` is generated from ``interface.did`` here.

    python3 -m moxzi_core.device.motoko        # rewrites moxzi_core/compiler/moxzi/Device.mo

Each type of the ``.did`` becomes a ``public type`` of the same name, fields and tags in alphabetical
order, and the service the actor type ``Device``. tests/test_motoko_library.py fails when the file
and the interface drift apart.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from ..build import MOXZI_LIBRARY, write_atomically
from ..candid.did import TypeGrammar
from ..candid.lexer import tokenize
from ..candid.types import (
    BLOB,
    NULL,
    CandidType,
    FuncType,
    Named,
    Opt,
    Primitive,
    Record,
    Service,
    Variant,
    Vec,
)

DEVICE_MO = MOXZI_LIBRARY / "Device.mo"
_WIDTH = 110

_PRIMITIVES = {
    "null": "Null",
    "bool": "Bool",
    "nat": "Nat",
    "int": "Int",
    "nat8": "Nat8",
    "nat16": "Nat16",
    "nat32": "Nat32",
    "nat64": "Nat64",
    "int8": "Int8",
    "int16": "Int16",
    "int32": "Int32",
    "int64": "Int64",
    "float32": "Float32",
    "float64": "Float",
    "text": "Text",
    "principal": "Principal",
}
# Motoko's keywords; a Candid name that is one takes a trailing `_`, which Motoko drops when it hashes
# the name (so `#shared_` is the tag `shared`).
_KEYWORDS = frozenset(
    "actor and assert async await break case catch class composite continue debug debug_show do else "
    "false finally flexible for from_candid func if ignore import in include label let loop mixin module "
    "not null object or persistent private public query return shared stable switch system throw "
    "to_candid transient true try type var weak while with".split()
)

_HEADER = """\
// mo:moxzi/Device: the types of moxzi's tensor device (the management canister aaaaa-aa, methods
// moxzi_device_*). GENERATED from moxzi_core/device/interface.did by
// `python3 -m moxzi_core.device.motoko`: edit the interface, not this file. What each field means,
// and each op's shapes, is written there and in docs/device.md.
"""


def motoko_name(name: str) -> str:
    return f"{name}_" if name in _KEYWORDS else name


def motoko_type(t: CandidType) -> str:
    if isinstance(t, Named):
        return t.name
    if t == BLOB:
        return "Blob"
    if isinstance(t, Primitive):
        return _PRIMITIVES[t.name]
    if isinstance(t, Opt):
        return f"?{motoko_type(t.type)}"
    if isinstance(t, Vec):
        return f"[{motoko_type(t.type)}]"
    if isinstance(t, (Record, Variant)):
        return "{ " + "; ".join(_fields(t)) + " }"
    raise ValueError(f"interface.did uses {t}, which mo:moxzi/Device has no Motoko type for")


def _fields(t: Record | Variant) -> list[str]:
    tag = "#" if isinstance(t, Variant) else ""
    return [
        f"{tag}{motoko_name(str(f.key))}" + ("" if tag and f.type == NULL else f" : {motoko_type(f.type)}")
        for f in sorted(t.fields, key=lambda f: f.key)
    ]


def _definition(name: str, t: CandidType) -> str:
    """``public type NAME = ...;``, a long record or variant with a field per line."""
    line = f"  public type {name} = {motoko_type(t)};"
    if len(line) <= _WIDTH or not isinstance(t, (Record, Variant)):
        return line
    return "\n".join([f"  public type {name} = {{", *(f"    {field};" for field in _fields(t)), "  };"])


def _tuple(types: tuple[CandidType, ...]) -> str:
    inner = ", ".join(map(motoko_type, types))
    return inner if len(types) == 1 else f"({inner})"


def _method(t: FuncType) -> str:
    return f"({', '.join(map(motoko_type, t.args))}) -> async {_tuple(t.rets)}"


def device_mo(did: str) -> str:
    """The Motoko module of the device's types from the text of ``interface.did``."""
    grammar = TypeGrammar(list(tokenize(did)))
    service: Service = grammar.program()
    lines = [_HEADER, "module {"]
    for name in grammar.defined_at:  # in the order the .did defines them
        lines.append(_definition(name, grammar.names[name].type))
    lines.append("")
    lines.append("  public type Device = actor {")
    for name, method in service.methods.items():
        assert isinstance(method, FuncType)
        lines.append(f"    {name} : {_method(method)};")
    lines.append("  };")
    lines.append("")
    lines.append("  /// The device: `transient let device = Device.device();` in an actor.")
    lines.append('  public func device() : Device = actor "aaaaa-aa";')
    lines.append("};")
    return "\n".join(lines) + "\n"


def interface_text() -> str:
    return resources.files(__package__).joinpath("interface.did").read_text()


def main() -> None:
    write_atomically(DEVICE_MO, device_mo(interface_text()).encode())
    print(f"wrote {Path(DEVICE_MO)}")


if __name__ == "__main__":
    main()
