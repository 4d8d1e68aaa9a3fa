"""Canister snapshots, as the IC's management canister keeps them: take_canister_snapshot copies what a
canister runs (its module, both memories, its globals and timer, its certified data), its chunk
store and its low wasm memory hook's status, load_canister_snapshot puts such a copy back (the canister's version moves on, and its history
records the load), list_canister_snapshots and delete_canister_snapshot. A canister holds at most
``MAX_SNAPSHOTS`` (the IC's 10); taking one more replaces the one ``replace_snapshot`` names. What
they hold (each its memories' sizes as taken, and its chunks) is at most what one copy of the canister's memories may
be (``--actor-memory-mb`` and ``--actor-stable-mb``), and counts in moxzid's total for all actors'
memory (``--total-memory-mb``, `memory_budget`): a snapshot past either is refused before it is copied,
as the IC refuses one for a canister or a subnet out of memory. A snapshot's id is the
canister's count of snapshots taken (8 bytes, big-endian) and then its principal, as on the IC. The
copies lie in the journal (`journal.Snapshot`), the list in the canister record, written together, so
both survive restarts and crashes; deleting the canister deletes them. Downloading and uploading them is
`snapshot_data`."""

from __future__ import annotations

import hashlib
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
    replaced = call.detail["snapshot_id"]
    if actor.instance is None or actor.module is None:
        return _refused(f"canister {actor.name} has no code to take a snapshot of")
    instance, canister = actor.instance, actor.canister
    size = instance.memory.size + instance.stable.kept_size + sum(canister.chunks.values())  # (before the copy)
    refused = room_for_snapshot(actor, call, replaced, size)
    if refused is not None:
        return refused
    memory, stable = bytes(instance.memory.image()), bytes(instance.stable.image())
    state = {**instance.state(), "global_types": instance.global_types, "low_memory_hook": canister.low_memory_hook}
    chunks = {digest: actor.services.snapshots.chunk(actor.name, digest) or b"" for digest in canister.chunks}
    copy = Snapshot(actor.module, state, canister.certified_data, memory, stable, chunks=chunks)
    snapshot_id = add_snapshot(actor, replaced, size, copy)
    if call.detail.get("uninstall"):  # (not in messages recorded before the option was served)
        uninstall(actor, call)
    return Outcome(reply("take_canister_snapshot", _record(snapshot_id, actor.canister.snapshots[snapshot_id])))


def room_for_snapshot(actor: Actor, call: Manage, replaced: bytes | None, size: int) -> Outcome | None:
    """None, counting it, if actor may have a new snapshot of ``size`` bytes, replacing the one
    ``replaced`` names (None: none); else the reject."""
    canister = actor.canister
    if replaced is not None and replaced not in canister.snapshots:
        return not_found(actor, replaced)
    if replaced is None and len(canister.snapshots) >= MAX_SNAPSHOTS:
        return _refused(
            f"canister {actor.name} has {MAX_SNAPSHOTS} snapshots, the most it may: delete one, or name one "
            "to replace (replace_snapshot)"
        )
    return past_budget(actor, call.op, size, canister.snapshot_bytes(leaving=replaced) + size)


def add_snapshot(actor: Actor, replaced: bytes | None, size: int, copy: Snapshot) -> bytes:
    """Keep ``copy`` (of ``size`` bytes, which `room_for_snapshot` counted) as the canister's newest
    snapshot, in the place of ``replaced``; its id."""
    canister = actor.canister
    snapshot_id = canister.snapshots_taken.to_bytes(8, "big") + actor.principal
    canister.snapshots_taken += 1
    if replaced is not None:
        del canister.snapshots[replaced]
        actor.turn.effects.snapshots[replaced] = None
    canister.snapshots[snapshot_id] = [time.time_ns(), size, canister.version]
    actor.turn.effects.snapshots[snapshot_id] = copy
    return snapshot_id


def load_canister_snapshot(actor: Actor, call: Manage) -> Outcome:
    snapshot_id = call.detail["snapshot_id"]
    about = actor.canister.snapshots.get(snapshot_id)
    if about is None:
        return not_found(actor, snapshot_id)
    services = actor.services
    snapshot = services.snapshots.snapshot_of(actor.name, snapshot_id)
    module, types = snapshot.module, snapshot.state.get("global_types")
    try:
        if module is None:  # an uploaded snapshot's own module: kept in the store once it loads
            module = hashlib.sha256(snapshot.wasm).digest()
            services.compile(module, snapshot.wasm, actor.name)
        new = services.instantiate(module, actor.name, stable=snapshot.stable)
        if types is not None and types != new.global_types:
            raise ValueError(f"the snapshot's globals are {types}, its module's {new.global_types}")
        new.restore(snapshot.state, snapshot.memory)
    except Exception as error:
        return _refused(f"load_canister_snapshot of {actor.name}: {error}")
    if snapshot.module is None:
        actor.turn.effects.modules.append(snapshot.wasm)
    if actor.instance is not None:  # the canister's clock goes on
        new.now = max(new.now, actor.instance.now)
    too_big = actor.turn.past_total(new)
    if too_big is not None:
        return _refused(f"load_canister_snapshot of {actor.name}: {too_big}")
    actor.adopt(new, module, snapshot.certified_data)
    actor.turn.effects.full = True
    actor.canister.chunks = {digest: len(chunk) for digest, chunk in snapshot.chunks.items()}  # (its chunk store too)
    actor.canister.low_memory_hook = snapshot.state.get("low_memory_hook") or actor.canister.low_memory_hook
    actor.turn.effects.chunks, actor.turn.effects.chunks_cleared = dict(snapshot.chunks), True
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
        return not_found(actor, snapshot_id)
    actor.services.memory_budget.keep_snapshots(actor.name, actor.canister.snapshot_bytes())  # (less: kept)
    actor.turn.effects.snapshots[snapshot_id] = None
    return Outcome(reply("delete_canister_snapshot"))


def past_budget(actor: Actor, method: str, size: int, kept: int) -> Outcome | None:
    """None, counting them, if actor's snapshots may hold ``kept`` bytes with a new one of ``size``:
    within what one copy of its memories may be (``--actor-memory-mb`` and ``--actor-stable-mb``) and
    within moxzid's total for all actors' memory; else the IC's reject for a canister, or a subnet, out of
    memory, naming the budget."""
    limits = actor.services.limits
    own = limits.memory_bytes + (limits.stable_memory_pages << 16)  # (64 KiB pages)
    if kept > own:
        return Outcome.reject(
            Reject.CANISTER_ERROR,
            f"{method} of {actor.name}: canister out of memory: its snapshots would hold "
            f"{kept >> 20} MiB with this one of {size >> 20} MiB (its heap and stable memory), more than one "
            f"copy of its memories may ({own >> 20} MiB: moxzid --actor-memory-mb and --actor-stable-mb); "
            "delete one, or name one to replace (replace_snapshot)",
        )
    budget = actor.services.memory_budget
    if not budget.keep_snapshots(actor.name, kept):
        return Outcome.reject(
            Reject.SYS_TRANSIENT,
            f"{method} of {actor.name}: moxzid's memory for all actors is spent: its snapshots "
            f"would hold {kept >> 20} MiB with this one of {size >> 20} MiB, and all actors' memories and "
            f"snapshots more than {budget.total_bytes >> 20} MiB (moxzid --total-memory-mb); nothing was taken",
        )
    return None


def _record(snapshot_id: bytes, about: list) -> dict:
    return {"id": snapshot_id, "taken_at_timestamp": about[0], "total_size": about[1]}


def not_found(actor: Actor, snapshot_id: bytes) -> Outcome:
    return _refused(f"canister {actor.name} has no snapshot {snapshot_id.hex()}")


def _refused(why: str) -> Outcome:
    return Outcome.reject(Reject.CANISTER_ERROR, why)
