"""The management methods about a canister's code: install_code (and install_chunked_code, the module
put together from a chunk store), uninstall_code, and the chunk store's own methods. The host puts a module together and
compiles it before the install is delivered (so a refused upload costs nothing); the target's thread
installs it in order with the actor's other messages."""

from __future__ import annotations

import asyncio
import hashlib

from ..actor import Actor
from ..canister import MAX_CHUNK_BYTES, MAX_CHUNKS
from ..engine import UnsupportedModule
from ..installs import CodeRefused
from ..journal import Journal
from ..messages import Manage, Outcome, Reject
from .canisters import changed_by, changer
from .history import record_deployment, record_uninstall
from .interface import BadArgument, reply
from .request import Manager, Request


# --- decoding, on the host ----------------------------------------------------------------------
async def module_given(manager: Manager, request: Request, target: Actor) -> Manage | Outcome:
    """install_code: its module is within its argument (counted already)."""
    refused = _not_controller(request, target)
    if refused is not None:
        return refused
    return await _compiled(manager, request, target, request.argument["wasm_module"], len(request.arg))


async def module_from_chunks(manager: Manager, request: Request, target: Actor) -> Manage | Outcome:
    """install_chunked_code: the module its chunks make, which the target's inbox holds beside the
    argument."""
    refused = _not_controller(request, target)
    if refused is not None:
        return refused
    wasm = await asyncio.to_thread(_chunked_module, manager, request)
    if isinstance(wasm, Outcome):
        return wasm
    return await _compiled(manager, request, target, wasm, len(request.arg) + len(wasm))


def _not_controller(request: Request, target: Actor) -> Outcome | None:
    """The cheap checks come before compiling, so that a refused upload costs nothing: the caller's
    right here (the target's thread checks it again, as it may change meanwhile), the inbox's room in
    `_compiled` (and the host's again as the call is recorded)."""
    if target.canister.is_controller(request.caller):
        return None
    return Outcome.reject(
        Reject.CANISTER_ERROR, f"only the controllers of canister {target.name} may call {request.method}"
    )


async def _compiled(manager: Manager, request: Request, target: Actor, wasm: bytes, size: int) -> Manage | Outcome:
    """The install of ``wasm`` (``size`` bytes from outside with the argument), compiled, its module
    added to the batch; or the reject."""
    full = manager.room_for(request.origin, target.name, size)
    if full is not None:
        return full
    module = hashlib.sha256(wasm).digest()
    try:
        await asyncio.to_thread(manager.compile, module, wasm, target.name)
    except UnsupportedModule as error:
        return Outcome.reject(Reject.CANISTER_ERROR, f"{request.method}: {error}")
    Journal.add_module(request.batch, wasm)
    ((mode, options),) = request.argument["mode"].items()
    persistence = None
    if options is not None and options.value["wasm_memory_persistence"] is not None:
        ((persistence, _),) = options.value["wasm_memory_persistence"].value.items()
    by = changed_by(manager, request)
    return request.message(
        {"mode": mode, "module": module, "arg": request.argument["arg"], "persistence": persistence, "by": by}, size
    )


def _chunked_module(manager: Manager, request: Request) -> bytes | Outcome:
    """The module install_chunked_code names: its chunks, in order, from the store canister's chunk
    store (the target's when not given), whose sha256 must be ``wasm_module_hash``; or the reject.
    Called for the target's controllers only, so only they learn anything of the chunks; a store
    canister that is another actor must be controlled by the caller too (or be the caller), as on the
    IC."""
    argument = request.argument
    hashes = [entry["hash"] for entry in argument["chunk_hashes_list"]]
    if not hashes or len(hashes) > MAX_CHUNKS:
        raise BadArgument(f"install_chunked_code: chunk_hashes_list names 1 to {MAX_CHUNKS} chunks, got {len(hashes)}")
    holder_id = argument["store_canister"].value if argument["store_canister"] else argument["target_canister"]
    holder = manager.actor_with(holder_id.bytes)
    if holder is None:
        return Outcome.reject(Reject.DESTINATION_INVALID, f"install_chunked_code: store canister {holder_id} not found")
    if holder_id.bytes != argument["target_canister"].bytes and not (
        request.caller == holder.principal or holder.canister.is_controller(request.caller)
    ):
        return Outcome.reject(
            Reject.CANISTER_ERROR,
            f"install_chunked_code: only the controllers of store canister {holder.name} may use its chunks",
        )
    chunks = []
    for digest in hashes:
        chunk = manager.chunk(holder.name, digest)
        if chunk is None:
            return Outcome.reject(
                Reject.CANISTER_ERROR,
                f"install_chunked_code: chunk {digest.hex()} is not in the chunk store of {holder.name}",
            )
        chunks.append(chunk)
    wasm = b"".join(chunks)
    if hashlib.sha256(wasm).digest() != argument["wasm_module_hash"]:
        return Outcome.reject(
            Reject.CANISTER_ERROR,
            f"install_chunked_code: the chunks put together have sha256 {hashlib.sha256(wasm).hexdigest()}, "
            f"not wasm_module_hash {argument['wasm_module_hash'].hex()}",
        )
    return wasm


async def uninstall_given(manager: Manager, request: Request, target: Actor) -> Manage | Outcome:
    """uninstall_code: who makes the change, for the canister's history."""
    return manager.room_for(request.origin, target.name, len(request.arg)) or request.message(
        {"by": changed_by(manager, request)}
    )


async def chunk_given(manager: Manager, request: Request, target: Actor) -> Manage | Outcome:
    full = manager.room_for(request.origin, target.name, len(request.arg))
    if full is not None:
        return full
    chunk = request.argument["chunk"]
    if len(chunk) > MAX_CHUNK_BYTES:
        raise BadArgument(f"upload_chunk: a chunk is at most {MAX_CHUNK_BYTES} bytes, got {len(chunk)}")
    return request.message({"chunk": chunk})


# --- on the target's thread -------------------------------------------------------------------
def install_code(actor: Actor, call: Manage) -> Outcome:
    """install_code, and install_chunked_code once the host put its module together."""
    mode, module, arg = call.detail["mode"], call.detail["module"], call.detail["arg"]
    try:
        if mode == "install" and actor.instance is not None:
            raise CodeRefused(f"canister {actor.name} already has code: install with mode reinstall or upgrade")
        if mode != "install" and actor.instance is None:
            raise CodeRefused(f"canister {actor.name} has no code to {mode}")
        persistence = call.detail["persistence"]
        actor.replace_code(module, arg, call.caller, keep_state=mode == "upgrade", persistence=persistence)
    except CodeRefused as refusal:
        return Outcome.reject(Reject.CANISTER_ERROR, f"install_code ({mode}) of {actor.name}: {refusal}")
    record_deployment(actor.canister, changer(call), mode, module)
    return Outcome(reply("install_code"))


def uninstall_code(actor: Actor, call: Manage) -> Outcome:
    uninstall(actor, call)
    return Outcome(reply("uninstall_code"))


def uninstall(actor: Actor, call: Manage) -> None:
    """As on the IC (uninstall_code, a snapshot taken with ``uninstall_code``): the code and its memories
    go, and with them the certified data and the timer; every call the canister has not answered is
    rejected, and a response to a call it made is dropped when it comes. Its controllers, settings,
    cycles, status, chunk store, snapshots and history stay."""
    for origin, cycles in actor.drop_calls():
        actor.turn.answer(origin, Outcome.reject(Reject.CANISTER_REJECT, "Canister has been uninstalled", cycles))
    with actor.replicas.committing:
        actor.instance = actor.module = None
        actor.replicas.replace(None)
        actor.canister.certified_data = b""
    actor.services.memory_budget.admit(actor.name, 0)  # its memories' share of the total is free (not its snapshots')
    actor.canister.version += 1
    record_uninstall(actor.canister, changer(call))
    actor.turn.effects.full = True


def upload_chunk(actor: Actor, call: Manage) -> Outcome:
    chunk = call.detail["chunk"]
    digest = hashlib.sha256(chunk).digest()
    if digest not in actor.canister.chunks:
        if len(actor.canister.chunks) >= MAX_CHUNKS:
            return Outcome.reject(
                Reject.CANISTER_ERROR,
                f"the chunk store of canister {actor.name} is full ({MAX_CHUNKS} chunks): call clear_chunk_store first",
            )
        actor.canister.chunks[digest] = len(chunk)
        actor.turn.effects.chunks[digest] = chunk
    return Outcome(reply("upload_chunk", {"hash": digest}))


def clear_chunk_store(actor: Actor, call: Manage) -> Outcome:
    actor.canister.chunks = {}
    actor.turn.effects.chunks, actor.turn.effects.chunks_cleared = {}, True
    return Outcome(reply("clear_chunk_store"))


def stored_chunks(actor: Actor, call: Manage) -> Outcome:
    return Outcome(reply("stored_chunks", [{"hash": digest} for digest in actor.canister.chunks]))
