"""What canister snapshots may hold: each counts against its actor's bound (what one copy of its memories
may be) and moxzid's total for all actors' memory, a restart counting them again; one past either is
refused, naming the budget, and takes nothing; a snapshot taken with ``uninstall_code`` empties the canister."""

from kit.actorbuild import build_actor

from moxzi_core.candid import Principal, Some, decode_args, encode_args
from moxzi_core.runtime.engine import Limits
from moxzi_core.runtime.host import ActorSpec, Host, HostConfig, actor_principal
from moxzi_core.runtime.management.interface import MANAGEMENT_NAME, SERVICE
from moxzi_core.runtime.messages import ANONYMOUS, Reject
from moxzi_core.store import MemoryStore

CANISTER = Principal(actor_principal("c"))
TAKE = {"canister_id": CANISTER, "replace_snapshot": None, "uninstall_code": None, "sender_canister_version": None}
LOAD = {"canister_id": CANISTER, "sender_canister_version": None}


async def manage(host: Host, method: str, argument: dict):
    arg = encode_args(list(SERVICE.methods[method].args), [argument])
    outcome = await host.call(MANAGEMENT_NAME, method, arg, query=False, caller=ANONYMOUS)
    return outcome, outcome.reply and decode_args(outcome.reply, list(SERVICE.methods[method].rets))


async def snapshots(host: Host) -> list:
    return (await manage(host, "list_canister_snapshots", {"canister_id": CANISTER}))[1][0]


async def test_snapshots_count_against_the_actor_and_the_total_memory_budgets():
    store, built = MemoryStore(), build_actor("counter")
    spec = ActorSpec("c", built.wasm, built.did, controllers=(ANONYMOUS,))
    # An actor whose memories may be 7 MiB (6 of heap, 1 of stable): one snapshot of its ~5 MiB fits.
    host = Host([spec], HostConfig(Limits(memory_bytes=6 << 20, stable_memory_pages=16)), store=store)
    await host.start()
    try:
        before = host.memory_budget.held_bytes
        _, (first,) = await manage(host, "take_canister_snapshot", TAKE)
        size = first["total_size"]
        assert host.memory_budget.held_bytes == before + size
        refused, _ = await manage(host, "take_canister_snapshot", TAKE)
        assert refused.reject_code == Reject.CANISTER_ERROR
        assert f"its snapshots would hold {2 * size >> 20} MiB" in refused.reject_message
        assert "(7 MiB: moxzid --actor-memory-mb and --actor-stable-mb)" in refused.reject_message
        assert await snapshots(host) == [first] and host.memory_budget.held_bytes == before + size
        held = host.memory_budget.held_bytes
    finally:
        await host.stop()
    # Restarted with a total that leaves half a snapshot: the one kept is counted again, no second fits.
    host = Host([spec], HostConfig(total_memory_bytes=held + size // 2), store=store)
    await host.start()
    try:
        restored = host.memory_budget.held_bytes
        assert restored >= held  # (a restored memory counts whole up to its size)
        refused, _ = await manage(host, "take_canister_snapshot", TAKE)
        assert refused.reject_code == Reject.SYS_TRANSIENT
        assert "moxzid's memory for all actors is spent" in refused.reject_message
        assert "(moxzid --total-memory-mb); nothing was taken" in refused.reject_message
        assert await snapshots(host) == [first]
        _, (second,) = await manage(host, "take_canister_snapshot", {**TAKE, "replace_snapshot": Some(first["id"])})
        assert await snapshots(host) == [second]  # replacing one fits: the budget counts it once
        assert host.memory_budget.held_bytes == restored
        deleted, _ = await manage(
            host, "delete_canister_snapshot", {"canister_id": CANISTER, "snapshot_id": second["id"]}
        )
        assert deleted.reply is not None and host.memory_budget.held_bytes == restored - size
        taken, _ = await manage(host, "take_canister_snapshot", TAKE)
        assert taken.reply is not None, taken.reject_message
    finally:
        await host.stop()


async def test_a_snapshot_taken_with_uninstall_code_empties_the_canister_and_loads_back():
    built = build_actor("counter")
    host = Host([ActorSpec("c", built.wasm, built.did, controllers=(ANONYMOUS,))], store=MemoryStore())
    await host.start()
    try:
        await host.call("c", "inc", encode_args([], []), query=False)
        taken, (snapshot,) = await manage(host, "take_canister_snapshot", {**TAKE, "uninstall_code": Some(True)})
        assert taken.reply is not None, taken.reject_message
        assert host.info("c").mode == "empty"
        loaded, _ = await manage(host, "load_canister_snapshot", {**LOAD, "snapshot_id": snapshot["id"]})
        assert loaded.reply is not None, loaded.reject_message
        assert host.info("c").mode != "empty"
        assert decode_args((await host.call("c", "get", encode_args([], []), query=True)).reply) == [1]
    finally:
        await host.stop()
