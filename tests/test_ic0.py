"""System API calls beyond messages and memory, canister_heartbeat, composite queries (their call
graph's limits, and their answers beside running updates) and the output queue's limit, with a compiled
Motoko actor in both persistence modes: a module importing every function moc may import installs, and
each call answers, or traps where the IC's availability table forbids it, as the IC does."""

import asyncio

import pytest
from kit.actorbuild import build_actor
from kit.host import NO_ARGS, SPIN_LIMITS, eventually, query, spec, started, update

from moxzi_core.candid import BLOB, BOOL, NAT, NAT64, PRINCIPAL, TEXT, Opt, Vec, decode_args, encode_args
from moxzi_core.runtime import tasks
from moxzi_core.runtime.engine import STABLE_FUNCTIONS, Limits
from moxzi_core.runtime.host import ActorSpec
from moxzi_core.runtime.ic0 import CONTEXT_NAMES, QUEUE_CAPACITY, WHERE, SystemApi
from moxzi_core.runtime.management.interface import MANAGEMENT_NAME, SERVICE
from moxzi_core.runtime.messages import Reject
from moxzi_core.runtime.queries import MAX_CALL_DEPTH

OPERATOR = b"\x04"  # the anonymous principal, as the manifest's controller


def test_every_listed_function_is_implemented_and_none_is_callable_before_it_should_be():
    in_python = {name for name in WHERE if hasattr(SystemApi, "_" + name)}
    assert in_python | set(STABLE_FUNCTIONS) == set(WHERE) and not in_python & set(STABLE_FUNCTIONS)
    # The stable memory's functions run in wasm, unguarded: the IC lets every entry point call them.
    assert all(WHERE[name] == set(CONTEXT_NAMES) for name in STABLE_FUNCTIONS)
    # Only what the spec marks "s" may run in the start function.
    assert {n for n, where in WHERE.items() if "s" in where} == {
        "stable64_size",
        "stable64_grow",
        "stable64_read",
        "stable64_write",
        "performance_counter",
        "is_controller",
        "in_replicated_execution",
        "cost_call",
        "cost_create_canister",
        "cost_http_request",
        "cost_sign_with_ecdsa",
        "cost_sign_with_schnorr",
        "cost_vetkd_derive_key",
        "debug_print",
        "trap",
    }


@pytest.mark.parametrize("classic", [False, True], ids=["enhanced", "classic"])
async def test_system_api_answers_as_on_the_ic(classic):
    host = await started(spec("s", "sysapi", classic=classic))
    try:
        await update(host, "s", "certify", [BLOB], [b"root hash"], rets=[])
        trapped = await host.call("s", "certifyInQuery", encode_args([BLOB], [b"x"]), query=True)
        assert trapped.reject_code == Reject.CANISTER_ERROR
        assert "ic0.certified_data_set cannot be called from a query method" in trapped.reject_message
        assert await query(host, "s", "certificate", rets=[Opt(BLOB)]) == [None]
        assert await update(host, "s", "replicatedInUpdate", rets=[BOOL]) == [True]
        assert await query(host, "s", "replicatedInQuery", rets=[BOOL]) == [False]
        replicated = await host.call("s", "replicatedInQuery", NO_ARGS, query=False)  # a query run as an update
        assert decode_args(replicated.reply, [BOOL]) == [True]
        assert await update(host, "s", "deadline", rets=[Opt(NAT)]) == [None]  # an unbounded-wait call
        (deadline, sent) = await update(host, "s", "boundedDeadline", rets=[Opt(NAT), NAT64])
        assert deadline.value == sent + 5 * 10**9  # the time the call was made (its message's) + timeout
        (before,) = await query(host, "s", "version", rets=[NAT64])
        await update(host, "s", "touch", rets=[])
        assert await query(host, "s", "version", rets=[NAT64]) == [before + 1]
    finally:
        await host.stop()


@pytest.mark.parametrize("classic", [False, True], ids=["enhanced", "classic"])
async def test_heartbeat_runs_about_once_a_second_and_not_while_stopped(classic, monkeypatch):
    # A beat each 0.5 s instead of each second: the same schedule, twice as fast (a beat more than the
    # two allowed below needs a stall of 0.5 s between the start and the count).
    monkeypatch.setattr(tasks, "HEARTBEAT_SECONDS", 0.5)
    built = build_actor("heart", classic=classic)
    host = await started(ActorSpec("h", built.wasm, built.did, controllers=(OPERATOR,)))
    try:
        await eventually(lambda: _at_least(query(host, "h", "count"), 2), seconds=tasks.HEARTBEAT_SECONDS * 10)
        (before,) = await query(host, "h", "count")
        await _manage(host, "stop_canister")
        await asyncio.sleep(tasks.HEARTBEAT_SECONDS * 5)  # running, it would beat about 5 times meanwhile
        await _manage(host, "start_canister")
        (after,) = await query(host, "h", "count")
        assert after <= before + 2  # a beat between the count and the stop, one right after the start
    finally:
        await host.stop()


async def _manage(host, method):
    arg = encode_args(list(SERVICE.methods[method].args), [{"canister_id": host.info("h").principal}])
    outcome = await host.call(MANAGEMENT_NAME, method, arg, query=False, caller=OPERATOR)
    assert outcome.reply is not None, outcome.reject_message


async def _at_least(result, n):
    return (await result)[0] >= n


@pytest.mark.parametrize("classic", [False, True], ids=["enhanced", "classic"])
async def test_a_full_output_queue_refuses_the_call_and_motoko_throws(classic):
    host = await started(*(spec(name, "flood", classic=classic) for name in "ab"))
    try:
        peer = host.info("b").principal
        sent, why = await update(host, "a", "flood", [PRINCIPAL, NAT], [peer, QUEUE_CAPACITY + 100], rets=[NAT, TEXT])
        assert sent == QUEUE_CAPACITY and why.startswith("#call_error({err_code = 2})"), why
        await eventually(lambda: _at_least(query(host, "b", "count"), QUEUE_CAPACITY))
        await asyncio.sleep(0.2)
        assert await query(host, "b", "count") == [QUEUE_CAPACITY]  # the refused calls were never sent
        # Once the answers are back the queue has room again.
        assert await update(host, "a", "flood", [PRINCIPAL, NAT], [peer, 10], rets=[NAT, TEXT]) == [10, ""]
    finally:
        await host.stop()


@pytest.mark.parametrize("classic", [False, True], ids=["enhanced", "classic"])
async def test_composite_queries_call_other_actors_queries(classic):
    host = await started(*(spec(name, "composite", classic=classic) for name in "abc"))
    try:
        for name, value in zip("abc", (1, 20, 300)):
            await update(host, name, "set", [NAT], [value], rets=[])
        b, c = host.info("b").principal, host.info("c").principal
        sum_args = encode_args([Vec(PRINCIPAL)], [[b, c]])
        outcome = await host.call("a", "sum", sum_args, query=True)
        assert decode_args(outcome.reply, [NAT]) == [321]
        assert await query(host, "a", "get") == [1]  # the composite query left no trace
        nested = await host.call("a", "sumOfSums", encode_args([PRINCIPAL, Vec(PRINCIPAL)], [b, [c]]), query=True)
        assert decode_args(nested.reply, [NAT]) == [321]  # 1 + (20 + 300)
        # As on the IC, a composite query never runs in replicated mode, and calls only queries.
        refused = await host.call("a", "sum", sum_args, query=False)
        assert refused.reject_code == Reject.CANISTER_ERROR and "composite query" in refused.reject_message
        # A call to its own actor sees the actor's committed state, not the caller's changes (+1000 each).
        itself = encode_args([Vec(PRINCIPAL)], [[host.info("a").principal] * 2])
        assert decode_args((await host.call("a", "sum", itself, query=True)).reply, [NAT]) == [3]
    finally:
        await host.stop()


# Loop rounds of an update that lasts a few seconds (about 1.5 s on an idle machine, more on a busy one),
# far longer than the queries.
LONG = 500_000_000


@pytest.mark.slow  # waits out an update that spins to its instruction limit
@pytest.mark.parametrize("classic", [False, True], ids=["enhanced", "classic"])
async def test_a_composite_query_sees_the_state_before_its_actors_running_update(classic):
    specs = (spec(name, "composite", classic=classic) for name in "ab")
    host = await started(*specs, limits=Limits(instructions_per_message=10**11))
    try:
        await update(host, "a", "set", [NAT], [1], rets=[])
        await update(host, "b", "set", [NAT], [20], rets=[])
        b = host.info("b").principal
        slow = asyncio.ensure_future(update(host, "a", "setThenLoop", [NAT, NAT], [5000, LONG], rets=[]))
        await asyncio.sleep(0.2)
        for _ in range(5):
            assert await _sum(host, "a", b) == 21  # a's 1, not the 5000 its running update wrote
        assert not slow.done()  # answered while the update ran, not after it
        await slow
        assert await _sum(host, "a", b) == 5020
    finally:
        await host.stop()


@pytest.mark.slow  # waits out an update that spins to its instruction limit
@pytest.mark.parametrize("classic", [False, True], ids=["enhanced", "classic"])
async def test_a_composite_query_calling_a_busy_actor_sees_its_committed_state_at_once(classic):
    host = await started(
        spec("a", "composite", classic=classic),
        spec("b", classic=classic),
        limits=Limits(instructions_per_message=10**11),
    )
    try:
        await update(host, "a", "set", [NAT], [1], rets=[])
        assert await update(host, "b", "inc") == [1]
        b = host.info("b").principal
        slow = asyncio.ensure_future(update(host, "b", "incThenLoop", [NAT], [LONG]))
        await asyncio.sleep(0.2)
        for _ in range(5):
            assert await _sum(host, "a", b) == 2  # b's committed 1, not the 2 its running update wrote
        assert not slow.done()  # b's query did not wait for b's update
        assert await slow == [2]
        assert await _sum(host, "a", b) == 3
    finally:
        await host.stop()


@pytest.mark.parametrize("classic", [False, True], ids=["enhanced", "classic"])
async def test_a_trapped_update_never_shows_through_a_composite_query(classic):
    host = await started(
        spec("a", "composite", classic=classic),
        spec("b", classic=classic),
        limits=SPIN_LIMITS,
    )
    try:
        await update(host, "a", "set", [NAT], [1], rets=[])
        assert await update(host, "b", "inc") == [1]
        b = host.info("b").principal
        for actor, method, args in (("b", "incThenSpin", ([], [])), ("a", "setThenLoop", ([NAT, NAT], [5000, 10**12]))):
            running = asyncio.ensure_future(host.call(actor, method, encode_args(*args), query=False))
            await asyncio.sleep(0.1)
            assert await _sum(host, "a", b) == 2  # what either wrote before running out is not committed
            assert not running.done()
            outcome = await running
            assert outcome.reply is None and "instruction limit exceeded" in outcome.reject_message
            assert await _sum(host, "a", b) == 2
    finally:
        await host.stop()


async def test_a_composite_query_sees_its_callees_new_code_after_an_upgrade():
    host = await started(spec("a", "composite"), spec("b"))
    try:
        b = host.info("b").principal
        assert await _sum(host, "a", b) == 0  # b has a replica of its first code now
        before = await host.call("a", "versionOf", encode_args([PRINCIPAL], [b]), query=True)
        assert before.reply is None  # b's first code has no `version`
        await host.upgrade("b", build_actor("lab_v2").wasm)
        after = await host.call("a", "versionOf", encode_args([PRINCIPAL], [b]), query=True)
        assert decode_args(after.reply, [TEXT]) == ["v2"]
    finally:
        await host.stop()


async def test_composite_queries_may_call_back_at_their_own_actor_up_to_the_ics_depth():
    host = await started(*(spec(name, "composite") for name in "ab"))
    try:
        a, b = host.info("a").principal, host.info("b").principal

        async def bounce(calls):
            return await host.call("a", "bounce", encode_args([PRINCIPAL, PRINCIPAL, NAT], [a, b, calls]), query=True)

        # a -> b -> a ...: each call back at an actor runs on another replica of it, so none waits.
        deepest = await asyncio.wait_for(bounce(MAX_CALL_DEPTH - 1), 10)
        assert decode_args(deepest.reply, [NAT]) == [MAX_CALL_DEPTH - 1]
        too_deep = await asyncio.wait_for(bounce(MAX_CALL_DEPTH), 10)
        assert too_deep.reply is None  # the deepest call was refused, and each caller passed that on
        assert too_deep.reject_message == f"composite query calls exceeded the maximum call depth ({MAX_CALL_DEPTH})"
    finally:
        await host.stop()


async def _sum(host, actor, *peers) -> int:
    outcome = await host.call(actor, "sum", encode_args([Vec(PRINCIPAL)], [list(peers)]), query=True)
    assert outcome.reply is not None, outcome.reject_message
    return decode_args(outcome.reply, [NAT])[0]


@pytest.mark.parametrize("classic", [False, True], ids=["enhanced", "classic"])
async def test_a_composite_query_has_one_instruction_limit_for_its_whole_call_graph(classic):
    limit = 50_000_000
    specs = (spec(name, "composite", classic=classic) for name in "abc")
    host = await started(*specs, limits=Limits(instructions_per_query=limit))
    try:
        b = host.info("b").principal

        async def burn(rounds):
            outcome = await host.call("b", "burn", encode_args([NAT], [rounds]), query=True)
            assert outcome.reply is not None, outcome.reject_message
            return decode_args(outcome.reply, [NAT64])[0]

        base, per_round = await burn(0), (await burn(10_000) - await burn(0)) / 10_000
        rounds = int((0.6 * limit - base) / per_round)  # one burn takes about 60% of the limit
        assert 0.5 * limit < await burn(rounds) < 0.7 * limit
        args = [PRINCIPAL, NAT, NAT]
        once = await host.call("a", "burnAt", encode_args(args, [b, rounds, 1]), query=True)
        assert decode_args(once.reply, [NAT]) == [1]
        # Each call alone is within the limit, but the two together are not: the whole query fails.
        twice = await host.call("a", "burnAt", encode_args(args, [b, rounds, 2]), query=True)
        assert twice.reply is None and twice.reject_code == Reject.CANISTER_ERROR
        assert twice.reject_message.startswith("composite query calls exceeded the instruction limit: 50,000,000")
        # A composite query it calls spends the same budget: c.burn through b, then c.burn again.
        via = [PRINCIPAL, PRINCIPAL, NAT]
        c = host.info("c").principal
        small = await host.call("a", "burnVia", encode_args(via, [b, c, rounds // 3]), query=True)
        assert decode_args(small.reply, [NAT]) == [2]
        nested = await host.call("a", "burnVia", encode_args(via, [b, c, rounds]), query=True)
        assert nested.reply is None and nested.reject_message.startswith("composite query calls exceeded")
    finally:
        await host.stop()


@pytest.mark.slow  # waits out calls that spin to their instruction limit
@pytest.mark.parametrize("classic", [False, True], ids=["enhanced", "classic"])
async def test_a_composite_query_that_answered_drops_its_outstanding_calls(classic):
    host = await started(*(spec(name, "composite", classic=classic) for name in "ab"))
    try:
        await update(host, "b", "set", [NAT], [42], rets=[])
        b = host.info("b").principal
        # The second call (b.spin, which would run to the limit) is never made once `first` answered.
        outcome = await host.call("a", "first", encode_args([PRINCIPAL], [b]), query=True)
        assert decode_args(outcome.reply, [NAT]) == [42]
        spun = await host.call("b", "spin", encode_args([], []), query=True)
        assert spun.reply is None and "instruction limit" in spun.reject_message  # what running it does
    finally:
        await host.stop()
