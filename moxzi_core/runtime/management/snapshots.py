"""Canister snapshots, as the IC's management canister keeps them: take_canister_snapshot copies what a
canister runs (its module, both memories, its globals and timer, its certified data),
load_canister_snapshot puts such a copy back (the canister's version moves on, and its history records
the load), list_canister_snapshots and delete_canister_snapshot. A canister holds at most
``MAX_SNAPSHOTS`` (the IC's 10); taking one more replaces the one ``replace_snapshot`` names. What
they hold (each its memories' sizes as taken) is at most what one copy of the canister's memories may
be (``--actor-memory-mb`` and ``--actor-stable-mb``), and counts in moxzid's total for all actors'
memory (``--total-memory-mb``, `memory_budget`): a snapshot past either is refused before it is copied,
as the IC refuses one for a canister or a subnet out of memory. A snapshot's id is the
canister's count of snapshots taken (8 bytes, big-endian) and then its principal, as on the IC. The
copies lie in the journal (`journal.Snapshot`), the list in the canister record, written together, so
both survive restarts and crashes; deleting the canister deletes them."""

from __future__ import annotations

import time

from ...candid import Some
from ..actor import Actor
from ..journal import Snapshot
from ..messages import Manage, Outcome, Reject
from .canisters import changed_by, changer
from .code import uninstall
from .history import record_snapshot_load
from .interface import reply
from .request import Manager, Request

MAX_SNAPSHOTS = 10  # a canister's snapshots at most, as on the IC


# --- decoding, on the host ----------------------------------------------------------------------
async def snapshot_named(manager: Manager, request: Request, target: Actor) -> Manage | Outcome:
    """A snapshot method's call: the snapshot it names (None: none), who makes the change."""
    argument = request.argument
    named = argument.get("snapshot_id", argument.get("replace_snapshot"))
    named = named.value if isinstance(named, Some) else named
    uninstall = argument.get("uninstall_code") in (True, Some(True))  # take_canister_snapshot's option
    full = manager.room_for(request.origin, target.name, len(request.arg))
    return full or request.message({"snapshot_id": named, "by": changed_by(manager, request), "uninstall": uninstall})


# --- on the target's thread -------------------------------------------------------------------
def take_canister_snapshot(actor: Actor, call: Manage) -> Outcome:
    canister, replaced = actor.canister, call.detail["snapshot_id"]
    if actor.instance is None or actor.module is None:
        return _refused(f"canister {actor.name} has no code to take a snapshot of")
    if replaced is not None and replaced not in canister.snapshots:
        return _not_found(actor, replaced)
    if replaced is None and len(canister.snapshots) >= MAX_SNAPSHOTS:
        return _refused(
            f"canister {actor.name} has {MAX_SNAPSHOTS} snapshots, the most it may: delete one, or name one "
            "to replace (replace_snapshot)"
        )
    instance = actor.instance
    size = instance.memory.size + instance.stable.kept_size  # (before its copy is made)
    full = _past_budget(actor, size, canister.snapshot_bytes(leaving=replaced) + size)
    if full is not None:
        return full
    memory, stable = bytes(instance.memory.image()), bytes(instance.stable.image())
    snapshot_id = canister.snapshots_taken.to_bytes(8, "big") + actor.principal
    canister.snapshots_taken += 1
    if replaced is not None:
        del canister.snapshots[replaced]
        actor.turn.effects.snapshots[replaced] = None
    taken_at = time.time_ns()
    canister.snapshots[snapshot_id] = [taken_at, size, canister.version]
    copy = Snapshot(actor.module, instance.state(), canister.certified_data, memory, stable)
    actor.turn.effects.snapshots[snapshot_id] = copy
    if call.detail.get("uninstall"):  # (not in messages recorded before the option was served)
        uninstall(actor, call)
    return Outcome(reply("take_canister_snapshot", _record(snapshot_id, canister.snapshots[snapshot_id])))


def load_canister_snapshot(actor: Actor, call: Manage) -> Outcome:
    snapshot_id = call.detail["snapshot_id"]
    about = actor.canister.snapshots.get(snapshot_id)
    if about is None:
        return _not_found(actor, snapshot_id)
    services = actor.services
    snapshot = services.snapshot_of(actor.name, snapshot_id)
    try:
        new = services.instantiate(snapshot.module, actor.name, stable=snapshot.stable)
    except Exception as error:
        return _refused(f"load_canister_snapshot of {actor.name}: {error}")
    new.restore(snapshot.state, snapshot.memory)
    if actor.instance is not None:  # the canister's clock goes on
        new.now = max(new.now, actor.instance.now)
    too_big = actor.turn.past_total(new)
    if too_big is not None:
        return _refused(f"load_canister_snapshot of {actor.name}: {too_big}")
    actor.adopt(new, snapshot.module, snapshot.certified_data)
    actor.turn.effects.full = True
    actor.canister.version += 1
    taken_at, _, version = about
    record_snapshot_load(actor.canister, changer(call), version, snapshot_id, taken_at)
    return Outcome(reply("load_canister_snapshot"))


def list_canister_snapshots(actor: Actor, call: Manage) -> Outcome:
    listed = [_record(snapshot_id, about) for snapshot_id, about in actor.canister.snapshots.items()]
    return Outcome(reply("list_canister_snapshots", listed))


def delete_canister_snapshot(actor: Actor, call: Manage) -> Outcome:
    snapshot_id = call.detail["snapshot_id"]
    about = actor.canister.snapshots.pop(snapshot_id, None)
    if about is None:
        return _not_found(actor, snapshot_id)
    actor.services.memory_budget.keep_snapshots(actor.name, actor.canister.snapshot_bytes())  # (less: kept)
    actor.turn.effects.snapshots[snapshot_id] = None
    return Outcome(reply("delete_canister_snapshot"))


def _past_budget(actor: Actor, size: int, kept: int) -> Outcome | None:
    """None, counting them, if actor's snapshots may hold ``kept`` bytes with a new one of ``size``:
    within what one copy of its memories may be (``--actor-memory-mb`` and ``--actor-stable-mb``) and
    within moxzid's total for all actors' memory; else the IC's reject for a canister, or a subnet, out of
    memory, naming the budget."""
    limits = actor.services.limits
    own = limits.memory_bytes + (limits.stable_memory_pages << 16)  # (64 KiB pages)
    if kept > own:
        return Outcome.reject(
            Reject.CANISTER_ERROR,
            f"take_canister_snapshot of {actor.name}: canister out of memory: its snapshots would hold "
            f"{kept >> 20} MiB with this one of {size >> 20} MiB (its heap and stable memory), more than one "
            f"copy of its memories may ({own >> 20} MiB: moxzid --actor-memory-mb and --actor-stable-mb); "
            "delete one, or name one to replace (replace_snapshot)",
        )
    budget = actor.services.memory_budget
    if not budget.keep_snapshots(actor.name, kept):
        return Outcome.reject(
            Reject.SYS_TRANSIENT,
            f"take_canister_snapshot of {actor.name}: moxzid's memory for all actors is spent: its snapshots "
            f"would hold {kept >> 20} MiB with this one of {size >> 20} MiB, and all actors' memories and "
            f"snapshots more than {budget.total_bytes >> 20} MiB (moxzid --total-memory-mb); nothing was taken",
        )
    return None


def _record(snapshot_id: bytes, about: list) -> dict:
    return {"id": snapshot_id, "taken_at_timestamp": about[0], "total_size": about[1]}


def _not_found(actor: Actor, snapshot_id: bytes) -> Outcome:
    return _refused(f"canister {actor.name} has no snapshot {snapshot_id.hex()}")


def _refused(why: str) -> Outcome:
    return Outcome.reject(Reject.CANISTER_ERROR, why)
