"""What a hostile (or careless) actor can ask of moxzid, and that other actors and clients keep being
served meanwhile: replies that are slow to turn into JSON, messages that grow memory past the actor's
budget or grow it and trap."""

import asyncio
import os
import threading
from pathlib import Path

import pytest
from kit.gateway import post, serving
from kit.host import spec, started, update

from moxzi_core.candid import NAT, encode_args
from moxzi_core.runtime.instance import Limits
from moxzi_gateway_http import routes


@pytest.fixture
async def host():
    host = await started(spec("hostile", "hostile"))
    yield host
    await host.stop()


async def test_a_large_reply_is_turned_into_json_off_the_event_loop(host, monkeypatch):
    decoding, released = threading.Event(), threading.Event()
    waited = []

    def held(types, data):  # the real decoder, held back until the test has been served meanwhile
        if len(data) > routes.INLINE_BYTES:
            decoding.set()
            waited.append(released.wait(30))  # on the event loop this would wait the full 30 s
        return decode(types, data)

    decode = routes.results_to_json
    monkeypatch.setattr(routes, "results_to_json", held)
    async with serving(host) as (_, http):
        large = asyncio.create_task(post(http, "/query-json/hostile/variants", [100_000]))
        assert await asyncio.to_thread(decoding.wait, 30)
        assert await post(http, "/call-json/hostile/inc", []) == (200, [1])  # served while it decodes
        released.set()
        status, reply = await large
    assert waited == [True]
    assert status == 200 and len(reply[0]) == 100_000 and reply[0][:3] == [{"a": None}, {"b": 1}, {"a": None}]


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


def encode_nat(n: int) -> bytes:
    return encode_args([NAT], [n])
