"""The HTTP gateway's server: binds the listen address, serves the routes, shuts down on stop()."""

from __future__ import annotations

import logging

from aiohttp import web

from moxzi_core.config import Address, Config

from .routes import build_app

log = logging.getLogger("moxzi.http")

STOP_GRACE_SECONDS = 5.0


class HttpGateway:
    """Serves ``host`` over HTTP on ``config.listen``; request bodies over ``config.max_message_bytes``
    are answered 413. After start(), ``address`` is the address actually bound (useful with port 0)."""

    def __init__(self, host, config: Config):
        self._app = build_app(host, config.max_message_bytes)
        self._listen = config.listen
        self._runner: web.AppRunner | None = None
        self.address: Address | None = None

    async def start(self) -> None:
        """Bind and serve; raises OSError when the address cannot be bound."""
        # A call may run for minutes (training); at stop, give in-flight calls a moment, not aiohttp's
        # default minute, before closing their connections.
        runner = web.AppRunner(self._app, access_log=None, shutdown_timeout=STOP_GRACE_SECONDS)
        await runner.setup()
        try:
            await web.TCPSite(runner, self._listen.host, self._listen.port).start()
        except OSError:
            await runner.cleanup()
            raise
        self._runner = runner
        host, port = runner.addresses[0][:2]
        self.address = Address(host, port)
        log.info("serving on http://%s", self.address)

    async def stop(self) -> None:
        """Stop accepting requests; calls still in flight after STOP_GRACE_SECONDS lose their connection."""
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
