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
from kit.memory import reset_peak, resident_mib

from moxzi_core.candid import NAT, encode_args
from moxzi_core.runtime.engine import Limits
from moxzi_core.runtime.host import Host, HostConfig
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
def test_the_codec_processes_end_quietly_with_a_moxzid_killed_with_sigkill(tmp_path):
    """They end, and multiprocessing's resource tracker, which removes their queues' semaphores, writes
    no "leaked semaphore objects" warning into the log it shares with moxzid."""
    with running_moxzid("-m", project(tmp_path, "hostile").name, cwd=tmp_path) as daemon:
        assert len(daemon.call("hostile", "variants", 100_000, query=True)[0]) == 100_000  # in a codec process
        helpers = descendants(daemon.process.pid)
        assert helpers  # the fork server, its codec process, multiprocessing's resource tracker
        daemon.kill()
    for _ in range(300):
        if not any(Path(f"/proc/{pid}").exists() for pid in helpers):
            assert "leaked semaphore" not in daemon.log.read_text()
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
        writer.write(
            b"POST /query-json/hostile/variants HTTP/1.1\r\nHost: localhost\r\nContent-Length: 8\r\n\r\n" + body
        )
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


PERSISTENCE = pytest.mark.parametrize("classic", [False, True], ids=["enhanced", "classic"])


async def total_of(room_mib: int, *actors) -> Host:
    """A host of ``actors`` whose --total-memory-mb leaves ``room_mib`` MiB beyond what they hold when
    installed, started."""
    fresh = await started(*actors)
    held = fresh.memory_budget.held_bytes
    await fresh.stop()
    host = Host(list(actors), HostConfig(total_memory_bytes=held + (room_mib << 20)))
    await host.start()
    return host


@PERSISTENCE
async def test_a_message_growing_past_the_total_memory_budget_is_refused_at_the_grow(classic):
    """--total-memory-mb holds while a message runs: the growth that would pass it fails as one past
    --actor-memory-mb does (Motoko traps), the message is rolled back and its memory given back, and
    another actor is served meanwhile; growth that fits works."""
    host = await total_of(96, spec("a", "hostile", classic=classic), spec("b", "hostile", classic=classic))
    try:
        assert await update(host, "a", "keep", [NAT], [40]) == [40 * 2**20 // 8]  # fits
        before = resident_mib()
        reset_peak()
        # b asks for 400 MiB (200 under classic persistence, 4 bytes an element); a is served meanwhile.
        refused, *served = await asyncio.gather(
            host.call("b", "keep", encode_nat(400), query=False), *(update(host, "a", "inc") for _ in range(20))
        )
        assert sorted(served) == [[n] for n in range(1, 21)]
        assert refused.reply is None
        assert refused.reject_message.startswith("actor b trapped: RTS error: Cannot grow memory (moxzid's wasm")
        assert refused.reject_message.endswith("MiB more when the message began: moxzid --total-memory-mb)")
        assert resident_mib("VmHWM") - before < 96 + 48  # never much past the total, even while it ran
        assert resident_mib() - before < 32  # the growth's RAM went back to the OS
        assert host.memory_budget.held_bytes <= host.memory_budget.total_bytes
        assert await update(host, "b", "inc") == [1]  # b's state is as before the message
        assert await update(host, "b", "keep", [NAT], [10]) == [10 * 2**20 // 8]  # what fits still does
        assert await update(host, "a", "inc") == [21]
        assert host.memory_budget.held_bytes <= host.memory_budget.total_bytes
    finally:
        await host.stop()


async def test_memory_a_refused_growth_left_is_checked_as_the_message_ends():
    """Wasm memory cannot shrink: a rolled-back growth leaves the actor's memory grown (zeroed, not
    counted), and a later message can write it without growing. Growth cannot catch that; the check as
    the message ends does, refusing the message that would leave all actors past the total. (Enhanced
    persistence: under classic persistence, the copying collector grows the memory as such a message
    ends, and that growth is refused, as in the test above.)"""
    host = await total_of(44, spec("a", "hostile"), spec("b", "hostile"))
    try:
        trapped = await host.call("b", "growThenTrap", encode_nat(30), query=False)
        assert "deliberate trap after growing" in trapped.reject_message  # b's memory is 30 MiB larger now
        assert await update(host, "a", "keep", [NAT], [20]) == [20 * 2**20 // 8]  # 24 MiB left
        before = resident_mib()
        refused = await host.call("b", "keep", encode_nat(27), query=False)  # in the 30 MiB grown
        assert refused.reply is None, "27 MiB more fitted in what was left of 44"
        assert refused.reject_message.startswith("actor b trapped: moxzid's wasm memory for all actors is spent:")
        assert "(moxzid --total-memory-mb); the message's growth was given back" in refused.reject_message
        assert resident_mib() - before < 32
        assert await update(host, "b", "inc") == [1]  # b keeps being served: its rolled-back pages don't count
        assert await update(host, "b", "keep", [NAT], [10]) == [10 * 2**20 // 8]
        assert host.memory_budget.held_bytes <= host.memory_budget.total_bytes
    finally:
        await host.stop()


async def test_messages_running_at_once_share_the_total_memory_budget():
    """Each message may grow into what the total has left as it begins (nothing is reserved, so a
    long message cannot keep others from growing); when two at once want more than is left, the one
    that would pass the total is refused, at its growth or as it ends."""
    host = await total_of(48, spec("a", "hostile"), spec("b", "hostile"))
    try:
        outcomes = await asyncio.gather(*(host.call(name, "keep", encode_nat(30), query=False) for name in "ab"))
        kept = [outcome for outcome in outcomes if outcome.reply is not None]
        assert len(kept) == 1, [outcome.reject_message for outcome in outcomes]
        (refused,) = [outcome for outcome in outcomes if outcome.reply is None]
        assert "--total-memory-mb" in refused.reject_message
        assert host.memory_budget.held_bytes <= host.memory_budget.total_bytes
    finally:
        await host.stop()
