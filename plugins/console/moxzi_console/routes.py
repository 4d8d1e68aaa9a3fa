"""The console's HTTP apps, mounted by the HTTP gateway (``register_http_apps``).

- ``/console``: ``GET /console/`` the page (``static/index.html``; the gateway's ``GET /`` leads here),
  with what ``/console/state`` and ``/console/history`` answer now inside it, so it paints with data
  before it fetches anything; ``GET /console/static/FILE`` its scripts, ``GET /console/state`` (the page fetches it every few
  seconds): JSON: ``starting`` (while moxzid starts, what it restores, ``restoring 3 of 6 actors``: the
  ``progress`` of ``host.starting()``, the line its 503s and ``/health`` say; null once ready),
  ``actors`` (while moxzid starts, those restored so far; name, principal, mode, memory, cycles,
  messages, traps, instructions, device usage, methods with their Candid types as JSON trees, see ``type_tree``), ``device``
  (backend name, or null), ``store`` (its ``description`` and ``bytes``, how large the state is, or
  null where the store cannot tell), ``transfers`` (the device's live exports and fetches in flight,
  ``Device.transfers``, or null), ``checkpoints`` (how many device copies were taken since moxzid
  started, and the last one's ``seconds`` and ``bytes``); ``GET /console/history``: ``log`` (the recent lines) and ``curves`` (each actor's loss
  curve per optimizer: ``points`` of [step, loss], at most ``watch.HISTORY_POINTS`` a curve). Both
  are bounded (watch.py): deleted actors are gone, and an actor's made-up labels have an overflow.
- ``GET /events``: the live event stream (moxzi_core.events) as Server-Sent Events: each event's
  ``event:`` is its kind and ``data:`` the event as JSON, and an SSE comment every HEARTBEAT_SECONDS
  without events, so a client that left is noticed within seconds. Any client may use it
  (``curl -N http://127.0.0.1:7000/events``); a stream is one of the gateway's ``Streams``
  (``--http-max-streams``, 8 per client; moxzi_gateway_http.streams).
- ``GET /metrics``: Prometheus text format (metrics.py).
- ``GET /favicon.ico``: the console's icon, where browsers look for one.

The three apps share one ``Watch`` of the host's events.
"""

from __future__ import annotations

import asyncio
import json
import time
import weakref
from importlib import resources

from aiohttp import web

from moxzi_core.candid import CandidType, Opt, Primitive, Record, Variant, Vec, accepts_null, resolve
from moxzi_gateway_http import STREAMS

from . import metrics
from .watch import Watch

STATIC = resources.files(__package__) / "static"
STATIC_TYPES = {
    ".html": "text/html",
    ".js": "text/javascript",
    ".css": "text/css",
    ".ico": "image/x-icon",
    ".LICENSE": "text/plain",
}
TYPE_DEPTH = 16  # deeper (recursive types): the form asks for the JSON value itself
SSE_POLL_SECONDS = 1.0  # how often a stream checks for moxzid stopping
HEARTBEAT_SECONDS = 5.0  # an SSE comment this often without events: a write to a client gone fails
# In index.html: replaced, as the page is served, by the element holding the state and history then.
FIRST_STATE = '<script id="first-state" type="application/json">null</script>'

_watches: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # host -> its Watch


def _watching(app: web.Application, host) -> Watch:
    """The host's Watch (made once for the three apps), running while ``app`` runs."""
    watch = _watches.get(host)
    if watch is None:
        # A weak method: the Watch is the dictionary's value, and a bound method would keep its key alive.
        actor_names = weakref.WeakMethod(host.actor_names)
        watch = _watches[host] = Watch(host.events, lambda: (actor_names() or tuple)())

    async def start(app: web.Application) -> None:
        watch.start()

    async def stop(app: web.Application) -> None:
        watch.stop()

    app.on_startup.append(start)
    app.on_cleanup.append(stop)
    return watch


def console_app(host, settings) -> web.Application:
    """The page, its files and ``/state``."""
    app = web.Application()
    watch = _watching(app, host)

    async def page(request: web.Request) -> web.Response:
        first = {"state": _state(host, watch), "history": _history(host, watch)}
        html = (STATIC / "index.html").read_text().replace(FIRST_STATE, _embedded(first))
        return web.Response(text=html, content_type="text/html")

    async def to_page(request: web.Request) -> web.Response:
        raise web.HTTPFound(request.path + "/")

    async def static(request: web.Request) -> web.Response:
        return _static(request.match_info["name"])

    async def state(request: web.Request) -> web.Response:
        return web.json_response(_state(host, watch))

    async def history(request: web.Request) -> web.Response:
        return web.json_response(_history(host, watch))

    app.router.add_get("", to_page)
    app.router.add_get("/", page)
    app.router.add_get("/static/{name}", static)
    app.router.add_get("/state", state)
    app.router.add_get("/history", history)
    return app


def favicon_app(host, settings) -> web.Application:
    """``GET /favicon.ico``."""
    app = web.Application()

    async def icon(request: web.Request) -> web.Response:
        return _static("favicon.ico")

    app.router.add_get("", icon)
    return app


def metrics_app(host, settings) -> web.Application:
    """``GET /metrics``."""
    app = web.Application()
    watch = _watching(app, host)

    async def text(request: web.Request) -> web.Response:
        watch.catch_up()
        watch.prune(host.actor_names())
        return web.Response(text=metrics.render(watch, host), content_type="text/plain", charset="utf-8")

    app.router.add_get("", text)
    return app


def events_app(host, settings) -> web.Application:
    """``GET /events``: Server-Sent Events until the client goes or moxzid stops."""
    app = web.Application()
    stopping = asyncio.Event()

    async def on_shutdown(app: web.Application) -> None:
        stopping.set()  # event streams end, so the gateway stops without waiting for them

    async def stream(request: web.Request) -> web.StreamResponse:
        with request.config_dict[STREAMS].hold(request, "/events"):
            response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache"})
            await response.prepare(request)
            subscription = host.events.subscribe()
            try:
                await response.write(b"event: hello\ndata: {}\n\n")
                quiet_since = time.monotonic()
                while not stopping.is_set():
                    events = await subscription.next(timeout=SSE_POLL_SECONDS)
                    if events:
                        await response.write(
                            "".join(
                                f"event: {e['kind']}\ndata: {json.dumps(e, default=str)}\n\n" for e in events
                            ).encode()
                        )
                    if subscription.dropped:
                        await response.write(f"event: dropped\ndata: {subscription.dropped}\n\n".encode())
                        subscription.dropped = 0
                    if events:
                        quiet_since = time.monotonic()
                    elif time.monotonic() - quiet_since >= HEARTBEAT_SECONDS:
                        await response.write(b": still here\n\n")
                        quiet_since = time.monotonic()
            except ConnectionResetError:
                pass  # the client went away
            finally:
                subscription.close()
            return response

    app.on_shutdown.append(on_shutdown)
    app.router.add_get("", stream)
    return app


def _state(host, watch: Watch) -> dict:
    """What ``GET /console/state`` answers."""
    watch.catch_up()
    names = host.actor_names()
    watch.prune(names)
    starting = host.starting()
    return {
        "starting": None if starting is None else starting.progress,
        "actors": [_actor(host, watch, name) for name in names],
        "device": None if host.system_state is None else host.system_state.runs_on,
        "store": {"description": host.store.description, "bytes": host.store.size_bytes()},
        "transfers": metrics.device_transfers(host),
        "checkpoints": {"count": sum(watch.checkpoints.counts), "last": watch.last_checkpoint},
    }


def _history(host, watch: Watch) -> dict:
    """What ``GET /console/history`` answers."""
    watch.catch_up()
    watch.prune(host.actor_names())
    return {"log": list(watch.log), "curves": watch.curves_json()}


def _embedded(value) -> str:
    """The first-state element holding ``value`` as JSON, inert inside the page's ``<script>`` element: actor names and log
    lines come from actors, so no ``<`` (``</script>``, ``<!--``), ``>`` or ``&`` is left as itself."""
    text = json.dumps(value, default=str).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return FIRST_STATE.replace("null", text)


def _static(name: str) -> web.Response:
    kind = next((t for suffix, t in STATIC_TYPES.items() if name.endswith(suffix)), None)
    path = STATIC / name
    if kind is None or "/" in name or not path.is_file():
        raise web.HTTPNotFound(text=f"no console file {name!r}")
    return web.Response(body=path.read_bytes(), content_type=kind)


def _actor(host, watch: Watch, name: str) -> dict:
    info = host.info(name)
    heap, stable = host.footprint(name)
    usage = metrics.device_usage(host)
    return {
        "name": name,
        "principal": str(info.principal),
        "mode": info.mode,
        "memory": {"heap": heap, "stable": stable},
        "cycles": None
        if host.ledger is None
        else {"balance": host.ledger.balance(name), "spent": host.ledger.spent(name)},
        "messages": sum(n for (actor, _, _), n in watch.messages.items() if actor == name),
        "traps": watch.traps.get(name, 0),
        "instructions": watch.instructions.get(name, 0),
        "device": None if usage is None else usage.get(name),
        "methods": {
            method: {
                "modes": sorted(f.modes),
                "args": [type_tree(t) for t in f.args],
                "results": [type_tree(t) for t in f.rets],
            }
            for method, f in sorted(info.interface.methods.items())
        },
    }


def type_tree(t: CandidType, depth: int = TYPE_DEPTH) -> dict:
    """A Candid type as the page builds its form from it: ``{"t": KIND, "text": the type's text}`` with
    ``of`` (opt, vec; ``wrap``: the opt's JSON form is ``[]``/``[value]``), ``fields`` (record, variant:
    ``[{"key": JSON key, "type": ...}]``; ``tuple``: a record whose JSON form is an array). ``blob``,
    ``principal`` and the primitives are leaves; anything else (func, service, a type nested past
    ``depth``) is ``json``: the form asks for its JSON value."""
    text = str(t)
    t = resolve(t)
    if isinstance(t, Primitive):
        return {"t": t.name, "text": text}
    if depth <= 0:
        return {"t": "json", "text": text}
    if isinstance(t, Opt):
        return {"t": "opt", "text": text, "wrap": accepts_null(t.type), "of": type_tree(t.type, depth - 1)}
    if isinstance(t, Vec):
        element = resolve(t.type)
        if isinstance(element, Primitive) and element.name == "nat8":
            return {"t": "blob", "text": text}
        return {"t": "vec", "text": text, "of": type_tree(t.type, depth - 1)}
    if isinstance(t, (Record, Variant)):
        kind = "variant" if isinstance(t, Variant) else "tuple" if t.is_tuple else "record"
        return {
            "t": kind,
            "text": text,
            "fields": [{"key": str(f.key), "type": type_tree(f.type, depth - 1)} for f in t.fields],
        }
    return {"t": "json", "text": text}
