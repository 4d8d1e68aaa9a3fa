"""The management canister (aaaaa-aa) with real compiled Motoko actors, in both persistence modes:
actor classes (`await Kid(n)`: create_canister + install_code), controllers and ic0.is_controller,
raw_rand, canister_status, update_settings, stop/start/delete, upgrades and reinstalls through
install_code, uninstall_code, and the same methods called from outside with the caller's own principal."""

import asyncio
import gc
import re
import weakref
from pathlib import Path

import cbor2
import pytest
from kit.actorbuild import build_actor
from kit.host import NO_ARGS

from moxzi_core import errors
from moxzi_core.candid import BLOB, BOOL, NAT, NAT64, PRINCIPAL, TEXT, Principal, Some, Vec, decode_args, encode_args
from moxzi_core.candid.did import parse_did
from moxzi_core.candid.types import resolve
from moxzi_core.runtime.canister import MAX_CHUNK_BYTES, MAX_CHUNKS, MAX_HISTORY, Canister
from moxzi_core.runtime.engine import Instance
from moxzi_core.runtime.host import ActorSpec, Host, HostConfig, actor_principal
from moxzi_core.runtime.management import METHODS
from moxzi_core.runtime.management.history import (
    change_origin,
    info_record,
    record_controllers_change,
    record_creation,
    record_deployment,
)
from moxzi_core.runtime.management.interface import MANAGEMENT_NAME, SERVICE, BadArgument, arguments
from moxzi_core.runtime.messages import Reject
from moxzi_core.store import MemoryStore

ALICE = Principal.from_text("2vxsx-fae").bytes  # any principal outside: here the anonymous one's bytes
OPERATOR = bytes(range(1, 30))  # a self-authenticating-sized principal, as a signed request has


def factory(classic: bool, controllers=(OPERATOR,)) -> ActorSpec:
    built = build_actor("factory", classic=classic)
    return ActorSpec("factory", built.wasm, built.did, controllers=tuple(controllers))


async def started(*specs, store=None, seed=None, **options) -> Host:
    host = Host(list(specs), HostConfig(seed=seed, **options), store=store or MemoryStore())
    await host.start()
    return host


async def update(host, actor, method, types=(), values=(), rets=(NAT,), caller=None):
    kwargs = {} if caller is None else {"caller": caller}
    outcome = await host.call(actor, method, encode_args(list(types), list(values)), query=False, **kwargs)
    assert outcome.reply is not None, outcome.reject_message
    return decode_args(outcome.reply, list(rets))


async def manage(host, method, argument, caller=OPERATOR):
    """Call the management canister from outside as ``caller``: (reply values or None, the outcome)."""
    types = SERVICE.methods[method]
    outcome = await host.call(
        MANAGEMENT_NAME, method, encode_args(list(types.args), [argument]), query=False, caller=caller
    )
    values = decode_args(outcome.reply, list(types.rets)) if outcome.reply is not None else None
    return values, outcome


@pytest.fixture(params=[False, True], ids=["enhanced", "classic"])
def classic(request):
    return request.param


async def test_actor_class_creates_a_controlled_actor(classic):
    host = await started(factory(classic))
    try:
        (kid,) = await update(host, "factory", "make", [NAT], [5], rets=[PRINCIPAL])
        name = kid.to_text()
        assert host.name_of(kid.bytes) == name and host.info(name).mode == ("classic" if classic else "enhanced")
        assert await update(host, "factory", "bump", [PRINCIPAL], [kid]) == [6]
        assert await update(host, name, "inc") == [7]
        # The kid was installed by the factory, which controls it (it created it) ...
        assert await update(host, name, "creator", rets=[PRINCIPAL]) == [Principal(actor_principal("factory"))]
        status = await update(host, "factory", "status", [PRINCIPAL], [kid], rets=[TEXT])
        assert status == [f"running code controllers=[{Principal(actor_principal('factory'))}] freezing=2_592_000"]
        # ... so ic0.is_controller is true for the factory's calls and false for others'.
        assert await update(host, "factory", "tryBump", [PRINCIPAL], [kid], rets=[TEXT]) == ["8"]
        assert await update(host, name, "callerIsController", rets=[BOOL]) == [False]
        # The factory itself is controlled by the manifest's controller.
        assert await update(host, "factory", "callerIsController", rets=[BOOL], caller=OPERATOR) == [True]
        assert await update(host, "factory", "callerIsController", rets=[BOOL], caller=ALICE) == [False]
        # The canister version counts completed messages and installs.
        (version,) = await update(host, name, "version", rets=[NAT64])
        assert version >= 3
    finally:
        await host.stop()


async def test_only_controllers_manage(classic):
    host = await started(factory(classic))
    try:
        (kid,) = await update(host, "factory", "make", [NAT], [1], rets=[PRINCIPAL])
        factory_id = Principal(actor_principal("factory"))
        # From outside: the operator controls the factory, not the kid; Alice controls nothing.
        (status,), _ = await manage(host, "canister_status", {"canister_id": factory_id})
        assert status["status"] == {"running": None} and status["settings"]["controllers"] == [Principal(OPERATOR)]
        assert status["module_hash"] is not None and status["memory_size"] > 0
        for who, target in ((OPERATOR, kid), (ALICE, factory_id)):
            _, outcome = await manage(host, "canister_status", {"canister_id": target}, caller=who)
            assert outcome.reject_code == Reject.CANISTER_ERROR and "only the controllers" in outcome.reject_message
        # The factory hands the kid to the operator: now the factory may not manage it any more.
        assert await update(
            host, "factory", "setControllers", [PRINCIPAL, _vec(PRINCIPAL)], [kid, [Principal(OPERATOR)]], rets=[TEXT]
        ) == ["ok"]
        rejected = await update(host, "factory", "status", [PRINCIPAL], [kid], rets=[TEXT])
        assert rejected[0].startswith("rejected: only the controllers")
        (status,), _ = await manage(host, "canister_status", {"canister_id": kid})
        assert status["settings"]["controllers"] == [Principal(OPERATOR)]
        _, missing = await manage(host, "canister_status", {"canister_id": Principal(actor_principal("x"))})
        assert "not found" in missing.reject_message
    finally:
        await host.stop()


def _vec(t):
    return Vec(t)


async def test_stop_start_delete(classic):
    host = await started(factory(classic))
    try:
        (kid,) = await update(host, "factory", "make", [NAT], [1], rets=[PRINCIPAL])
        assert await update(host, "factory", "delete", [PRINCIPAL], [kid], rets=[TEXT]) == [
            f"rejected: canister {kid.to_text()} must be stopped before it is deleted"
        ]
        assert await update(host, "factory", "stop", [PRINCIPAL], [kid], rets=[TEXT]) == ["ok"]
        assert (await update(host, "factory", "status", [PRINCIPAL], [kid], rets=[TEXT]))[0].startswith("stopped")
        assert await update(host, "factory", "tryBump", [PRINCIPAL], [kid], rets=[TEXT]) == [
            f"rejected: canister {kid.to_text()} is stopped"
        ]
        assert await update(host, "factory", "start", [PRINCIPAL], [kid], rets=[TEXT]) == ["ok"]
        assert await update(host, "factory", "tryBump", [PRINCIPAL], [kid], rets=[TEXT]) == ["2"]
        assert await update(host, "factory", "stop", [PRINCIPAL], [kid], rets=[TEXT]) == ["ok"]
        assert await update(host, "factory", "delete", [PRINCIPAL], [kid], rets=[TEXT]) == ["ok"]
        assert kid.to_text() not in host.actor_names()
        assert (await update(host, "factory", "tryBump", [PRINCIPAL], [kid], rets=[TEXT]))[0].startswith("rejected")
        # A manifest actor is not deleted by a call: it would come back at the next start.
        factory_id = Principal(actor_principal("factory"))
        await manage(host, "stop_canister", {"canister_id": factory_id})
        _, refused = await manage(host, "delete_canister", {"canister_id": factory_id})
        assert "named in the manifest" in refused.reject_message
        await manage(host, "start_canister", {"canister_id": factory_id})
        assert await update(host, "factory", "count", rets=[NAT]) == [1]
    finally:
        await host.stop()


async def test_upgrade_and_reinstall_through_install_code(classic):
    host = await started(factory(classic))
    try:
        (kid,) = await update(host, "factory", "make", [NAT], [10], rets=[PRINCIPAL])
        assert await update(host, kid.to_text(), "inc") == [11]
        await update(host, "factory", "upgrade", [PRINCIPAL], [kid], rets=[])
        assert await update(host, kid.to_text(), "inc") == [12]  # the state stayed (the class arg is unused)
        await update(host, "factory", "reinstall", [PRINCIPAL, NAT], [kid, 100], rets=[])
        assert await update(host, kid.to_text(), "inc") == [101]  # a fresh state from the new argument
    finally:
        await host.stop()


async def test_outside_caller_creates_installs_and_controls():
    kid_wasm = build_actor("Kid").wasm
    host = await started(factory(False))
    try:
        (created,), _ = await manage(host, "create_canister", {"settings": None, "sender_canister_version": None})
        kid = created["canister_id"]
        assert host.info(kid.to_text()).mode == "empty"
        with pytest.raises(errors.UnknownMethod, match="no code installed"):
            await host.call(kid.to_text(), "inc", NO_ARGS, query=False)
        _, refused = await manage(host, "install_code", _install(kid, kid_wasm, 3), caller=ALICE)
        assert "only the controllers" in refused.reject_message
        _, installed = await manage(host, "install_code", _install(kid, kid_wasm, 3))
        assert installed.reply is not None, installed.reject_message
        assert await update(host, kid.to_text(), "inc") == [4]
        assert await update(host, kid.to_text(), "creator", rets=[PRINCIPAL]) == [Principal(OPERATOR)]
        assert await update(host, kid.to_text(), "callerIsController", rets=[BOOL], caller=OPERATOR) == [True]
        _, again = await manage(host, "install_code", _install(kid, kid_wasm, 3))
        assert "already has code" in again.reject_message
        # An upgrade of enhanced persistence must say what happens to the heap, as on the IC.
        _, refused = await manage(host, "install_code", _install(kid, kid_wasm, 0, mode={"upgrade": None}))
        assert "wasm_memory_persistence" in refused.reject_message
        keep = {"upgrade": Some({"skip_pre_upgrade": None, "wasm_memory_persistence": Some({"keep": None})})}
        _, upgraded = await manage(host, "install_code", _install(kid, kid_wasm, 0, mode=keep))
        assert upgraded.reply is not None, upgraded.reject_message
        assert await update(host, kid.to_text(), "inc") == [5]
        _, bad = await manage(host, "install_code", _install(kid, b"not wasm", 0, mode={"reinstall": None}))
        assert bad.reject_code == Reject.CANISTER_ERROR and await update(host, kid.to_text(), "inc") == [6]
    finally:
        await host.stop()


def _install(canister, wasm, start, mode=None):
    return {
        "mode": mode or {"install": None},
        "canister_id": canister,
        "wasm_module": wasm,
        "arg": encode_args([NAT], [start]),
        "sender_canister_version": None,
    }


@pytest.mark.slow  # starts seven hosts in turn
async def test_raw_rand_is_32_bytes_and_reproducible_with_a_seed():
    async def draws(seed, store=None):
        host = await started(factory(False), store=store, seed=seed)
        try:
            return [(await update(host, "factory", "rand", rets=[BLOB]))[0] for _ in range(2)]
        finally:
            await host.stop()

    first, second = await draws(7), await draws(7)
    assert first == second and all(len(b) == 32 for b in first) and first[0] != first[1]
    assert await draws(8) != first
    unseeded = await draws(None)
    assert unseeded[0] != unseeded[1] and unseeded != await draws(None)
    # From one store the sequence carries on across restarts instead of repeating.
    store = MemoryStore()
    assert await draws(7, store) == first
    assert (await draws(7, store))[0] not in first


async def test_created_actors_come_back_after_a_restart(classic):
    store = MemoryStore()
    host = await started(factory(classic), store=store)
    try:
        (kid,) = await update(host, "factory", "make", [NAT], [20], rets=[PRINCIPAL])
        assert await update(host, "factory", "bump", [PRINCIPAL], [kid]) == [21]
        (empty,), _ = await manage(host, "create_canister", {"settings": None, "sender_canister_version": None})
        await update(host, "factory", "stop", [PRINCIPAL], [kid], rets=[TEXT])
    finally:
        await host.stop()
    host = await started(factory(classic), store=store)
    try:
        assert host.info(empty["canister_id"].to_text()).mode == "empty"
        assert (await update(host, "factory", "status", [PRINCIPAL], [kid], rets=[TEXT]))[0].startswith("stopped")
        assert await update(host, "factory", "start", [PRINCIPAL], [kid], rets=[TEXT]) == ["ok"]
        assert await update(host, "factory", "bump", [PRINCIPAL], [kid]) == [22]
        (other,) = await update(host, "factory", "make", [NAT], [0], rets=[PRINCIPAL])
        assert other not in (kid, empty["canister_id"])  # ids are not given twice
    finally:
        await host.stop()


def test_an_argument_that_does_not_decode_names_the_methods_signature():
    with pytest.raises(
        BadArgument, match=r"canister_status: the argument does not decode as \(canister_id_record\) -> "
    ):
        arguments("canister_status", NO_ARGS)


def _chunked(canister, digests, wasm_hash, mode=None, store=None):
    return {
        "mode": mode or {"install": None},
        "target_canister": canister,
        "store_canister": None if store is None else Some(store),
        "chunk_hashes_list": [{"hash": d} for d in digests],
        "wasm_module_hash": wasm_hash,
        "arg": encode_args([NAT], [40]),
        "sender_canister_version": None,
    }


async def _upload(host, canister, chunk, caller=OPERATOR):
    values, outcome = await manage(host, "upload_chunk", {"canister_id": canister, "chunk": chunk}, caller=caller)
    return values[0]["hash"] if values else outcome


async def test_chunked_install_from_the_chunk_store_survives_a_restart():
    import hashlib

    kid_wasm = build_actor("Kid").wasm
    pieces = [kid_wasm[i : i + 40_000] for i in range(0, len(kid_wasm), 40_000)]
    store = MemoryStore()
    host = await started(factory(False), store=store)
    try:
        (created,), _ = await manage(host, "create_canister", {"settings": None, "sender_canister_version": None})
        kid = created["canister_id"]
        (status,), _ = await manage(host, "canister_status", {"canister_id": kid})
        assert status["module_hash"] is None  # empty, as on the IC
        digests = [await _upload(host, kid, piece) for piece in pieces]
        assert digests == [hashlib.sha256(piece).digest() for piece in pieces]
        assert await _upload(host, kid, pieces[0]) == digests[0]  # uploading again stores nothing more
        refused = await _upload(host, kid, b"intruder", caller=ALICE)
        assert "only the controllers" in refused.reject_message
        (status,), _ = await manage(host, "canister_status", {"canister_id": kid})
        assert status["memory_metrics"]["wasm_chunk_store_size"] == len(kid_wasm)
    finally:
        await host.stop()
    host = await started(factory(False), store=store)  # the chunk store is kept with the actor's state
    try:
        (stored,), _ = await manage(host, "stored_chunks", {"canister_id": kid})
        assert sorted(entry["hash"] for entry in stored) == sorted(digests)
        wasm_hash = hashlib.sha256(kid_wasm).digest()
        _, wrong = await manage(host, "install_chunked_code", _chunked(kid, digests[::-1], wasm_hash))
        assert "not wasm_module_hash" in wrong.reject_message
        _, missing = await manage(host, "install_chunked_code", _chunked(kid, [bytes(32)], wasm_hash))
        assert "is not in the chunk store" in missing.reject_message
        for listed in (digests, [bytes(32)]):  # a stranger learns nothing of the chunk store
            _, stranger = await manage(host, "install_chunked_code", _chunked(kid, listed, wasm_hash), caller=ALICE)
            assert "only the controllers" in stranger.reject_message
        assert host.info(kid.to_text()).mode == "empty"  # nothing refused installed anything
        _, installed = await manage(host, "install_chunked_code", _chunked(kid, digests, wasm_hash))
        assert installed.reply is not None, installed.reject_message
        assert await update(host, kid.to_text(), "inc") == [41]
        assert host.info(kid.to_text()).module_hash == wasm_hash
        await manage(host, "clear_chunk_store", {"canister_id": kid})
        assert (await manage(host, "stored_chunks", {"canister_id": kid}))[0] == [[]]
    finally:
        await host.stop()
    host = await started(factory(False), store=store)
    try:
        assert (await manage(host, "stored_chunks", {"canister_id": kid}))[0] == [[]]
        assert await update(host, kid.to_text(), "inc") == [42]
    finally:
        await host.stop()


async def test_the_chunk_store_is_bounded():
    host = await started(factory(False))
    try:
        (created,), _ = await manage(host, "create_canister", {"settings": None, "sender_canister_version": None})
        kid = created["canister_id"]
        too_big = await _upload(host, kid, bytes(MAX_CHUNK_BYTES + 1))
        assert too_big.reject_code == Reject.CANISTER_ERROR and "at most 1048576 bytes" in too_big.reject_message
        for n in range(MAX_CHUNKS):
            await _upload(host, kid, n.to_bytes(4, "big"))
        full = await _upload(host, kid, b"one more")
        assert "is full (100 chunks)" in full.reject_message
        _, listed = await manage(host, "install_chunked_code", _chunked(kid, [bytes(32)] * (MAX_CHUNKS + 1), bytes(32)))
        assert "1 to 100 chunks" in listed.reject_message
    finally:
        await host.stop()


async def test_settings_of_the_current_interface_are_kept_and_reported():
    host = await started(factory(False))
    factory_id = Principal(actor_principal("factory"))
    settings = _settings(
        {
            "environment_variables": Some([{"name": "PUBLIC_CANISTER_ID:backend", "value": factory_id.to_text()}]),
            "status_visibility": Some({"allowed_viewers": [Principal(ALICE)]}),
            "log_visibility": Some({"public": None}),
            "wasm_memory_threshold": Some(1 << 20),
        }
    )
    try:
        # Alice may not read the status until the status visibility lets her.
        _, refused = await manage(host, "canister_status", {"canister_id": factory_id}, caller=ALICE)
        assert "only the controllers" in refused.reject_message
        _, done = await manage(
            host,
            "update_settings",
            {"canister_id": factory_id, "settings": settings, "sender_canister_version": None},
        )
        assert done.reply is not None, done.reject_message
        (status,), _ = await manage(host, "canister_status", {"canister_id": factory_id}, caller=ALICE)
        assert status["settings"]["environment_variables"] == [
            {"name": "PUBLIC_CANISTER_ID:backend", "value": factory_id.to_text()}
        ]
        assert status["settings"]["status_visibility"] == {"allowed_viewers": [Principal(ALICE)]}
        assert status["settings"]["log_visibility"] == {"public": None}
        assert status["settings"]["snapshot_visibility"] == {"controllers": None}
        assert status["settings"]["wasm_memory_threshold"] == 1 << 20 and status["version"] > 0
        _, stranger = await manage(host, "stop_canister", {"canister_id": factory_id}, caller=ALICE)
        assert "only the controllers" in stranger.reject_message  # seeing the status is all she may do
        many = [{"name": f"V{n}", "value": ""} for n in range(21)]
        _, too_many = await manage(
            host,
            "update_settings",
            {
                "canister_id": factory_id,
                "settings": _settings({"environment_variables": Some(many)}),
                "sender_canister_version": None,
            },
        )
        assert "at most 20 environment variables" in too_many.reject_message
    finally:
        await host.stop()


def _settings(given: dict) -> dict:
    """A canister_settings record setting ``given`` (the other fields null)."""
    fields = resolve(SERVICE.methods["update_settings"].args[0]).fields
    settings_type = resolve(next(f.type for f in fields if f.name == "settings"))
    return {f.name: given.get(f.name) for f in settings_type.fields}


async def test_created_actors_are_capped_counted_from_the_store():
    """Past --max-created-actors create_canister is refused (SYS_TRANSIENT: a retry may succeed), from
    outside and from an actor, whose await sees the reject; the manifest's actors do not count, the
    others keep being served, a restart keeps the count, and deleting one frees a slot."""
    store = MemoryStore()
    host = await started(factory(False), store=store, max_created_actors=2)
    try:
        (kid,) = await update(host, "factory", "make", [NAT], [1], rets=[PRINCIPAL])
        (empty,), _ = await manage(host, "create_canister", {"settings": None, "sender_canister_version": None})
        _, refused = await manage(host, "create_canister", {"settings": None, "sender_canister_version": None})
        assert refused.reject_code == Reject.SYS_TRANSIENT
        assert refused.reject_message == (
            "moxzid holds 2 created canisters, as many as it may (moxzid --max-created-actors 2): "
            "delete one, or ask the operator for more"
        )
        outcome = await host.call("factory", "make", encode_args([NAT], [1]), query=False)
        assert outcome.reply is None and "--max-created-actors 2" in outcome.reject_message
        assert len(host.actor_names()) == 3  # nothing made by the refused calls
        assert await update(host, "factory", "bump", [PRINCIPAL], [kid]) == [2]  # the others are served
    finally:
        await host.stop()
    host = await started(factory(False), store=store, max_created_actors=2)
    try:
        _, refused = await manage(host, "create_canister", {"settings": None, "sender_canister_version": None})
        assert refused.reject_code == Reject.SYS_TRANSIENT
        await manage(host, "stop_canister", {"canister_id": empty["canister_id"]})
        _, deleted = await manage(host, "delete_canister", {"canister_id": empty["canister_id"]})
        assert deleted.reply is not None, deleted.reject_message
        (other,) = await update(host, "factory", "make", [NAT], [5], rets=[PRINCIPAL])
        assert await update(host, "factory", "bump", [PRINCIPAL], [other]) == [6]
    finally:
        await host.stop()


async def test_the_last_creators_share_is_kept_for_the_manifests_actors_and_their_controllers():
    """Fresh keys, each within --max-created-per-creator, make all but one creator's share of
    --max-created-actors and are refused past that (SYS_TRANSIENT, naming both flags' share); the
    manifest's controller and actor still create, up to the total."""
    empty = {"settings": None, "sender_canister_version": None}
    host = await started(factory(False), max_created_actors=5, max_created_per_creator=2)
    try:
        for key in range(3):
            _, made = await manage(host, "create_canister", empty, caller=bytes([key + 100] * 29))
            assert made.reply is not None, made.reject_message
        _, refused = await manage(host, "create_canister", empty, caller=bytes([99] * 29))
        assert refused.reject_code == Reject.SYS_TRANSIENT
        assert refused.reject_message == (
            "moxzid holds 3 created canisters, as many as it may (moxzid --max-created-actors 5, less the 2 "
            "kept for the manifest's actors and their controllers): delete one, or ask the operator for more"
        )
        (_, made) = await manage(host, "create_canister", empty)  # OPERATOR controls the factory
        assert made.reply is not None, made.reject_message
        await update(host, "factory", "make", [NAT], [1], rets=[PRINCIPAL])  # a manifest's actor
        outcome = await host.call("factory", "make", encode_args([NAT], [2]), query=False)
        assert outcome.reply is None and "(moxzid --max-created-actors 5)" in outcome.reject_message
    finally:
        await host.stop()


async def test_created_actors_are_capped_per_creator():
    """Past --max-created-per-creator, a creator's create_canister is refused naming the flag while
    other creators still create: a key, an actor, and the anonymous principal (every anonymous client
    as one creator); a restart keeps the counts, and deleting one of a creator's frees its slot."""
    store = MemoryStore()
    empty = {"settings": None, "sender_canister_version": None}
    host = await started(factory(False), store=store, max_created_actors=10, max_created_per_creator=2)
    try:
        (mine,), _ = await manage(host, "create_canister", empty)
        await manage(host, "create_canister", empty)
        _, refused = await manage(host, "create_canister", empty)
        assert refused.reject_code == Reject.SYS_TRANSIENT
        assert refused.reject_message == (
            f"{Principal(OPERATOR).to_text()} created 2 of the canisters moxzid holds, as many as one creator "
            "may (moxzid --max-created-per-creator 2): delete one, or ask the operator for more"
        )
        await update(host, "factory", "make", [NAT], [1], rets=[PRINCIPAL])  # an actor is a creator of its own
        await update(host, "factory", "make", [NAT], [2], rets=[PRINCIPAL])
        outcome = await host.call("factory", "make", encode_args([NAT], [3]), query=False)
        assert outcome.reply is None and "--max-created-per-creator 2" in outcome.reject_message
        for _ in range(2):
            (_, made) = await manage(host, "create_canister", empty, caller=ALICE)
            assert made.reply is not None, made.reject_message
        _, refused = await manage(host, "create_canister", empty, caller=ALICE)
        assert "2vxsx-fae created 2" in refused.reject_message
        assert len(host.actor_names()) == 7  # the factory and six created; nothing made by the refused calls
    finally:
        await host.stop()
    host = await started(factory(False), store=store, max_created_actors=10, max_created_per_creator=2)
    try:
        _, refused = await manage(host, "create_canister", empty)
        assert "--max-created-per-creator 2" in refused.reject_message
        await manage(host, "stop_canister", {"canister_id": mine["canister_id"]})
        _, deleted = await manage(host, "delete_canister", {"canister_id": mine["canister_id"]})
        assert deleted.reply is not None, deleted.reject_message
        _, made = await manage(host, "create_canister", empty)
        assert made.reply is not None, made.reject_message
    finally:
        await host.stop()


async def test_instances_no_actor_runs_any_more_are_freed():
    """A deleted actor's instance, and the one an upgrade replaced, are freed with their memories:
    wasmtime keeps an instance's host functions until its store goes, and they must not keep the
    instance (so its store) alive, or each create, call and delete round would keep megabytes."""

    def instances() -> list[weakref.ref]:
        gc.collect()
        return [weakref.ref(o) for o in gc.get_objects() if isinstance(o, Instance)]

    earlier = {id(ref()) for ref in instances()}  # other tests' (none, unless one failed)
    host = await started(factory(False))
    try:
        for _ in range(3):
            (kid,) = await update(host, "factory", "make", [NAT], [0], rets=[PRINCIPAL])
            assert await update(host, "factory", "bump", [PRINCIPAL], [kid]) == [1]
            for method in ("stop", "delete"):
                assert await update(host, "factory", method, [PRINCIPAL], [kid], rets=[TEXT]) == ["ok"]
        made = [ref for ref in instances() if id(ref()) not in earlier]  # the factory's code's, and what is left
        assert made
        await host.upgrade("factory", build_actor("factory").wasm)
        gc.collect()
        assert [ref() for ref in made if ref() is not None] == []
    finally:
        await host.stop()


def test_a_canister_keeps_its_last_changes_with_its_record():
    canister = Canister([b"\x04"])
    record_creation(canister, change_origin(b"\x04", False, None))
    canister.version = 1
    record_deployment(canister, change_origin(b"\x01\x01", True, Some(7)), "install", b"h" * 32)
    canister.low_memory_hook = "executed"  # the low wasm memory hook ran: a restart does not run it again
    again = Canister.from_record(cbor2.loads(cbor2.dumps(canister.record())))
    assert (again.history, again.changes, again.low_memory_hook) == (canister.history, 2, "executed")
    assert Canister.from_record(canister.record()[:10]).low_memory_hook == "condition_not_satisfied"
    info = info_record(again, b"h" * 32, Some(5))
    assert [change["canister_version"] for change in info["recent_changes"]] == [0, 1]
    assert info["recent_changes"][1]["origin"] == {
        "from_canister": {"canister_id": Principal(b"\x01\x01"), "canister_version": Some(7)}
    }
    assert info_record(again, None, None)["recent_changes"] == []  # none asked for, none given
    assert Canister.from_record(canister.record()[:8]).history == []  # a record from before histories
    for _ in range(MAX_HISTORY + 5):
        record_controllers_change(canister, change_origin(b"\x04", False, None))
    info = info_record(canister, None, Some(100))
    assert (len(info["recent_changes"]), info["total_num_changes"]) == (MAX_HISTORY, MAX_HISTORY + 7)


def _history(host, name: str) -> list:
    """The kinds of the changes in canister ``name``'s history, as canister_info tells them."""
    actor = host._actors.named(name)
    answer = info_record(actor.canister, actor.module, 20)
    return [next(iter(change["details"])) for change in answer["recent_changes"]]


def _install_empty_args(canister, wasm):
    return {
        "mode": {"install": None},
        "canister_id": canister,
        "wasm_module": wasm,
        "arg": NO_ARGS,
        "sender_canister_version": None,
    }


async def test_a_controller_uninstalls_and_installs_again_across_a_restart():
    wasm = build_actor("bounded").wasm  # spin() answers only once halt() is called
    store = MemoryStore()
    host = await started(store=store)
    try:
        (created,), _ = await manage(host, "create_canister", {"settings": None, "sender_canister_version": None})
        canister = created["canister_id"]
        name = canister.to_text()
        _, installed = await manage(host, "install_code", _install_empty_args(canister, wasm))
        assert installed.reply is not None, installed.reject_message
        spinning = asyncio.create_task(host.call(name, "spin", NO_ARGS, query=False))
        await asyncio.sleep(0.3)  # spin() runs and waits for its raw_rand, again and again
        assert not spinning.done()
        uninstall = {"canister_id": canister, "sender_canister_version": None}
        _, refused = await manage(host, "uninstall_code", uninstall, caller=ALICE)
        assert refused.reject_code == Reject.CANISTER_ERROR and "only the controllers" in refused.reject_message
        assert host.info(name).mode != "empty"
        held = host.memory_budget.held_bytes
        _, uninstalled = await manage(host, "uninstall_code", uninstall)
        assert uninstalled.reply is not None, uninstalled.reject_message
        assert host.memory_budget.held_bytes < held  # its memories no longer count in the total
        rejected = await asyncio.wait_for(spinning, 5)
        assert (rejected.reject_code, rejected.reject_message) == (
            Reject.CANISTER_REJECT,
            "Canister has been uninstalled",
        )
        assert host.info(name).mode == "empty" and host.info(name).module_hash is None
        with pytest.raises(errors.UnknownMethod, match="no code installed"):
            await host.call(name, "halt", NO_ARGS, query=False)
        (status,), _ = await manage(host, "canister_status", {"canister_id": canister})
        assert status["module_hash"] is None and status["memory_metrics"]["wasm_memory_size"] == 0
        assert status["settings"]["controllers"] == [Principal(OPERATOR)]
        await asyncio.sleep(0.3)  # the raw_rand answer that was on its way is dropped, not run
        assert _history(host, name) == ["creation", "code_deployment", "code_uninstall"]
    finally:
        await host.stop()
    host = await started(store=store)
    try:
        assert host.info(name).mode == "empty" and host.info(name).module_hash is None
        assert host.info(name).controllers == (OPERATOR,)
        assert _history(host, name) == ["creation", "code_deployment", "code_uninstall"]
        _, installed = await manage(host, "install_code", _install_empty_args(canister, wasm))
        assert installed.reply is not None, installed.reject_message
        result = await host.call(name, "result", NO_ARGS, query=True)
        assert result.reply is not None and b"waiting" in result.reply  # fresh state
        assert _history(host, name)[-1] == "code_deployment"
    finally:
        await host.stop()


# canister_status_result and the types it names, as the IC interface specification's ic.did has them
# (dfinity/portal, docs/references/_attachments/ic.did at 0484f2cffd9f7e894ba790184bf44eebd1ba23d1): an
# older client's type, which the answer must decode to (moxzid's answer has the fields newer ones add).
IC_STATUS_DID = """
type log_visibility = variant { controllers; public; allowed_viewers : vec principal };
type environment_variable = record { name : text; value : text };
type definite_canister_settings = record {
    controllers : vec principal; compute_allocation : nat; memory_allocation : nat; freezing_threshold : nat;
    reserved_cycles_limit : nat; log_visibility : log_visibility; wasm_memory_limit : nat;
    wasm_memory_threshold : nat; environment_variables : vec environment_variable;
};
type canister_status_result = record {
    status : variant { running; stopping; stopped };
    ready_for_migration : bool;
    version : nat64;
    settings : definite_canister_settings;
    module_hash : opt blob;
    memory_size : nat;
    memory_metrics : record {
        wasm_memory_size : nat; stable_memory_size : nat; global_memory_size : nat; wasm_binary_size : nat;
        custom_sections_size : nat; canister_history_size : nat; wasm_chunk_store_size : nat; snapshots_size : nat;
    };
    cycles : nat;
    reserved_cycles : nat;
    idle_cycles_burned_per_day : nat;
    query_stats : record {
        num_calls_total : nat; num_instructions_total : nat; request_payload_bytes_total : nat;
        response_payload_bytes_total : nat;
    };
};
service ic : { canister_status : (record { canister_id : principal }) -> (canister_status_result) }
"""


async def test_canister_status_decodes_with_the_ics_type_and_counts_what_the_canister_holds():
    kid_wasm = build_actor("Kid").wasm
    ic_status = parse_did(IC_STATUS_DID).methods["canister_status"]
    host = await started()
    try:
        (created,), _ = await manage(host, "create_canister", {"settings": None, "sender_canister_version": None})
        canister = created["canister_id"]
        _, installed = await manage(host, "install_code", _install(canister, kid_wasm, 1))
        assert installed.reply is not None, installed.reject_message
        chunk = b"a chunk of some module"
        await manage(host, "upload_chunk", {"canister_id": canister, "chunk": chunk})
        take = {"canister_id": canister, "replace_snapshot": None, "uninstall_code": None}
        (snapshot,), taken = await manage(host, "take_canister_snapshot", {**take, "sender_canister_version": None})
        assert taken.reply is not None, taken.reject_message
        _, answered = await manage(host, "canister_status", {"canister_id": canister})
        (status,) = decode_args(answered.reply, list(ic_status.rets))
        metrics = status["memory_metrics"]
        assert status["status"] == {"running": None} and status["settings"]["controllers"] == [Principal(OPERATOR)]
        assert metrics["wasm_chunk_store_size"] == len(chunk)
        assert metrics["snapshots_size"] == snapshot["total_size"] > 0
        assert metrics["custom_sections_size"] > len("icp:public candid:service")  # moc writes the interface
        assert metrics["wasm_memory_size"] > 0
        assert metrics["wasm_binary_size"] == len(kid_wasm)
        assert metrics["global_memory_size"] > 0 and metrics["global_memory_size"] % 8 == 0  # (Motoko's globals)
        assert metrics["canister_history_size"] > 0  # its creation and install
        log = (await manage(host, "canister_status", {"canister_id": canister}))[0][0]["memory_metrics"]
        assert status["memory_size"] == sum(metrics.values()) + log["log_memory_store_size"]
    finally:
        await host.stop()


def test_the_compatibility_table_names_every_method_as_moxzid_serves_it():
    # docs/motoko-compat.md's table of the management canister's methods: a served row for each method
    # moxzid serves, a "not served" row only for one it does not
    text = (Path(__file__).parents[1] / "docs" / "motoko-compat.md").read_text()
    rows = dict(re.findall(r"^\| `(\w+)` \| (served|served with differences|not served) \|", text, re.MULTILINE))
    assert set(METHODS) <= set(rows), f"no row for {sorted(set(METHODS) - set(rows))}"
    assert {name for name, said in rows.items() if said != "not served"} == set(METHODS)
