"""The official Candid test suite (tests/data/candid-suite, from dfinity/candid): every assertion, run
through moxzi's binary decoder and encoder and its textual value parser and printer."""

import functools

import pytest
from kit.candid_random import canonical
from kit.candid_suite import Assertion, Input, load

from moxzi_core.candid import CandidError, Decoder, decode_args, encode_args, parse_args, print_values

ASSERTIONS = load()
BINARY = [a for a in ASSERTIONS if any(i.binary for i in a.inputs)]
TEXTUAL = [a for a in ASSERTIONS if not any(i.binary for i in a.inputs)]


def read(given: Input, assertion: Assertion) -> list:
    """The values of an input at the assertion's types (CandidError when it does not fit)."""
    if given.binary:
        values = decode_args(given.content, assertion.types)
        # what decodes, encodes at the same types and decodes to the same values again
        again = decode_args(encode_args(assertion.types, values), assertion.types)
        assert canonical(again) == canonical(values)
    else:
        values = parse_args(given.content, assertion.types)
    # and prints as text that reads back as the same values
    assert canonical(parse_args(print_values(values, assertion.types), assertion.types)) == canonical(values)
    return values


def check(assertion: Assertion) -> None:
    if assertion.relation == "!:":
        with pytest.raises(CandidError):
            read(assertion.left, assertion)
        return
    values = [canonical(read(given, assertion)) for given in assertion.inputs]
    if assertion.relation == "==":
        assert values[0] == values[1]
    elif assertion.relation == "!=":
        assert values[0] != values[1]


def test_the_whole_suite_is_read():
    # a change to the parser that drops assertions must not pass silently
    assert (len(BINARY), len(TEXTUAL)) == (460, 7)


@pytest.mark.parametrize("assertion", BINARY, ids=lambda a: f"{a.where} {a.description}")
def test_binary_assertions(assertion):
    check(assertion)


@pytest.mark.parametrize("assertion", TEXTUAL, ids=lambda a: f"{a.where} {a.description}")
def test_textual_assertions(assertion):
    check(assertion)


def outcome(decode, given: Input):
    """What ``decode(bytes)`` gives for an input: its canonical values, or the error's message and offset."""
    try:
        return canonical(decode(given.content))
    except CandidError as error:
        return ("error", str(error), error.offset)


def test_a_decoder_reading_the_same_types_again_gives_what_decode_args_gives():
    """A Decoder keeps each message head's readers, remembers values of the types asked and reads a
    message from the template of the one before (template.py): every binary input of the suite, decoded
    three times by the same Decoder (the second time from what the first kept, the third from the
    second's template), remembering its types or none, gives decode_args's values or its error, at the
    same offset."""
    for assertion in BINARY:
        for remember in (assertion.types, ()):
            decoder = Decoder(assertion.types, remember=remember)
            for given in (i for i in assertion.inputs if i.binary):
                want = outcome(functools.partial(decode_args, types=assertion.types), given)
                for _ in range(3):
                    assert outcome(decoder.decode, given) == want, assertion.where
