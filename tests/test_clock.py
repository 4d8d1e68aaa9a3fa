"""The manual clock (moxzi_core.runtime.clock, ``moxzid --clock manual``): time stands still until moved;
a move runs the timers and heartbeats due by then, and the deadlines passed; it never moves backward,
and a restart from the same store carries on from it. Driven in process through ``host.clock`` (as a
test harness does) and, once, over HTTP (``POST /clock``) across a daemon's restart."""

import asyncio
import json
import urllib.error
import urllib.request

import pytest
from kit.daemon import project, running_moxzid
from kit.host import eventually, query, spec, update
from kit.http import request

from moxzi_core.candid import NAT, NAT32, NAT64, TEXT
from moxzi_core.errors import ClockError
from moxzi_core.runtime.clock import MANUAL_START_NS
from moxzi_core.runtime.host import ActorSpec, Host, HostConfig
from moxzi_core.store import MemoryStore

SECOND = 10**9
STATE = (NAT, NAT, NAT64, NAT64, NAT64)  # alarm.mo's state(): fired, beats, armedAt, firedAt, now


async def manual_host(*specs: ActorSpec, store: MemoryStore | None = None) -> Host:
    host = Host(list(specs), HostConfig(clock="manual"), store=store)
    await host.start()
    return host


async def test_a_timer_fires_only_once_the_clock_is_moved_past_it_and_heartbeats_run_on_each_move():
    host = await manual_host(spec("alarm", "alarm"))
    try:
        assert host.clock.now_ns() == MANUAL_START_NS
        [armed_at] = await update(host, "alarm", "arm", rets=[NAT64])
        assert armed_at == MANUAL_START_NS  # ic0.time is the clock's, which stood still
        await asyncio.sleep(1.5)  # a system clock would run a heartbeat meanwhile
        assert await query(host, "alarm", "state", STATE) == [0, 0, armed_at, 0, armed_at]

        assert await host.clock.advance(59 * SECOND) == armed_at + 59 * SECOND
        fired, beats, *_ = await query(host, "alarm", "state", STATE)
        assert (fired, beats) == (0, 1)  # not yet due; one heartbeat a move

        await host.clock.advance(SECOND)  # answered once the timer's job (a self-call) has run
        assert await query(host, "alarm", "state", STATE) == [
            1,
            2,
            armed_at,
            armed_at + 60 * SECOND,
            armed_at + 60 * SECOND,
        ]
        await host.clock.set(armed_at + 3600 * SECOND)
        fired, beats, *_ = await query(host, "alarm", "state", STATE)
        assert (fired, beats) == (1, 3)  # a one-off timer: it does not fire again
    finally:
        await host.stop()


async def test_time_is_one_value_within_a_message_and_never_moves_backward():
    host = await manual_host(spec("alarm", "alarm"))
    try:
        await host.clock.advance(SECOND)
        now = host.clock.now_ns()
        assert await update(host, "alarm", "twoTimes", rets=[NAT64, NAT64]) == [now, now]
        with pytest.raises(ClockError, match="never moves backward"):
            await host.clock.set(now - 1)
        with pytest.raises(ClockError, match="never moves backward"):
            await host.clock.advance(-1)
        with pytest.raises(ClockError, match="64 bits"):
            await host.clock.set(2**64)
        assert host.clock.now_ns() == now
    finally:
        await host.stop()
    system = Host([], HostConfig())
    with pytest.raises(ClockError, match="--clock manual"):
        await system.clock.advance(SECOND)


async def test_a_restart_keeps_the_manual_clocks_time_and_the_timer_set_before_it():
    store = MemoryStore()
    host = await manual_host(spec("alarm", "alarm"), store=store)
    try:
        [armed_at] = await update(host, "alarm", "arm", rets=[NAT64])
        now = await host.clock.advance(30 * SECOND)
    finally:
        await host.stop()
    host = await manual_host(spec("alarm", "alarm"), store=store)
    try:
        assert host.clock.now_ns() == now  # not MANUAL_START_NS again
        await host.clock.advance(29 * SECOND)
        assert (await query(host, "alarm", "state", STATE))[0] == 0
        await host.clock.advance(SECOND)
        assert (await query(host, "alarm", "state", STATE))[:4] == [1, 3, armed_at, armed_at + 60 * SECOND]
    finally:
        await host.stop()


async def test_a_store_that_ran_under_the_system_clock_starts_the_manual_one_no_earlier():
    store = MemoryStore()
    system = Host([spec("alarm", "alarm")], HostConfig(), store=store)
    await system.start()
    try:
        [seen] = await update(system, "alarm", "arm", rets=[NAT64])  # now: years after MANUAL_START_NS
    finally:
        await system.stop()
    host = await manual_host(spec("alarm", "alarm"), store=store)
    try:
        assert host.clock.now_ns() >= seen
        [first, _] = await update(host, "alarm", "twoTimes", rets=[NAT64, NAT64])
        assert first >= seen
    finally:
        await host.stop()


async def test_a_bounded_wait_deadline_passes_when_the_clock_passes_it():
    host = await manual_host(spec("bounded", "bounded"))
    try:
        await update(host, "bounded", "begin", [NAT32], [1], rets=[])
        await asyncio.sleep(1.5)  # the callee spins; by the wall clock the deadline would have passed
        assert await query(host, "bounded", "result", [TEXT]) == ["waiting"]
        await host.clock.advance(2 * SECOND, settle=False)  # (the callee keeps calling: never quiet)

        async def expired():
            return (await query(host, "bounded", "result", [TEXT]))[0] != "waiting"

        await eventually(expired)
        assert await query(host, "bounded", "result", [TEXT]) == ["#system_unknown Call deadline has expired."]
        await update(host, "bounded", "halt", rets=[])
    finally:
        await host.stop()


@pytest.mark.slow
def test_post_clock_moves_a_daemons_manual_clock_and_a_restart_keeps_it(tmp_path):
    pytest.importorskip("moxzi_store_lmdb")
    project(tmp_path, "alarm")
    flags = ("-m", "actors.json", "-s", "state", "--plugins", "http,lmdb", "--clock", "manual")
    with running_moxzid(*flags, cwd=tmp_path) as daemon:
        clock = f"{daemon.url}/clock"
        assert request(clock) == (200, {"mode": "manual", "now_ns": MANUAL_START_NS})
        [armed_at] = daemon.call("alarm", "arm")
        assert request(clock, {"advance_ns": 59 * SECOND}) == (200, {"now_ns": armed_at + 59 * SECOND})
        assert daemon.call("alarm", "state", query=True)[:2] == [0, 1]
        assert request(clock, {"advance_ns": SECOND}) == (200, {"now_ns": armed_at + 60 * SECOND})
        assert daemon.call("alarm", "state", query=True)[:2] == [1, 2]
        page = urllib.request.Request(
            clock, data=json.dumps({"advance_ns": SECOND}).encode(), headers={"Origin": "http://evil.example"}
        )
        with pytest.raises(urllib.error.HTTPError) as refused:  # a web page may not move the clock
            urllib.request.urlopen(page, timeout=30)
        assert refused.value.code == 403
        status, answer = request(clock, {"set_ns": armed_at})
        assert status == 409 and "never moves backward" in answer["error"]
        for bad in ({"advance_ns": -1}, {"advance_ns": True}, {"set_ns": 1, "advance_ns": 1}, [1], {"later": 1}):
            status, answer = request(clock, bad)
            assert status == 400 and "advance_ns" in answer["error"], (bad, answer)
        assert daemon.stop() == 0
    with running_moxzid(*flags, cwd=tmp_path) as daemon:
        assert request(f"{daemon.url}/clock") == (200, {"mode": "manual", "now_ns": armed_at + 60 * SECOND})
    flags = ("-m", "actors.json", "--plugins", "http")
    with running_moxzid(*flags, cwd=tmp_path) as daemon:
        status, answer = request(f"{daemon.url}/clock", {"advance_ns": SECOND})
        assert status == 409 and "--clock manual" in answer["error"]
        assert request(f"{daemon.url}/clock")[1]["mode"] == "system"
