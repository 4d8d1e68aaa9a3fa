"""The IC system canisters that IC tools call by id to create canisters, answered by this plugin:

- the cycles minting canister (``rkp4c-7iaaa-aaaaa-aaaca-cai``): ``get_default_subnets`` and
  ``get_subnet_for_canister`` answer moxzid's one subnet (the IC interface's, ``Identity.subnet_id``);
- the cycles ledger (``um5iw-rqaaa-aaaaq-qaaba-cai``): ``create_canister`` makes a new empty actor
  exactly as the management canister's ``create_canister`` does for the caller (``Host.create_canister``:
  controlled by the settings' controllers, else by the caller; kept like every created actor) and
  answers ``Ok {block_id, canister_id}``.

moxzid keeps no cycles-ledger accounts: every one holds nothing, as nobody can fund them (the admin
gives actors cycles directly, ``POST /cycles/ACTOR``). So while moxzid charges cycles (``--cycles N``)
a creation asking for an ``amount`` answers ``InsufficientFunds {balance = 0}`` and one asking for
none starts the actor with no cycles: creating never mints them. While it does not charge, the new
actor starts with the ``amount`` asked for (counted nowhere), as ``provisional_create_canister_with_cycles``
gives an outside caller what it names.
The ``block_id`` is the new canister's number (moxzid's canister ids count up), so it grows with each
creation across restarts. Only calls over the IC interface reach these canisters; actors cannot call them.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from moxzi_core.candid import CandidError, FuncType, Principal, Service, Some, decode_args, encode_args, parse_did
from moxzi_core.runtime.messages import Outcome, Reject


def _service(did: str) -> Service:
    return parse_did((Path(__file__).parent / did).read_text())


CYCLES_MINTING = Principal.from_text("rkp4c-7iaaa-aaaaa-aaaca-cai").bytes
CYCLES_LEDGER = Principal.from_text("um5iw-rqaaa-aaaaq-qaaba-cai").bytes
SERVICES = {CYCLES_MINTING: _service("cycles_minting.did"), CYCLES_LEDGER: _service("cycles_ledger.did")}
NAMES = {CYCLES_MINTING: "the cycles minting canister", CYCLES_LEDGER: "the cycles ledger"}


class SystemCanisters:
    """The cycles minting canister and the cycles ledger of ``host``, on the subnet ``subnet_id``."""

    def __init__(self, host, subnet_id: bytes):
        self.host = host
        self.subnet = Principal(subnet_id)
        # Each canister's methods, as its .did declares them: (argument, caller) -> result.
        self.methods: dict[bytes, dict[str, Callable[[Any, bytes], Any]]] = {
            CYCLES_MINTING: {
                "get_default_subnets": self._get_default_subnets,
                "get_subnet_for_canister": self._get_subnet_for_canister,
            },
            CYCLES_LEDGER: {"create_canister": self._create_canister},
        }
        assert all(set(table) == set(SERVICES[c].methods) for c, table in self.methods.items()), "as the .did says"

    @staticmethod
    def serves(canister_id: bytes) -> bool:
        return canister_id in SERVICES

    def call(self, canister_id: bytes, method: str, arg: bytes, *, query: bool, caller: bytes) -> Outcome:
        """Run ``method`` of the system canister ``canister_id`` (one ``serves``) for ``caller``."""
        name = NAMES[canister_id]
        func = SERVICES[canister_id].methods.get(method)
        if not isinstance(func, FuncType):
            served = ", ".join(SERVICES[canister_id].methods)
            return Outcome.reject(Reject.CANISTER_ERROR, f"{name} on moxzid answers only {served}, not {method!r}")
        if query and "query" not in func.modes:
            return Outcome.reject(Reject.CANISTER_ERROR, f"{name}'s {method} is an update method: call it as one")
        try:
            (argument,) = decode_args(arg, list(func.args)) or [None]
        except CandidError as error:
            return Outcome.reject(Reject.CANISTER_ERROR, f"{name}: {method}'s argument does not decode: {error}")
        result = self.methods[canister_id][method](argument, caller)
        return Outcome(encode_args(list(func.rets), [result]))

    # --- the cycles minting canister ---------------------------------------------------------
    def _get_default_subnets(self, argument, caller: bytes) -> list:
        return [self.subnet]

    def _get_subnet_for_canister(self, argument: dict, caller: bytes) -> dict:
        canister = argument["principal"]
        if canister is None or self.host.name_of(canister.value.bytes) is None:
            return {"Err": f"no canister {canister.value if canister else '(none given)'} on moxzid"}
        return {"Ok": {"subnet_id": Some(self.subnet)}}

    # --- the cycles ledger -------------------------------------------------------------------
    def _create_canister(self, argument: dict, caller: bytes) -> dict:
        creation = argument["creation_args"].value if argument["creation_args"] is not None else {}
        selection = creation.get("subnet_selection")
        wanted = selection.value.get("Subnet") if selection is not None else None
        if wanted is not None and wanted["subnet"] != self.subnet:
            return _failed(f"moxzid has one subnet, {self.subnet}, not {wanted['subnet']}")
        settings = creation.get("settings")
        charging = self.host.ledger is not None and self.host.ledger.charging
        if charging and argument["amount"]:
            return {"Err": {"InsufficientFunds": {"balance": 0}}}
        try:
            canister = self.host.create_canister(
                caller, settings.value if settings is not None else {}, cycles=0 if charging else argument["amount"]
            )
        except ValueError as error:
            return _failed(str(error))
        return {"Ok": {"block_id": int.from_bytes(canister.bytes[:8], "big"), "canister_id": canister}}


def _failed(error: str) -> dict:
    return {"Err": {"FailedToCreate": {"fee_block": None, "refund_block": None, "error": error}}}
