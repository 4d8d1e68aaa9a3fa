"""Motoko as it runs on the IC, checked the way the Motoko compiler checks itself: each tests/drun/NAME.mo
is a drun test (its ``//CALL`` lines are the calls to make), run through ``Host`` with a canister set up
as drun sets one up (`kit.drun`), whose output must be tests/drun/NAME.ok line for line. The expected
outputs are what drun prints for the same calls (the IC's semantics and words).

They cover what the compiler's own drun suite (dfinity/motoko test/run-drun) found moxzid doing
differently: cycles sent with one-way calls, bounded-wait calls whose deadline passes (across a restart
too), the provisional top-up, composite queries calling their own actor, actor classes created with
settings' controllers, canister_info's history, a module without memory, the low wasm memory hook,
timers that come due as drun's clock moves a second a round (the harness moves a manual clock so); the
compiler flags a test's ``//MOC-FLAG`` lines ask that moxzi build passes on (a collector forced after
every message: weak references; an actor imported by alias through its Candid file); and the copies
scripts/drun_sweep.py makes of the suite's tests (docs/motoko-compat.md)."""

import asyncio
import importlib.util
from pathlib import Path

import pytest
from kit.actorbuild import build_actor
from kit.drun import DrunRun, Step, argument, drun_id, moc_flags, steps
from kit.host import eventually, query, update

from moxzi_core.billing import DefaultPrices, Ledger
from moxzi_core.candid import NAT32, TEXT, Principal, decode_args, encode_args
from moxzi_core.runtime.host import ActorSpec, Host, actor_principal
from moxzi_core.runtime.management.interface import MANAGEMENT_NAME, SERVICE
from moxzi_core.runtime.messages import ANONYMOUS, Reject
from moxzi_core.store import MemoryStore

DRUN_TESTS = Path(__file__).parent / "drun"


@pytest.mark.parametrize("name", sorted(path.stem for path in DRUN_TESTS.glob("*.mo")))
async def test_prints_what_drun_prints(name):
    source = (DRUN_TESTS / f"{name}.mo").read_text()
    flags = moc_flags(source, DRUN_TESTS)
    assert not flags.unasked, f"{name}.mo asks for what moxzi build cannot do: {flags.unasked}"
    built = build_actor(name, directory=DRUN_TESTS, **flags.options)
    calls = steps(source)
    assert calls, f"{name}.mo names no calls"
    printed = await DrunRun(clock="manual").run(built.wasm, calls)  # time moves as drun's
    assert printed == (DRUN_TESTS / f"{name}.ok").read_text().splitlines()


def test_drun_arguments_and_ids_read_as_drun_writes_them():
    assert argument('"DIDL\\x00\\x01\\x7d\\x05"') == bytes.fromhex("4449444c00017d05")
    assert argument("0x4449444C0000") == b"DIDL\x00\x00"
    with pytest.raises(ValueError):
        argument("DIDL")
    calls = steps(
        '//CALL ingress go "DIDL\\x00\\x00"\n//CALL upgrade ""\n// CALL ingress not a call\n//CALL query q 0x00'
    )
    assert calls == [Step("ingress", "go", b"DIDL\x00\x00"), Step("upgrade"), Step("query", "q", b"\x00")]
    assert drun_id(0).to_text() == "rwlgt-iiaaa-aaaaa-aaaaa-cai"
    assert drun_id(1).to_text() == "lxzze-o7777-77777-aaaaa-cai"


async def test_only_canisters_read_histories_and_a_charging_moxzid_mints_no_cycles():
    store = MemoryStore()
    host = Host([], store=store, ledger=Ledger(store, DefaultPrices(), 10**12))  # charges
    await host.start()
    try:

        async def manage(method, argument):
            arg = encode_args(list(SERVICE.methods[method].args), [argument])
            return await host.call(MANAGEMENT_NAME, method, arg, query=False)

        made = await manage("create_canister", {"settings": None, "sender_canister_version": None})
        canister = Principal(made.reply[-10:])
        refused = await manage("provisional_top_up_canister", {"canister_id": canister, "amount": 5})
        assert refused.reject_code == Reject.CANISTER_REJECT and "POST /cycles/" in refused.reject_message
        assert host.ledger.balance(canister.to_text()) == 0  # made from outside: nothing minted either
        info = await manage("canister_info", {"canister_id": canister, "num_requested_changes": None})
        assert info.reject_code == Reject.CANISTER_REJECT and "canisters only" in info.reject_message
    finally:
        await host.stop()


async def test_a_bounded_wait_deadline_passes_across_a_restart():
    # the deadline of a call made before moxzid stopped passes while it is down: once it is back, the
    # caller hears SYS_UNKNOWN at once, as the callee (still spinning) never answers
    store, built = MemoryStore(), build_actor("bounded")
    spec = ActorSpec("b", built.wasm, built.did)
    host = Host([spec], store=store)
    await host.start()
    try:
        await update(host, "b", "begin", [NAT32], [2], rets=())
        await asyncio.sleep(0.5)  # bounded() runs and makes its call, spin() loops
        assert await query(host, "b", "result", rets=(TEXT,)) == ["waiting"]
    finally:
        await host.stop()
    await asyncio.sleep(2.5)
    host = Host([spec], store=store)
    await host.start()
    try:

        async def expired():
            return (await query(host, "b", "result", rets=(TEXT,)))[0] != "waiting"

        await eventually(expired, seconds=5)
        assert await query(host, "b", "result", rets=(TEXT,)) == ["#system_unknown Call deadline has expired."]
        await update(host, "b", "halt", rets=())
    finally:
        await host.stop()


def test_the_sweep_builds_a_plain_actor_as_the_persistent_one_that_keeps_the_same():
    # scripts/drun_sweep.py's copies of the suite's (older) tests: only what was stable stays stable
    path = Path(__file__).parents[1] / "scripts" / "drun_sweep.py"
    spec = importlib.util.spec_from_file_location("drun_sweep", path)
    assert spec is not None and spec.loader is not None
    sweep = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(sweep)
    source = (
        "actor A : actor { f : () -> async () } {\n"
        '  let s = "{"; // {\n'
        "  stable var kept = 1;\n"
        "  stable\n"
        "  let also = 2;\n"
        "  flexible var old = 3;\n"
        "  public func f() : async () { let local = 4; };\n"
        "};\n"
        "let after = 5;"
    )
    assert sweep.persistent(source).split("\n") == [
        "persistent actor A : actor { f : () -> async () } {",
        '  transient let s = "{"; // {',
        "  stable var kept = 1;",
        "  stable",
        "  let also = 2;",
        "  transient var old = 3;",
        "  public func f() : async () { let local = 4; };",
        "};",
        "let after = 5;",
    ]
    flags = moc_flags(
        "//MOC-FLAG -A M0239 --force-gc\n//MOC-FLAG --enhanced-orthogonal-persistence --max-stable-pages 16\n"
        "//MOC-FLAG --actor-idl idl --actor-alias self aaaaa-aa --experimental-stable-memory -1\n//MOC-ENV X=1",
        Path("/suite"),
    )
    assert flags.options == {
        "force_gc": True,
        "actor_idl": Path("/suite/idl"),
        "actor_aliases": (("self", "aaaaa-aa"),),
    }
    assert flags.unasked == ["--max-stable-pages 16", "--experimental-stable-memory -1", "X=1"] and flags.enhanced
    # the suite's run.sh forces the collector unless told not to, and picks the incremental one where asked
    assert sweep.build_options("//MOC-FLAG --copying-gc", Path(".")).options == {"gc": "copying", "force_gc": True}
    assert sweep.build_options("//MOC-NO-FORCE-GC\n//INCREMENTAL-GC-ONLY", Path(".")).options == {"gc": "incremental"}


NO_OPTIONS = {"replace_snapshot": None, "uninstall_code": None, "sender_canister_version": None}


async def test_a_snapshot_outlives_a_restart_and_a_stranger_may_not_take_one():
    store, built = MemoryStore(), build_actor("counter")
    spec = ActorSpec("c", built.wasm, built.did, controllers=(ANONYMOUS,))
    canister = Principal(actor_principal("c"))

    async def manage(host, method, argument, caller=ANONYMOUS):
        arg = encode_args(list(SERVICE.methods[method].args), [argument])
        return await host.call(MANAGEMENT_NAME, method, arg, query=False, caller=caller)

    host = Host([spec], store=store)
    await host.start()
    try:
        assert await update(host, "c", "inc") == [1]
        taken = await manage(host, "take_canister_snapshot", {"canister_id": canister, **NO_OPTIONS})
        ((snapshot,),) = [decode_args(taken.reply, list(SERVICE.methods["take_canister_snapshot"].rets))]
        assert snapshot["id"] == (0).to_bytes(8, "big") + canister.bytes  # the IC's ids: the count, the canister
        stranger = await manage(
            host, "take_canister_snapshot", {"canister_id": canister, **NO_OPTIONS}, caller=b"\x05" * 29
        )
        assert stranger.reject_code == Reject.CANISTER_ERROR and "controllers" in stranger.reject_message
        assert await update(host, "c", "inc") == [2]
    finally:
        await host.stop()
    host = Host([spec], store=store)
    await host.start()
    try:
        loaded = await manage(
            host,
            "load_canister_snapshot",
            {"canister_id": canister, "snapshot_id": snapshot["id"], "sender_canister_version": None},
        )
        assert loaded.reply is not None, loaded.reject_message
        assert await query(host, "c", "get") == [1]
        listed = await manage(host, "list_canister_snapshots", {"canister_id": canister})
        assert decode_args(listed.reply, list(SERVICE.methods["list_canister_snapshots"].rets)) == [[snapshot]]
    finally:
        await host.stop()
