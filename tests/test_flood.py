"""One client flooding moxzid: an actor's inbox holds at most --max-queued-calls calls from outside and
--max-queued-mb of their bytes, all actors' inboxes --total-queued-mb, and a client (a remote address)
has at most --http-max-calls-per-client calls in flight; past any the call is refused before it runs
(an upload before it is compiled), naming the flag, every call accepted completes, and the other
clients and actors are served meanwhile. (The IC interface's bound per sender: plugins/gateway_ic/tests/test_gateway_ic.py.)

Actor ``a`` is held busy by ``spin``, which loops until its instruction limit (about a second here), so
the calls sent meanwhile wait in its inbox."""

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor

import aiohttp
import pytest
from kit.daemon import project, running_moxzid
from kit.gateway import post, serving
from kit.host import NO_ARGS, eventually, spec
from kit.http import request

from moxzi_core.candid import NAT, TEXT, Principal, decode_args, encode_args
from moxzi_core.runtime.engine import Limits
from moxzi_core.runtime.host import ActorSpec, Host, HostConfig, actor_principal
from moxzi_core.runtime.inbox_bounds import InboxBounds
from moxzi_core.runtime.management.interface import MANAGEMENT_NAME, SERVICE
from moxzi_core.runtime.messages import ANONYMOUS, FromActor, FromOutside, Reject
from moxzi_core.store import MemoryStore

A = Principal(actor_principal("a"))
SPIN = Limits(instructions_per_message=4 * 10**9)  # lab.spin traps after this: about a second
MiB = 1 << 20
BIG = 400 << 10  # an argument's bytes: two fit in 1 MiB, three do not


async def started(max_queued_calls: int = 500) -> Host:
    host = Host([spec("a"), spec("b")], HostConfig(SPIN, max_queued_calls=max_queued_calls))
    await host.start()
    return host


def spinning(host: Host) -> asyncio.Task:
    """``a`` busy with spin (delivered once the caller yields), called in process, not by a client."""
    return asyncio.create_task(host.call("a", "spin", NO_ARGS, query=False))


def test_only_calls_from_outside_count_against_an_inbox():
    """``room_for_call``: a call from outside past the bound is refused as ``room_for`` refuses it; an
    actor's call (a management call it makes, say) is not bounded so."""
    bounds = InboxBounds(max_calls=1, max_bytes=MiB, max_total_bytes=MiB)
    bounds.hold("a", 0, 10)
    full = bounds.room_for_call(FromOutside("r"), "a", 10)
    assert (
        full is not None and full.reject_code == Reject.SYS_TRANSIENT and "--max-queued-calls 1" in full.reject_message
    )
    assert bounds.room_for_call(FromActor("b", 1), "a", 10) is None
    assert bounds.room_for_call(FromOutside("r"), "b", 10) is None  # another actor's inbox


async def test_a_full_inbox_refuses_calls_from_outside_and_loses_none():
    """Update calls, keyed ones and management calls acting on the actor are refused alike."""
    host = await started(max_queued_calls=4)
    try:
        spin = spinning(host)
        accepted = [asyncio.create_task(host.call("a", "inc", NO_ARGS, query=False)) for _ in range(3)]
        await asyncio.sleep(0)  # each task delivers its call in its first step
        assert host.queued_calls("a") == 4

        refused = await host.call("a", "inc", NO_ARGS, query=False)
        assert refused.reject_code == Reject.SYS_TRANSIENT
        assert "Maximum queue capacity 4 reached" in refused.reject_message
        assert "--max-queued-calls 4" in refused.reject_message
        keyed = await host.call("a", "inc", NO_ARGS, query=False, key=b"k")
        assert keyed.reject_code == Reject.SYS_TRANSIENT and host.queued_calls("a") == 4
        status = encode_args(list(SERVICE.methods["canister_status"].args), [{"canister_id": A}])
        managing = await host.call(MANAGEMENT_NAME, "canister_status", status, query=False)
        assert managing.reject_code == Reject.SYS_TRANSIENT and "Maximum queue capacity" in managing.reject_message

        # Meanwhile the other actor takes calls, and a's queries are answered.
        assert decode_args((await host.call("b", "inc", NO_ARGS, query=False)).reply) == [1]
        assert decode_args((await host.call("a", "get", NO_ARGS, query=True)).reply) == [0]
        assert not spin.done()

        assert (await spin).reject_code == Reject.CANISTER_ERROR  # its instruction limit
        assert sorted(decode_args(outcome.reply)[0] for outcome in await asyncio.gather(*accepted)) == [1, 2, 3]
        assert host.queued_calls("a") == 0
        # The refused keyed call did not run and kept no outcome: its retry runs it.
        assert decode_args((await host.call("a", "inc", NO_ARGS, query=False, key=b"k")).reply) == [4]
    finally:
        await host.stop()


def big_inc() -> bytes:
    """An argument of inc (which takes none: Candid lets it ignore extra ones) of about BIG bytes."""
    return encode_args([TEXT], ["x" * BIG])


def install(module: bytes) -> bytes:
    """install_code's argument upgrading actor ``a`` to ``module``."""
    value = {
        "mode": {"upgrade": None},
        "canister_id": A,
        "wasm_module": module,
        "arg": b"",
        "sender_canister_version": None,
    }
    return encode_args(list(SERVICE.methods["install_code"].args), [value])


@pytest.mark.slow  # fills inboxes behind a spinning update
async def test_inboxes_hold_at_most_their_bytes_and_a_refused_upload_is_not_compiled():
    """Past --max-queued-mb an actor's inbox refuses a call from outside, an upload too, before its
    module is compiled; past --total-queued-mb every inbox does, an empty one too (its reject on the
    JSON routes is a 503). A module that does not compile shows the order: its refusal is the bound's
    (or, from a stranger, the controllers'), never the compiler's."""
    lab = spec("a")
    a = ActorSpec("a", lab.wasm, lab.did, controllers=(ANONYMOUS,))
    host = Host([a, spec("b")], HostConfig(SPIN, max_queued_bytes=MiB, total_queued_bytes=MiB))
    await host.start()
    broken = b"\0asm\1\0\0\0" + b"\xff" * BIG
    try:
        async with serving(host) as (_, client):
            assert (await post(client, "/call-json/b/say", ["x" * BIG]))[0] == 200  # codec processes started
            spin = spinning(host)
            accepted = [asyncio.create_task(host.call("a", "inc", big_inc(), query=False)) for _ in range(2)]
            await asyncio.sleep(0)
            assert host.queued_bytes("a") == len(NO_ARGS) + 2 * len(big_inc())

            refused = await host.call("a", "inc", big_inc(), query=False)
            assert refused.reject_code == Reject.SYS_TRANSIENT and "--max-queued-mb 1" in refused.reject_message
            keyed = await host.call("a", "inc", big_inc(), query=False, key=b"k")
            assert keyed.reject_code == Reject.SYS_TRANSIENT
            upload = await host.call(MANAGEMENT_NAME, "install_code", install(broken), query=False)
            assert upload.reject_code == Reject.SYS_TRANSIENT and "--max-queued-mb 1" in upload.reject_message
            accepted.append(asyncio.create_task(host.call("a", "inc", NO_ARGS, query=False)))  # small: fits
            await asyncio.sleep(0)
            assert host.queued_calls("a") == 4

            # b holds nothing, but all inboxes together would pass their bound: a 503 naming it.
            status, answer = await post(client, "/call-json/b/say", ["x" * BIG])
            assert (status, answer["reject_code"]) == (503, Reject.SYS_TRANSIENT)
            assert "--total-queued-mb 1" in answer["reject_message"]
            assert await post(client, "/call-json/b/inc", []) == (200, [1])  # served meanwhile
            assert not spin.done()

            assert (await spin).reject_code == Reject.CANISTER_ERROR
            assert sorted(decode_args(outcome.reply)[0] for outcome in await asyncio.gather(*accepted)) == [1, 2, 3]
            assert host.queued_bytes("a") == host.inboxes.total_bytes == 0
            assert decode_args((await host.call("a", "inc", big_inc(), query=False, key=b"k")).reply) == [4]

            stranger = await host.call(MANAGEMENT_NAME, "install_code", install(broken), query=False, caller=b"\x07")
            assert stranger.reject_code == Reject.CANISTER_ERROR and "only the controllers" in stranger.reject_message
            compiled = await host.call(MANAGEMENT_NAME, "install_code", install(broken), query=False)
            assert (
                compiled.reject_code == Reject.CANISTER_ERROR and "only the controllers" not in compiled.reject_message
            )
    finally:
        await host.stop()


async def test_calls_restored_after_a_restart_count_and_all_run():
    """What the inbox held when moxzid stopped comes back counted against the bound (here a lower one
    than when they were taken), and every call runs."""
    store = MemoryStore()
    host = Host([spec("a")], HostConfig(SPIN, max_queued_calls=4), store=store)
    await host.start()
    taken = [spinning(host)] + [asyncio.create_task(host.call("a", "inc", NO_ARGS, query=False)) for _ in range(3)]
    await asyncio.sleep(0)
    await host.stop()  # spin is cut short: it and the three calls behind it stay in the inbox
    for call in taken:
        call.cancel()

    host = Host([spec("a")], HostConfig(SPIN, max_queued_calls=2), store=store)
    await host.start()
    try:
        assert host.queued_calls("a") == 4  # spin runs again, the calls wait behind it
        assert host.queued_bytes("a") == 4 * len(NO_ARGS)
        refused = await host.call("a", "inc", NO_ARGS, query=False)
        assert "--max-queued-calls 2" in refused.reject_message
        await eventually(lambda: _async(host.queued_calls("a") == 0))
        assert decode_args((await host.call("a", "get", NO_ARGS, query=True)).reply) == [3]
    finally:
        await host.stop()


async def test_a_client_past_its_calls_in_flight_is_429_and_another_client_is_served():
    host = await started()
    try:
        async with serving(host, http_max_calls_per_client=3) as (gateway, flooder):
            spin = spinning(host)
            await asyncio.sleep(0)
            flood = [asyncio.create_task(post(flooder, "/call-json/a/inc", [])) for _ in range(3)]
            await eventually(lambda: _async(host.queued_calls("a") == 4))

            status, answer = await post(flooder, "/call-json/a/inc", [])
            assert status == 429
            assert "--http-max-calls-per-client 3" in answer["error"]
            assert (await post(flooder, "/query-json/b/get", []))[0] == 429  # queries count too

            other = aiohttp.TCPConnector(local_addr=("127.0.0.2", 0))
            async with aiohttp.ClientSession(f"http://{gateway.address}", connector=other) as client:
                assert await post(client, "/call-json/b/inc", []) == (200, [1])
                assert await post(client, "/query-json/a/get", []) == (200, [0])
                queued = asyncio.create_task(post(client, "/call-json/a/inc", []))
                await eventually(lambda: _async(host.queued_calls("a") == 5))
                assert not spin.done()

                assert (await spin).reject_code == Reject.CANISTER_ERROR
                answers = await asyncio.gather(*flood)
                assert sorted(values for _, values in answers) == [[1], [2], [3]]
                assert await queued == (200, [4])
            assert await post(flooder, "/call-json/a/inc", []) == (200, [5])  # its calls ended: served again
    finally:
        await host.stop()


async def test_a_client_that_hangs_up_keeps_its_calls_in_flight_until_they_end():
    """aiohttp does not cancel a handler whose client left, so its call runs on and still counts: hanging
    up and calling again cannot queue more than the bound."""
    host = await started()
    try:
        async with serving(host, http_max_calls_per_client=2) as (gateway, flooder):
            spin = spinning(host)
            await asyncio.sleep(0)
            flood = [asyncio.create_task(post(flooder, "/call-json/a/inc", [])) for _ in range(2)]
            await eventually(lambda: _async(host.queued_calls("a") == 3))
            for call in flood:
                call.cancel()  # closes its connection
            await asyncio.gather(*flood, return_exceptions=True)
            assert (await post(flooder, "/call-json/a/inc", []))[0] == 429

            await spin
            await eventually(lambda: _async(host.queued_calls("a") == 0))
            assert decode_args((await host.call("a", "get", NO_ARGS, query=True)).reply) == [2]  # both ran
            await eventually(lambda: _async_post_ok(flooder))
    finally:
        await host.stop()


async def _async(value: bool) -> bool:
    return value


async def _async_post_ok(session) -> bool:
    """Whether a call from this client is taken again (its handlers ended after their calls)."""
    return (await post(session, "/query-json/a/get", []))[0] == 200


BUSY_ROUNDS = 200_000_000  # about 0.6 s on an idle machine, seconds on a busy one


@pytest.mark.slow
def test_moxzid_refuses_a_call_to_a_full_inbox_and_runs_those_taken(tmp_path):
    """The flag as moxzid reads it, and the queue as /metrics shows it."""
    project(tmp_path, "lab")
    flags = ("-m", "actors.json", "--max-queued-calls", "2")
    with running_moxzid(*flags, cwd=tmp_path, plugins="http,console") as daemon, ThreadPoolExecutor(2) as pool:
        busy = pool.submit(daemon.call, "lab", "incThenLoop", BUSY_ROUNDS)
        _wait_for_queued(daemon, 1)
        queued = pool.submit(daemon.call, "lab", "inc")
        _wait_for_queued(daemon, 2)
        status, answer = daemon.try_call("lab", "inc")
        assert (status, answer["reject_code"]) == (503, Reject.SYS_TRANSIENT)
        assert "Maximum queue capacity 2 reached" in answer["reject_message"]
        assert "--max-queued-calls 2" in answer["reject_message"]
        held = len(encode_args([NAT], [BUSY_ROUNDS])) + len(NO_ARGS)  # the two calls' arguments
        assert f'moxzi_actor_queued_bytes{{actor="lab"}} {held}' in request(f"{daemon.url}/metrics").body
        assert sorted([busy.result(), queued.result()]) == [[1], [2]]
        assert daemon.call("lab", "get", query=True) == [2]


def _wait_for_queued(daemon, count: int) -> None:
    line = f'moxzi_actor_queued_calls{{actor="lab"}} {count}'
    for _ in range(500):
        if line in request(f"{daemon.url}/metrics").body:
            return
        time.sleep(0.01)
    raise AssertionError(f"lab never held {count} calls from outside")
