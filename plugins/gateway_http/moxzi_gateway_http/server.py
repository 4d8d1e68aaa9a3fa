"""The HTTP gateway's server: binds the listen address, serves the routes, shuts down on stop().

Connections are bounded as ``listener.py`` says (``--http-idle-secs``, ``--http-write-secs``,
``--http-max-connections``; a body slower than ``--http-body-secs`` is a 408, routes.py), event
streams apart (``streams.py``: ``--http-max-streams``). Every request passes ``origins.py``'s checks
first: a ``Host`` that is not one of moxzid's names is refused on every route, and a web page on
another origin on every route but the IC interface.
"""

from __future__ import annotations

import errno
import logging
import socket
from collections.abc import Callable, Mapping
from types import MappingProxyType

from aiohttp import web

from moxzi_core.settings import STATE, Address, Settings, SettingsError

from .admin import AdminToken
from .listener import Listener, caps, warn_if_lowered
from .origins import OwnNames
from .routes import build_app
from .settings import (
    ALLOWED_HOSTS,
    ALLOWED_ORIGINS,
    HTTP_BODY_SECS,
    HTTP_IDLE_SECS,
    HTTP_MAX_CALLS_PER_CLIENT,
    HTTP_WRITE_SECS,
    LISTEN,
)
from .streams import STREAMS, Streams

log = logging.getLogger("moxzi.http")


def _redirect(target: str) -> Callable:
    async def handler(request: web.Request) -> web.Response:
        raise web.HTTPFound(target)

    return handler


class HttpGateway:
    """Serves ``host`` over HTTP on ``settings[LISTEN]``; request bodies over ``settings.max_message_bytes``
    are answered 413. ``http_apps`` (``{prefix: factory(host, settings)}``, what other plugins registered
    with ``register_http_apps``, hookspecs.py) are mounted at their prefixes, and ``redirects``
    (``{path: target}``, ``register_http_redirects``) answer ``GET path`` with a redirect to ``target``.
    After start(), ``address`` is the address actually bound (useful with port 0); ``streams`` counts
    the event streams open."""

    def __init__(
        self,
        host,
        settings: Settings,
        http_apps: Mapping[str, Callable] = MappingProxyType({}),
        redirects: Mapping[str, str] = MappingProxyType({}),
    ):
        admin = AdminToken.for_listening(settings[LISTEN].host, settings[STATE])
        self._names = OwnNames(settings[ALLOWED_HOSTS], settings[ALLOWED_ORIGINS])
        fitting = caps(settings)
        warn_if_lowered(settings)
        self._app = build_app(
            host,
            settings.max_message_bytes,
            settings[HTTP_BODY_SECS],
            admin,
            settings[HTTP_MAX_CALLS_PER_CLIENT],
            names=self._names,
            state_dir=settings.state,
        )
        self.streams = self._app[STREAMS] = Streams(fitting.streams)  # the event streams open
        for prefix, factory in http_apps.items():
            self._app.add_subapp(prefix, factory(host, settings))
        for path, target in redirects.items():
            self._app.router.add_get(path, _redirect(target))
        self._listener = Listener(
            self._app,
            settings[LISTEN],
            idle_secs=settings[HTTP_IDLE_SECS],
            write_secs=settings[HTTP_WRITE_SECS],
            max_connections=fitting.connections,
            flag="--http-max-connections",
            apart=lambda: self.streams.open,
        )
        self.address: Address | None = None

    @staticmethod
    def check(settings: Settings) -> None:
        """Raise SettingsError when ``--listen`` cannot be bound now (moxzid checks before it loads the
        device and the actors, which can take minutes). Binding as ``start`` does, each address the
        host names, with SO_REUSEADDR: a port another moxzid just left in TIME_WAIT is free."""
        listen: Address = settings[LISTEN]
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
        self.address = await self._listener.start()
        self._names.bound(self.address)
        log.info(
            "serving on http://%s (at most %d connections and %d streams)",
            self.address,
            self._listener.max_connections,
            self.streams.limit,
        )

    async def stop(self) -> None:
        """Stop accepting requests; calls still in flight after a few seconds lose their connection."""
        await self._listener.stop()
