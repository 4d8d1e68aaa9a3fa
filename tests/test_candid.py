"""The Candid binary codec: known encodings, the coercion (subtyping) rules, and every rejection."""

import math

import pytest

from moxzi_core.candid import (
    BLOB,
    BOOL,
    EMPTY,
    FLOAT32,
    FLOAT64,
    INT,
    INT8,
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
    Decoder,
    Encoder,
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
    idl_hash,
)
from moxzi_core.candid.decode import REPEAT_BYTES
from moxzi_core.candid.encode import MAX_NUMBER_BITS
from moxzi_core.candid.wire import leb128, sleb128


def didl(text: str) -> bytes:
    """A message written like the spec's test suite: ``\\xx`` escapes between literal characters."""
    return text.encode("latin-1").decode("unicode_escape").encode("latin-1")


def message(*parts: str) -> bytes:
    return bytes.fromhex("4449444c" + "".join(parts))


# ---- known encodings (from the Candid spec and its test suite) ----


@pytest.mark.parametrize(
    "types, values, encoded",
    [
        ([NULL], [None], "00017f"),
        ([BOOL], [True], "00017e01"),
        ([NAT], [128], "00017d8001"),
        ([INT], [-128], "00017c807f"),
        ([NAT8], [255], "00017bff"),
        ([NAT64], [2**64 - 1], "000178ffffffffffffffff"),
        ([INT8], [-1], "000177ff"),
        ([FLOAT64], [1.5], "000172000000000000f83f"),
        ([FLOAT32], [1.5], "0001730000c03f"),
        ([TEXT], ["Motoko"], "000171064d6f746f6b6f"),
        ([PRINCIPAL], [Principal(b"")], "0001680100"),
        ([PRINCIPAL], [Principal(bytes.fromhex("caffee"))], "0001680103caffee"),
        ([Opt(NAT)], [Some(42)], "016e7d0100012a"),
        ([Opt(NAT)], [None], "016e7d010000"),
        ([Vec(NAT)], [[1, 2]], "016d7d0100020102"),
        ([BLOB], [b"\x01\x02"], "016d7b0100020102"),
        (
            [Record({"foo": NAT, "bar": BOOL})],
            [{"foo": 42, "bar": True}],
            f"016c02{leb128(idl_hash('bar')).hex()}7e{leb128(idl_hash('foo')).hex()}7d0100012a",
        ),
        ([Tuple(NAT, TEXT)], [(1, "a")], "016c02007d01710100010161"),
        (
            [Variant({"ok": NAT, "err": TEXT})],
            [{"ok": 3}],
            f"016b02{leb128(idl_hash('ok')).hex()}7d{leb128(idl_hash('err')).hex()}7101000003",
        ),
        ([NAT, TEXT], [1, "x"], "00027d71010178"),
        ([], [], "0000"),
    ],
)
def test_known_encodings(types, values, encoded):
    assert encode_args(types, values).hex() == "4449444c" + encoded
    assert decode_args(bytes.fromhex("4449444c" + encoded), types) == values


def test_field_hash_matches_the_spec():
    assert idl_hash("foo") == 5097222
    assert idl_hash("bar") == 4895187


def test_principal_text_form():
    assert str(Principal(b"")) == "aaaaa-aa"
    assert str(Principal(b"\x04")) == "2vxsx-fae"
    assert str(Principal(bytes.fromhex("caffee"))) == "w7x7r-cok77-xa"
    assert Principal.from_text("w7x7r-cok77-xa") == Principal(bytes.fromhex("caffee"))
    for bad in ["w7x7r-cok77-xb", "w7x7rcok77xa", "W7X7R-COK77-XA", "aaaaa-a!", "", 5]:
        with pytest.raises(CandidError, match="principal"):
            Principal.from_text(bad)
    with pytest.raises(CandidError):
        Principal(bytes(30))


def test_recursive_type_round_trip():
    lst = Named("List")
    lst.define(Opt(Record({"head": NAT, "tail": lst})))
    value = Some({"head": 1, "tail": Some({"head": 2, "tail": None})})
    assert decode_args(encode_args([lst], [value]), [lst]) == [value]


def test_references_round_trip():
    f = FuncType([NAT], [TEXT], {"query"})
    s = Service({"get": f})
    ref = FuncRef(Principal(b"\x01"), "get")
    assert decode_args(encode_args([f, s], [ref, Principal(b"\x02")]), [f, s]) == [ref, Principal(b"\x02")]


def test_values_of_future_types_are_skipped():
    # entry 0 is a future type (code -25) with a 2-byte description; its value has 3 bytes, 0 references
    data = message("01 67 02 abcd 02 00 7d 03 00 010203 2a")
    assert decode_args(data, [Opt(NAT), NAT]) == [None, 42]
    assert decode_args(data, [RESERVED, NAT]) == [None, 42]
    assert decode_args(data) == [None, 42]


def test_untyped_decoding_keys_fields_by_id():
    data = encode_args([Record({"a": NAT}), Variant({"b": NULL}), Tuple(NAT)], [{"a": 1}, {"b": None}, (7,)])
    assert decode_args(data) == [{idl_hash("a"): 1}, {idl_hash("b"): None}, (7,)]


def test_numbers_encode_only_as_large_as_the_decoder_reads_back():
    # A number written but never read back would poison every later reply that carries it.
    largest = 2**MAX_NUMBER_BITS - 1
    for t, v in [(NAT, largest), (INT, largest), (INT, -largest)]:
        assert recode([t], [v], [t]) == [v]
        with pytest.raises(CandidError, match=f"argument 0: expected {t} of at most 7167 bits, got one of 7168 bits"):
            encode_args([t], [v * 2 + (1 if v > 0 else -1)])


# ---- coercion (subtyping) on decode ----


def recode(wire_types, values, expected_types):
    return decode_args(encode_args(wire_types, values), expected_types)


def test_nat_reads_as_int():
    assert recode([NAT], [5], [INT]) == [5]
    with pytest.raises(CandidError, match="expected nat, but the message has int"):
        recode([INT], [5], [NAT])


def test_opt_keeps_fitting_values_and_drops_others():
    assert recode([Opt(NAT)], [Some(1)], [Opt(INT)]) == [Some(1)]
    assert recode([Opt(TEXT)], [Some("a")], [Opt(NAT)]) == [None]
    assert recode([NAT], [1], [Opt(NAT)]) == [Some(1)]
    assert recode([TEXT], ["a"], [Opt(NAT)]) == [None]
    assert recode([NULL], [None], [Opt(NAT)]) == [None]
    # a bare value is read as the content even when that is an opt itself (the October 2025 rule)
    assert recode([NAT], [1], [Opt(Opt(NAT))]) == [Some(Some(1))]
    assert recode([NAT], [1], [Opt(NULL)]) == [None]
    assert recode([Opt(NAT)], [Some(1)], [Opt(Opt(NAT))]) == [Some(Some(1))]
    fix = Named("Fix")
    fix.define(Opt(fix))
    with pytest.raises(CandidError, match="nested deeper"):  # true : bool never fits `type Fix = opt Fix`
        recode([BOOL], [True], [fix])
    assert recode([Opt(Opt(NULL))], [Some(None)], [Opt(Opt(NULL))]) == [Some(None)]
    narrow, wide = Variant({"a": NULL}), Variant({"a": NULL, "b": NULL})
    assert recode([Opt(wide)], [Some({"a": None})], [Opt(narrow)]) == [Some({"a": None})]
    assert recode([Opt(wide)], [Some({"b": None})], [Opt(narrow)]) == [None]  # a tag we lack
    has_x, has_y = Record({"x": NAT}), Record({"y": NAT})
    assert recode([Vec(Opt(has_x))], [[Some({"x": 1})]], [Vec(Opt(has_y))]) == [[None]]
    assert recode([Opt(NAT), TEXT], [Some(1), "after"], [Opt(TEXT), TEXT]) == [None, "after"]


def test_malformed_bytes_under_opt_are_still_errors():
    with pytest.raises(CandidError, match="not valid UTF-8"):
        decode_args(message("016e71 0100 01 02c328"), [Opt(TEXT)])
    with pytest.raises(CandidError, match="not valid UTF-8"):  # even where the value would be dropped
        decode_args(message("016e71 0100 01 02c328"), [Opt(NAT)])


def test_records_skip_extra_fields_and_fill_missing_optional_ones():
    wire = Record({"a": NAT, "extra": Vec(TEXT)})
    expected = Record({"a": NAT, "maybe": Opt(TEXT), "whatever": RESERVED})
    assert recode([wire], [{"a": 1, "extra": ["x"]}], [expected]) == [{"a": 1, "maybe": None, "whatever": None}]
    with pytest.raises(CandidError, match="record has no field b"):
        recode([wire], [{"a": 1, "extra": []}], [Record({"b": NAT})])
    # a missing field of type null reads as null, like opt and reserved ones (null <: t)
    assert recode([wire], [{"a": 1, "extra": []}], [Record({"b": NULL})]) == [{"b": None}]


def test_service_references_read_as_principals():
    svc = Service({"m": FuncType([], [])})
    p = Principal(b"\x01\x02")
    assert recode([svc], [p], [PRINCIPAL]) == [p]
    with pytest.raises(CandidError, match="expected service"):
        recode([PRINCIPAL], [p], [svc])
    with pytest.raises(CandidError, match="expected principal"):
        recode([FuncType([], [])], [FuncRef(p, "m")], [PRINCIPAL])


def test_arguments_extra_are_skipped_and_missing_optional_ones_are_null():
    assert recode([NAT, TEXT], [1, "x"], [NAT]) == [1]
    assert recode([NAT], [1], [NAT, Opt(TEXT), NULL, RESERVED]) == [1, None, None, None]
    with pytest.raises(CandidError, match="argument 1: missing argument of type text"):
        recode([NAT], [1], [NAT, TEXT])


def test_reserved_takes_anything():
    assert recode([Vec(Record({"a": TEXT}))], [[{"a": "x"}]], [RESERVED]) == [None]


def test_variant_tags_must_be_known():
    wide = Variant({"a": NAT, "b": TEXT})
    assert recode([wide], [{"a": 1}], [Variant({"a": NAT})]) == [{"a": 1}]
    with pytest.raises(CandidError, match=f"variant tag {idl_hash('b')} is not a tag"):
        recode([wide], [{"b": "x"}], [Variant({"a": NAT})])


def test_func_references_must_be_subtypes():
    query, update = FuncType([NAT], [], {"query"}), FuncType([NAT], [])
    with pytest.raises(CandidError, match="expected"):
        recode([query], [FuncRef(Principal(b""), "m")], [update])
    assert recode([FuncType([INT], [NAT])], [FuncRef(Principal(b""), "m")], [FuncType([NAT], [INT])])


# ---- encoding rejects values that don't fit ----


@pytest.mark.parametrize(
    "t, value, message",
    [
        (NAT, -1, "expected nat, got -1"),
        (NAT, True, "expected nat, got True"),
        (NAT8, 256, "expected nat8, got 256"),
        (INT64, 2**63, "expected int64"),
        (FLOAT32, 1e300, "expected float32"),
        (TEXT, b"x", "expected text"),
        (Opt(NAT), 5, "as None or Some"),
        (Record({"a": NAT}), {"a": 1, "b": 2}, r"\['b'\] unknown"),
        (Record({"a": NAT}), {}, r"\['a'\] are missing"),
        (Record({"a": Vec(NAT32)}), {"a": [1, -1]}, r"argument 0\.a\[1\]: expected nat32, got -1"),
        (Variant({"a": NULL}), {"b": None}, "expected variant"),
        (EMPTY, None, "expected empty"),
        (BLOB, [1, 2], "expected blob"),
    ],
)
def test_encode_rejects(t, value, message):
    with pytest.raises(CandidError, match=message):
        encode_args([t], [value])


# ---- decoding rejects malformed, hostile or mistyped messages ----


@pytest.mark.parametrize(
    "data, types, message",
    [
        (b"DIDX\x00\x00", [], "does not start with DIDL"),
        (b"DID", [], "ends early"),
        (message("00017d"), [NAT], "ends inside a LEB128 number.*at byte 7"),
        (message("00017d80"), [NAT], "ends inside a LEB128"),
        (message("00017d") + b"\x80" * 2000, [NAT], "longer than 1024 bytes"),
        (message("00017d0100"), [NAT], "1 bytes left after the last argument.*at byte 8"),
        (message("000171 05 6869"), [TEXT], "text of length 5 runs past the end"),
        (message("000171 03e228a1"), [TEXT], "not valid UTF-8.*at byte 7"),
        (message("00017e02"), [BOOL], "bool must be 0 or 1"),
        (message("000168 00"), [PRINCIPAL], "reference flag must be 1"),
        (message("000168 01 1e") + bytes(30), [PRINCIPAL], "principal of 30 bytes"),
        (message("00017a01"), [NAT16], "ends early"),
        (message("0001 05"), [NAT], "type index 5 is outside the type table"),
        (message("0001 60"), [NAT], "type code -32 is not a primitive"),
        (message("01 7d 01 00"), [NAT], "not a compound or future type code"),
        (message("01 67 09 00 01 00 0000"), [RESERVED], "future type of length 9 runs past the end"),
        (message("01 67 00 01 00 05 00 00"), [RESERVED], "message ends early: expected 5 bytes"),
        (message("01 67 00 01 00 00 00"), [NAT], "expected nat, but the message has future type -25"),
        (message("01 6c 02 01 7d 01 7d 0100 0101"), [], "field id 1 is not a 32-bit number above"),
        (message("01 6d 7f 01 00 ffffffff0f"), [Vec(NULL)], "vector of 4294967295 elements"),
        (message("01 6d 7d 01 00 05 01"), [Vec(NAT)], "vector of length 5 runs past the end"),
        (message("01 6e 7d 01 00 02"), [Opt(NAT)], "opt flag must be 0 or 1"),
        (message("01 6b 01 00 7f 01 00 01"), [Variant({0: NULL})], "tag index 1 is out of range"),
        (message("01 6c 01 00 00 01 00"), [], "nested deeper than 256"),  # record { 0 : <itself> }
        (message("00 01 71 01 78"), [NAT], "argument 0: expected nat, but the message has text"),
        (message("00 01 6f"), [EMPTY], "cannot exist"),
        (message("01 69 01 01 61 7d 01 00"), [], "method 'a' has type nat, not a function type"),
        (message("01 6a 00 00 01 07 01 00"), [], "unknown function annotation 7"),
    ],
)
def test_decode_rejects(data, types, message):
    with pytest.raises(CandidError, match=message):
        decode_args(data, types)


def test_encoding_a_value_that_contains_itself_is_refused():
    cycle = Named("Cycle")
    cycle.define(Vec(cycle))
    value = []
    value.append(value)
    with pytest.raises(CandidError, match="nested too deeply"):
        encode_args([cycle], [value])


def test_deep_nesting_is_refused():
    t = NAT
    value = 1
    for _ in range(300):
        t, value = Opt(t), Some(value)
    data = encode_args([t], [value])
    with pytest.raises(CandidError, match="nested deeper"):
        decode_args(data, [t])


def test_a_deeply_nested_type_table_is_refused():
    n = 5000
    entries = "".join(f"6e{sleb128(i + 1).hex()}" for i in range(n - 1)) + "6e7d"  # opt opt ... opt nat
    data = message(leb128(n).hex() + entries + "0100" + "01" * n + "00")
    with pytest.raises(CandidError, match="nested"):
        decode_args(data, [Opt(NAT)])


def test_a_huge_vector_of_nothing_fails_fast():
    data = b"DIDL" + bytes([1, 0x6D, 0x7F, 1, 0]) + leb128(10**7)
    assert len(data) == 13
    with pytest.raises(CandidError, match="decode budget exceeded"):  # refused before 10^7 nulls are made
        decode_args(data, [Vec(NULL)])


def test_a_tree_of_nulls_fails_fast():
    # entry k is record { 0 : entry k-1; 1 : entry k-1 }: a value of entry 20 is 2^20 nulls in 0 bytes
    entries = ["6c02007f017f"] + [f"6c0200{k - 1:02x}01{k - 1:02x}" for k in range(1, 21)]
    data = message(f"{len(entries) + 2:02x}" + "".join(entries) + "6e14" + "6d15" + "0116" + "05" + "01" * 5)
    with pytest.raises(CandidError, match="decode budget exceeded"):  # stops at the budget, not 2^20 nulls
        decode_args(data, [Vec(Opt(Record({})))])


def test_the_default_budget_grows_with_the_message():
    pairs = Vec(Tuple(NAT8, NAT8))
    many = [(i % 256, 7) for i in range(60_000)]  # 180_000 units: more than DEFAULT_BUDGET alone
    assert decode_args(encode_args([pairs], [many]), [pairs]) == [many]
    nulls = Vec(NULL)
    assert decode_args(encode_args([nulls], [[None] * 50_000]), [nulls]) == [[None] * 50_000]
    with pytest.raises(CandidError, match="decode budget exceeded"):
        decode_args(encode_args([nulls], [[None] * 200_000]), [nulls])


def test_budget_counts_values():
    data = encode_args([Vec(Opt(NAT))], [[Some(i) for i in range(1000)]])
    assert len(decode_args(data, [Vec(Opt(NAT))], budget=3000)[0]) == 1000
    with pytest.raises(CandidError, match="decode budget exceeded"):
        decode_args(data, [Vec(Opt(NAT))], budget=1500)


def test_float_specials_round_trip():
    nan, inf = decode_args(encode_args([FLOAT64, FLOAT32], [math.nan, -math.inf]), [FLOAT64, FLOAT32])
    assert math.isnan(nan) and inf == -math.inf


def test_an_encoder_writes_what_encode_args_writes_each_time():
    encoder = Encoder([STEP, NAT])
    for k in range(3):
        values = [{"data": bytes([k]) * k, "program": [{"param": "w" * k}], "lr": Some(k / 8) if k else None}, k]
        assert encoder.encode(values) == encode_args([STEP, NAT], values)
    with pytest.raises(CandidError, match="argument 1: expected nat, got -1"):
        encoder.encode([{"data": b"", "program": [], "lr": None}, -1])
    with pytest.raises(CandidError, match="2 argument types but 1 values"):
        encoder.encode([0])


# --- Decoder: heads and values that repeat ----------------------------------------------------------
OP = Variant({"param": TEXT, "linear": Record({"x": NAT32, "w": NAT32}), "scale": Record({"x": NAT32, "by": FLOAT64})})
PROGRAM = Vec(OP)
STEP = Record({"data": BLOB, "program": PROGRAM, "lr": Opt(FLOAT64)})  # a device run, cut down
# The sender's subset: fewer tags, so its head differs.
SENDER_STEP = Record({"data": BLOB, "program": Vec(Variant({"param": TEXT})), "lr": Opt(FLOAT64)})


def steps(program, count=3):
    """Messages of ``count`` steps sending ``program`` with other data and learning rates each time."""
    return [
        encode_args([STEP], [{"data": bytes([k]) * (k + 1), "program": program, "lr": Some(k / 8)}])
        for k in range(count)
    ]


def test_a_decoder_remembers_a_value_that_repeats_byte_for_byte():
    program = [{"param": "w"}, {"linear": {"x": 0, "w": 0}}, {"scale": {"x": 1, "by": 0.5}}]
    decoder = Decoder([STEP], remember=[PROGRAM])
    results = [decoder.decode(m) for m in steps(program)]
    assert results == [decode_args(m, [STEP]) for m in steps(program)]
    assert results[0][0]["program"] is results[2][0]["program"]  # decoded once
    changed = [*program[:2], {"scale": {"x": 1, "by": 0.25}}]  # as long, one byte different
    (again,) = decoder.decode(steps(changed, 1)[0])
    assert again["program"] == changed


def test_a_decoder_reads_a_message_that_differs_only_in_its_leaves_from_the_last_ones_template():
    program = [{"param": "w"}, {"linear": {"x": 0, "w": 0}}, {"scale": {"x": 1, "by": 0.5}}]
    decoder = Decoder([STEP], remember=[PROGRAM])
    messages = [  # the same length: the second's template reads the rest
        encode_args([STEP], [{"data": bytes([k, 255 - k, k]), "program": program, "lr": Some(k / 8)}]) for k in range(5)
    ]
    results = [decoder.decode(m) for m in messages]
    assert results == [decode_args(m, [STEP]) for m in messages]
    assert [r[0]["data"][0] for r in results] == [0, 1, 2, 3, 4]
    assert results[2][0]["program"] is results[4][0]["program"]  # shared, as a remembered value
    changed = [*program[:2], {"scale": {"x": 0, "by": 0.5}}]  # as long, a register (not a leaf) differs
    message = encode_args([STEP], [{"data": b"abc", "program": changed, "lr": None}])
    assert decoder.decode(message) == decode_args(message, [STEP]) == [{"data": b"abc", "program": changed, "lr": None}]
    message = encode_args([STEP], [{"data": b"abc", "program": changed, "lr": Some(2.0)}])  # its opt flag
    assert decoder.decode(message) == decode_args(message, [STEP])


def test_a_decoder_keeps_the_heads_of_several_senders():
    ours, theirs = (
        steps([{"param": "w"}], 1)[0],
        encode_args([SENDER_STEP], [{"data": b"", "program": [{"param": "v"}], "lr": None}]),
    )
    decoder = Decoder([STEP], remember=[PROGRAM])
    for _ in range(2):
        assert decoder.decode(ours) == decode_args(ours, [STEP])
        assert (
            decoder.decode(theirs)
            == decode_args(theirs, [STEP])
            == [{"data": b"", "program": [{"param": "v"}], "lr": None}]
        )


def test_a_decoder_charges_a_remembered_value_what_decoding_it_cost():
    program = [{"param": "w"}] * 50
    message = steps(program, 1)[0]
    decoder = Decoder([STEP], remember=[PROGRAM])
    decoder.decode(message)
    enough = next(b for b in range(1, 1000) if _decodes(message, b))
    for _ in range(2):  # the second time from the first's template
        assert decoder.decode(message, budget=enough)[0]["program"] == program
    with pytest.raises(CandidError) as short:
        decoder.decode(message, budget=enough - 1)
    with pytest.raises(CandidError) as from_scratch:
        decode_args(message, [STEP], budget=enough - 1)
    assert (str(short.value), short.value.offset) == (str(from_scratch.value), from_scratch.value.offset)


def test_a_decoder_gives_a_message_repeated_whole_the_value_it_gave_before():
    message = steps([{"param": "w"}], 1)[0]
    decoder = Decoder([STEP], remember=[PROGRAM])
    first = decoder.decode(message)
    assert decoder.decode(bytes(bytearray(message))) is first  # an equal copy: not read again
    assert first == decode_args(message, [STEP])
    large = encode_args([STEP], [{"data": bytes(REPEAT_BYTES), "program": [], "lr": None}])
    assert decoder.decode(large) is not decoder.decode(large)  # too large to keep


def _decodes(message: bytes, budget: int) -> bool:
    try:
        decode_args(message, [STEP], budget=budget)
        return True
    except CandidError:
        return False


def test_a_decoder_refuses_a_message_that_goes_wrong_after_a_known_head():
    message = steps([{"param": "w"}], 1)[0]
    decoder = Decoder([STEP], remember=[PROGRAM])
    decoder.decode(message)
    for broken in (message[:-3], message + b"\x00", message[:-9] + b"\xff" * 9):
        with pytest.raises(CandidError) as got:
            decoder.decode(broken)
        with pytest.raises(CandidError) as want:
            decode_args(broken, [STEP])
        assert (str(got.value), got.value.offset) == (str(want.value), want.value.offset)
