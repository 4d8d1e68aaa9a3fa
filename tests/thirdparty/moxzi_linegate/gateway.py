"""The ``line`` gateway: one request per line, answered with one line."""

import asyncio
import logging

from moxzi_core.errors import MoxziError
from moxzi_core.host_api import GatewayHost
from moxzi_core.settings import Settings

log = logging.getLogger("moxzi.linegate")

NO_ARGUMENTS = b"DIDL\x00\x00"
MAX_LINE = 1024


class LineGateway:
    def __init__(self, host: GatewayHost, settings: Settings):
        self._host, self._listen = host, settings.line_listen
        self._server: asyncio.Server | None = None

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._serve, self._listen.host, self._listen.port, limit=MAX_LINE)
        host, port = self._server.sockets[0].getsockname()[:2]
        log.info("line gateway on %s:%d", host, port)

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while line := await reader.readline():
                writer.write((await self._answer(line.decode(errors="replace").split())).encode() + b"\n")
                await writer.drain()
        except (ValueError, ConnectionError):  # a line over MAX_LINE, or the client went away
            pass
        finally:
            writer.close()

    async def _answer(self, words: list[str]) -> str:
        if len(words) != 2:
            return "reject 0 expected: ACTOR METHOD"
        try:
            outcome = await self._host.call(words[0], words[1], NO_ARGUMENTS, query=False)
        except MoxziError as error:
            return f"reject 0 {error}"
        if outcome.reply is None:
            return f"reject {outcome.reject_code} {outcome.reject_message}"
        return f"ok {outcome.reply.hex()}"
