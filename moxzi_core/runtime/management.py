"""The management canister (``aaaaa-aa``) as the IC defines it: its Candid types (``management.did``),
the methods moxzid implements, and the pieces of them that need no actor (random bytes, new canister
ids, settings, status records).

Who does what: the host answers ``raw_rand`` and ``create_canister`` itself; a method that acts on one
canister (``TARGETED``) is delivered as a message to that canister's actor, whose thread checks that
the caller is a controller and does the work in order with the actor's other messages (so a status
sees the state the actor's messages left, and an install never runs beside one of them). Actors call
these methods through ``ic0.call_*`` like any other; an outside caller through
``Host.call(MANAGEMENT_NAME, method, arg, caller=...)``.
"""

from __future__ import annotations

import hashlib
import secrets
from pathlib import Path

from ..candid import CandidError, FuncType, Principal, Some, decode_args, encode_args, parse_did
from ..store import Batch, Store
from .canister import DEFAULT_SETTINGS, MAX_CONTROLLERS, Canister

SERVICE = parse_did((Path(__file__).parent / "management.did").read_text())
MANAGEMENT_NAME = "aaaaa-aa"  # the management canister's principal, as text (its bytes are empty)

TARGETED = frozenset(
    {"install_code", "update_settings", "canister_status", "stop_canister", "start_canister", "delete_canister"}
)
CREATING = frozenset({"create_canister", "provisional_create_canister_with_cycles"})
METHODS = frozenset({"raw_rand"}) | CREATING | TARGETED
# Methods only a canister's controllers may call (all of TARGETED).
CONTROLLER_ONLY = TARGETED

_RAND_KEY = b"meta/raw_rand"  # how many raw_rand answers a seeded host has given
_CANISTERS_KEY = b"meta/canisters"  # the last canister id create_canister gave


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
    """The settings a canister_settings record sets (its non-null fields), as a Canister keeps them."""
    change = {}
    for name, value in settings.items():
        if value is None:
            continue
        value = value.value if isinstance(value, Some) else value
        if name == "controllers":
            if len(value) > MAX_CONTROLLERS:
                raise BadArgument(f"a canister has at most {MAX_CONTROLLERS} controllers, got {len(value)}")
            value = [bytes(p.bytes) for p in value]
        elif name == "log_visibility":
            value = next(iter(value))
        elif name not in DEFAULT_SETTINGS:
            continue
        change[name] = value
    return change


def status_record(canister: Canister, module_hash: bytes | None, memory_size: int, cycles: int) -> dict:
    """canister_status's answer (``canister_status_result``)."""
    settings = {
        **canister.settings,
        "controllers": [Principal(p) for p in canister.controllers],
        "log_visibility": {canister.settings["log_visibility"]: None},
    }
    return {
        "status": {canister.status: None},
        "settings": settings,
        "module_hash": None if module_hash is None else Some(module_hash),
        "memory_size": memory_size,
        "cycles": max(cycles, 0),
        "reserved_cycles": 0,
        "idle_cycles_burned_per_day": 0,
    }


class Randomness:
    """raw_rand's 32 bytes: from the OS, or, given a seed, the same sequence on every run from the same
    store (the count of answers given is written with each answer, so a restart carries on where the
    recorded answers left off; an answer is recorded like any other, so a crash replays it exactly)."""

    def __init__(self, store: Store, seed: int | None):
        self._seed = seed
        raw = store.get(_RAND_KEY)
        self._drawn = int.from_bytes(raw, "big") if raw else 0

    def draw(self, batch: Batch) -> bytes:
        if self._seed is None:
            return secrets.token_bytes(32)
        self._drawn += 1
        batch.put(_RAND_KEY, self._drawn.to_bytes(8, "big"))
        return hashlib.sha256(b"moxzi raw_rand\0%d\0%d" % (self._seed, self._drawn)).digest()


class CanisterIds:
    """New canister ids, shaped as the IC's (a 64-bit number and the suffix 0x01 0x01), counting up."""

    def __init__(self, store: Store):
        raw = store.get(_CANISTERS_KEY)
        self._last = int.from_bytes(raw, "big") if raw else 0

    def next(self, batch: Batch, taken) -> bytes:
        while True:
            self._last += 1
            principal = self._last.to_bytes(8, "big") + b"\x01\x01"
            if principal not in taken:
                batch.put(_CANISTERS_KEY, self._last.to_bytes(8, "big"))
                return principal
