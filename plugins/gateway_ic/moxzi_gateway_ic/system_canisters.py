"""The IC system canisters that IC tools call by id to create canisters, answered by this plugin:

- the cycles minting canister (``rkp4c-7iaaa-aaaaa-aaaca-cai``): ``get_default_subnets`` and
  ``get_subnet_for_canister`` answer moxzid's one subnet (the IC interface's, ``Identity.subnet_id``);
- the cycles ledger (``um5iw-rqaaa-aaaaq-qaaba-cai``): ``icrc1_balance_of`` answers an account's
  balance (``Host.ledger_accounts``, which only the admin funds, ``POST /cycles-ledger/PRINCIPAL``);
  ``create_canister`` makes a new empty actor exactly as the management canister's ``create_canister``
  does for the caller (``Host.create_canister``: controlled by the settings' controllers, else by the
  caller; kept like every created actor) and answers ``Ok {block_id, canister_id}``.

While moxzid charges cycles (``--cycles N``), a creation asking for an ``amount`` takes it from the
caller's account (``from_subaccount``) with the cycles ledger's fee (FEE, burned, as on the IC) in
the batch that creates the actor, which starts with the ``amount``; an account holding less answers
``InsufficientFunds {balance}`` and takes nothing. moxzid charges no creation fee of its own (an
actor's ``create_canister`` costs only what it attaches), so the IC's is not taken either. A
creation asking for none takes nothing and starts the actor with no cycles. So creating never mints
cycles. While it does not charge, the new actor starts with the ``amount`` asked for (counted
nowhere), as ``provisional_create_canister_with_cycles`` gives an outside caller what it names.
The ``block_id`` is the new canister's number (moxzid's canister ids count up), so it grows with each
creation across restarts. Only calls over the IC interface reach these canisters; actors cannot call them.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from moxzi_core.candid import CandidError, FuncType, Principal, Service, Some, decode_args, encode_args, parse_did
from moxzi_core.ledger_accounts import InsufficientFunds, account_key
from moxzi_core.runtime.messages import Outcome, Reject


def _service(did: str) -> Service:
    return parse_did((Path(__file__).parent / did).read_text())


CYCLES_MINTING = Principal.from_text("rkp4c-7iaaa-aaaaa-aaaca-cai").bytes
CYCLES_LEDGER = Principal.from_text("um5iw-rqaaa-aaaaq-qaaba-cai").bytes
SERVICES = {CYCLES_MINTING: _service("cycles_minting.did"), CYCLES_LEDGER: _service("cycles_ledger.did")}
# What the cycles ledger takes for each creation beside its amount: its fee on the IC (100M cycles)
FEE = 100_000_000
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
            CYCLES_LEDGER: {"icrc1_balance_of": self._balance_of, "create_canister": self._create_canister},
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
        settings = settings.value if settings is not None else {}
        amount = argument["amount"]
        if self.host.ledger is None or not self.host.ledger.charging:
            return self._created(lambda: self.host.create_canister(caller, settings, cycles=amount))
        if not amount:
            return self._created(lambda: self.host.create_canister(caller, settings, cycles=0))
        subaccount = _subaccount(argument["from_subaccount"])
        try:
            account_key(caller, subaccount)
        except ValueError as error:
            return {"Err": {"GenericError": {"message": f"from_subaccount: {error}", "error_code": 0}}}
        try:
            canister = self.host.ledger_accounts.spend(
                caller,
                subaccount,
                amount + FEE,
                lambda batch: self.host.create_canister(caller, settings, amount, batch),
            )
        except InsufficientFunds as short:
            return {"Err": {"InsufficientFunds": {"balance": short.balance}}}
        except ValueError as error:  # refused by the host: nothing was created, nothing taken
            return _failed(str(error))
        return _success(canister)

    def _balance_of(self, account: dict, caller: bytes) -> int:
        try:
            return self.host.ledger_accounts.balance(account["owner"].bytes, _subaccount(account["subaccount"]))
        except ValueError:  # not a 32-byte subaccount: no such account
            return 0

    @staticmethod
    def _created(create: Callable[[], Principal]) -> dict:
        try:
            canister = create()
        except ValueError as error:
            return _failed(str(error))
        return _success(canister)


def _subaccount(option) -> bytes | None:
    return bytes(option.value) if option is not None else None


def _success(canister: Principal) -> dict:
    return {"Ok": {"block_id": int.from_bytes(canister.bytes[:8], "big"), "canister_id": canister}}


def _failed(error: str) -> dict:
    return {"Err": {"FailedToCreate": {"fee_block": None, "refund_block": None, "error": error}}}
