"""The management canister (``aaaaa-aa``) as the IC defines it: its Candid types (``management.did``),
decoding its methods' arguments and encoding their replies, and the records they read and write
(canister settings, status).
"""

from __future__ import annotations

from pathlib import Path

import cbor2

from ...candid import CandidError, FuncType, Principal, Some, decode_args, encode_args, parse_did
from ..canister import DEFAULT_SETTINGS, MAX_CONTROLLERS, Canister
from ..canister_log import MAX_LOG_BYTES

SERVICE = parse_did((Path(__file__).parent / "management.did").read_text())
MANAGEMENT_NAME = "aaaaa-aa"  # the management canister's principal, as text (its bytes are empty)

# The IC's limits on environment variables (canister settings).
MAX_ENVIRONMENT_VARIABLES = 20
MAX_ENVIRONMENT_TEXT_BYTES = 128  # a variable's name, and its value
_VISIBILITIES = ("log_visibility", "snapshot_visibility", "status_visibility")


class BadArgument(ValueError):
    """A management call's argument does not decode as the method's type, or breaks its rules."""


def _method_type(method: str) -> FuncType:
    func = SERVICE.methods[method]
    assert isinstance(func, FuncType), "management.did spells out each method's type"
    return func


def arguments(method: str, data: bytes) -> list:
    func = _method_type(method)
    try:
        return decode_args(data, func.args)
    except CandidError as error:
        raise BadArgument(f"{method}: the argument does not decode as {func.signature}: {error}") from None


def reply(method: str, *values) -> bytes:
    return encode_args(list(_method_type(method).rets), list(values))


def settings_change(settings: dict) -> dict:
    """The settings a canister_settings record sets (its non-null fields), as a Canister keeps them
    (``canister.DEFAULT_SETTINGS`` says how); a field ``settings`` lacks sets nothing."""
    change = {}
    for name, value in settings.items():
        if value is None:
            continue
        value = value.value if isinstance(value, Some) else value
        if name == "controllers":
            value = _principals(value, "controllers")
        elif name in _VISIBILITIES:
            ((kind, viewers),) = value.items()
            value = kind if viewers is None else _principals(viewers, f"{name} allowed_viewers")
        elif name == "environment_variables":
            value = _environment(value)
        elif name == "log_memory_limit" and value > MAX_LOG_BYTES:
            raise BadArgument(f"log_memory_limit: at most {MAX_LOG_BYTES} bytes, as on the IC; got {value}")
        elif name not in DEFAULT_SETTINGS:
            continue
        change[name] = value
    return change


def _principals(principals: list, what: str) -> list[bytes]:
    if len(principals) > MAX_CONTROLLERS:
        raise BadArgument(f"{what}: at most {MAX_CONTROLLERS} principals, got {len(principals)}")
    return [bytes(p.bytes) for p in principals]


def _environment(variables: list[dict]) -> list[list[str]]:
    if len(variables) > MAX_ENVIRONMENT_VARIABLES:
        raise BadArgument(f"at most {MAX_ENVIRONMENT_VARIABLES} environment variables, got {len(variables)}")
    pairs = [[v["name"], v["value"]] for v in variables]
    for name, value in pairs:
        if max(len(name.encode()), len(value.encode())) > MAX_ENVIRONMENT_TEXT_BYTES:
            raise BadArgument(
                f"environment variable {name[:40]!r}: names and values are at most {MAX_ENVIRONMENT_TEXT_BYTES} bytes"
            )
    if len({name for name, _ in pairs}) != len(pairs):
        raise BadArgument("environment variables: a name is given twice")
    return pairs


def _visibility(kept) -> dict:
    return {kept: None} if isinstance(kept, str) else {"allowed_viewers": [Principal(p) for p in kept]}


def status_record(
    canister: Canister,
    module_hash: bytes | None,
    code: tuple[int, int, int, int],
    custom_sections_bytes: int,
    cycles: int,
) -> dict:
    """canister_status's answer (``canister_status_result``): ``code`` is the bytes of the actor's
    memory, stable memory, wasm binary (as installed) and globals (8 bytes a global, 16 a v128),
    ``custom_sections_bytes`` its module's ``icp:`` sections (names and contents). Its memory size is
    the sum of its memory metrics, as on the IC: those, the history (as the store keeps it), the chunk
    store, the snapshots and the log."""
    memory_bytes, stable_bytes, binary_bytes, globals_bytes = code
    settings = {
        **canister.settings,
        "controllers": [Principal(p) for p in canister.controllers],
        **{name: _visibility(canister.settings[name]) for name in _VISIBILITIES},
        "environment_variables": [
            {"name": name, "value": value} for name, value in canister.settings["environment_variables"]
        ],
    }
    memory_metrics = {
        "wasm_memory_size": memory_bytes,
        "stable_memory_size": stable_bytes,
        "global_memory_size": globals_bytes,
        "wasm_binary_size": binary_bytes,
        "custom_sections_size": custom_sections_bytes,
        "canister_history_size": len(cbor2.dumps(canister.history)),
        "wasm_chunk_store_size": sum(canister.chunks.values()),
        "snapshots_size": canister.snapshot_bytes(),
        "log_memory_store_size": canister.log.size,
    }
    return {
        "status": {canister.status: None},
        "ready_for_migration": False,
        "version": canister.version,
        "settings": settings,
        "module_hash": None if module_hash is None else Some(module_hash),
        "memory_size": sum(memory_metrics.values()),
        "memory_metrics": memory_metrics,
        "cycles": max(cycles, 0),
        "reserved_cycles": 0,
        "idle_cycles_burned_per_day": 0,
        "query_stats": dict.fromkeys(
            (
                "num_calls_total",
                "num_instructions_total",
                "request_payload_bytes_total",
                "response_payload_bytes_total",
            ),
            0,
        ),
    }
