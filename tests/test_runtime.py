"""The actor runtime with real compiled Motoko actors: messages, traps, queries, calls between actors,
timers, upgrades in both persistence modes, and limits."""

import asyncio
import logging

import pytest
from kit.actorbuild import build_actor
from kit.host import NO_ARGS, SPIN_LIMITS, eventually, query, spec, started, update

from moxzi_core import errors
from moxzi_core.candid import NAT, PRINCIPAL, TEXT, Principal, decode_args, encode_args
from moxzi_core.runtime.engine import Limits
from moxzi_core.runtime.host import actor_principal
from moxzi_core.runtime.messages import ANONYMOUS, Reject


@pytest.fixture
async def pair():
    host = await started(spec("a"), spec("b"))
    yield host
    await host.stop()


async def test_counter_updates_and_queries(pair):
    assert await update(pair, "a", "inc") == [1]
    assert await update(pair, "a", "inc") == [2]
    assert await query(pair, "a", "get") == [2]
    assert await query(pair, "b", "get") == [0]


async def test_trap_rolls_back_and_rejects(pair):
    await update(pair, "a", "inc")
    outcome = await pair.call("a", "incThenTrap", NO_ARGS, query=False)
    assert outcome.reply is None
    assert outcome.reject_code == Reject.CANISTER_ERROR
    assert "deliberate trap after changing state" in outcome.reject_message
    assert await query(pair, "a", "get") == [1]


@pytest.mark.parametrize("as_query", [True, False])
async def test_query_leaves_no_trace(pair, as_query):
    await update(pair, "a", "inc")
    outcome = await pair.call("a", "incInQuery", NO_ARGS, query=as_query)
    assert decode_args(outcome.reply, [NAT]) == [2]
    assert await query(pair, "a", "get") == [1]
    assert await update(pair, "a", "inc") == [2]  # the actor is still consistent after the query


async def test_update_method_refused_as_query(pair):
    with pytest.raises(errors.WrongMethodKind):
        await pair.call("a", "inc", NO_ARGS, query=True)


async def test_unknown_actor_and_method(pair):
    with pytest.raises(errors.UnknownActor):
        await pair.call("nobody", "inc", NO_ARGS, query=False)
    with pytest.raises(errors.UnknownMethod):
        await pair.call("a", "nothing", NO_ARGS, query=False)


async def test_message_size_limit():
    host = await started(spec("a"), limits=Limits(max_message_bytes=1024))
    try:
        with pytest.raises(errors.MessageTooLarge):
            await host.call("a", "say", encode_args([TEXT], ["x" * 2000]), query=False)
        assert await update(host, "a", "inc") == [1]
    finally:
        await host.stop()


async def test_calls_between_actors(pair):
    b = Principal(actor_principal("b"))
    assert await update(pair, "a", "incPeer", [PRINCIPAL], [b]) == [1]
    assert await query(pair, "b", "get") == [1]
    caller = await update(pair, "a", "askPeerWhoCalled", [PRINCIPAL], [b], rets=[PRINCIPAL])
    assert caller == [Principal(actor_principal("a"))]
    assert await update(pair, "a", "callMissing", [PRINCIPAL], [b], rets=[TEXT]) == ["rejected"]


async def test_call_to_unknown_principal_is_rejected_not_a_crash(pair):
    nobody = Principal(actor_principal("nobody"))
    outcome = await pair.call("a", "incPeer", encode_args([PRINCIPAL], [nobody]), query=False)
    assert outcome.reply is None and f"No route to canister {nobody}" in outcome.reject_message
    assert outcome.reject_code == Reject.CANISTER_REJECT  # Motoko re-raises the destination's reject
    assert await update(pair, "a", "inc") == [1]


async def test_trap_in_callback_keeps_what_came_before_the_await(pair):
    b = Principal(actor_principal("b"))
    outcome = await pair.call("a", "incAwaitThenTrap", encode_args([PRINCIPAL], [b]), query=False)
    assert outcome.reply is None and "trap in a callback" in outcome.reject_message
    assert await query(pair, "a", "get") == [1]  # +1 before the await committed; +1000 after it rolled back
    assert await query(pair, "b", "get") == [1]


async def test_self_call(pair):
    assert await update(pair, "a", "selfInc") == [1]


async def test_principal_is_stable_and_derived_from_the_name(pair):
    assert await query(pair, "a", "id", rets=[PRINCIPAL]) == [Principal(actor_principal("a"))]
    assert actor_principal("a") == actor_principal("a") != actor_principal("b")
    assert pair.info("a").principal == Principal(actor_principal("a"))


async def test_timers_fire(pair):
    await update(pair, "a", "tickOnce", [NAT], [0], rets=[])
    await eventually(lambda: _equals(query(pair, "a", "getTicks"), [1]))
    await update(pair, "b", "tickEvery", [NAT], [20], rets=[])
    await eventually(lambda: _at_least(query(pair, "b", "getTicks"), 3))
    await update(pair, "b", "stopTicking", rets=[])


async def test_system_timer_function():
    host = await started(spec("beat", "beat"))
    try:
        await eventually(lambda: _equals(query(host, "beat", "getBeats"), [3]))
    finally:
        await host.stop()


async def test_debug_print_goes_to_the_log_with_the_actor_name(pair, caplog):
    with caplog.at_level(logging.INFO, logger="moxzid"):
        await update(pair, "b", "say", [TEXT], ["hello from b"], rets=[])
    assert "[b] hello from b" in caplog.text


async def test_runaway_loop_is_stopped_and_the_actor_keeps_serving():
    host = await started(spec("a"), limits=Limits(instructions_per_message=200_000_000))
    try:
        outcome = await host.call("a", "spin", NO_ARGS, query=False)
        assert outcome.reply is None and "instruction limit exceeded" in outcome.reject_message
        assert await update(host, "a", "inc") == [1]
    finally:
        await host.stop()


@pytest.mark.slow
async def test_a_long_message_does_not_stall_other_actors():
    host = await started(spec("a"), spec("b"), limits=Limits(instructions_per_message=20_000_000_000))
    try:
        spinning = asyncio.ensure_future(host.call("a", "spin", NO_ARGS, query=False))
        await asyncio.sleep(0.05)
        assert await update(host, "b", "inc") == [1]
        assert not spinning.done()  # b answered while a was still running its loop
        assert (await spinning).reply is None
    finally:
        await host.stop()


@pytest.mark.slow  # waits out an update that spins to its instruction limit
@pytest.mark.parametrize("classic", [False, True], ids=["enhanced", "classic"])
async def test_a_query_sees_the_state_before_the_running_update(classic):
    host = await started(spec("a", classic=classic), limits=Limits(instructions_per_message=10**11))
    try:
        assert await update(host, "a", "inc") == [1]
        # A few seconds (about 1.5 s on an idle machine, more on a busy one); it adds 1 before its loop.
        slow = asyncio.ensure_future(update(host, "a", "incThenLoop", [NAT], [500_000_000]))
        await asyncio.sleep(0.2)
        for _ in range(5):
            assert await query(host, "a", "get") == [1]
        assert not slow.done()  # the queries were answered while the update ran
        assert await slow == [2]
        assert await query(host, "a", "get") == [2]
    finally:
        await host.stop()


@pytest.mark.parametrize("classic", [False, True], ids=["enhanced", "classic"])
async def test_a_trapped_update_never_shows_through_a_query(classic):
    host = await started(spec("a", classic=classic), limits=SPIN_LIMITS)
    try:
        assert await update(host, "a", "inc") == [1]
        # A first query makes the actor's replica, so the one below only reads it while the update spins.
        assert await query(host, "a", "get") == [1]
        spinning = asyncio.ensure_future(host.call("a", "incThenSpin", NO_ARGS, query=False))
        await asyncio.sleep(0.1)
        assert await query(host, "a", "get") == [1]  # its +1000 is written, not committed
        assert not spinning.done()
        outcome = await spinning
        assert outcome.reply is None and "instruction limit exceeded" in outcome.reject_message
        assert await query(host, "a", "get") == [1]
        assert await update(host, "a", "inc") == [2]
        assert await query(host, "a", "get") == [2]
    finally:
        await host.stop()


async def test_queries_run_beside_each_other_and_leave_no_trace():
    host = await started(spec("a"))
    try:
        await update(host, "a", "inc")
        answers = await asyncio.gather(*(host.call("a", "incInQuery", NO_ARGS, query=True) for _ in range(40)))
        assert {decode_args(o.reply, [NAT])[0] for o in answers} == {2}  # each saw the committed 1
        assert await update(host, "a", "inc") == [2]
        assert await query(host, "a", "get") == [2]
    finally:
        await host.stop()


@pytest.mark.parametrize("classic", [False, True], ids=["enhanced", "classic"])
async def test_upgrade_keeps_state(classic):
    host = await started(spec("a", classic=classic))
    try:
        assert host.info("a").mode == ("classic" if classic else "enhanced")
        await update(host, "a", "inc")
        await update(host, "a", "inc")
        assert await query(host, "a", "get") == [2]  # a replica of the old code now exists
        await host.upgrade("a", build_actor("lab_v2", classic=classic).wasm)
        assert await query(host, "a", "get") == [2]
        assert await query(host, "a", "version", rets=[TEXT]) == ["v2"]
        assert await update(host, "a", "inc") == [12]
        assert "version" in host.info("a").interface.methods
    finally:
        await host.stop()


@pytest.mark.parametrize("classic", [False, True], ids=["enhanced", "classic"])
async def test_incompatible_upgrade_is_refused_and_changes_nothing(classic):
    host = await started(spec("a", classic=classic))
    try:
        await update(host, "a", "inc")
        with pytest.raises(errors.UpgradeRefused):
            await host.upgrade("a", build_actor("lab_incompatible", classic=classic).wasm)
        assert await query(host, "a", "get") == [1]
        assert await update(host, "a", "inc") == [2]
        assert "inc" in host.info("a").interface.methods
    finally:
        await host.stop()


async def test_upgrading_a_created_canister_without_code_is_refused():
    host = await started(spec("a"))
    try:
        created = host.create_canister(ANONYMOUS, {}).to_text()
        with pytest.raises(errors.UpgradeRefused, match="has no code to upgrade"):
            await host.upgrade(created, build_actor("lab_v2").wasm)
        assert host.info(created).mode == "empty"
    finally:
        await host.stop()


async def test_upgrade_with_garbage_is_refused():
    host = await started(spec("a"))
    try:
        with pytest.raises(errors.UpgradeRefused):
            await host.upgrade("a", b"not a wasm module")
        assert await update(host, "a", "inc") == [1]
    finally:
        await host.stop()


@pytest.mark.slow
async def test_refused_uploads_keep_no_compiled_module():
    host = await started(spec("a"))
    try:
        compiled = set(host._modules)  # compiled modules: what 40 refused uploads once grew by 696 MB
        refused = {
            "incompatible": build_actor("lab_incompatible").wasm,  # refused before compiling
            "other persistence": build_actor("lab_v2", classic=True).wasm,  # refused by the actor
            "garbage": b"not a wasm module",
        }
        for why, wasm in refused.items():
            with pytest.raises(errors.UpgradeRefused):
                await host.upgrade("a", wasm)
            assert set(host._modules) == compiled, why
        assert await update(host, "a", "inc") == [1]
        await host.upgrade("a", build_actor("lab_v2").wasm)
        assert await update(host, "a", "inc") == [11]  # v2 counts in tens
    finally:
        await host.stop()


async def _equals(result, expected):
    return await result == expected


async def _at_least(result, n):
    return (await result)[0] >= n


async def test_upgrade_while_a_timer_loop_runs_self_calls():
    host = await started(spec("a"))
    try:
        await update(host, "a", "tickEvery", [NAT], [5], rets=[])
        await eventually(lambda: _at_least(query(host, "a", "getTicks"), 2))
        await asyncio.wait_for(host.upgrade("a", build_actor("lab_v2").wasm), 30)
        ticks = (await query(host, "a", "getTicks"))[0]
        assert ticks >= 2 and await query(host, "a", "version", rets=[TEXT]) == ["v2"]
    finally:
        await host.stop()
