"""The official Candid test suite (tests/data/candid-suite, from dfinity/candid): every assertion, run
through moxzi's binary decoder and encoder and its textual value parser and printer."""

import pytest
from kit.candid_random import canonical
from kit.candid_suite import Assertion, Input, load

from moxzi_core.candid import CandidError, decode_args, encode_args, parse_args, print_values

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
