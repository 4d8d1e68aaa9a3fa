"""``POST /backup``: a copy of the running moxzid's state directory (``moxzi_core.backup``; `moxzi backup
DEST`), made while it goes on serving. An admin route (moxzid's admin token, or loopback).

The body is ``{"destination": "/ABSOLUTE/PATH"}``, a path on moxzid's machine that is missing or an
empty directory. The answer streams JSON lines: ``{"copied": BYTES, "of": ABOUT}`` about every second
of a long copy, then ``{"destination", "bytes", "files", "seconds", "device_calls"}`` once the backup
is whole (``device_calls``: its moment, the device calls run by then), or
``{"error": ...}`` when it failed (what it wrote removed). Refused before anything is copied: 400 for a
body that is not that object or a relative path; 409 for a destination that exists and is not an empty
directory, for a moxzid without ``-s`` (its state is in memory), and while another backup runs.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from aiohttp import web

from moxzi_core.backup import Backup, BackupError, back_up, check_destination
from moxzi_core.errors import MoxziError
from moxzi_core.host_api import GatewayHost

_RUNNING = asyncio.Lock()  # one backup at a time: a second would only slow the first


class BadDestination(MoxziError):
    status = 400


class BackupRefused(MoxziError):
    status = 409


async def serve(request: web.Request, host: GatewayHost, state_dir: Path | None, body) -> web.StreamResponse:
    """Answer a ``POST /backup`` whose ``body`` (parsed JSON) names the destination, for ``host``, whose
    store is opened on ``state_dir`` (None without ``-s``). The caller has checked the admin token."""
    if not isinstance(body, dict) or not isinstance(body.get("destination"), str) or set(body) != {"destination"}:
        raise BadDestination('POST /backup: the body must be {"destination": "/ABSOLUTE/PATH"}')
    destination = Path(body["destination"])
    if not destination.is_absolute():
        raise BadDestination(f"POST /backup: {destination}: the destination must be an absolute path")
    if state_dir is None:
        raise BackupRefused("moxzid keeps its state in memory (no -s DIR): there is nothing to back up")
    try:
        check_destination(destination)
    except BackupError as exc:
        raise BackupRefused(str(exc)) from None
    if _RUNNING.locked():
        raise BackupRefused("another backup is running; try again once it ends")
    async with _RUNNING:
        return await _stream(request, host, state_dir, destination)


async def _stream(request: web.Request, host: GatewayHost, state_dir: Path, destination: Path) -> web.StreamResponse:
    """Run the backup on a thread, sending its progress lines and then its outcome."""
    response = web.StreamResponse(headers={"Content-Type": "application/x-ndjson"})
    await response.prepare(request)
    loop = asyncio.get_running_loop()
    reports: asyncio.Queue[tuple[int, int]] = asyncio.Queue()

    def progress(copied: int, total: int) -> None:
        loop.call_soon_threadsafe(reports.put_nowait, (copied, total))

    copying = asyncio.ensure_future(asyncio.to_thread(back_up, host.store, state_dir, destination, progress))
    listening = True  # until the client hangs up: the backup goes on to its end either way
    while not copying.done():
        report = asyncio.ensure_future(reports.get())
        await asyncio.wait({copying, report}, return_when=asyncio.FIRST_COMPLETED)
        if report.done():
            copied, total = report.result()
            listening = listening and await _line(response, {"copied": copied, "of": total})
        else:
            report.cancel()
    try:
        done: Backup = copying.result()
    except BackupError as exc:
        last: dict[str, object] = {"error": str(exc)}
    else:
        last = {"destination": str(done.destination), "bytes": done.bytes, "files": done.files}
        last |= {"seconds": round(done.seconds, 3), "device_calls": done.device_calls}
    if listening and await _line(response, last):
        await response.write_eof()
    return response


async def _line(response: web.StreamResponse, value: dict) -> bool:
    """Send ``value`` as a line; False when the client has hung up."""
    try:
        await response.write(json.dumps(value).encode() + b"\n")
        return True
    except ConnectionError:
        return False
