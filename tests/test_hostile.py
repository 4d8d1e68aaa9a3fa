"""What a hostile (or careless) actor can ask of moxzid, and that other actors and clients keep being
served meanwhile: replies that are slow to turn into JSON or that the client stops reading, messages
that grow memory past the actor's budget or grow it and trap, query replicas of a large actor."""

import asyncio
import contextlib
import logging
import os
import signal
import socket
import time
from pathlib import Path

import pytest
from kit.daemon import project, running_moxzid
from kit.gateway import post, serving
from kit.held import HeldElsewhere
from kit.host import eventually, query, spec, started, update

from moxzi_core.candid import NAT, encode_args
from moxzi_core.runtime.host import Host
from moxzi_core.runtime.instance import Limits
from moxzi_gateway_http import codec, routes


@pytest.fixture
async def host():
    host = await started(spec("hostile", "hostile"))
    yield host
    await host.stop()


async def test_a_large_reply_is_turned_into_json_in_a_codec_process(host, monkeypatch, tmp_path):
    held = HeldElsewhere(tmp_path, codec.json_results)
    monkeypatch.setattr(routes, "json_results", held)
    async with serving(host) as (_, http):
        large = asyncio.create_task(post(http, "/query-json/hostile/variants", [100_000]))
        assert await asyncio.to_thread(held.started) not in (None, os.getpid())
        assert await post(http, "/call-json/hostile/inc", []) == (200, [1])  # served while it converts
        assert await post(http, "/query-json/hostile/get", []) == (200, [1])
        assert not large.done()
        held.release()
        status, reply = await large
    assert status == 200 and len(reply[0]) == 100_000 and reply[0][:3] == [{"a": None}, {"b": 1}, {"a": None}]


async def test_a_codec_process_that_dies_fails_its_message_only(host, monkeypatch, tmp_path):
    held = HeldElsewhere(tmp_path, codec.json_results)
    monkeypatch.setattr(routes, "json_results", held)
    async with serving(host) as (_, http):
        large = asyncio.create_task(post(http, "/query-json/hostile/variants", [100_000]))
        converting = await asyncio.to_thread(held.started)
        assert converting is not None
        os.kill(converting, signal.SIGKILL)  # as the kernel's OOM killer would
        status, answer = await large
        assert status == 500 and "failed: its codec process was killed or ran past its 3072 MiB" in answer["error"]
        assert await post(http, "/call-json/hostile/inc", []) == (200, [1])
        held.release()
        status, reply = await post(http, "/query-json/hostile/variants", [100_000])  # a fresh process
        assert status == 200 and len(reply[0]) == 100_000


def descendants(pid: int) -> set[int]:
    """The processes below ``pid``, from /proc."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, todo = set(), [pid]
    while todo:
        below = children.get(todo.pop(), [])
        found.update(below)
        todo.extend(below)
    return found


@pytest.mark.slow  # a moxzid, killed
def test_the_codec_processes_end_with_a_moxzid_killed_with_sigkill(tmp_path):
    with running_moxzid("-m", project(tmp_path, "hostile").name, cwd=tmp_path) as daemon:
        assert len(daemon.call("hostile", "variants", 100_000, query=True)[0]) == 100_000  # in a codec process
        helpers = descendants(daemon.process.pid)
        assert helpers  # the fork server, its codec process, multiprocessing's resource tracker
        daemon.kill()
    for _ in range(300):
        if not any(Path(f"/proc/{pid}").exists() for pid in helpers):
            return
        time.sleep(0.1)
    raise AssertionError(f"still running 30 s after moxzid was killed: {sorted(helpers)}")


async def test_a_reply_too_large_for_a_codec_process_fails_alone_and_others_are_served(host, monkeypatch):
    monkeypatch.setattr(codec, "CODEC_MEMORY_BYTES", 400 << 20)  # (a process starts with about 200 MiB)
    async with serving(host) as (_, http):
        status, answer = await post(http, "/query-json/hostile/variants", [2_000_000])  # ~770 MiB of JSON
        assert status == 500 and "its codec process was killed or ran past its 400 MiB" in answer["error"]
        assert await post(http, "/call-json/hostile/inc", []) == (200, [1])
        status, reply = await post(http, "/query-json/hostile/variants", [100_000])
        assert status == 200 and len(reply[0]) == 100_000


async def test_a_client_that_stops_reading_its_reply_is_closed_and_others_are_served(host, caplog):
    caplog.set_level(logging.INFO, "moxzi.http")
    async with serving(host, http_write_secs=0.5) as (gateway, http):
        stalled = socket.socket()
        stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # so the reply backs up at once
        stalled.connect(tuple(gateway.address))
        reader, writer = await asyncio.open_connection(sock=stalled)
        # A reply of 6.6 MB (more than the kernel's socket buffers take), which this client never reads
        body = b"[700000]"
        writer.write(b"POST /query-json/hostile/variants HTTP/1.1\r\nHost: x\r\nContent-Length: 8\r\n\r\n" + body)
        assert await post(http, "/call-json/hostile/inc", []) == (200, [1])  # served meanwhile

        async def closed():
            return "it took none of its reply in 0.5 s (--http-write-secs)" in caplog.text

        await eventually(closed, 120)
        received = 0
        with contextlib.suppress(ConnectionResetError):
            while chunk := await asyncio.wait_for(reader.read(1 << 16), 30):
                received += len(chunk)
        assert received < 6_000_000  # the rest of the reply was dropped
        writer.close()
        assert await post(http, "/query-json/hostile/get", []) == (200, [1])


def resident_mib() -> int:
    return int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE") >> 20


async def test_an_actor_grows_only_to_its_memory_budget_and_a_trapped_growth_goes_back():
    host = await started(spec("hostile", "hostile"), limits=Limits(memory_bytes=512 << 20))
    try:
        refused = await host.call("hostile", "growThenTrap", encode_nat(1024), query=False)
        assert refused.reject_message == (
            "actor hostile trapped: RTS error: Cannot grow memory (its memory may "
            "grow to 512 MiB: moxzid --actor-memory-mb)"
        )
        before = resident_mib()
        trapped = await host.call("hostile", "growThenTrap", encode_nat(300), query=False)
        assert "deliberate trap after growing" in trapped.reject_message  # grew by 300 MiB, wrote it, trapped
        assert resident_mib() - before < 64  # the RAM went back to the OS
        assert await update(host, "hostile", "inc") == [1]
        assert resident_mib() - before < 64  # and committing after it copies no grown page
        assert await update(host, "hostile", "keep", [NAT], [100]) == [100 * 2**20 // 8]
    finally:
        await host.stop()


async def test_query_replicas_share_one_memory_budget_and_a_large_actor_gets_one():
    host = await started(spec("hostile", "hostile"), limits=Limits(memory_bytes=384 << 20))
    try:
        assert await update(host, "hostile", "keep", [NAT], [200]) == [200 * 2**20 // 8]
        heap_mib = host.footprint("hostile")[0] >> 20  # (about 384: the collector's room besides)
        before = resident_mib()
        # More queries than query threads, each running long enough to overlap: without the budget,
        # each thread would make its own replica, a copy of the whole heap.
        queries = [
            asyncio.create_task(host.call("hostile", "busy", encode_nat(20_000_000), query=True)) for _ in range(4)
        ]
        assert await update(host, "hostile", "inc") == [1]  # the actor's own thread is not held up
        assert all(outcome.reply is not None for outcome in await asyncio.gather(*queries))
        assert resident_mib() - before < heap_mib * 1.5  # one replica, not one per query thread
        assert await query(host, "hostile", "get") == [1]
    finally:
        await host.stop()


def encode_nat(n: int) -> bytes:
    return encode_args([NAT], [n])


async def test_all_actors_together_grow_only_to_the_total_memory_budget():
    """--total-memory-mb: a message that would leave all actors' written wasm memory past it is rolled
    back like a trap (its growth given back, the RAM too, and not counted); that actor and the others
    keep being served, and what still fits is admitted."""
    actors = [spec("a", "hostile"), spec("b", "hostile")]
    fresh = await started(*actors)
    held = fresh.memory_budget.held_bytes  # what the two hold when installed
    await fresh.stop()
    host = Host(actors, total_memory_bytes=held + (96 << 20))  # room for 96 MiB more, for both
    await host.start()
    try:
        assert await update(host, "a", "keep", [NAT], [40]) == [40 * 2**20 // 8]
        before = resident_mib()
        refused = await host.call("b", "keep", encode_nat(80), query=False)
        assert refused.reply is None, "80 MiB more fitted in what was left of 96"
        assert refused.reject_message.startswith("actor b trapped: moxzid's wasm memory for all actors is spent:")
        assert "(moxzid --total-memory-mb); the message's growth was given back" in refused.reject_message
        assert resident_mib() - before < 64  # the refused growth's RAM went back to the OS
        assert await update(host, "b", "inc") == [1]  # b keeps being served: its rolled-back pages don't count
        assert await update(host, "a", "inc") == [1]
        assert await update(host, "b", "keep", [NAT], [10]) == [10 * 2**20 // 8]  # what fits still does
        assert host.memory_budget.held_bytes <= host.memory_budget.total_bytes
    finally:
        await host.stop()
