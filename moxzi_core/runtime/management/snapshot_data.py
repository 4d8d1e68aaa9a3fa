"""Canister snapshots downloaded and uploaded, as the IC's management canister serves them (what icp-cli's
``canister snapshot download|upload`` calls): read_canister_snapshot_metadata and
read_canister_snapshot_data read a snapshot (taken or uploaded) a slice of at most ``MAX_SLICE`` bytes
at a time; upload_canister_snapshot_metadata makes a new snapshot of the sizes, globals, timer and
certified data it is given (counted against the canister's budgets as a snapshot taken of that size,
module included), optionally in the place of one, whose module and memories
upload_canister_snapshot_data then writes; load_canister_snapshot loads it as any other. Only
controllers call them, as on the IC. An uploaded snapshot's module and memories lie in the store in
the chunks memories do (`memory_image`), so an upload writes, and a read reads, only the chunks its
slice touches; each chunk of its chunk store uploaded (``wasm_chunk``) counts against the budgets as it
comes."""

from __future__ import annotations

import hashlib

from ...candid import Some
from ..actor import Actor
from ..canister import MAX_CHUNK_BYTES, MAX_CHUNKS
from ..engine import memory_image
from ..journal import SNAPSHOT_IMAGES, Snapshot
from ..messages import Manage, Outcome, Reject
from .interface import BadArgument, reply
from .request import Manager, Request
from .snapshots import add_snapshot, not_found, past_budget, room_for_snapshot

MAX_SLICE = 2_000_000  # bytes one read answers at most, as on the IC
MAX_MODULE_BYTES = MAX_CHUNKS * MAX_CHUNK_BYTES  # the largest module moxzid installs (from a chunk store)
_WASM_PAGE = 1 << 16
_VALUE_TYPES = ("i32", "i64", "f32", "f64", "v128")  # the globals a snapshot's metadata can say


# --- decoding, on the host ----------------------------------------------------------------------
async def snapshot_read(manager: Manager, request: Request, target: Actor) -> Manage | Outcome:
    """read_canister_snapshot_metadata and read_canister_snapshot_data: the snapshot, and the slice."""
    argument = request.argument
    detail: dict = {"snapshot_id": argument["snapshot_id"]}
    if "kind" in argument:
        ((kind, where),) = argument["kind"].items()
        detail.update(where, kind=kind)
    return manager.room_for(request.origin, target.name, len(request.arg)) or request.message(detail)


async def metadata_given(manager: Manager, request: Request, target: Actor) -> Manage | Outcome:
    """upload_canister_snapshot_metadata: what the new snapshot holds, its sizes checked against what
    one copy of the canister's memories may be and the largest module moxzid installs."""
    argument, limits = request.argument, target.services.limits
    sizes = {
        "module_size": (argument["wasm_module_size"], MAX_MODULE_BYTES),
        "memory_size": (argument["wasm_memory_size"], limits.memory_bytes),
        "stable_size": (argument["stable_memory_size"], limits.stable_memory_pages * _WASM_PAGE),
    }
    for name, (size, most) in sizes.items():
        if size > most:
            raise BadArgument(f"upload_canister_snapshot_metadata: {name} {size} is more than {most} bytes")
        if name != "module_size" and size % _WASM_PAGE:
            raise BadArgument(f"upload_canister_snapshot_metadata: {name} {size} is not whole 64 KiB pages")
    timer, hook = argument["global_timer"], argument["on_low_wasm_memory_hook_status"]
    globals_ = [next(iter(value.items())) for value in argument["globals"]]
    replaced = argument["replace_snapshot"]
    detail = {
        **{name: size for name, (size, _) in sizes.items()},
        "replace": replaced.value if isinstance(replaced, Some) else None,
        "global_types": [kind for kind, _ in globals_],
        "globals": [value for _, value in globals_],
        "timer": (timer.value.get("active") or 0) if isinstance(timer, Some) else 0,  # (0: inactive)
        "low_memory_hook": next(iter(hook.value)) if isinstance(hook, Some) else None,
        "certified_data": argument["certified_data"],
    }
    return manager.room_for(request.origin, target.name, len(request.arg)) or request.message(detail)


async def data_given(manager: Manager, request: Request, target: Actor) -> Manage | Outcome:
    """upload_canister_snapshot_data: where its chunk goes."""
    argument = request.argument
    ((kind, where),) = argument["kind"].items()
    detail = {"snapshot_id": argument["snapshot_id"], "kind": kind, **(where or {}), "chunk": argument["chunk"]}
    return manager.room_for(request.origin, target.name, len(request.arg)) or request.message(detail)


# --- on the target's thread -------------------------------------------------------------------
def read_canister_snapshot_metadata(actor: Actor, call: Manage) -> Outcome:
    snapshot_id = call.detail["snapshot_id"]
    about = actor.canister.snapshots.get(snapshot_id)
    if about is None:
        return not_found(actor, snapshot_id)
    meta = actor.services.snapshots.snapshot_meta(actor.name, snapshot_id)
    state, module = meta["state"], meta["module"]
    types = state.get("global_types")
    if types is None:  # (taken before snapshots kept their globals' types: its module's say them)
        types = actor.services.instantiate(module, actor.name).global_types
    timer = state["timer"]
    metadata = {
        "source": Some({"metadata_upload" if module is None else "taken_from_canister": None}),
        "taken_at_timestamp": about[0],
        "wasm_module_size": _size(actor, meta, "wasm_module"),
        "globals": [
            Some({kind: value}) if kind in _VALUE_TYPES else None for kind, value in zip(types, state["globals"])
        ],
        "wasm_memory_size": state["memory_size"],
        "stable_memory_size": state["stable_size"],
        "wasm_chunk_store": [
            {"hash": digest} for digest in actor.services.snapshots.snapshot_wasm_chunks(actor.name, snapshot_id)
        ],
        "canister_version": about[2],
        "certified_data": meta["certified_data"],
        "global_timer": Some({"active": timer} if timer else {"inactive": None}),
        # (null: a snapshot taken before they kept it, or uploaded without it)
        "on_low_wasm_memory_hook_status": Some({hook: None}) if (hook := state.get("low_memory_hook")) else None,
    }
    return Outcome(reply("read_canister_snapshot_metadata", metadata))


def read_canister_snapshot_data(actor: Actor, call: Manage) -> Outcome:
    detail = call.detail
    snapshot_id, kind = detail["snapshot_id"], detail["kind"]
    if snapshot_id not in actor.canister.snapshots:
        return not_found(actor, snapshot_id)
    snapshots = actor.services.snapshots
    if kind == "wasm_chunk":
        stored = snapshots.snapshot_wasm_chunk(actor.name, snapshot_id, detail["hash"])
        if stored is None:
            return _invalid(f"Error from Wasm chunk store: the snapshot holds no chunk {detail['hash'].hex()}.")
        return Outcome(reply("read_canister_snapshot_data", {"chunk": stored}))
    offset, size = detail["offset"], detail["size"]
    if size > MAX_SLICE:
        return _invalid(f"Requested slice too large: {size} > {MAX_SLICE}")
    meta = snapshots.snapshot_meta(actor.name, snapshot_id)
    if offset + size > _size(actor, meta, kind):
        return _invalid_slice(offset, size)
    if kind == "wasm_module" and meta["module"] is not None:  # (a taken snapshot's module lies in the store)
        chunk = snapshots.module(meta["module"])[offset : offset + size]
    else:
        first, last = offset // memory_image.CHUNK, (offset + size - 1) // memory_image.CHUNK
        image = SNAPSHOT_IMAGES[kind]
        data = b"".join(snapshots.snapshot_chunk(actor.name, snapshot_id, image, n) for n in range(first, last + 1))
        at = offset - first * memory_image.CHUNK
        chunk = data[at : at + size]
    return Outcome(reply("read_canister_snapshot_data", {"chunk": chunk}))


def upload_canister_snapshot_metadata(actor: Actor, call: Manage) -> Outcome:
    detail = call.detail
    size = detail["module_size"] + detail["memory_size"] + detail["stable_size"]
    refused = room_for_snapshot(actor, call, detail["replace"], size)
    if refused is not None:
        return refused
    names = ("memory_size", "stable_size", "module_size", "globals", "global_types", "timer", "low_memory_hook")
    state = {name: detail[name] for name in names}
    state["now"] = 0  # (the canister's clock goes on when it loads)
    snapshot = Snapshot(None, state, detail["certified_data"], b"", b"")
    snapshot_id = add_snapshot(actor, detail["replace"], size, snapshot)
    return Outcome(reply("upload_canister_snapshot_metadata", {"snapshot_id": snapshot_id}))


def upload_canister_snapshot_data(actor: Actor, call: Manage) -> Outcome:
    detail = call.detail
    snapshot_id, kind, chunk = detail["snapshot_id"], detail["kind"], detail["chunk"]
    if snapshot_id not in actor.canister.snapshots:
        return not_found(actor, snapshot_id)
    snapshots = actor.services.snapshots
    meta = snapshots.snapshot_meta(actor.name, snapshot_id)
    if meta["module"] is not None:
        return _invalid("Only canister snapshots created by metadata upload can be mutated.")
    if kind == "wasm_chunk":
        return _chunk_uploaded(actor, call, snapshot_id, chunk)
    offset, end = detail["offset"], detail["offset"] + len(chunk)
    if end > _size(actor, meta, kind):
        return _invalid_slice(offset, len(chunk))
    image, values = SNAPSHOT_IMAGES[kind], actor.turn.effects.snapshot_parts.setdefault(snapshot_id, {})
    for number in range(offset // memory_image.CHUNK, -(-end // memory_image.CHUNK)):
        start = number * memory_image.CHUNK
        low, high = max(offset, start), min(end, start + memory_image.CHUNK)
        if (low, high) == (start, start + memory_image.CHUNK):
            content = chunk[low - offset : high - offset]
        else:  # (a chunk the slice covers in part: the rest of it as uploaded before)
            content = bytearray(snapshots.snapshot_chunk(actor.name, snapshot_id, image, number))
            content[low - start : high - start] = chunk[low - offset : high - offset]
        values[image + b"/" + memory_image.chunk_name(number)] = memory_image.pack(content, number, b"")
    return Outcome(reply("upload_canister_snapshot_data"))


def _size(actor: Actor, meta: dict, kind: str) -> int:
    """The size of image ``kind`` of the snapshot ``meta`` describes."""
    state = meta["state"]
    if kind == "wasm_module":
        module = meta["module"]
        return state["module_size"] if module is None else len(actor.services.snapshots.module(module))
    return state["memory_size" if kind == "wasm_memory" else "stable_size"]


def _chunk_uploaded(actor: Actor, call: Manage, snapshot_id: bytes, chunk: bytes) -> Outcome:
    """A chunk for the chunk store of uploaded snapshot ``snapshot_id``: at most ``MAX_CHUNKS`` of at
    most ``MAX_CHUNK_BYTES``, as a canister's chunk store holds, each counted as the snapshot grows."""
    if len(chunk) > MAX_CHUNK_BYTES:
        return _invalid(f"Error from Wasm chunk store: a chunk is at most {MAX_CHUNK_BYTES} bytes, got {len(chunk)}.")
    digest = hashlib.sha256(chunk).digest()
    held = actor.services.snapshots.snapshot_wasm_chunks(actor.name, snapshot_id)
    if digest not in held:
        if len(held) >= MAX_CHUNKS:
            return _invalid(f"Error from Wasm chunk store: the snapshot's chunk store is full ({MAX_CHUNKS} chunks).")
        canister = actor.canister
        full = past_budget(actor, call.op, len(chunk), canister.snapshot_bytes() + len(chunk))
        if full is not None:
            return full
        canister.snapshots[snapshot_id][1] += len(chunk)
        actor.turn.effects.snapshot_parts.setdefault(snapshot_id, {})[b"chunk/" + digest] = chunk
    return Outcome(reply("upload_canister_snapshot_data"))


def _invalid_slice(offset: int, size: int) -> Outcome:
    return _invalid(f"Invalid subslice into wasm module / main memory / stable memory: offset: {offset}, size: {size}")


def _invalid(why: str) -> Outcome:
    return Outcome.reject(Reject.CANISTER_ERROR, why)
