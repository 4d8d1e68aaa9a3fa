"""The device's export server (--device-listen) holds its clients to the gateway's bounds: idle and
stalled connections are closed, at most --device-max-connections are open, and the gateway's and the
export server's connections and the event streams fit inside the open-file limit together
(moxzi_gateway_http.listener)."""

import asyncio
import contextlib
import resource

import pytest

from moxzi_core import plugins
from moxzi_core.device.ops import Meta
from moxzi_core.device.transfer import Exports
from moxzi_core.settings import Address, Settings
from moxzi_gateway_http.listener import ACCEPT_BACKLOG, RESERVED_FILES, Caps, caps
from moxzi_gateway_http.transport import HttpTransport

DECLARED = plugins.load(["http"])[0].settings


def settings(**values) -> Settings:
    return Settings(DECLARED, {"device": "torch:cpu", "device_listen": Address("127.0.0.1", 0), **values})


@contextlib.asynccontextmanager
async def export_server(**values):
    """(the export server's port, a live export's path) for a transport started with ``values``."""
    exports = Exports(lambda tensor: tensor, max_per_actor=4)
    transport = HttpTransport(settings(**values))
    exports.prefix = await transport.start(exports)
    try:
        url = exports.offer(b"\x01", [("w", Meta((4,)), b"\0" * 16)], 100, 60)
        port = int(url.split(":")[2].split("/")[0])
        yield port, "/export/" + url.rpartition("/")[2]
    finally:
        await transport.stop()


async def test_idle_connections_to_the_export_server_are_closed():
    async with export_server(http_idle_secs=1) as (port, path):
        silent = await asyncio.open_connection("127.0.0.1", port)
        trickling = await asyncio.open_connection("127.0.0.1", port)
        trickling[1].write(f"GET {path} HTTP/1.1\r\n".encode())  # headers that never end
        for reader, writer in (silent, trickling):
            assert await asyncio.wait_for(reader.read(), 5) == b""  # closed without an answer
            writer.close()


async def test_connections_past_the_export_servers_cap_are_answered_503():
    async with export_server(device_max_connections=2) as (port, path):
        held = [await asyncio.open_connection("127.0.0.1", port) for _ in range(2)]
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        answer = await asyncio.wait_for(reader.read(), 5)
        assert answer.startswith(b"HTTP/1.1 503 ") and b"(--device-max-connections)" in answer
        writer.close()
        for _, held_writer in held:
            held_writer.close()
            await held_writer.wait_closed()
        await asyncio.sleep(0.2)  # the server sees them go
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
        assert (await asyncio.wait_for(reader.read(), 5)).startswith(b"HTTP/1.1 200 ")
        writer.close()


@pytest.fixture
def open_files():
    """Sets the process's soft open-file limit for the test, as ``ulimit -n`` would."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    yield lambda n: resource.setrlimit(resource.RLIMIT_NOFILE, (n, hard))
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_every_cap_together_fits_the_open_file_limit(open_files):
    wanted = settings(http_max_connections=512, http_max_streams=64, device_max_connections=1100)
    open_files(1024)
    fitting = caps(wanted)
    # beside them: the rest of moxzid, and two turns of accepts on each of the two listeners
    assert (
        fitting.connections + fitting.streams + fitting.device_connections <= 1024 - RESERVED_FILES - 4 * ACCEPT_BACKLOG
    )
    assert fitting.streams < fitting.connections < fitting.device_connections  # in proportion to the asking
    assert caps(wanted.replace(device_listen=None)).device_connections == 1100  # not served: not counted
    open_files(4096)
    assert caps(wanted) == Caps(512, 64, 1100)
