"""What a hostile (or careless) actor can ask of moxzid, and that other actors and clients keep being
served meanwhile: replies that are slow to turn into JSON."""

import asyncio
import threading

import pytest
from kit.actorbuild import build_actor
from kit.gateway import post, serving

from moxzi_core.runtime.host import ActorSpec, Host
from moxzi_gateway_http import routes


@pytest.fixture
async def host():
    built = build_actor("hostile")
    host = Host([ActorSpec("hostile", built.wasm, built.did)])
    await host.start()
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
