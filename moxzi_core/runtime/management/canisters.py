"""The management methods about canisters themselves: creating them, their cycles, random bytes, their
history, and those acting on one canister's life (status, settings, stop, start, delete)."""

from __future__ import annotations

from collections.abc import Mapping

from ...billing import MAX_BALANCE
from ...candid import Principal, Some
from ..actor import Actor
from ..canister import DEFAULT_SETTINGS, RUNNING, STOPPED, STOPPING, Canister
from ..messages import FromActor, Manage, Outcome, Reject
from .history import change_origin, info_record, record_controllers_change, record_creation
from .interface import BadArgument, reply, settings_change, status_record
from .request import Manager, Request


def new_canister(caller: bytes, settings: Mapping[str, object], by: list) -> Canister:
    """The record of a canister ``caller`` creates with ``settings`` (canister_settings fields by name):
    controlled by their controllers or else by ``caller``, the other settings over the defaults, its
    history begun with its creation ``by`` whom (`history.change_origin`). Raises ValueError for
    settings the IC refuses."""
    change = settings_change(dict(settings))
    canister = Canister(change.pop("controllers", [caller]), settings={**DEFAULT_SETTINGS, **change}, created=True)
    record_creation(canister, by)
    return canister


class CreationRefused(ValueError):
    """create_canister is refused: moxzid holds as many created actors as it may (a retry may succeed
    once one is deleted)."""


# --- on the host ------------------------------------------------------------------------------
def raw_rand(manager: Manager, request: Request, target: None) -> Outcome:
    return Outcome(reply("raw_rand", manager.randomness.draw(request.batch)))


def create_canister(manager: Manager, request: Request, target: None) -> Outcome:
    """create_canister, and provisional_create_canister_with_cycles."""
    settings = request.argument["settings"]
    principal = manager.create(
        request.batch,
        request.caller,
        settings.value if settings is not None else {},
        _opening_balance(manager, request),
        changed_by(manager, request),
    )
    return Outcome(reply(request.method, {"canister_id": Principal(principal)}))


def _opening_balance(manager: Manager, request: Request) -> int | None:
    """The cycles a created canister starts with: what the creating actor attached (taken from its
    balance), as on the IC. For a caller outside, who has no balance: when moxzid charges cycles, none
    (creation never mints: the admin gives cycles, ``POST /cycles/ACTOR``), and
    provisional_create_canister_with_cycles naming an amount is refused; when it does not charge, the
    amount named, else None (what every actor starts with, ``--cycles``)."""
    if isinstance(request.origin, FromActor):
        return request.cycles
    method = request.method
    amount = request.argument.get("amount") if method == "provisional_create_canister_with_cycles" else None
    amount = amount.value if isinstance(amount, Some) else amount
    if manager.ledger is not None and manager.ledger.charging:
        if amount:
            raise BadArgument(
                f"{method}: moxzid charges cycles (--cycles), so creating a canister does not make "
                f"them: amount {amount} is refused (create it without one; the admin adds cycles with "
                "POST /cycles/ACTOR)"
            )
        return 0
    if amount is not None and amount > MAX_BALANCE:
        raise BadArgument(f"{method}: amount {amount} is more than a canister may hold ({MAX_BALANCE})")
    return amount


def changed_by(manager: Manager, request: Request) -> list:
    """Who makes the change a management call makes, for the canister's history: a canister (an actor
    here), with the version its call says it has, or a user."""
    is_canister = manager.actor_with(request.caller) is not None
    return change_origin(request.caller, is_canister, request.argument.get("sender_canister_version"))


def provisional_top_up_canister(manager: Manager, request: Request, target: Actor) -> Outcome:
    """Cycles from nowhere, as a local replica gives them, only while moxzid does not charge (cycles buy
    nothing then); when it charges only its admin adds cycles."""
    if manager.ledger is not None and manager.ledger.charging:
        return Outcome.reject(
            Reject.CANISTER_REJECT,
            "provisional_top_up_canister is refused: moxzid charges cycles, and only its admin adds them "
            f"(POST /cycles/{target.name})",
        )
    if manager.ledger is not None:  # a balance never passes MAX_BALANCE: the excess is lost, as on the IC
        manager.ledger.transfer(request.batch, target.name, request.argument["amount"])
    return Outcome(reply(request.method))


def canister_info(manager: Manager, request: Request, target: Actor) -> Outcome:
    """Any canister may read any canister's history; callers outside none, as on the IC."""
    if not isinstance(request.origin, FromActor):
        return Outcome.reject(Reject.CANISTER_REJECT, "canister_info can be called by canisters only")
    answer = info_record(target.canister, target.module, request.argument["num_requested_changes"])
    return Outcome(reply(request.method, answer))


def deposit_cycles(manager: Manager, request: Request, target: Actor) -> Outcome:
    """Anyone may give a canister cycles: those the calling actor attached."""
    if manager.ledger is not None:
        manager.ledger.transfer(request.batch, target.name, request.cycles)
    return Outcome(reply(request.method))


# --- decoding, on the host, for a method run on its target ----------------------------------------
async def as_is(manager: Manager, request: Request, target: Actor) -> Manage | Outcome:
    """A method whose argument names its target only."""
    return manager.room_for(request.origin, target.name, len(request.arg)) or request.message({})


async def new_settings(manager: Manager, request: Request, target: Actor) -> Manage | Outcome:
    full = manager.room_for(request.origin, target.name, len(request.arg))
    settings = settings_change(request.argument["settings"])
    return full or request.message({"settings": settings, "by": changed_by(manager, request)})


# --- on the target's thread -------------------------------------------------------------------
def canister_status(actor: Actor, call: Manage) -> Outcome:
    memory, stable = actor.memory_sizes()
    instance = actor.instance
    sections = instance.prepared.custom_sections if instance else {}
    custom = sum(len(name) + len(content) for name, content in sections.items() if name.startswith("icp:"))
    globals_bytes = sum(16 if kind == "v128" else 8 for kind in instance.global_types) if instance else 0
    code = (instance.prepared.size if instance else 0, globals_bytes)
    record = status_record(actor.canister, actor.module, (memory, stable, *code), custom, actor.turn.balance())
    return Outcome(reply("canister_status", record))


def update_settings(actor: Actor, call: Manage) -> Outcome:
    settings = dict(call.detail["settings"])
    controllers = settings.pop("controllers", None)
    if controllers is not None:
        actor.canister.controllers = controllers
    actor.canister.settings.update(settings)
    actor.canister.version += 1
    if controllers is not None:
        record_controllers_change(actor.canister, changer(call))
    actor.turn.effects.executed = True
    return Outcome(reply("update_settings"))


def changer(call: Manage) -> list:
    """Who made the change a management call makes (`history.change_origin`): as the host found, or for a call
    recorded before the host said, the caller as a user."""
    return call.detail.get("by") or ["user", call.caller]


def stop_canister(actor: Actor, call: Manage) -> Outcome | None:
    """Stopping: calls are refused from now on; the canister is stopped (and this call answered) once
    its open calls are done (``Actor`` stops it)."""
    if actor.canister.status == STOPPED:
        return Outcome(reply("stop_canister"))
    actor.canister.status = STOPPING
    actor.canister.stop_waiters.append(call.origin)
    return None


def start_canister(actor: Actor, call: Manage) -> Outcome:
    for origin in actor.canister.stop_waiters:  # as on the IC: a start cancels the stops waiting
        why = f"canister {actor.name} was started again before it stopped"
        actor.turn.answer(origin, Outcome.reject(Reject.CANISTER_ERROR, why))
    actor.canister.status, actor.canister.stop_waiters = RUNNING, []
    actor.turn.effects.executed = True
    return Outcome(reply("start_canister"))


def delete_canister(actor: Actor, call: Manage) -> Outcome:
    if actor.canister.status != STOPPED:
        return Outcome.reject(Reject.CANISTER_ERROR, f"canister {actor.name} must be stopped before it is deleted")
    if not actor.canister.created:
        return Outcome.reject(
            Reject.CANISTER_ERROR, f"actor {actor.name} is named in the manifest: remove it there instead"
        )
    actor.turn.effects.deleted = True
    return Outcome(reply("delete_canister"))
