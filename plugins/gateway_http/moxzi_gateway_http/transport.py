"""The device's HTTP transport: serves exports at ``http://HOST:PORT/export/<token>`` with
``--device-listen``, and downloads ``http://`` and ``https://`` URLs for ``moxzi_device_fetch``.

The export server is bounded as the gateway is (``listener.py``: ``--http-idle-secs``,
``--http-write-secs``, at most ``--device-max-connections`` connections, all within the open-file
limit together with the gateway's); it reads no request body.

The export body's layout and every check on it are the core's (``moxzi_core.device.transfer``); this
module only moves bytes. A refusal's reason travels in the ``Moxzi-Export-Error`` header, the only part
of an answer that a failed fetch repeats (an arbitrary server's body could be anything).
"""

from __future__ import annotations

import contextlib
import logging
import socket
from collections.abc import AsyncIterator

import aiohttp
from aiohttp import web

from moxzi_core.device import DeviceError
from moxzi_core.device.transfer import CHUNK, Exports, body_size, redact
from moxzi_core.settings import Settings, SettingsError

from .listener import Listener, caps
from .settings import DEVICE_LISTEN, HTTP_IDLE_SECS, HTTP_WRITE_SECS

log = logging.getLogger("moxzi.http")

ERROR_HEADER = "Moxzi-Export-Error"
CONNECT_SECONDS = 10.0
STALL_SECONDS = 60.0  # a download that receives nothing for this long fails


class HttpTransport:
    """The ``http`` transport (see the module docstring)."""

    schemes = ("http", "https")

    def __init__(self, settings: Settings):
        self._listen = settings[DEVICE_LISTEN]
        if self._listen is not None and settings.device is None:
            raise SettingsError(
                f"--device-listen {self._listen}: exports serve a device's publications; give --device too"
            )
        self._settings = settings
        self._exports: Exports | None = None
        self._listener: Listener | None = None

    async def start(self, exports: Exports) -> str | None:
        if self._listen is None:
            return None
        self._exports = exports
        app = web.Application()
        app.router.add_get("/export/{token}", self._serve, allow_head=False)  # every GET counts a use
        listener = Listener(
            app,
            self._listen,
            idle_secs=self._settings[HTTP_IDLE_SECS],
            write_secs=self._settings[HTTP_WRITE_SECS],
            max_connections=caps(self._settings).device_connections,
            flag="--device-max-connections",
        )
        bound = await listener.start()
        self._listener = listener
        return f"http://{_url_host(self._listen.host)}:{bound.port}/export"

    async def stop(self) -> None:
        if self._listener is not None:
            await self._listener.stop()
            self._listener = None

    async def _serve(self, request: web.Request) -> web.StreamResponse:
        assert self._exports is not None  # routes exist only once start() has the exports
        export = self._exports.take(request.match_info["token"])
        if isinstance(export, tuple):
            status, why = export
            return web.Response(status=status, text=why + "\n", headers={ERROR_HEADER: why})
        response = web.StreamResponse(headers={"Content-Type": "application/octet-stream", "Cache-Control": "no-store"})
        response.content_length = body_size(export)
        await response.prepare(request)
        async for chunk in self._exports.body(export):
            await response.write(chunk)
        await response.write_eof()
        return response

    @contextlib.asynccontextmanager
    async def open(self, url: str) -> AsyncIterator[_Body]:
        where = redact(url)
        timeout = aiohttp.ClientTimeout(sock_connect=CONNECT_SECONDS, sock_read=STALL_SECONDS)
        try:
            async with (
                # read_bufsize: the socket is read in chunks of up to CHUNK, as the core keeps them
                aiohttp.ClientSession(timeout=timeout, auto_decompress=False, read_bufsize=CHUNK) as session,
                session.get(url, allow_redirects=False) as response,
            ):
                if response.status != 200:
                    why = response.headers.get(ERROR_HEADER, "")[:200] or "not an export"
                    raise DeviceError(f"{where}: HTTP {response.status}: {why}")
                yield _Body(response, where)
        except (aiohttp.ClientError, ValueError) as error:  # ValueError: a URL aiohttp cannot parse
            # aiohttp's messages may quote the URL whole
            why = str(error).replace(url, where) or type(error).__name__
            raise DeviceError(f"{where}: the download failed: {why}") from None


class _Body:
    """A response's body as ``moxzi_core.device.transfer.Download``."""

    def __init__(self, response: aiohttp.ClientResponse, where: str):
        self._response, self._where = response, where
        self.size = response.content_length

    async def read(self, n: int) -> bytes:
        try:
            return await self._response.content.read(n)
        except aiohttp.ClientError as error:
            raise DeviceError(f"{self._where}: the download failed: {error or type(error).__name__}") from None


def _url_host(host: str) -> str:
    """The host an export URL names: a wildcard listen address is not one another machine can reach."""
    if host in ("", "0.0.0.0", "::"):
        host = socket.getfqdn()
    return f"[{host}]" if ":" in host else host
