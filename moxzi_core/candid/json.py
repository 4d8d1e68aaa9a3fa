"""The JSON form of Candid values, used by the ``/call-json`` and ``/query-json`` routes.

The mapping (also in ``docs/candid-json.md``): numbers of every integer type are JSON integers; floats
are JSON numbers, with ``"NaN"``, ``"Infinity"`` and ``"-Infinity"`` for the values JSON lacks; text is
a string; bool and null are themselves; ``reserved`` is ``null`` (any JSON value is accepted); blob is a
base64 string; other vectors and tuple records are arrays; records are objects keyed by field name
(unnamed fields by their decimal id); a variant is a one-key object ``{"tag": value}`` (``{"tag": null}``
for a null payload); a principal or service reference is its textual form; a func reference is
``{"service": principal, "method": name}``. An ``opt t`` is ``null`` or the value itself, except when
``t`` itself admits null (``opt``, ``null``, ``reserved``): then it is ``[]`` or ``[value]``, so
``opt opt nat`` has the distinct forms ``[]``, ``[null]`` and ``[5]``.
"""

from __future__ import annotations

import base64
import binascii
import functools
import json
import math
import sys
from collections.abc import Sequence
from typing import Any

from .decode import decode_args
from .encode import encode_args
from .errors import CandidError
from .types import (
    NAT8,
    CandidType,
    Field,
    FuncType,
    Opt,
    Primitive,
    Record,
    Service,
    Variant,
    Vec,
    accepts_null,
    resolve,
)
from .values import FuncRef, Principal, Some

_FLOAT_NAMES = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}
_INTEGER_TYPES = {"nat", "int", "nat8", "nat16", "nat32", "nat64", "int8", "int16", "int32", "int64"}


def args_from_json(types: Sequence[CandidType], value: Any) -> bytes:
    """Encodes a JSON array (one element per argument; trailing arguments that accept null may be left
    out) as a Candid message. Raises ``CandidError`` naming the argument, the field path and what was
    expected, e.g. ``argument 0: expected nat, got "abc"``."""
    if not isinstance(value, list):
        raise CandidError(f"expected a JSON array of {len(types)} arguments, got {_show(value)}")
    if len(value) > len(types) or any(not accepts_null(t) for t in types[len(value) :]):
        raise CandidError(f"expected {len(types)} arguments ({', '.join(map(str, types))}), got {len(value)}")
    values = []
    for i, t in enumerate(types):
        try:
            values.append(from_json(t, value[i]) if i < len(value) else None)
        except CandidError as e:
            raise e.within(f"argument {i}") from None
        except RecursionError:
            raise CandidError("value nested too deeply").within(f"argument {i}") from None
    return encode_args(types, values)


def results_to_json(types: Sequence[CandidType], data: bytes, *, budget: int | None = None) -> list:
    """Decodes a Candid message against ``types`` (with ``decode_args``'s ``budget``) into a JSON-ready
    list, one element per type."""
    values = decode_args(data, types, budget=budget)
    try:
        return [to_json(t, v) for t, v in zip(types, values)]
    except RecursionError:
        raise CandidError("value nested too deeply") from None


def _show(value: Any) -> str:
    shown = json.dumps(value, default=repr)
    return shown if len(shown) <= 60 else shown[:57] + "..."


def _expected(t: CandidType, value: Any) -> CandidError:
    return CandidError(f"expected {t}, got {_show(value)}")


def _is_ambiguous(t: Opt) -> bool:
    """Whether ``null`` alone could not tell ``opt t``'s absent value from a present null-like one."""
    return accepts_null(t.type)


def from_json(t: CandidType, value: Any) -> Any:
    """The Python value (see the package docstring) of the JSON ``value`` read as type ``t``."""
    t = resolve(t)
    if isinstance(t, Primitive):
        return _primitive_from_json(t, value)
    if isinstance(t, Opt):
        if _is_ambiguous(t):
            if not isinstance(value, list) or len(value) > 1:
                raise CandidError(f"expected {t} as [] or [value], got {_show(value)}")
            return Some(_within(t.type, value[0], "[0]")) if value else None
        return None if value is None else Some(from_json(t.type, value))
    if isinstance(t, Vec):
        if resolve(t.type) == NAT8:
            if not isinstance(value, str):
                raise CandidError(f"expected blob as a base64 string, got {_show(value)}")
            try:
                return base64.b64decode(value, validate=True)
            except binascii.Error:
                raise CandidError(f"expected blob as a base64 string, got {_show(value)}") from None
        if not isinstance(value, list):
            raise _expected(t, value)
        return [_within(t.type, item, f"[{i}]") for i, item in enumerate(value)]
    if isinstance(t, Record):
        return _record_from_json(t, value)
    if isinstance(t, Variant):
        if not isinstance(value, dict) or len(value) != 1:
            raise CandidError(f'expected {t} as a one-key object {{"tag": value}}, got {_show(value)}')
        ((tag, payload),) = value.items()
        field = _json_keys(t).get(tag)
        if field is None:
            raise CandidError(f"{tag!r} is not a tag of {t}")
        return {field.key: _within(field.type, payload, f".{tag}")}
    if isinstance(t, FuncType):
        if not (isinstance(value, dict) and set(value) == {"service", "method"} and isinstance(value["method"], str)):
            raise CandidError(
                f'expected a func reference as {{"service": principal, "method": name}}, got {_show(value)}'
            )
        return FuncRef(_principal(value["service"]), value["method"])
    if isinstance(t, Service):
        return _principal(value)
    raise CandidError(f"not a Candid type: {t!r}")


@functools.lru_cache(maxsize=1024)
def _json_keys(t: Record | Variant) -> dict[str, Field]:
    """Fields by their JSON object key: the name, or the decimal id of an unnamed field."""
    return {str(f.key): f for f in t.fields}


def _within(t: CandidType, value: Any, segment: str) -> Any:
    try:
        return from_json(t, value)
    except CandidError as e:
        raise e.within(segment) from None


def _principal(value: Any) -> Principal:
    if not isinstance(value, str):
        raise CandidError(f"expected a principal as text, got {_show(value)}")
    return Principal.from_text(value)


def _primitive_from_json(t: Primitive, value: Any) -> Any:
    name = t.name
    integer = isinstance(value, int) and not isinstance(value, bool)
    if name in _INTEGER_TYPES and integer:
        return value
    if name in ("float32", "float64"):
        if isinstance(value, float):
            return value
        if integer and abs(value) <= sys.float_info.max:
            return float(value)
        if isinstance(value, str) and value in _FLOAT_NAMES:
            return _FLOAT_NAMES[value]
    if (name == "text" and isinstance(value, str)) or (name == "bool" and isinstance(value, bool)):
        return value
    if (name == "null" and value is None) or name == "reserved":
        return None
    if name == "principal":
        return _principal(value)
    raise _expected(t, value)


def _record_from_json(t: Record, value: Any) -> Any:
    if t.is_tuple:
        if not isinstance(value, list) or len(value) != len(t.fields):
            raise CandidError(f"expected {t} as an array of {len(t.fields)}, got {_show(value)}")
        return tuple(_within(f.type, item, f".{f.id}") for f, item in zip(t.fields, value))
    if not isinstance(value, dict):
        raise CandidError(f"expected {t} as an object, got {_show(value)}")
    names = _json_keys(t)
    unknown = [key for key in value if key not in names]
    if unknown:
        raise CandidError(f"{t} has no field {unknown[0]!r}")
    result = {}
    for key, field in names.items():
        if key in value:
            result[field.key] = _within(field.type, value[key], f".{key}")
        elif accepts_null(field.type):
            result[field.key] = None
        else:
            raise CandidError(f"field {key!r} of {t} is missing")
    return result


def to_json(t: CandidType, value: Any) -> Any:
    """The JSON form of the Python ``value`` of type ``t`` (as ``decode_args`` returns it)."""
    t = resolve(t)
    if isinstance(t, Primitive):
        if isinstance(value, float) and not math.isfinite(value):
            return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
        return str(value) if isinstance(value, Principal) else value
    if isinstance(t, Opt):
        if _is_ambiguous(t):
            return [] if value is None else [to_json(t.type, value.value)]
        return None if value is None else to_json(t.type, value.value)
    if isinstance(t, Vec):
        if isinstance(value, bytes):
            return base64.b64encode(value).decode("ascii")
        return [to_json(t.type, item) for item in value]
    if isinstance(t, Record):
        if t.is_tuple:
            return [to_json(f.type, item) for f, item in zip(t.fields, value)]
        return {str(f.key): to_json(f.type, value[f.key]) for f in t.fields}
    if isinstance(t, Variant):
        ((tag, payload),) = value.items()
        return {str(tag): to_json(t.by_key[tag].type, payload)}
    if isinstance(t, FuncType):
        return {"service": str(value.service), "method": value.method}
    return str(value)  # a service reference
