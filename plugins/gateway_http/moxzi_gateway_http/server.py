"""The HTTP gateway's server: binds the listen address, serves the routes, shuts down on stop().

Connections are bounded so that clients who stall cannot wedge the daemon for the others: one that has
not sent a whole request's headers ``--http-idle-secs`` after it opened or was last answered is closed
(aiohttp's keep-alive timer, which also runs while headers trickle in), a body slower than
``--http-body-secs`` is a 408 (routes.py), a connection whose client takes none of its reply for
``--http-write-secs`` (it stopped reading) is closed and the reply dropped, and past
``--http-max-connections`` open connections a new one is answered 503 and closed at once.
"""

from __future__ import annotations

import asyncio
import errno
import json
import logging
import resource
import socket
from collections.abc import Callable, Mapping
from types import MappingProxyType

from aiohttp import web

from moxzi_core.settings import Address, Settings, SettingsError

from .admin import AdminToken
from .routes import build_app

log = logging.getLogger("moxzi.http")

STOP_GRACE_SECONDS = 5.0
# How long the rest of a body the answer did not need (a 404, a 408) is read and dropped before the
# connection closes: enough for an honest client to finish, not aiohttp's 10 s for a stalling one.
LINGER_SECONDS = 1.0
# Open files the rest of moxzid needs beside HTTP connections (store, device, logs, actors' modules).
RESERVED_FILES = 128


CONSOLE = "/console"  # where the console plugin mounts its page


async def _to_console(request: web.Request) -> web.Response:
    raise web.HTTPFound(CONSOLE + "/")


class HttpGateway:
    """Serves ``host`` over HTTP on ``settings.listen``; request bodies over ``settings.max_message_bytes``
    are answered 413. ``http_apps`` (``{prefix: factory(host, settings)}``, what other plugins registered
    with ``register_http_apps``) are mounted at their prefixes; ``GET /`` leads to the web console
    when the console plugin is loaded. After start(), ``address`` is the address actually bound
    (useful with port 0)."""

    def __init__(self, host, settings: Settings, http_apps: Mapping[str, Callable] = MappingProxyType({})):
        admin = AdminToken.for_listening(settings.listen.host, settings.state)
        self._app = build_app(
            host, settings.max_message_bytes, settings.http_body_secs, admin, settings.http_max_calls_per_client
        )
        for prefix, factory in http_apps.items():
            self._app.add_subapp(prefix, factory(host, settings))
        if CONSOLE in http_apps:  # a person opening the address in a browser gets the console
            self._app.router.add_get("/", _to_console)
        self._listen = settings.listen
        self._idle_secs = settings.http_idle_secs
        self._write_secs = settings.http_write_secs
        self._max_connections = _fitting_connections(settings.http_max_connections)
        self._runner: web.AppRunner | None = None
        self._listener: asyncio.Server | None = None
        self.address: Address | None = None

    @staticmethod
    def check(settings: Settings) -> None:
        """Raise SettingsError when ``--listen`` cannot be bound now (moxzid checks before it loads the
        device and the actors, which can take minutes). Binding as ``start`` does, each address the
        host names, with SO_REUSEADDR: a port another moxzid just left in TIME_WAIT is free."""
        listen: Address = settings.listen
        if listen.port == 0:
            return
        try:
            for family, kind, proto, _, where in socket.getaddrinfo(
                listen.host, listen.port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
            ):
                with socket.socket(family, kind, proto) as probe:
                    probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                    probe.bind(where)
        except OSError as error:
            why = "the port is in use (another moxzid?)" if error.errno == errno.EADDRINUSE else f"cannot bind: {error}"
            raise SettingsError(
                f"--listen {listen}: {why}; pass --listen HOST:PORT with a free port, "
                "or port 0 to have one picked (the log says which)"
            ) from None

    async def start(self) -> None:
        """Bind and serve; raises OSError when the address cannot be bound (``check`` says so first)."""
        # A call may run for minutes (training); at stop, give in-flight calls a moment, not aiohttp's
        # default minute, before closing their connections.
        runner = web.AppRunner(
            self._app,
            access_log=None,
            shutdown_timeout=STOP_GRACE_SECONDS,
            keepalive_timeout=self._idle_secs,
            lingering_time=LINGER_SECONDS,
        )
        await runner.setup()
        server = runner.server
        assert server is not None, "setup() made it"

        def accept() -> asyncio.Protocol:
            # Counts connections aiohttp holds; a burst accepted in one loop turn may pass the cap by
            # that burst (at most the listen backlog).
            if len(server.connections) >= self._max_connections:
                return _Busy(self._max_connections)
            return _WriteDeadline(server(), self._write_secs)

        try:
            self._listener = await asyncio.get_running_loop().create_server(
                accept, self._listen.host, self._listen.port, reuse_address=True
            )
        except OSError:
            await runner.cleanup()
            raise
        self._runner = runner
        host, port = self._listener.sockets[0].getsockname()[:2]
        self.address = Address(host, port)
        log.info("serving on http://%s (at most %d connections)", self.address, self._max_connections)

    async def stop(self) -> None:
        """Stop accepting requests; calls still in flight after STOP_GRACE_SECONDS lose their connection."""
        if self._listener is not None:
            self._listener.close()
            self._listener = None
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None


def _fitting_connections(wanted: int) -> int:
    """``wanted``, lowered so that connections alone cannot use up the process's open-file limit (past
    it every accept fails and nothing is served)."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY or wanted <= soft - RESERVED_FILES:
        return wanted
    fitting = max(1, soft - RESERVED_FILES)
    log.warning("--http-max-connections %d lowered to %d: the open-file limit is %d", wanted, fitting, soft)
    return fitting


class _WriteDeadline(asyncio.Protocol):
    """A connection's aiohttp protocol, closed at once (its unsent reply dropped) when the reply stops
    draining for ``seconds``: the transport asks the protocol to pause writing when its buffer is full,
    and to resume once the client took some of it, so a pause that lasts means a client that reads
    nothing while its reply holds buffers here."""

    def __init__(self, inner: asyncio.Protocol, seconds: float):
        self._inner, self._seconds = inner, seconds
        self._transport: asyncio.Transport | None = None
        self._deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)  # a TCP server's transport
        self._transport = transport
        self._inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        self._inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self._inner.eof_received()

    def pause_writing(self) -> None:
        self._deadline = asyncio.get_running_loop().call_later(self._seconds, self._stalled)
        self._inner.pause_writing()

    def resume_writing(self) -> None:
        self._cancel_deadline()
        self._inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_deadline()
        self._inner.connection_lost(exc)

    def _cancel_deadline(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _stalled(self) -> None:
        assert self._transport is not None, "writing paused, so connected"
        peer = self._transport.get_extra_info("peername")
        log.info(
            "closing the connection from %s: it took none of its reply in %g s (--http-write-secs)", peer, self._seconds
        )
        self._transport.abort()


class _Busy(asyncio.Protocol):
    """A connection past the cap: answered 503 and closed without reading it."""

    def __init__(self, limit: int):
        self._limit = limit

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        body = json.dumps(
            {
                "error": f"moxzid holds {self._limit} HTTP connections, the most it may "
                "(--http-max-connections); try again later"
            }
        ).encode()
        assert isinstance(transport, asyncio.WriteTransport)  # a TCP server's transport writes
        transport.write(
            b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
            b"Connection: close\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body)
        )
        transport.close()
