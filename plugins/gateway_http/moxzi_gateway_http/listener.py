"""Serving an aiohttp app on a socket so that clients who stall cannot wedge moxzid for the others: the
gateway (``--listen``) and the device's export server (``--device-listen``) both serve this way.

A connection that has not sent a whole request's headers ``--http-idle-secs`` after it opened or was
last answered is closed (aiohttp's keep-alive timer, which also runs while headers trickle in); one
whose client takes none of its reply for ``--http-write-secs`` (it stopped reading) is closed and the
reply dropped; past the listener's connection cap a new one is answered 503 and closed at once. The
rest of a body a route did not read is drained for LINGER_SECONDS at most. Bodies a route reads have
their own deadline (``--http-body-secs``, routes.py).

Every connection holds an open file, so ``caps`` fits the gateway's connections, its event streams
and the export server's connections together inside the process's open-file limit: past it every
``accept`` fails (EMFILE) and nothing is served.
"""

from __future__ import annotations

import asyncio
import json
import logging
import resource
from collections.abc import Callable
from dataclasses import dataclass

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError

from moxzi_core.settings import Address, Settings

from .settings import DEVICE_LISTEN, DEVICE_MAX_CONNECTIONS, HTTP_MAX_CONNECTIONS, HTTP_MAX_STREAMS

log = logging.getLogger("moxzi.http")

STOP_GRACE_SECONDS = 5.0
# How long the rest of a body the answer did not need (a 404, a 408) is read and dropped before the
# connection closes: enough for an honest client to finish, not aiohttp's 10 s for a stalling one.
LINGER_SECONDS = 1.0
# Open files the rest of moxzid needs beside HTTP connections (store, device, logs, actors' modules).
RESERVED_FILES = 128
# Connections a listener accepts in one turn of the event loop (and its listen queue): each holds an
# open file before it is counted against a cap, and one past the cap until its 503 is written (a
# turn later), so two turns' worth are kept free of the caps for each listener.
ACCEPT_BACKLOG = 100


@dataclass(frozen=True)
class Caps:
    """Connections each listener may hold: the gateway's (event streams apart), its event streams,
    the export server's."""

    connections: int
    streams: int
    device_connections: int


def caps(settings: Settings) -> Caps:
    """The caps the flags ask for, lowered together (each in proportion, at least 1) so that their sum
    leaves RESERVED_FILES of the open-file limit, and two accept backlogs a listener; the same answer
    for every caller."""
    wanted = Caps(settings[HTTP_MAX_CONNECTIONS], settings[HTTP_MAX_STREAMS], settings[DEVICE_MAX_CONNECTIONS])
    counted = wanted.connections + wanted.streams + (wanted.device_connections if settings[DEVICE_LISTEN] else 0)
    listeners = 2 if settings[DEVICE_LISTEN] else 1
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    room = soft - RESERVED_FILES - 2 * ACCEPT_BACKLOG * listeners
    if soft == resource.RLIM_INFINITY or counted <= room:
        return wanted
    share = max(1, room) / counted
    return Caps(*(max(1, int(n * share)) for n in (wanted.connections, wanted.streams, wanted.device_connections)))


def warn_if_lowered(settings: Settings) -> None:
    """Log, once at start-up, which caps the open-file limit lowered."""
    wanted, fitting = (
        Caps(settings[HTTP_MAX_CONNECTIONS], settings[HTTP_MAX_STREAMS], settings[DEVICE_MAX_CONNECTIONS]),
        caps(settings),
    )
    if fitting != wanted:
        soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
        log.warning(
            "the open-file limit is %d: --http-max-connections %d, --http-max-streams %d and "
            "--device-max-connections %d lowered to %d, %d and %d",
            soft,
            wanted.connections,
            wanted.streams,
            wanted.device_connections,
            fitting.connections,
            fitting.streams,
            fitting.device_connections,
        )


class Listener:
    """``app`` served on ``address`` within the bounds above: at most ``max_connections`` connections,
    not counting the ``apart()`` connections (event streams, bounded on their own). ``flag`` names the
    cap in a refusal. After start(), ``address`` is the address actually bound (useful with port 0)."""

    def __init__(
        self,
        app: web.Application,
        address: Address,
        *,
        idle_secs: float,
        write_secs: float,
        max_connections: int,
        flag: str,
        apart: Callable[[], int] = lambda: 0,
    ):
        self._app, self._wanted = app, address
        self._idle_secs, self._write_secs = idle_secs, write_secs
        self.max_connections, self._flag, self._apart = max_connections, flag, apart
        self._runner: web.AppRunner | None = None
        self._server: asyncio.Server | None = None
        self.address: Address | None = None

    async def start(self) -> Address:
        """Bind and serve; raises OSError when the address cannot be bound."""
        # A call may run for minutes (training); at stop, give in-flight calls a moment, not aiohttp's
        # default minute, before closing their connections.
        runner = web.AppRunner(
            self._app,
            access_log=None,  # an export's log line would hold its token
            shutdown_timeout=STOP_GRACE_SECONDS,
            keepalive_timeout=self._idle_secs,
            lingering_time=LINGER_SECONDS,
            logger=REQUEST_LOG,
        )
        await runner.setup()
        server = runner.server
        assert server is not None, "setup() made it"

        def accept() -> asyncio.Protocol:
            # Counts connections aiohttp holds; a burst accepted in one loop turn may pass the cap by
            # that burst (at most the listen backlog).
            if len(server.connections) - self._apart() >= self.max_connections:
                return _Busy(self.max_connections, self._flag)
            return _WriteDeadline(server(), self._write_secs)

        try:
            self._server = await asyncio.get_running_loop().create_server(
                accept, self._wanted.host, self._wanted.port, reuse_address=True, backlog=ACCEPT_BACKLOG
            )
        except OSError:
            await runner.cleanup()
            raise
        self._runner = runner
        host, port = self._server.sockets[0].getsockname()[:2]
        self.address = Address(host, port)
        return self.address

    async def stop(self) -> None:
        """Stop accepting requests; requests still answering after STOP_GRACE_SECONDS lose their connection."""
        if self._server is not None:
            self._server.close()
            self._server = None
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None


class _RequestLog(logging.LoggerAdapter):
    """aiohttp's log of the requests it serves, but for a request it cannot parse (a header too large,
    a malformed request line, a broken chunked body): that is the client's mistake, which aiohttp answers
    400 with the reason, so it is one debug line, not an error with a traceback that any client could
    fill the log with."""

    def exception(self, msg, *args, exc_info=True, **kwargs) -> None:
        if isinstance(exc_info, HttpProcessingError):
            self.debug(f"{msg}: %s", *args, exc_info, **kwargs)
        else:
            super().exception(msg, *args, exc_info=exc_info, **kwargs)


REQUEST_LOG = _RequestLog(logging.getLogger("aiohttp.server"))


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

    def __init__(self, limit: int, flag: str):
        self._limit, self._flag = limit, flag

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        body = json.dumps(
            {"error": f"moxzid holds {self._limit} HTTP connections, the most it may ({self._flag}); try again later"}
        ).encode()
        assert isinstance(transport, asyncio.WriteTransport)  # a TCP server's transport writes
        transport.write(
            b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
            b"Connection: close\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body)
        )
        transport.close()
