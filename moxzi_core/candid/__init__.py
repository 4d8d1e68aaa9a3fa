"""Candid, the Internet Computer's interface description language: types, binary codec, ``.did``
parser and a JSON mapping, written for a daemon that decodes untrusted input (strict and bounded).

Python value model (what ``decode_args`` returns and ``encode_args`` accepts):

============================== ==============================================================
Candid                         Python
============================== ==============================================================
nat, int, nat8..64, int8..64   ``int`` (range-checked when encoding; ``bool`` is refused;
                               ``nat``/``int`` up to 7168 bits on the wire)
float32, float64               ``float`` (``int`` accepted when encoding)
bool                           ``bool``
text                           ``str``
null, reserved                 ``None`` (a ``reserved`` value of any type decodes to ``None``)
empty                          no value
blob (``vec nat8``)            ``bytes`` (``bytearray`` accepted when encoding)
vec t                          ``list`` (``tuple`` accepted when encoding)
record with named fields       ``dict`` keyed by field name (by numeric id for unnamed fields)
record { t0; t1; ... }         ``tuple`` (fields numbered 0, 1, ... without names)
variant                        a one-key ``dict``: ``{tag: value}``; ``{tag: None}`` for a null tag
opt t                          ``None`` when absent, ``Some(value)`` when present, so
                               ``opt opt null`` has three distinct values: None, Some(None),
                               Some(Some(None))
principal                      ``Principal`` (bytes and textual form)
func reference                 ``FuncRef(service: Principal, method: str)`` (a 2-tuple)
service reference              ``Principal``
============================== ==============================================================

JSON (``args_from_json``/``results_to_json``) has its own mapping, described in ``json.py`` and in
``docs/candid-json.md``. Candid's textual values (``parse_args``/``print_values``, what ``dfx canister
call`` reads and prints) map to the same Python values; see ``text.py`` and ``docs/candid-text.md``.

``decode_args(data)`` without types reads the message's own types: record fields and variant tags are
then keyed by their numeric ids. A ``Decoder`` decodes message after message of the same types (a
method's argument) with what ``decode_args`` gives, reusing what it read of earlier ones.
"""

from .decode import BUDGET_PER_BYTE, DEFAULT_BUDGET, Decoder, decode_args
from .did import parse_did
from .encode import Encoder, encode_args
from .errors import CandidError
from .json import args_from_json, results_to_json
from .text import parse_args, parse_value, print_value, print_values
from .types import (
    BLOB,
    BOOL,
    EMPTY,
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
    CandidType,
    Field,
    FuncType,
    Named,
    Opt,
    Primitive,
    Record,
    Service,
    Tuple,
    Variant,
    Vec,
    accepts_null,
    idl_hash,
    resolve,
)
from .values import FuncRef, Principal, Some
from .wasm import service_from_sections

__all__ = [
    "CandidError",
    "Principal",
    "Some",
    "FuncRef",
    "parse_did",
    "Service",
    "FuncType",
    "service_from_sections",
    "encode_args",
    "Encoder",
    "decode_args",
    "Decoder",
    "DEFAULT_BUDGET",
    "BUDGET_PER_BYTE",
    "args_from_json",
    "results_to_json",
    "parse_args",
    "parse_value",
    "print_values",
    "print_value",
    "CandidType",
    "Field",
    "Named",
    "Opt",
    "Primitive",
    "Record",
    "Tuple",
    "Variant",
    "Vec",
    "idl_hash",
    "resolve",
    "accepts_null",
    "BLOB",
    "BOOL",
    "EMPTY",
    "FLOAT32",
    "FLOAT64",
    "INT",
    "INT8",
    "INT16",
    "INT32",
    "INT64",
    "NAT",
    "NAT8",
    "NAT16",
    "NAT32",
    "NAT64",
    "NULL",
    "PRINCIPAL",
    "RESERVED",
    "TEXT",
]
