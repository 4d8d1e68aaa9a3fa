"""The JSON mapping of the /call-json and /query-json routes (docs/candid-json.md)."""

import json
import math

import pytest

from moxzi_core.candid import (
    BLOB,
    BOOL,
    FLOAT32,
    FLOAT64,
    INT,
    INT64,
    NAT,
    NAT8,
    NAT32,
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
    args_from_json,
    decode_args,
    encode_args,
    parse_did,
    results_to_json,
)


def round_trip(types, value):
    """``value`` through args_from_json and back through results_to_json (as JSON text, so it must
    serialize without NaN/Infinity extensions)."""
    return json.loads(json.dumps(results_to_json(types, args_from_json(types, value)), allow_nan=False))


def test_the_tutorials_shapes():
    assert decode_args(args_from_json([NAT], [200]), [NAT]) == [200]
    assert decode_args(args_from_json([TEXT], ["some text"]), [TEXT]) == ["some text"]
    assert decode_args(args_from_json([NAT, FLOAT64], [20, 0.5]), [NAT, FLOAT64]) == [20, 0.5]
    pair = Record({"first": FLOAT32, "last": FLOAT32})
    data = encode_args([pair], [{"first": 5.547374725341797, "last": 0.8760831356048584}])
    assert (
        json.dumps(results_to_json([pair], data), separators=(",", ":"))
        == '[{"first":5.547374725341797,"last":0.8760831356048584}]'
    )
    assert results_to_json([TEXT], encode_args([TEXT], ["step 300 / 1000 | loss 2.3417"])) == [
        "step 300 / 1000 | loss 2.3417"
    ]
    assert results_to_json([], encode_args([], [])) == []


def test_principal_argument_from_a_query_result():
    trainer = Principal(b"\x00\x00\x00\x00\x01\x00\x00\x01\x01\x01")
    [text] = results_to_json([PRINCIPAL], encode_args([PRINCIPAL], [trainer]))
    assert decode_args(args_from_json([PRINCIPAL], [text]), [PRINCIPAL]) == [trainer]
    peers = [str(Principal(bytes([i]))) for i in range(3)]
    assert round_trip([Vec(PRINCIPAL), NAT, NAT], [peers, 25, 10]) == [peers, 25, 10]


@pytest.mark.parametrize(
    "t, value",
    [
        (NAT, 2**100),
        (INT, -(2**70)),
        (NAT64, 2**64 - 1),
        (INT64, -(2**63)),
        (FLOAT64, 0.1),
        (FLOAT64, "NaN"),
        (FLOAT64, "Infinity"),
        (FLOAT64, "-Infinity"),
        (BOOL, True),
        (NULL, None),
        (TEXT, "ünïcødé ✓"),
        (BLOB, "AAEC/w=="),
        (Vec(NAT8), ""),
        (Vec(NAT32), [1, 2, 3]),
        (Tuple(NAT, TEXT), [1, "a"]),
        (Record({"a": NAT, 7: TEXT}), {"a": 1, "7": "seven"}),
        (Variant({7: TEXT, "b": NULL}), {"7": "seven"}),
        (Record({}), {}),
        (Variant({"adamw": NULL, "sgd": FLOAT64}), {"adamw": None}),
        (Variant({"adamw": NULL, "sgd": FLOAT64}), {"sgd": 0.5}),
        (Opt(NAT), None),
        (Opt(NAT), 5),
        (Opt(Opt(NAT)), []),
        (Opt(Opt(NAT)), [None]),
        (Opt(Opt(NAT)), [5]),
        (Opt(NULL), []),
        (Opt(NULL), [None]),
        (Opt(RESERVED), []),
        (Opt(PRINCIPAL), "2vxsx-fae"),
        (FuncType([NAT], [], {"query"}), {"service": "aaaaa-aa", "method": "get"}),
        (Service({"get": FuncType([], [NAT])}), "aaaaa-aa"),
    ],
)
def test_values_round_trip(t, value):
    assert round_trip([t], [value]) == [value]


def test_python_values_behind_the_json():
    assert decode_args(args_from_json([BLOB], ["AAEC"]), [BLOB]) == [b"\x00\x01\x02"]
    assert decode_args(args_from_json([Opt(Opt(NAT))], [[None]]), [Opt(Opt(NAT))]) == [Some(None)]
    func = FuncType([], [])
    assert decode_args(args_from_json([func], [{"service": "aaaaa-aa", "method": "m"}]), [func]) == [
        FuncRef(Principal(b""), "m")
    ]
    assert math.isnan(decode_args(args_from_json([FLOAT64], ["NaN"]), [FLOAT64])[0])
    assert decode_args(args_from_json([FLOAT64], [2]), [FLOAT64]) == [2.0]


def test_reserved_takes_any_json_and_gives_null():
    assert round_trip([RESERVED], [{"anything": [1, 2]}]) == [None]


def test_fields_and_trailing_arguments_that_admit_null_may_be_left_out():
    t = Record({"name": TEXT, "owner": Opt(PRINCIPAL), "note": NULL})
    assert round_trip([t], [{"name": "x"}]) == [{"name": "x", "owner": None, "note": None}]
    assert round_trip([NAT, Opt(TEXT), NULL], [1]) == [1, None, None]


def test_a_device_interface_record():
    run = parse_did("""
        type Op = variant { input : nat32; param : text;
                            narrow : record { x : nat32; dim : nat32; start : nat32; len : nat32 } };
        service : { run : (vec Op, opt variant { adamw },
                           vec record { data : blob; elem : variant { u8 }; shape : vec nat32 },
                           opt principal) -> () }""").methods["run"]
    value = [
        [{"input": 3}, {"narrow": {"x": 1, "dim": 0, "start": 2, "len": 4}}, {"param": "w"}],
        {"adamw": None},
        [{"data": "AAEC", "elem": {"u8": None}, "shape": [1, 3]}],
        None,
    ]
    assert round_trip(list(run.args), value) == value


def test_recursive_types():
    lst = Named("List")
    lst.define(Opt(Tuple(NAT, lst)))
    assert round_trip([lst], [[1, [2, None]]]) == [[1, [2, None]]]


@pytest.mark.parametrize(
    "types, value, message",
    [
        ([NAT], ["abc"], 'argument 0: expected nat, got "abc"'),
        ([NAT], [-1], "argument 0: expected nat, got -1"),
        ([NAT], [1.5], "argument 0: expected nat, got 1.5"),
        ([NAT], [True], "argument 0: expected nat, got true"),
        ([NAT8], [256], "argument 0: expected nat8, got 256"),
        ([FLOAT64], ["nan"], 'argument 0: expected float64, got "nan"'),
        ([FLOAT64], [10**400], "argument 0: expected float64, got 1000"),
        ([NAT], {"a": 1}, "expected a JSON array of 1 arguments"),
        ([NAT], [1, 2], r"expected 1 arguments \(nat\), got 2"),
        ([NAT, TEXT], [1], r"expected 2 arguments \(nat, text\), got 1"),
        ([BLOB], ["not base64!"], "argument 0: expected blob as a base64 string"),
        ([BLOB], [[1, 2]], "argument 0: expected blob as a base64 string"),
        ([Vec(NAT32)], [[1, -1]], r"argument 0\[1\]: expected nat32, got -1"),
        ([Record({"x": Record({"dim": NAT32})})], [{"x": {"dim": "0"}}], 'argument 0.x.dim: expected nat32, got "0"'),
        ([Record({"x": NAT})], [{"x": 1, "y": 2}], "argument 0: record { x : nat } has no field 'y'"),
        ([Record({"x": NAT})], [{}], "argument 0: field 'x' of record { x : nat } is missing"),
        ([Tuple(NAT, TEXT)], [[1]], r"argument 0: expected record { nat; text } as an array of 2"),
        ([Variant({"a": NULL})], ["a"], "expected variant { a : null } as a one-key object"),
        ([Variant({"a": NULL})], [{"b": None}], "argument 0: 'b' is not a tag of variant { a : null }"),
        ([Variant({7: NULL})], [{"²": None}], "argument 0: '²' is not a tag of variant { 7 : null }"),
        ([Variant({"a": NAT})], [{"a": "x"}], 'argument 0.a: expected nat, got "x"'),
        ([Opt(Opt(NAT))], [5], r"argument 0: expected opt opt nat as \[\] or \[value\], got 5"),
        ([Opt(Opt(NAT))], [[1, 2]], r"as \[\] or \[value\]"),
        ([PRINCIPAL], ["aaaaa-ab"], "argument 0: not a principal: 'aaaaa-ab'"),
        ([PRINCIPAL], [5], "argument 0: expected a principal as text, got 5"),
        ([FuncType([], [])], [["aaaaa-aa", "m"]], "expected a func reference as"),
        ([NULL], [0], "argument 0: expected null, got 0"),
    ],
)
def test_bad_json_says_where_and_what(types, value, message):
    with pytest.raises(CandidError, match=message):
        args_from_json(types, value)


def test_absurdly_deep_json_is_refused():
    lst = Named("List")
    lst.define(Opt(Tuple(NAT, lst)))
    value = None
    for i in range(900):
        value = [i, value]
    with pytest.raises(CandidError, match="argument 0: value nested too deeply"):
        args_from_json([lst], [value])


def test_results_that_do_not_fit_the_interface_are_errors():
    with pytest.raises(CandidError, match="argument 0: expected nat, but the message has text"):
        results_to_json([NAT], encode_args([TEXT], ["x"]))
