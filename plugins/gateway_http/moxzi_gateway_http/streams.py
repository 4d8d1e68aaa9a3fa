"""Long-lived answers (the console's ``/events`` stream) held open, per client and in all.

A stream holds a connection for as long as its client stays, so streams are counted apart from the
call routes' connections (``--http-max-connections`` counts the others): a client that opens many
cannot lock the calls out. They have their own bounds, ``--http-max-streams`` in all and
STREAMS_PER_CLIENT for one client (a remote address); one more is answered at once. A route that
streams takes its place with ``Streams.hold`` (the gateway's ``Streams`` is
``request.config_dict[STREAMS]`` in every app it mounts) and should write something every few seconds
(an SSE comment), so that a client that left is noticed then, not at the next event.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from aiohttp import web

from moxzi_core.errors import MoxziError
from moxzi_core.runtime.inbox_bounds import CallsPerClient

# Streams one client may hold: a console tab holds one; a few tabs and a `curl -N` fit.
STREAMS_PER_CLIENT = 8


class TooManyStreams(MoxziError):
    status = 429


class StreamsFull(MoxziError):
    status = 503


class Streams:
    """The streams open (``open``), at most ``limit`` in all and STREAMS_PER_CLIENT per client. Used on
    the event loop only."""

    def __init__(self, limit: int):
        self.limit = limit
        self.open = 0
        self._by_client = CallsPerClient(STREAMS_PER_CLIENT)

    @contextlib.contextmanager
    def hold(self, request: web.Request, route: str) -> Iterator[None]:
        """Count ``request``'s stream while the block runs; raises TooManyStreams (429) when its client
        holds STREAMS_PER_CLIENT, StreamsFull (503) when ``limit`` are open, counting nothing."""
        client = request.remote or "a local socket"
        if self.open >= self.limit:
            raise StreamsFull(
                f"{route}: moxzid holds {self.limit} streams, the most it may (--http-max-streams); try again later"
            )
        if not self._by_client.take(client):
            raise TooManyStreams(
                f"{route}: {client} holds {STREAMS_PER_CLIENT} streams, the most one client may; close one first"
            )
        self.open += 1
        try:
            yield
        finally:
            self.open -= 1
            self._by_client.release(client)


STREAMS = web.AppKey("streams", Streams)
