"""The HTTP gateway's routes and how each outcome becomes a status.

Statuses:

- 200: the call replied; the body is the JSON array of its results, or on ``/call`` and ``/query``
  their Candid text (``/upgrade`` answers ``upgraded``; ``GET /logs/ACTOR`` the actor's log records,
  ``[{"idx", "timestamp_nanos", "content"}]``).
- 400: the body cannot be decoded (a broken gzip or deflate stream) or is not a JSON array (nested
  too deeply included), the arguments do not match the method's Candid type (Candid text that does
  not: the message starts with the offending token's ``line:column``), or an update
  method was called on ``/query-json``; a ``/cycles/ACTOR`` body is not ``{"add": N}`` with N > 0, or would take the balance
  past the most an actor may hold (2**128 - 1); a ``/cycles-ledger/PRINCIPAL`` one names no principal,
  is not ``{"add": N}`` (with ``"subaccount"``: 64 hex digits, optionally) or would pass that bound. An ``Idempotency-Key`` header that is not 1 to 255
  visible ASCII characters. A ``/logs/ACTOR?since=N`` whose N is not a whole number. A ``POST /clock``
  body that is not ``{"advance_ns": N}`` or ``{"set_ns": T}`` with a whole number >= 0.
- 401: ``/upgrade/ACTOR``, ``POST /cycles/ACTOR``, ``POST /cycles-ledger/PRINCIPAL``, ``POST /clock``,
  ``POST /backup`` (``backup.py``: its other statuses) or ``/weights/ACTOR`` without moxzid's admin token, where one is needed (``admin``: on a listen address
  other than loopback); an ``/upgrade/ACTOR``, ``/weights/ACTOR`` or ``/logs/ACTOR`` request signed by a key
  (``controllers.py``) whose signature does not hold, has expired or was let through before, or an
  upgrade or import whose body is not the one signed (nothing is upgraded or imported).
- 403: the ``Host`` is not one of moxzid's names, or the request comes from a web page on another
  origin (``origins.py``); a signed ``/upgrade/ACTOR`` or ``/weights/ACTOR`` request whose sender is
  not one of the actor's controllers; nothing ran. A ``GET /logs/ACTOR`` whose signer (the anonymous
  principal, unsigned, where the admin routes are closed) the actor's log_visibility does not let see
  its log.
- 404: no such actor, method or route. 405: a route called with the wrong HTTP method.
- 409: an upgrade was refused; the actor keeps its old code and state. Cycles were added (to an actor
  or a cycles-ledger account) while moxzid does not charge them (``--cycles 0``). An ``Idempotency-Key`` came again with another call (another
  actor, method or arguments). ``POST /clock`` would move time backward, past 2**64 - 1 ns, or the clock
  is the system's (``--clock system``): only a manual clock moves when told.
- 408: the request body did not arrive within ``--http-body-secs``; the connection is closed.
- 413: the request body, or the Candid argument it encodes to, is over the size limit.
- 429: the client (its remote address) has ``--http-max-calls-per-client`` calls and queries in flight
  on these routes already (those whose client hung up count until they end); nothing ran.
- A rejected call answers by its IC reject code (STATUSES) with ``reject_code`` and
  ``reject_message`` beside ``error``: 422 when the actor rejected it (4, CANISTER_REJECT), 500 when
  the actor trapped (5, CANISTER_ERROR) or the system failed (1, SYS_FATAL), 503 for a transient
  condition worth retrying (2, SYS_TRANSIENT: the actor's inbox holding ``--max-queued-calls`` calls
  from outside, or ``--max-queued-mb`` of their bytes, or all inboxes ``--total-queued-mb``, is one), 404 for an invalid destination (3).
- 503 with ``Retry-After``: moxzid is starting and the call needs what it has not restored yet (the
  actor; for an update call, a composite query, an upgrade or a weights route, every actor and the
  device); the message says what it restores (``restoring 3 of 6 actors``). Nothing ran.
- 500: the codec process converting a large message died, killed or past its memory (``codec.py``):
  converting the arguments (the call did not run) or the reply (it ran; only the answer is lost).
  Anything else; the message is answered and the traceback logged, and the gateway keeps serving.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import re
from pathlib import Path
from typing import Any, TypeGuard

from aiohttp import web

from moxzi_core.candid import CandidError, Principal
from moxzi_core.errors import MoxziError, Restoring, UnknownMethod, no_method
from moxzi_core.host_api import GatewayHost
from moxzi_core.runtime.inbox_bounds import CallsPerClient
from moxzi_core.runtime.messages import ANONYMOUS, Reject
from moxzi_core.signed_http import ID_HEADER, is_signed

from . import backup, origins, weights
from .admin import AdminToken
from .codec import (
    BadBody,
    BrokenReply,
    Codec,
    json_arguments,
    json_results,
    json_text,
    parse_json,
    show,
    text_arguments,
    text_results,
)
from .controllers import BadSignature, Controllers
from .origins import OwnNames

log = logging.getLogger("moxzi.http")

# The status a call rejected with each reject code answers
STATUSES: dict[int, int] = {
    Reject.SYS_FATAL: 500,
    Reject.SYS_TRANSIENT: 503,
    Reject.DESTINATION_INVALID: 404,
    Reject.CANISTER_REJECT: 422,
    Reject.CANISTER_ERROR: 500,
}
# Calls and queries one client may have in flight by default: far more than a client making calls
# one after another, or a handful at once, needs.
CALLS_PER_CLIENT = 128
MAX_PRINCIPAL_BYTES = 29  # the IC's bound on a principal's length
HOST = web.AppKey("host", GatewayHost)
BODY_SECS = web.AppKey("body_secs", float)
ADMIN = web.AppKey("admin", AdminToken)
CONTROLLERS = web.AppKey("controllers", Controllers)
CODEC = web.AppKey("codec", Codec)
STATE_DIR: web.AppKey[Path | None] = web.AppKey("state_dir")


class TooManyCalls(MoxziError):
    status = 429


CALLS = web.AppKey("calls", CallsPerClient)


def build_app(
    host,
    max_body_bytes: int,
    body_secs: float,
    admin: AdminToken = AdminToken(None, ""),
    calls_per_client: int = CALLS_PER_CLIENT,
    names: OwnNames | None = None,
    state_dir: Path | None = None,
) -> web.Application:
    """The aiohttp application serving ``host``; bodies over ``max_body_bytes`` are answered 413, bodies
    that take over ``body_secs`` to arrive 408; the admin routes need what ``admin`` allows; a client
    with ``calls_per_client`` calls and queries in flight is answered 429. With ``names``, every request
    passes origins.py's checks first (on the app and those mounted in it). ``state_dir``: where the
    host's store is opened (``-s``), which ``POST /backup`` copies."""
    checks = [] if names is None else [origins.middleware(names)]
    app = web.Application(client_max_size=max_body_bytes, middlewares=[*checks, _errors_as_json])
    app[HOST] = host
    app[ADMIN] = admin
    app[CONTROLLERS] = Controllers(host)
    app[BODY_SECS] = body_secs
    app[CALLS] = CallsPerClient(calls_per_client)
    app[CODEC] = Codec()
    app[STATE_DIR] = state_dir
    app.on_cleanup.append(_stop_codec)
    app.on_response_prepare.append(_say_which_moxzid)
    app.router.add_post("/call-json/{actor}/{method}", _call_json)
    app.router.add_post("/query-json/{actor}/{method}", _query_json)
    app.router.add_post("/call/{actor}/{method}", _call_text)
    app.router.add_post("/query/{actor}/{method}", _query_text)
    app.router.add_post("/upgrade/{actor}", _upgrade)
    app.router.add_get("/actors", _actors)
    app.router.add_get("/health", _health)
    app.router.add_get("/cycles", _cycles)
    app.router.add_post("/cycles/{actor}", _add_cycles)
    app.router.add_post("/cycles-ledger/{principal}", _fund_ledger_account)
    app.router.add_get("/weights/{actor}", _export_weights)
    app.router.add_put("/weights/{actor}", _import_weights)
    app.router.add_get("/logs/{actor}", _logs)
    app.router.add_get("/clock", _clock)
    app.router.add_post("/clock", _move_clock)
    app.router.add_post("/backup", _backup)
    return app


async def _stop_codec(app: web.Application) -> None:
    app[CODEC].close()


def _json(value, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    return web.Response(text=json_text(value), status=status, content_type="application/json", headers=headers)


def _error(status: int, message: str, headers: dict[str, str] | None = None, **details) -> web.Response:
    return _json({"error": message, **details}, status, headers)


@web.middleware
async def _errors_as_json(request: web.Request, handler) -> web.StreamResponse:
    try:
        return await handler(request)
    except web.HTTPException as exc:  # aiohttp's own: no route, wrong HTTP method, body too large
        if exc.status < 400:
            raise
        default_text = f"{exc.status}: {exc.reason}"  # aiohttp's text when it has nothing to add
        detail = exc.reason if exc.text in (None, default_text) else exc.text
        return _error(exc.status, f"{request.method} {request.path}: {detail}")
    except UnreadableBody as exc:
        response = _error(exc.status, str(exc))
        response.force_close()
        return response
    except Restoring as exc:
        return _error(exc.status, str(exc), headers={"Retry-After": str(exc.retry_after)})
    except MoxziError as exc:
        return _error(exc.status, str(exc))
    except Exception as exc:  # a bad request must never take the daemon down
        log.exception("%s %s failed", request.method, request.path)
        return _error(500, f"internal error: {type(exc).__name__}: {exc}")


class UnreadableBody(BadBody):
    """The body's Content-Encoding cannot be decoded, or it came too slowly: the rest of the stream
    cannot be trusted either, so the connection closes after the answer."""


class BodyTooSlow(UnreadableBody):
    status = 408


class NotAuthorised(MoxziError):
    status = 401


class BadHeader(MoxziError):
    """A request header the route reads is malformed."""


class BadQuery(MoxziError):
    """A query parameter the route reads is malformed."""


# Visible ASCII, as the keys clients make (UUIDs, random tokens) are: bounded, so a key costs little.
IDEMPOTENCY_KEY = re.compile(r"[!-~]{1,255}")


def _idempotency_key(request: web.Request) -> bytes | None:
    """The request's ``Idempotency-Key`` (absent: None); raises BadHeader for one that is malformed."""
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None
    if not IDEMPOTENCY_KEY.fullmatch(key):
        raise BadHeader("Idempotency-Key must be 1 to 255 visible ASCII characters")
    return key.encode()


def authorise(request: web.Request, what: str) -> None:
    """Raise NotAuthorised unless the request may use an admin route (before its body is read)."""
    admin = request.app[ADMIN]
    if not admin.allows(request.headers.get("Authorization")):
        raise NotAuthorised(
            f"{what} needs moxzid's admin token: send the header `Authorization: Bearer "
            f"TOKEN` (the token is in {admin.where})"
        )


async def _read_body(request: web.Request, what: str) -> bytes:
    """The request body; raises BadBody (a 400 naming ``what``) when its Content-Encoding (a broken gzip
    or deflate stream) cannot be decoded, BodyTooSlow (408) when it is not all there in time."""
    limit = request.app[BODY_SECS]
    try:
        async with asyncio.timeout(limit):
            return await request.read()
    except TimeoutError:
        raise BodyTooSlow(f"{what}: the body did not arrive within {limit:g} s (--http-body-secs)") from None
    except web.RequestPayloadError as exc:
        raise UnreadableBody(f"{what}: the body cannot be read: {exc.__cause__ or exc}") from None


async def read_json(request: web.Request, what: str) -> Any:
    """The request body as JSON; raises BadBody (a 400 naming ``what``) for a body that cannot be read
    (see _read_body), that is not JSON, or that nests too deeply to parse."""
    body = await _read_body(request, what)
    return await request.app[CODEC].run(len(body), parse_json, body, what)


async def _call_json(request: web.Request) -> web.Response:
    return await _call(request, query_route=False, text=False)


async def _query_json(request: web.Request) -> web.Response:
    return await _call(request, query_route=True, text=False)


async def _call_text(request: web.Request) -> web.Response:
    return await _call(request, query_route=False, text=True)


async def _query_text(request: web.Request) -> web.Response:
    return await _call(request, query_route=True, text=True)


async def _call(request: web.Request, query_route: bool, text: bool) -> web.Response:
    """A call with JSON arguments and results, or (``text``) Candid's textual values; counted as in
    flight for its client from its start to its answer."""
    calls, client = request.app[CALLS], request.remote or "a local socket"
    if not calls.take(client):
        raise TooManyCalls(
            f"{client} has {calls.limit} calls in flight, the most a client may "
            f"(moxzid --http-max-calls-per-client {calls.limit}); retry once some are answered"
        )
    # Counted until the answer: a handler runs on after its client hangs up (aiohttp does not cancel
    # it), and so does its call, so a client that sends calls and hangs up is still held to the bound.
    try:
        return await _run_call(request, query_route, text)
    finally:
        calls.release(client)


async def _run_call(request: web.Request, query_route: bool, text: bool) -> web.Response:
    host = request.app[HOST]
    actor, method = request.match_info["actor"], request.match_info["method"]
    methods = host.info(actor).interface.methods
    func = methods.get(method)
    if func is None:
        raise UnknownMethod(no_method(actor, method, methods))
    what = f"{actor}.{method}"
    key = None if query_route else _idempotency_key(request)
    body = await _read_body(request, what)
    codec = request.app[CODEC]
    arg = await codec.run(len(body), text_arguments if text else json_arguments, func, body, what)
    # The host runs a query method as a query on either route, so it leaves no trace in the actor.
    outcome = await host.call(actor, method, arg, query=query_route, key=key)
    if outcome.reply is None:
        return rejected(what, outcome)
    try:
        answer = await codec.run(len(outcome.reply), text_results if text else json_results, func, outcome.reply, what)
    except BrokenReply as exc:
        log.error("%s", exc)
        raise
    return web.Response(body=answer, content_type="text/plain" if text else "application/json", charset="utf-8")


def rejected(what: str, outcome) -> web.Response:
    """The answer to a rejected call: its status by reject code (STATUSES), the code and message."""
    code = outcome.reject_code
    name = Reject(code).name if code in STATUSES else "UNKNOWN"
    return _error(
        STATUSES.get(code, 500),
        f"{what} rejected ({code} {name}): {outcome.reject_message}",
        reject_code=code,
        reject_message=outcome.reject_message,
    )


async def _upgrade(request: web.Request) -> web.Response:
    host = request.app[HOST]
    actor = request.match_info["actor"]
    host.info(actor)  # an unknown actor is a 404 before the body is read
    what = f"upgrade of {actor}"
    signed_sha256 = authorise_controller(request, actor, what)  # new code reads all the actor holds
    module = await _read_body(request, what)
    if signed_sha256 is not None and hashlib.sha256(module).digest() != signed_sha256:
        raise BadSignature(
            f"{what}: the module's sha256 is {hashlib.sha256(module).hexdigest()}, the signed one "
            f"{signed_sha256.hex()}: nothing was upgraded"
        )
    await host.upgrade(actor, module)
    return web.Response(text="upgraded")


def authorise_controller(request: web.Request, actor: str, what: str) -> bytes | None:
    """Raise unless the request may use a route that ``actor``'s controllers may use too (upgrades, the
    weights):
    signed by one of them (controllers.py), or as an admin route. The sha256 its body must have when it
    is signed (None: any)."""
    if is_signed(request.headers.get("Authorization")):
        return request.app[CONTROLLERS].admit(request, actor, what).body_sha256
    authorise(request, what)
    return None


async def _export_weights(request: web.Request) -> web.StreamResponse:
    host, actor = request.app[HOST], request.match_info["actor"]
    host.info(actor)
    authorise_controller(request, actor, f"the weights of {actor}")  # they are everything the actor learnt
    return await weights.export(request, host, actor)


async def _import_weights(request: web.Request) -> web.Response:
    host, actor = request.app[HOST], request.match_info["actor"]
    host.info(actor)
    signed_sha256 = authorise_controller(request, actor, f"an import into {actor}")
    names, outcome = await weights.import_(
        request, host, actor, request.app[BODY_SECS], request.app[CODEC], signed_sha256
    )
    if outcome.reply is None:
        return rejected(f"weights import into {actor}", outcome)
    return _json({"imported": names})


async def _logs(request: web.Request) -> web.Response:
    """The actor's log (fetch_canister_logs' records) from index ``?since=N`` on: every record for
    whoever may use the admin routes, else for the signer of the request, or the anonymous principal
    unsigned, as the actor's log_visibility allows (403 where it does not)."""
    host, actor = request.app[HOST], request.match_info["actor"]
    host.info(actor)
    what = f"the log of {actor}"
    since = request.query.get("since", "0")
    if not re.fullmatch("[0-9]{1,20}", since):
        raise BadQuery(f"{what}: since must be a record's index (a whole number), not {since[:40]!r}")
    authorization = request.headers.get("Authorization")
    if is_signed(authorization):
        viewer: bytes | None = request.app[CONTROLLERS].sender(request, actor, what)
    else:
        viewer = None if request.app[ADMIN].allows(authorization) else ANONYMOUS
    records = host.canister_log(actor, viewer)
    return _json(
        [
            {"idx": idx, "timestamp_nanos": timestamp, "content": content.decode("utf-8", "replace")}
            for idx, timestamp, content in records
            if idx >= int(since)
        ]
    )


async def _backup(request: web.Request) -> web.StreamResponse:
    authorise(request, "POST /backup")
    body = await read_json(request, "POST /backup")
    return await backup.serve(request, request.app[HOST], request.app[STATE_DIR], body)


async def _say_which_moxzid(request: web.Request, response: web.StreamResponse) -> None:
    """Every answer names the moxzid that gave it, so a client signs for it (controllers.py)."""
    response.headers[ID_HEADER] = request.config_dict[CONTROLLERS].moxzid_id.hex()  # (mounted apps too)


async def _health(request: web.Request) -> web.Response:
    """200 ``{"status": "ready"}`` once every actor runs; while moxzid starts, 503 with ``Retry-After``
    and what it restores (``{"status": "starting", "error": "restoring 3 of 6 actors"}``)."""
    starting = request.app[HOST].starting()
    if starting is None:
        return _json({"status": "ready"})
    answer = {"status": "starting", "error": str(starting)}
    return _json(answer, starting.status, {"Retry-After": str(starting.retry_after)})


async def _actors(request: web.Request) -> web.Response:
    host = request.app[HOST]
    return _json([_describe(host.info(name)) for name in host.actor_names()])


def _describe(info) -> dict:
    methods = {
        name: {"args": [str(t) for t in func.args], "results": [str(t) for t in func.rets], "modes": sorted(func.modes)}
        for name, func in sorted(info.interface.methods.items())
    }
    return {"name": info.name, "principal": str(info.principal), "mode": info.mode, "methods": methods}


async def _cycles(request: web.Request) -> web.Response:
    host = request.app[HOST]
    return _json({name: _account(host.ledger, name) for name in host.actor_names()})


async def _add_cycles(request: web.Request) -> web.Response:
    host = request.app[HOST]
    actor = request.match_info["actor"]
    host.info(actor)  # an unknown actor is a 404 whatever the body
    authorise(request, f"cycles for {actor}")
    value = await read_json(request, f"cycles for {actor}")
    cycles = value.get("add") if isinstance(value, dict) and value.keys() == {"add"} else None
    if not _whole(cycles):
        return _error(
            400, f'cycles for {actor}: the body must be {{"add": N}} with N a whole number > 0, got {show(value)}'
        )
    if host.ledger is None:  # a host made without one (in a test), never moxzid's
        return _error(409, f"cycles for {actor}: this host keeps no cycles")
    host.ledger.add(actor, cycles)
    return _json(_account(host.ledger, actor))


async def _fund_ledger_account(request: web.Request) -> web.Response:
    """Credit a principal's cycles-ledger account (moxzi_core.ledger_accounts), which the ic plugin's
    cycles ledger creates canisters from: ``{"add": N}``, or ``{"add": N, "subaccount": HEX}`` for
    another of its 32-byte subaccounts."""
    text = request.match_info["principal"]
    what = f"the cycles-ledger account of {text}"
    authorise(request, what)
    try:
        owner = Principal.from_text(text)
    except CandidError as error:
        return _error(400, f"{what}: {error}")
    if len(owner.bytes) > MAX_PRINCIPAL_BYTES:
        return _error(400, f"{what}: a principal is at most {MAX_PRINCIPAL_BYTES} bytes, not {len(owner.bytes)}")
    value = await read_json(request, what)
    keys = value.keys() if isinstance(value, dict) else set()
    cycles, subaccount = (value.get("add"), value.get("subaccount")) if isinstance(value, dict) else (None, None)
    if not {"add"} <= keys <= {"add", "subaccount"} or not _whole(cycles) or not _hex_or_none(subaccount):
        return _error(
            400,
            f'{what}: the body must be {{"add": N}} with N a whole number > 0, and optionally "subaccount": '
            f"64 hex digits; got {show(value)}",
        )
    host, account = request.app[HOST], None if subaccount is None else bytes.fromhex(subaccount)
    return _json({"balance": host.ledger_accounts.credit(owner.bytes, account, cycles)})


async def _clock(request: web.Request) -> web.Response:
    clock = request.app[HOST].clock
    return _json({"mode": clock.mode, "now_ns": clock.now_ns()})


async def _move_clock(request: web.Request) -> web.Response:
    """Move the manual clock (``moxzi_core.runtime.clock``): ``{"advance_ns": N}`` or ``{"set_ns": T}``;
    answered once every timer and heartbeat due by then has run."""
    authorise(request, "moving the clock")
    value = await read_json(request, "the clock")
    key, ns = next(iter(value.items())) if isinstance(value, dict) and len(value) == 1 else (None, None)
    if key not in ("advance_ns", "set_ns") or not _count(ns):
        return _error(
            400,
            f'the clock: the body must be {{"advance_ns": N}} or {{"set_ns": T}} with a whole number >= 0, '
            f"got {show(value)}",
        )
    clock = request.app[HOST].clock
    return _json({"now_ns": await (clock.advance(ns) if key == "advance_ns" else clock.set(ns))})


def _count(value) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _whole(value) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def _hex_or_none(value) -> bool:
    return value is None or (isinstance(value, str) and re.fullmatch(r"[0-9a-fA-F]{64}", value) is not None)


def _account(ledger, actor: str) -> dict:
    return {"balance": ledger.balance(actor), "spent": ledger.spent(actor)}
