"""Cross-check against the official Candid implementation (npm @dfinity/candid, see tests/candid_js/).

Random typed values are encoded here and decoded there, and encoded there and decoded here; both
sides must see the original values. One node process handles the whole batch.
"""

import json
import math
import struct
import subprocess
from pathlib import Path

import pytest
from kit.candid_random import INT_RANGES, PRIMITIVE_TYPES, RandomCandid

from moxzi_core.candid import (
    BLOB,
    FLOAT32,
    FLOAT64,
    INT,
    INT8,
    INT16,
    INT32,
    INT64,
    NAT,
    NAT8,
    NAT16,
    NAT32,
    NAT64,
    NULL,
    PRINCIPAL,
    RESERVED,
    TEXT,
    CandidError,
    Field,
    FuncType,
    Named,
    Opt,
    Principal,
    Record,
    Some,
    Variant,
    Vec,
    decode_args,
    encode_args,
    idl_hash,
)
from moxzi_core.candid.types import Primitive, resolve

JS_DIR = Path(__file__).parent / "candid_js"
CASES = 400

pytestmark = pytest.mark.skipif(
    not (JS_DIR / "node_modules" / "@dfinity" / "candid").is_dir(),
    reason="the JavaScript reference is not installed: run `npm ci --prefix tests/candid_js`",
)

FIXED_SIZE_NUMBERS = [NAT8, NAT16, NAT32, NAT64, INT8, INT16, INT32, INT64, FLOAT32, FLOAT64]


def expected_type(gen: RandomCandid, t, depth: int = 0):
    """A type to read values of ``t`` as: often ``t`` itself, else one the coercion rules must bridge
    (opt, reserved, fields and tags added or dropped) or refuse. Avoids where 3.4.3 departs from the
    spec: it refuses nat as int, and reads vectors of fixed-size numbers without checking the element
    type on the wire."""
    rng = gen.rng
    if depth > 3 or isinstance(t, Named) or rng.random() < 0.4:
        return t
    roll = rng.random()
    if roll < 0.1:
        return Opt(t)
    if roll < 0.15:
        return RESERVED
    narrower = lambda inner: expected_type(gen, inner, depth + 1)  # noqa: E731
    if isinstance(t, Primitive):
        other = rng.choice(PRIMITIVE_TYPES)
        return t if (t, other) == (NAT, INT) else other
    if isinstance(t, Vec) and resolve(t.type) in FIXED_SIZE_NUMBERS:
        return t
    if isinstance(t, (Opt, Vec)):
        return type(t)(narrower(t.type))
    if isinstance(t, (Record, Variant)):
        fields = [Field(f.id, f.name, narrower(f.type)) for f in t.fields if rng.random() < 0.85]
        if rng.random() < 0.3:
            fields.append(Field(idl_hash("added"), "added", Opt(NAT) if isinstance(t, Record) else NAT))
        return type(t)(fields)
    return t  # references keep their types


# ---- the JavaScript side's forms of types and values ----


def label(field) -> str:
    return f"_{field.id}_" if field.name is None else field.name


def describe(t):
    if isinstance(t, Named):
        return ["ref", t.name]
    if isinstance(t, Primitive):
        return t.name
    if isinstance(t, (Opt, Vec)):
        return ["opt" if isinstance(t, Opt) else "vec", describe(t.type)]
    if isinstance(t, Record) and t.is_tuple:
        return ["tuple", [describe(f.type) for f in t.fields]]
    if isinstance(t, (Record, Variant)):
        kind = "record" if isinstance(t, Record) else "variant"
        return [kind, [[label(f), describe(f.type)] for f in t.fields]]
    if isinstance(t, FuncType):
        return ["func", [describe(a) for a in t.args], [describe(r) for r in t.rets], sorted(t.modes)]
    return ["service", [[name, describe(m)] for name, m in t.methods.items()]]


def float_bits(f: float) -> str:
    return struct.pack(">d", f).hex()


def to_exchange(t, v):
    t = resolve(t)
    if isinstance(t, Primitive):
        if t.name in INT_RANGES:
            return str(v)
        if t.name.startswith("float"):
            return float_bits(v)
        return str(v) if isinstance(v, Principal) else v
    if isinstance(t, Opt):
        return [] if v is None else [to_exchange(t.type, v.value)]
    if isinstance(t, Vec):
        return v.hex() if isinstance(v, bytes) else [to_exchange(t.type, item) for item in v]
    if isinstance(t, Record):
        if t.is_tuple:
            return [to_exchange(f.type, item) for f, item in zip(t.fields, v)]
        return {label(f): to_exchange(f.type, v[f.key]) for f in t.fields}
    if isinstance(t, Variant):
        ((key, payload),) = v.items()
        field = t.by_key[key]
        return {label(field): to_exchange(field.type, payload)}
    if isinstance(t, FuncType):
        return [str(v.service), v.method]
    return str(v)


def comparable(t, v):
    """``v`` in exchange form with every NaN alike, so equality is exact (floats compare by bits)."""
    return exchange_comparable(t, to_exchange(t, v))


def exchange_comparable(t, x):
    """An exchanged value with every NaN written "nan" (NaN payloads need not survive JavaScript)."""
    t = resolve(t)
    if isinstance(t, Primitive) and t.name.startswith("float"):
        return "nan" if math.isnan(struct.unpack(">d", bytes.fromhex(x))[0]) else x
    if isinstance(t, Opt):
        return [exchange_comparable(t.type, item) for item in x]
    if isinstance(t, Vec) and not isinstance(x, str):
        return [exchange_comparable(t.type, item) for item in x]
    if isinstance(t, Record) and t.is_tuple:
        return [exchange_comparable(f.type, item) for f, item in zip(t.fields, x)]
    if isinstance(t, (Record, Variant)):
        fields = {label(f): f for f in t.fields}
        return {key: exchange_comparable(fields[key].type, item) for key, item in x.items()}
    return x


def run_node(defs, cases):
    completed = subprocess.run(
        ["node", str(JS_DIR / "crosscheck.js")],
        input=json.dumps({"defs": defs, "cases": cases}),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return json.loads(completed.stdout)


def case(types, values, expected=None):
    return {
        "types": [describe(t) for t in types],
        "hex": encode_args(types, values).hex(),
        "values": [to_exchange(t, v) for t, v in zip(types, values)],
        "expected": [describe(t) for t in (expected or types)],
    }


def comparable_args(types, values):
    return [comparable(t, v) for t, v in zip(types, values)]


def device_interface_case():
    tensor = Record({"data": BLOB, "elem": Variant({"u8": NULL}), "shape": Vec(NAT32)})
    op = Variant(
        {"input": NAT32, "param": TEXT, "narrow": Record({"x": NAT32, "dim": NAT32, "start": NAT32, "len": NAT32})}
    )
    types = [Vec(op), Opt(Variant({"adamw": NULL})), Vec(tensor), Opt(PRINCIPAL)]
    values = [
        [{"input": 3}, {"narrow": {"x": 1, "dim": 0, "start": 2, "len": 4}}],
        Some({"adamw": None}),
        [{"data": b"\x00\x01", "elem": {"u8": None}, "shape": [1, 2]}],
        Some(Principal.from_text("2vxsx-fae")),
    ]
    return types, values


@pytest.fixture(scope="module")
def javascript():
    """One node run over every case: (types, values, expected types, JavaScript's result) each."""
    gen = RandomCandid(seed=20261129)
    batch = [device_interface_case()]
    for _ in range(CASES):
        types = [gen.type() for _ in range(gen.rng.randint(1, 3))]
        batch.append((types, [gen.value(t) for t in types]))
    batch = [(types, values, types) for types, values in batch]
    batch += [(types, values, [expected_type(gen, t) for t in types]) for types, values, _ in batch]
    defs = {name: describe(named.type) for name, named in gen.defs.items()}
    results = run_node(defs, [case(*item) for item in batch])
    return [(*item, result) for item, result in zip(batch, results, strict=True)]


def test_both_read_each_others_encodings(javascript):
    for types, values, expected, result in javascript:
        if expected is not types:
            continue
        context = f"types {[str(t) for t in types]}, values {values!r}"
        failed = result["decodeError"] or result["encodeError"]
        assert failed is None, f"JavaScript failed: {failed}, {context}"
        original = comparable_args(types, values)
        from_js = [exchange_comparable(t, x) for t, x in zip(types, result["decoded"])]
        assert from_js == original, f"JavaScript decoded our bytes differently: {context}"
        ours = decode_args(bytes.fromhex(result["hex"]), types)
        assert comparable_args(types, ours) == original, f"we read JavaScript's bytes differently: {context}"


def test_both_coerce_to_other_expected_types_alike(javascript):
    checked = {"values": 0, "errors": 0}
    for types, values, expected, result in javascript:
        if expected is types:
            continue
        context = f"types {[str(t) for t in types]} read as {[str(t) for t in expected]}, values {values!r}"
        try:
            ours = comparable_args(expected, decode_args(encode_args(types, values), expected))
        except CandidError as e:
            assert result["decodeError"] is not None, f"only we refused ({e}): {context}"
            checked["errors"] += 1
            continue
        assert result["decodeError"] is None, f"only JavaScript refused ({result['decodeError']}): {context}"
        assert [exchange_comparable(t, x) for t, x in zip(expected, result["decoded"])] == ours, context
        checked["values"] += 1
    assert min(checked.values()) > 30, checked  # both outcomes are well represented
