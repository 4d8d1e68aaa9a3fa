"""The .did parser and reading interfaces out of compiled wasm modules."""

import random

import pytest

from moxzi_core.candid import (
    BLOB,
    EMPTY,
    FLOAT32,
    INT,
    INT8,
    NAT,
    NAT32,
    NULL,
    PRINCIPAL,
    RESERVED,
    TEXT,
    CandidError,
    FuncType,
    Named,
    Opt,
    Principal,
    Record,
    Service,
    Some,
    Tuple,
    Variant,
    Vec,
    decode_args,
    encode_args,
    parse_did,
    service_from_sections,
)
from moxzi_core.candid.types import Field, resolve
from moxzi_core.candid.wire import leb128
from moxzi_core.runtime.engine import prepare

COUNTER = """service : {
  boom: () -> ();
  get: () -> (nat) query;
  inc: () -> (nat);
}
"""

# What the Motoko compiler (npm motoko 4.10.0) wrote for an actor using the device's kinds of types.
COMPILED = """type Tensor =
 record {
   data: blob;
   elem: variant {u8;};
   shape: vec nat32;
 };
type Op =
 variant {
   input: nat32;
   narrow: record {
             dim: nat32;
             len: nat32;
             start: nat32;
             x: nat32;
           };
   param: text;
 };
type List =
 opt record {
       nat;
       List;
     };
service : {
  cb: (f: func () -> (nat) query) -> () query;
  cq: () -> (int) composite_query;
  id: () -> (principal) query;
  ow: () -> () oneway;
  run: (ops: vec Op, "opt": opt variant {adamw;}, inputs: vec Tensor, owner:
   opt principal) -> (record {
                        scalars: vec float64;
                        tensors: vec blob;
                      });
  walk: (l: List, t: record {
                       nat;
                       text;
                       int8;
                     }) -> (nat, opt text) query;
}
"""


def test_compiler_output_for_a_counter():
    service = parse_did(COUNTER)
    assert list(service.methods) == ["boom", "get", "inc"]
    assert service.methods["get"] == FuncType([], [NAT], {"query"})
    assert service.methods["boom"] == FuncType([], [])
    assert service.init_args == ()


def test_compiler_output_with_device_types():
    methods = parse_did(COMPILED).methods
    assert methods["cq"].modes == {"composite_query"} and methods["ow"].modes == {"oneway"}
    assert methods["cb"].args == (FuncType([], [NAT], {"query"}),)
    ops, opt, inputs, owner = methods["run"].args
    assert resolve(ops.type) == Variant(
        {"input": NAT32, "param": TEXT, "narrow": Record({"x": NAT32, "dim": NAT32, "start": NAT32, "len": NAT32})}
    )
    assert opt == Opt(Variant({"adamw": NULL}))
    assert resolve(inputs.type) == Record({"data": BLOB, "elem": Variant({"u8": NULL}), "shape": Vec(NAT32)})
    assert owner == Opt(PRINCIPAL)
    lst, pair = methods["walk"].args
    assert isinstance(lst, Named) and pair == Tuple(NAT, TEXT, INT8)
    value = Some((1, Some((2, None))))
    assert decode_args(encode_args([lst], [value]), [lst]) == [value]


def test_every_construct():
    service = parse_did(r"""
        // line comment
        /* block /* nested */ comment */
        type Tree = variant { leaf : int; node : record { left : Tree; right : Tree } };
        type F = func (Tree) -> (opt Tree) query;
        type Api = service { call : F; "with space" : (nat) -> (); };
        service counter : (init : nat, record { text; 5 : nat; nat }) -> Api
    """)
    tree = service.methods["call"].args[0]
    assert resolve(tree).by_key["node"].type == Record({"left": tree, "right": tree})
    assert service.methods["call"].rets == (Opt(tree),)
    assert service.methods["with space"] == FuncType([NAT], [])
    init_nat, shorthand = service.init_args
    assert init_nat == NAT
    assert shorthand == Record([Field(0, None, TEXT), Field(5, None, NAT), Field(6, None, NAT)])
    assert parse_did("type T = record { 007 : nat; 0x1_0 : text };") == Service({})
    assert parse_did("type T = nat;") == Service({})


def test_types_print_as_parseable_did():
    types = [
        Record({"a": NAT, "type": Vec(TEXT), "x y": Opt(Tuple(NAT, INT)), 5: BLOB}),
        Variant({"ok": NULL, 'quote"d': Service({"m": FuncType([NAT], [], {"oneway"})})}),
        FuncType([Record({})], [Variant({})], {"composite_query"}),
        Tuple(PRINCIPAL, RESERVED, EMPTY, FLOAT32),
    ]
    for t in types:
        parsed = parse_did(f"type T = {t}; service : {{ m : (T) -> () }}").methods["m"].args[0]
        assert resolve(parsed) == t


@pytest.mark.parametrize(
    "text, message",
    [
        ("service : { a: () -> () query oneway }", "1:31: a function has at most one annotation"),
        ("type A = B;\ntype B = A;", "1:6: type A is defined as itself"),
        ("service : {\n  m: (Foo) -> ()\n}", "2:7: type Foo is never defined"),
        ("type X = record { a: nat; a: text };", "1:10: record fields 'a' and 'a' have the same id"),
        ("service : { m : nat }", "1:17: expected a type name, found nat"),
        ("type T = nat; service : T", "1:25: the service's type is nat, not a service"),
        ("type F = nat; service : { m : F }", "1:31: method m has type nat, not a function type"),
        ("type S = service { m : S };", "1:24: method m has type service"),
        ('type x = "abc', "1:10: text is never closed"),
        ("service : { m: () -> (); m: () -> () }", "1:26: method m is declared twice"),
        ("type A = nat;\ntype A = text;", "2:6: type A is defined twice"),
        ("service : { m : (record { x : }) -> () }", "1:31: expected a type, found }"),
        ('import "a.did";', "1:1: expected a definition \\(imports are not supported\\)"),
        ("type A = record {}; /* x", "1:21: comment is never closed"),
        ("type A = nat; service : {} extra", "1:28: expected 'type' or 'service'"),
        ("type A = nat $", "1:14: unexpected character '\\$'"),
        ('service : { "\\q" : () -> () }', "unknown escape"),
    ],
)
def test_parse_errors_say_where(text, message):
    with pytest.raises(CandidError, match=message):
        parse_did(text)


def test_damaged_interfaces_fail_only_with_candid_errors():
    rng = random.Random(4)
    pieces = [
        *'{}();:,=->"/*\\ \nabx0_',
        "opt ",
        "record ",
        "func ",
        "service ",
        "type ",
        "query",
        "0x",
        "\\ff",
        "\\u{d800}",
    ]
    outcomes = {"parsed": 0, "refused": 0}
    for _ in range(600):
        text = list(COMPILED)
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(text))
            if rng.random() < 0.5:
                del text[at : at + rng.randint(1, 5)]
            else:
                text.insert(at, rng.choice(pieces))
        try:
            parse_did("".join(text))
            outcomes["parsed"] += 1
        except CandidError:
            outcomes["refused"] += 1
    assert min(outcomes.values()) > 50, outcomes


def test_absurdly_nested_types_are_refused():
    with pytest.raises(CandidError, match="nested too deeply"):
        parse_did("type T = " + "opt " * 5000 + "nat;")


# ---- interfaces in wasm custom sections ----


def section(section_id: int, payload: bytes) -> bytes:
    return bytes([section_id]) + leb128(len(payload)) + payload


def custom(name: str, content: bytes) -> bytes:
    return section(0, leb128(len(name)) + name.encode() + content)


HEADER = b"\0asm\x01\0\0\0"
TYPE_SECTION = section(1, b"\x01\x60\x00\x00")  # one type: () -> ()


@pytest.mark.parametrize("visibility", ["private", "public"])
def test_service_from_a_modules_sections(visibility):
    wasm = (
        HEADER + TYPE_SECTION + custom("name", b"\x00") + custom(f"icp:{visibility} candid:service", COUNTER.encode())
    )
    assert service_from_sections(prepare(wasm).custom_sections).methods == parse_did(COUNTER).methods


def test_wasm_without_an_interface():
    sections = prepare(HEADER + TYPE_SECTION + custom("icp:private candid:args", b"()")).custom_sections
    assert service_from_sections(sections) is None


@pytest.mark.parametrize(
    "wasm, message",
    [
        (b"\0asm\x02\0\0\0", "unsupported wasm version"),
        (HEADER + b"\x01\x05\x00", "section 1 is truncated"),
        (HEADER + b"\x00\x03\x05ab", "name is truncated"),
        (HEADER + section(0, b"\x06abcde") + TYPE_SECTION, "name is truncated"),
    ],
)
def test_broken_wasm_framing(wasm, message):
    with pytest.raises(ValueError, match=message):
        prepare(wasm)


@pytest.mark.parametrize(
    "content, message",
    [
        (b"\xff", "not UTF-8"),
        (b"service : { m : nat }", "1:17: expected a type name"),
    ],
)
def test_broken_interface_section(content, message):
    with pytest.raises(CandidError, match=message):
        service_from_sections({"icp:public candid:service": content})


def test_principals_inside_parsed_types_round_trip():
    owner = parse_did(COMPILED).methods["run"].args[3]
    value = Some(Principal.from_text("2vxsx-fae"))
    assert decode_args(encode_args([owner], [value]), [owner]) == [value]
