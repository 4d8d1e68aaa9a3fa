"""The management canister (``aaaaa-aa``): ``METHODS``, one row per method moxzid implements, saying
where it runs, what it does with its argument, who may call it and whether it keeps the cycles a call
attaches. A new method is one row here and one function (in ``canisters.py``, ``code.py``,
``snapshots.py``, ``snapshot_data.py``, ``logs.py``, ``threshold.py`` or ``outcalls.py``).

Where a method runs: on the host's event loop (raw_rand, the creations, deposit_cycles,
provisional_top_up_canister, canister_info, the threshold keys' methods), answered at once, or once
what it awaits is done (http_request); or, acting on one canister, on that canister's actor (``on_target``): the host decodes the
argument into a ``Manage`` message (``decode``: a module put together and compiled, settings checked)
and delivers it to the actor's inbox, whose thread checks that the caller may call it and does the work
in order with the actor's other messages (so a status sees the state the actor's messages left, and an
install never runs beside one of them). Actors call these methods through ``ic0.call_*`` like any
other; an outside caller through ``Host.call(MANAGEMENT_NAME, method, arg, caller=...)``. A ``query``
method (fetch_canister_logs) is answered only to a query from outside, at once (`query`), as on the IC:
a call to it, from outside or from an actor, is refused.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from ...store import Batch
from ..actor import Actor
from ..canister import Canister
from ..messages import FromActor, Manage, Origin, Outcome, Reject
from . import canisters, code, logs, outcalls, snapshot_data, snapshots, threshold
from .interface import BadArgument, arguments
from .request import Manager, Request


@dataclass(frozen=True)
class Method:
    """One management method. ``function`` runs it: on the host, ``(manager, request, target)`` ->
    Outcome, or an awaitable of one (``target`` None for a method acting on no canister); on the target,
    ``(actor, call)`` -> Outcome, or None when the answer comes later; a query, ``(target, argument)`` ->
    Outcome."""

    function: Callable[..., Any]
    on_target: bool = False  # delivered to the target canister's actor, run on its thread
    # For a method on the target: its Manage message, or the reject (async: it may compile a module).
    decode: Callable[[Manager, Request, Actor], Awaitable[Manage | Outcome]] | None = None
    target: str | None = "canister_id"  # the argument's field naming the canister it acts on
    # Keeps the cycles a call attaches, less what its reply refunds (the signing methods keep their fee);
    # every other method gives them back.
    takes_cycles: bool = False
    # Takes its fee from the cycles a call attaches and says itself what goes back (Outcome.refund).
    charges: bool = False
    may_call: Callable[[Canister, bytes], bool] = Canister.is_controller  # checked on the target's thread
    query: bool = False  # answered to a query from outside only, on the host (its may_call checked there)


METHODS: Mapping[str, Method] = {
    "raw_rand": Method(canisters.raw_rand, target=None),
    "create_canister": Method(canisters.create_canister, target=None, takes_cycles=True),
    "provisional_create_canister_with_cycles": Method(canisters.create_canister, target=None, takes_cycles=True),
    "deposit_cycles": Method(canisters.deposit_cycles, takes_cycles=True),
    "provisional_top_up_canister": Method(canisters.provisional_top_up_canister),
    "canister_info": Method(canisters.canister_info),
    "canister_status": Method(
        canisters.canister_status, on_target=True, decode=canisters.as_is, may_call=Canister.may_see_status
    ),
    "update_settings": Method(canisters.update_settings, on_target=True, decode=canisters.new_settings),
    "stop_canister": Method(canisters.stop_canister, on_target=True, decode=canisters.as_is),
    "start_canister": Method(canisters.start_canister, on_target=True, decode=canisters.as_is),
    "delete_canister": Method(canisters.delete_canister, on_target=True, decode=canisters.as_is),
    "install_code": Method(code.install_code, on_target=True, decode=code.module_given),
    "install_chunked_code": Method(
        code.install_code, on_target=True, decode=code.module_from_chunks, target="target_canister"
    ),
    "uninstall_code": Method(code.uninstall_code, on_target=True, decode=code.uninstall_given),
    "upload_chunk": Method(code.upload_chunk, on_target=True, decode=code.chunk_given),
    "clear_chunk_store": Method(code.clear_chunk_store, on_target=True, decode=canisters.as_is),
    "stored_chunks": Method(code.stored_chunks, on_target=True, decode=canisters.as_is),
    "take_canister_snapshot": Method(snapshots.take_canister_snapshot, on_target=True, decode=snapshots.snapshot_named),
    "load_canister_snapshot": Method(snapshots.load_canister_snapshot, on_target=True, decode=snapshots.snapshot_named),
    "list_canister_snapshots": Method(
        snapshots.list_canister_snapshots,
        on_target=True,
        decode=snapshots.snapshot_named,
        may_call=Canister.may_see_snapshots,
    ),
    "delete_canister_snapshot": Method(
        snapshots.delete_canister_snapshot, on_target=True, decode=snapshots.snapshot_named
    ),
    "read_canister_snapshot_metadata": Method(
        snapshot_data.read_canister_snapshot_metadata, on_target=True, decode=snapshot_data.snapshot_read
    ),
    "read_canister_snapshot_data": Method(
        snapshot_data.read_canister_snapshot_data, on_target=True, decode=snapshot_data.snapshot_read
    ),
    "upload_canister_snapshot_metadata": Method(
        snapshot_data.upload_canister_snapshot_metadata, on_target=True, decode=snapshot_data.metadata_given
    ),
    "upload_canister_snapshot_data": Method(
        snapshot_data.upload_canister_snapshot_data, on_target=True, decode=snapshot_data.data_given
    ),
    "fetch_canister_logs": Method(logs.fetch_canister_logs, query=True, may_call=Canister.may_see_logs),
    "ecdsa_public_key": Method(threshold.ecdsa_public_key, target=None),
    "sign_with_ecdsa": Method(threshold.sign_with_ecdsa, target=None, takes_cycles=True),
    "schnorr_public_key": Method(threshold.schnorr_public_key, target=None),
    "sign_with_schnorr": Method(threshold.sign_with_schnorr, target=None, takes_cycles=True),
    "http_request": Method(outcalls.http_request, target=None, charges=True),
}


async def take(manager: Manager, caller: bytes, origin: Origin, method: str, arg: bytes, batch: Batch):
    """A call to management method ``method`` from ``caller``, answered to ``origin``: its Outcome
    (its effects in ``batch``), or the target actor and the Manage message to deliver to it in
    ``batch``. The cycles an actor's ``origin`` carries go back with the answer unless the method takes
    them (then the Outcome's origin drops them: see ``answer_to``)."""
    row = METHODS[method]
    cycles = origin.cycles if isinstance(origin, FromActor) else 0
    if row.query:
        return Outcome.reject(
            Reject.CANISTER_REJECT,
            f"{method} is answered only to a query from outside (non-replicated), as on the IC: "
            "canisters and update calls cannot call it",
        )
    try:
        values = arguments(method, arg)
        request = Request(method, caller, origin, arg, values[0] if values else {}, batch, cycles)
        target = None
        if row.target is not None:
            canister_id = request.argument[row.target]
            target = manager.actor_with(canister_id.bytes)
            if target is None:
                return Outcome.reject(Reject.DESTINATION_INVALID, f"canister {canister_id} not found")
        if row.on_target:
            assert row.decode is not None and target is not None, f"{method} runs on its target"
            message = await row.decode(manager, request, target)
            return message if isinstance(message, Outcome) else (target, message)
        outcome = row.function(manager, request, target)
        return await outcome if inspect.isawaitable(outcome) else outcome
    except BadArgument as error:  # (a method that charges gives back what was attached: it did nothing)
        return Outcome.reject(Reject.CANISTER_ERROR, str(error), cycles if row.charges else 0)
    except canisters.CreationRefused as error:
        return Outcome.reject(Reject.SYS_TRANSIENT, str(error))


def query(manager: Manager, caller: bytes, method: str, arg: bytes) -> Outcome:
    """The answer to a query from ``caller`` of ``method``, a ``query`` row: at once, on the host."""
    row = METHODS[method]
    try:
        (argument,) = arguments(method, arg)
    except BadArgument as error:
        return Outcome.reject(Reject.CANISTER_ERROR, str(error))
    canister_id = argument[row.target]
    target = manager.actor_with(canister_id.bytes)
    if target is None:
        return Outcome.reject(Reject.DESTINATION_INVALID, f"canister {canister_id} not found")
    if not row.may_call(target.canister, caller):
        return Outcome.reject(
            Reject.CANISTER_REJECT, f"{method}: canister {target.name}'s settings do not let this caller see it"
        )
    return row.function(target, argument)


def answer_to(origin: Origin, method: str, outcome: Outcome) -> Origin:
    """Where ``method``'s ``outcome`` goes: ``origin``, less the cycles it carries if the method took
    them (a reply of a method that keeps them: nothing goes back) or says what goes back (one that
    charges: the outcome's refund)."""
    row = METHODS[method]
    if isinstance(origin, FromActor) and (row.charges or row.takes_cycles and outcome.reply is not None):
        return replace(origin, cycles=0)
    return origin


def on_target(actor: Actor, call: Manage) -> Outcome | None:
    """Run a management call on the actor it acts on (its thread), if its caller may call it."""
    row = METHODS[call.op]
    if not row.may_call(actor.canister, call.caller):
        return Outcome.reject(
            Reject.CANISTER_ERROR, f"only the controllers of canister {actor.name} may call {call.op}"
        )
    return row.function(actor, call)
