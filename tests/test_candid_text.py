"""Candid's textual values: reading ``(ARGS)`` typed against a method, printing replies as dfx does,
round trips with the binary codec, errors with their line:column, and the bounds."""

import math
import random
import struct

import pytest
from kit.candid_random import canonical, random_cases

from moxzi_core.candid import (
    BLOB,
    BOOL,
    EMPTY,
    FLOAT32,
    FLOAT64,
    INT,
    INT8,
    INT16,
    NAT,
    NAT8,
    NAT16,
    NAT64,
    NULL,
    PRINCIPAL,
    RESERVED,
    TEXT,
    CandidError,
    FuncRef,
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
    parse_args,
    parse_did,
    parse_value,
    print_value,
    print_values,
    text,
)
from moxzi_core.candid.text import MAX_DEPTH, MAX_TEXT_LENGTH

F32_TENTH = struct.unpack("<f", struct.pack("<f", 0.1))[0]  # 0.1 as a float32
RESULT = Variant({"ok": Record({"a": NAT, "b": TEXT}), "err": TEXT, "pending": NULL})


# ---- printing as dfx prints ----


@pytest.mark.parametrize(
    "types, values, printed",
    [
        ([RESULT], [{"ok": {"a": 1, "b": "x"}}], '(variant { ok = record { a = 1 : nat; b = "x" } })'),
        ([RESULT], [{"pending": None}], "(variant { pending })"),
        (
            [NAT, INT, NAT16, INT8],
            [1234567, -1000, 65535, -128],
            "(1_234_567 : nat, -1_000 : int, 65_535 : nat16, -128 : int8)",
        ),
        (
            [FLOAT64, FLOAT64, FLOAT64, FLOAT32],
            [3.0, 0.1, 1e-7, F32_TENTH],
            "(3.0 : float64, 0.1 : float64, 0.0000001 : float64, 0.1 : float32)",
        ),
        (
            [FLOAT64, FLOAT64, FLOAT64],
            [math.nan, math.inf, -math.inf],
            "(NaN : float64, inf : float64, -inf : float64)",
        ),
        (
            [Opt(NAT), Opt(TEXT), Opt(Opt(NAT)), Opt(NULL)],
            [Some(5), Some("x"), Some(None), Some(None)],
            '(opt (5 : nat), opt "x", opt null, opt (null : null))',
        ),
        ([BLOB, BLOB], [b"hi there", b"\x00\xffa"], '(blob "hi there", blob "\\00\\ff\\61")'),
        (
            [PRINCIPAL, Service({}), FuncType([], [])],
            [Principal(b""), Principal(b"\x04"), FuncRef(Principal(b""), "go")],
            '(principal "aaaaa-aa", service "2vxsx-fae", func "aaaaa-aa".go)',
        ),
        ([Tuple(NAT, TEXT), Record({})], [(1, "a"), {}], '(record { 1 : nat; "a" }, record {})'),
        (
            [Vec(NAT8), Vec(BOOL), NULL, RESERVED],
            [b"", [True, False], None, None],
            '(blob "", vec { true; false }, null : null, null : reserved)',
        ),
        ([TEXT], ['it\'s "quoted"\n\t\\ \x00 \x07 ☃'], '("it\\\'s \\"quoted\\"\\n\\t\\\\ \\00 \\u{7} ☃")'),
        (
            [Record({"type": NAT, "x y": NAT, 1_000_000: NAT})],
            [{"type": 1, "x y": 2, 1_000_000: 3}],
            '(record { 1_000_000 = 3 : nat; "x y" = 2 : nat; "type" = 1 : nat })',
        ),  # by field id
        ([], [], "()"),
    ],
)
def test_prints_like_dfx(types, values, printed):
    assert print_values(values, types) == printed
    assert canonical(parse_args(printed, types)) == canonical(values)


def test_long_values_break_over_lines_as_dfx_does():
    t = Record({"name": TEXT, "values": Vec(FLOAT64), "nested": Opt(Record({"x": INT, "y": INT}))})
    value = {"name": "a long name to make the line wrap", "values": [1.5, 2.0], "nested": Some({"x": -1, "y": 2})}
    assert print_values([value], [t]) == (
        "(\n"
        "  record {\n"
        '    name = "a long name to make the line wrap";\n'
        "    values = vec { 1.5 : float64; 2.0 : float64 };\n"
        "    nested = opt record { x = -1 : int; y = 2 : int };\n"
        "  },\n"
        ")"
    )
    # more than ten elements, like values nested deeper than ten levels, are printed on one line
    assert print_value(list(range(11)), Vec(NAT)) == (
        "vec { 0 : nat; 1 : nat; 2 : nat; 3 : nat; 4 : nat; 5 : nat; 6 : nat; 7 : nat; 8 : nat; 9 : nat; 10 : nat;}"
    )
    deep = NAT
    value = 7
    for _ in range(12):
        deep, value = Opt(Vec(deep)), Some([value])
    assert "opt vec { opt vec { 7 : nat;};}" in print_value(value, deep)


# ---- reading ----


@pytest.mark.parametrize(
    "text, types, values",
    [
        ("(42, 42, -42, 0x2a, 1_000)", [NAT8, NAT, INT, NAT64, INT16], [42, 42, -42, 42, 1000]),
        ("(1.5, 3., 2, -1e3, +7)", [FLOAT64, FLOAT64, FLOAT32, FLOAT64, INT], [1.5, 3.0, 2.0, -1000.0, 7]),
        ('("a\\u{2603}\\n\\41", true, null)', [TEXT, BOOL, NULL], ["a☃\nA", True, None]),
        ('(blob "\\00ab", vec { 1; 2 })', [BLOB, BLOB], [b"\x00ab", b"\x01\x02"]),
        ("(opt opt 5, opt null, null)", [Opt(Opt(NAT)), Opt(Opt(NAT)), Opt(NAT)], [Some(Some(5)), Some(None), None]),
        (
            "(record { b = true; a = 1 }, record { 1; true })",
            [Record({"a": NAT, "b": BOOL}), Tuple(NAT, BOOL)],
            [{"a": 1, "b": True}, (1, True)],
        ),
        (
            '(record { a = 1; extra = "ignored" })',
            [Record({"a": NAT, "o": Opt(TEXT), "r": RESERVED})],
            [{"a": 1, "o": None, "r": None}],
        ),
        ("(record { 5 = 1; 6 })", [Record({5: NAT, 6: NULL, 7: NAT})], None),  # 7 is missing
        ('(variant { err = "no" })', [RESULT], [{"err": "no"}]),
        (
            '(principal "2vxsx-fae", service "aaaaa-aa", func "aaaaa-aa"."a b")',
            [PRINCIPAL, PRINCIPAL, FuncType([], [])],
            [Principal(b"\x04"), Principal(b""), FuncRef(Principal(b""), "a b")],
        ),
        ("(5)", [NAT, Opt(NAT), RESERVED, NULL], [5, None, None, None]),  # trailing null-able arguments
        ('(anything, vec { 1; "mixed" })', [RESERVED, RESERVED], None),  # `anything` is not a value
        ('(vec { 1; "mixed" }, (5))', [RESERVED, NAT], [None, 5]),
        (
            "((5 : nat) : int, 5 : nat8, (5 : nat) : opt nat, null : null)",
            [INT, NAT8, Opt(NAT), Opt(TEXT)],
            [5, 5, Some(5), None],
        ),
        ("(record { a = 1 : nat } : record { a : nat; b : opt nat })", [Record({"a": INT})], [{"a": 1}]),
        ("(vec { 1; 2 } : vec nat)", [Vec(Opt(INT))], [[Some(1), Some(2)]]),
        ("( /* comment */ 1 , // line\n )", [NAT], [1]),
    ],
)
def test_reads_values_at_their_types(text, types, values):
    if values is None:
        with pytest.raises(CandidError):
            parse_args(text, types)
    else:
        assert parse_args(text, types) == values


@pytest.mark.parametrize(
    "text, types, message",
    [
        ('(record { a = "x" })', [Record({"a": NAT})], '1:15: expected nat, found text "x"'),
        ("(5)", [Opt(NAT)], "1:2: expected opt nat, found the number 5 \\(write opt v, or null\\)"),
        ("(-1)", [NAT], "1:2: -1 is out of range for nat"),
        ("(256)", [NAT8], "1:2: 256 is out of range for nat8"),
        ("(1.5)", [INT], "1:2: expected int, found the number 1.5"),
        ("(1e39)", [FLOAT32], "1:2: 1e39 is out of range for float32"),
        ("(1,\n  2)", [NAT], "2:3: 2 arguments given, but the method takes 1"),
        ("(1)", [NAT, TEXT], "1:4: 1 argument given, but the method takes 2 \\(the next is of type text\\)"),
        ("(1", [NAT], "1:3: expected '\\)', found end of input"),
        ("(1) x", [NAT], "1:5: expected the end of the input, found x"),
        ("(variant {\n  nope })", [RESULT], "2:3: nope is not a tag of the variant \\(its tags: ok, err, pending\\)"),
        ("(variant { pending = 5 })", [RESULT], "1:22: expected null, found the number 5"),
        ("(record { a = 1; a = 2 })", [Record({"a": NAT})], "1:18: record field a is given twice"),
        ("(record {})", [Record({"a": NAT})], "1:2: record field a \\(of type nat\\) is missing"),
        ('(principal "abc")', [PRINCIPAL], "1:12: not a principal"),
        ('(principal "aaaaa-aa")', [Service({})], "1:2: expected service {}, found a principal reference"),
        ("(5 : text)", [NAT], "1:2: expected text, found the number 5"),
        ('("x" : text)', [NAT], "1:2: a value of type text cannot be read as nat"),
        ("(5 : T)", [NAT], "1:6: a value's type annotation cannot name a type \\(T\\)"),
        ('("\\ff")', [TEXT], "1:2: text is not valid UTF-8"),
        ('("\\q")', [TEXT], "1:2: unknown escape"),
        ("(5 $)", [NAT], "1:4: unexpected character '\\$'"),
        ("(x)", [NAT], "1:2: expected a value, found x"),
        ("(- x)", [INT], "1:4: expected a number after '-', found x"),
        ("(variant {})", [Variant({})], "1:11: expected a name, found }"),
        ("(null)", [EMPTY], "1:2: expected empty, found null"),
        ("(record { 4294967296 = 1 })", [Record({})], "1:11: field id 4294967296 is not a 32-bit number"),
        ("(" + "9" * 5000 + ")", [NAT], "1:2: a number of more than 4300 digits"),
    ],
)
def test_errors_name_the_place_and_what_was_expected(text, types, message):
    with pytest.raises(CandidError, match=message):
        parse_args(text, types)


def test_input_is_bounded():
    deep = NAT
    for _ in range(MAX_DEPTH + 5):
        deep = Opt(deep)
    with pytest.raises(CandidError, match=f"nested deeper than {MAX_DEPTH} levels"):
        parse_args("(" + "opt " * (MAX_DEPTH + 5) + "1)", [deep])
    with pytest.raises(CandidError, match=f"nested deeper than {MAX_DEPTH} levels"):
        parse_args("(" + "(" * 10_000 + "1" + ")" * 10_001, [NAT])
    with pytest.raises(CandidError, match="nested too deeply"):
        parse_args("(1 : " + "opt " * 10_000 + "nat)", [RESERVED])
    with pytest.raises(CandidError, match="characters long"):
        parse_args('(blob "' + "a" * MAX_TEXT_LENGTH + '")', [BLOB])


def test_tokens_are_bounded(monkeypatch):
    monkeypatch.setattr(text, "MAX_TOKENS", 1000)  # the real bound takes seconds to reach
    assert len(parse_args("(vec {" + "1;" * 497 + "})", [Vec(NAT)])[0]) == 497
    with pytest.raises(CandidError, match="1:1004: the text has more than 1000 tokens"):
        parse_args("(vec {" + "1;" * 500 + "})", [Vec(NAT)])


def test_one_value():
    assert parse_value('record { a = 1; b = "x" }', RESULT.by_key["ok"].type) == {"a": 1, "b": "x"}
    assert parse_value("(opt 5)", Opt(NAT)) == Some(5)
    with pytest.raises(CandidError, match="1:3: expected the end of the input"):
        parse_value("5 6", NAT)
    assert print_value({"a": 1, "b": "x"}, RESULT.by_key["ok"].type) == 'record { a = 1 : nat; b = "x" }'


def test_an_annotated_value_that_never_fits_is_refused():
    fix = Named("Fix")
    fix.define(Opt(fix))
    with pytest.raises(CandidError, match="1:2: this value of type bool cannot be read as opt Fix"):
        parse_args("(true : bool)", [fix])


def test_recursive_types():
    tree = Named("Tree")
    tree.define(Variant({"leaf": INT, "node": Record({"left": tree, "right": tree})}))
    text = "(variant { node = record { left = variant { leaf = 1 }; right = variant { leaf = -2 } } })"
    value = parse_args(text, [tree])
    assert value == [{"node": {"left": {"leaf": 1}, "right": {"leaf": -2}}}]
    assert decode_args(encode_args([tree], value), [tree]) == value
    assert parse_args(print_values(value, [tree]), [tree]) == value


# ---- round trips with the binary codec, over random types and values ----


def test_random_values_round_trip_through_text_and_binary():
    for types, values in random_cases(seed=7, count=400):
        printed = print_values(values, types)
        read = parse_args(printed, types)
        assert canonical(read) == canonical(values), printed
        assert encode_args(types, read) == encode_args(types, values)
        assert print_values(decode_args(encode_args(types, read), types), types) == printed


# ---- the Rust implementation's own expectations (dfinity/candid rust/candid_parser/tests/value.rs and
# parse_value.rs at ffef7cb): dfx prints with that code, so moxzi must print the same characters ----

RUST_LIST = (
    parse_did("""
    type List = List1; type List1 = List2; type List2 = opt record { head: int16; tail: List1 };
    type enum = variant { a: nat; b: text; c };
    service : { f : () -> (List, enum) }""")
    .methods["f"]
    .rets
)


@pytest.mark.parametrize(
    "text, types, printed",
    [
        (
            "(opt record { head = 1000; tail = opt record {head = -2000; tail = null}}, variant {a = 42})",
            RUST_LIST,
            "(\n  opt record {\n    head = 1_000 : int16;\n    tail = opt record { head = -2_000 : int16; tail = null };\n"
            "  },\n  variant { a = 42 : nat },\n)",
        ),
        (
            " (true, null, 42., +42.42, -42e5, 42.42e-5)",
            [BOOL, NULL, FLOAT64, FLOAT64, FLOAT64, FLOAT64],
            "(\n  true,\n  null : null,\n  42.0 : float64,\n  42.42 : float64,\n  -4200000.0 : float64,\n"
            "  0.0004242 : float64,\n)",
        ),
        (
            '(true, null, 42, "哈哈", "string with whitespace", 42, -42, false)',
            [BOOL, NULL, NAT, TEXT, TEXT, INT, INT, BOOL],
            '(\n  true,\n  null : null,\n  42 : nat,\n  "哈哈",\n  "string with whitespace",\n  42 : int,\n  -42 : int,\n'
            "  false,\n)",
        ),
        (
            '(record { 43 = record { test = "test"; "opt" = "hello" }; long_label = opt null; label = 42 })',
            [Record({43: Record({"opt": TEXT, "test": TEXT}), "long_label": Opt(NULL), "label": NAT})],
            '(\n  record {\n    43 = record { "opt" = "hello"; test = "test" };\n    long_label = opt (null : null);\n'
            "    label = 42 : nat;\n  },\n)",
        ),
        (
            '(record { 43 = record { test = "test"; "opt" = "hello" }; long_label = opt null; label = 42 })',
            [Record({"label": NAT})],
            "(record { label = 42 : nat })",
        ),
    ],
)
def test_prints_what_the_rust_implementation_prints(text, types, printed):
    values = parse_args(text, types)
    assert print_values(values, types) == printed
    assert print_values(decode_args(encode_args(types, values), types), types) == printed


def test_damaged_text_fails_only_with_candid_errors():
    rng = random.Random(5)
    pieces = [
        *'{}();:,=."\\-+_ \nax0',
        "opt ",
        "vec ",
        "record ",
        "variant ",
        "blob ",
        "principal ",
        "func ",
        "service ",
        "null",
        "true",
        ": nat",
        ": opt",
        "0x",
        "1e",
        "\\ff",
        "\\u{d800}",
        "NaN",
        "/*",
    ]
    outcomes = {"read": 0, "refused": 0}
    for types, values in random_cases(seed=9, count=150):
        text = print_values(values, types)
        for _ in range(5):
            damaged = list(text)
            for _ in range(rng.randint(1, 3)):
                at = rng.randrange(len(damaged) + 1)
                if rng.random() < 0.5:
                    del damaged[at : at + rng.randint(1, 4)]
                else:
                    damaged.insert(at, rng.choice(pieces))
            try:
                parse_args("".join(damaged), types)
                outcomes["read"] += 1
            except CandidError:
                outcomes["refused"] += 1
    assert min(outcomes.values()) > 50, outcomes
