"""Event streams (/events) are bounded apart from the call routes (moxzi_gateway_http.streams): one
client holds at most STREAMS_PER_CLIENT, all at most --http-max-streams, none takes a connection from
the calls, and a stream whose client left is noticed by its heartbeat within seconds."""

import asyncio
import contextlib

import aiohttp
import pytest
from kit.gateway import post, serving
from kit.host import eventually, spec
from moxzi_console import routes
from moxzi_console.routes import events_app

from moxzi_core.runtime.host import Host
from moxzi_gateway_http.streams import STREAMS_PER_CLIENT

APPS = {"/events": events_app}


@pytest.fixture
async def host():
    host = Host([spec("counter", "counter")])
    await host.start()
    yield host
    await host.stop()


@contextlib.asynccontextmanager
async def client(gateway, address: str):
    """A session to the gateway from the local address ``address`` (a client of its own)."""
    connector = aiohttp.TCPConnector(local_addr=(address, 0), limit=0)
    async with aiohttp.ClientSession(f"http://{gateway.address}", connector=connector) as session:
        yield session


async def open_streams(session, n: int) -> list[aiohttp.ClientResponse]:
    streams = []
    for _ in range(n):
        response = await session.get("/events")
        assert response.status == 200, await response.text()
        assert await response.content.readline() == b"event: hello\n"
        streams.append(response)
    return streams


async def test_streams_are_bounded_per_client_and_counted_apart_from_calls(host):
    async with (
        serving(host, APPS, http_max_connections=4, http_max_streams=STREAMS_PER_CLIENT + 2) as (gateway, http),
        client(gateway, "127.0.0.2") as greedy,
        client(gateway, "127.0.0.3") as other,
    ):
        held = await open_streams(greedy, STREAMS_PER_CLIENT)
        async with greedy.get("/events") as refused:
            assert refused.status == 429
            assert f"127.0.0.2 holds {STREAMS_PER_CLIENT} streams" in (await refused.json())["error"]
        held += await open_streams(other, 2)  # another client still gets streams
        async with other.get("/events") as full:
            assert full.status == 503 and "--http-max-streams" in (await full.json())["error"]
        # More streams than --http-max-connections are open, and calls are answered beside them.
        assert await asyncio.gather(*(post(http, "/call-json/counter/inc", []) for _ in range(3))) == [
            (200, [n]) for n in (1, 2, 3)
        ]
        for response in held:
            response.close()


async def test_a_stream_whose_client_left_is_noticed_within_seconds(host, monkeypatch):
    # A heartbeat each second instead of each 5 (streams poll 4 times as often): the same writes, sooner.
    monkeypatch.setattr(routes, "HEARTBEAT_SECONDS", 1.0)
    monkeypatch.setattr(routes, "SSE_POLL_SECONDS", 0.25)
    async with serving(host, APPS) as (gateway, http), client(gateway, "127.0.0.2") as session:
        streams = await open_streams(session, STREAMS_PER_CLIENT)
        assert gateway.streams.open == STREAMS_PER_CLIENT

        # Comments keep an idle stream going (no event is published meanwhile).
        async def comment():
            while (line := await streams[0].content.readline()) != b": still here\n":
                assert line in (b"data: {}\n", b"\n"), line

        await asyncio.wait_for(comment(), routes.HEARTBEAT_SECONDS + 2)
        for response in streams:
            response.close()

        async def gone():
            return gateway.streams.open == 0

        await eventually(gone, routes.HEARTBEAT_SECONDS + 3)
        again = await open_streams(session, STREAMS_PER_CLIENT)  # the client's places are free again
        for response in again:
            response.close()
