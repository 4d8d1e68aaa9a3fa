"""The management canister (aaaaa-aa) with real compiled Motoko actors, in both persistence modes:
actor classes (`await Kid(n)`: create_canister + install_code), controllers and ic0.is_controller,
raw_rand, canister_status, update_settings, stop/start/delete, upgrades and reinstalls through
install_code, and the same methods called from outside with the caller's own principal."""

import pytest
from kit.actorbuild import build_actor
from kit.host import NO_ARGS

from moxzi_core import errors
from moxzi_core.candid import BLOB, BOOL, NAT, NAT64, PRINCIPAL, TEXT, Principal, decode_args, encode_args
from moxzi_core.runtime.actor import CANISTER_ERROR
from moxzi_core.runtime.host import ActorSpec, Host, actor_principal
from moxzi_core.runtime.management import MANAGEMENT_NAME, SERVICE, BadArgument, arguments
from moxzi_core.store import MemoryStore

ALICE = Principal.from_text("2vxsx-fae").bytes  # any principal outside: here the anonymous one's bytes
OPERATOR = bytes(range(1, 30))  # a self-authenticating-sized principal, as a signed request has


def factory(classic: bool, controllers=(OPERATOR,)) -> ActorSpec:
    built = build_actor("factory", classic=classic)
    return ActorSpec("factory", built.wasm, built.did, controllers=tuple(controllers))


async def started(*specs, store=None, seed=None) -> Host:
    host = Host(list(specs), store=store or MemoryStore(), seed=seed)
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
            assert outcome.reject_code == CANISTER_ERROR and "only the controllers" in outcome.reject_message
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
    from moxzi_core.candid import Vec

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
        keep = {"upgrade": _some({"skip_pre_upgrade": None, "wasm_memory_persistence": _some({"keep": None})})}
        _, upgraded = await manage(host, "install_code", _install(kid, kid_wasm, 0, mode=keep))
        assert upgraded.reply is not None, upgraded.reject_message
        assert await update(host, kid.to_text(), "inc") == [5]
        _, bad = await manage(host, "install_code", _install(kid, b"not wasm", 0, mode={"reinstall": None}))
        assert bad.reject_code == CANISTER_ERROR and await update(host, kid.to_text(), "inc") == [6]
    finally:
        await host.stop()


def _some(value):
    from moxzi_core.candid import Some

    return Some(value)


def _install(canister, wasm, start, mode=None):
    return {
        "mode": mode or {"install": None},
        "canister_id": canister,
        "wasm_module": wasm,
        "arg": encode_args([NAT], [start]),
        "sender_canister_version": None,
    }


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
