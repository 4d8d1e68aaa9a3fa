"""moxzid's HTTP plugin, a plugin like any other: it registers the gateway ``http`` (served on
``--listen``) and the device's transport ``http`` (``transport.py``: exports served on
``--device-listen``, fetches of http:// and https:// URLs), and the settings they read: ``--listen``,
``--device-listen``, ``--http-idle-secs``, ``--http-body-secs``, ``--http-write-secs``,
``--http-max-connections``, ``--http-max-streams``, ``--device-max-connections``,
``--http-max-calls-per-client``, ``--allowed-hosts`` and ``--allowed-origins``. It adds hooks of its own
(``hookspecs.py``) through which other plugins mount HTTP apps on its address (the ic plugin's
``/api``, the console's pages) and lead paths elsewhere (``/`` to the console).

Routes (all answers JSON unless stated):

- ``POST /call-json/ACTOR/METHOD``: body a JSON array of the arguments; runs an update call (a query
  method runs as a query and leaves no trace) and answers the JSON array of its results. With an
  ``Idempotency-Key: KEY`` header (1 to 255 visible ASCII characters) the call runs once: a retry
  with the same key gets the first run's answer, also after a crash (moxzi_core.runtime.replays).
- ``POST /query-json/ACTOR/METHOD``: the same as a query; an update method here is a 400.
- ``POST /call/ACTOR/METHOD``, ``POST /query/ACTOR/METHOD``: the same with Candid's textual values
  (``Idempotency-Key`` included),
  as ``dfx canister call`` takes and prints them: the body ``(42, "x")``, the answer ``(43 : nat)``
  as text (``moxzi call`` uses these).
- ``POST /upgrade/ACTOR``: body the new wasm; answers the text ``upgraded``.
- ``GET /actors``: each actor's name, principal, persistence mode and methods with their Candid types
  (while moxzid starts, those restored so far).
- ``GET /health``: ``{"status": "ready"}`` once every actor runs; while moxzid starts, 503 with
  ``Retry-After`` and ``{"status": "starting", "error": "moxzid is starting: restoring 3 of 6 actors; ..."}``.
- ``GET /cycles``: each actor's cycles, ``{ACTOR: {"balance": B, "spent": S}}`` (with ``--cycles 0``
  nothing is charged: every balance and spent is 0).
- ``POST /cycles/ACTOR``: body ``{"add": N}``, N > 0; adds N cycles to the actor's balance and answers
  ``{"balance": B, "spent": S}`` after it. 409 when moxzid does not charge cycles.
- ``POST /cycles-ledger/PRINCIPAL``: body ``{"add": N}`` (and optionally ``"subaccount"``: 64 hex
  digits); funds PRINCIPAL's cycles-ledger account and answers ``{"balance": B}``. 409 when moxzid does
  not charge cycles.
- ``GET /weights/ACTOR``: the actor's parameters as a safetensors file (``?prefix=P``,
  ``&publications=1``); ``PUT /weights/ACTOR``: body a safetensors file that sets or creates them,
  answers ``{"imported": [NAMES]}``. Controllers' signed requests or the admin token only.
- ``GET /logs/ACTOR``: the actor's log records, ``[{"idx", "timestamp_nanos", "content"}]``
  (``?since=I``), as its ``log_visibility`` lets the request's signer see them.
- ``GET /clock``: ``{"mode", "now_ns"}``; ``POST /clock``: body ``{"advance_ns": N}`` or
  ``{"set_ns": T}`` moves a manual clock (``--clock manual``) and answers ``{"now_ns": N}``.

Admin routes (``/upgrade``, ``POST /cycles``, ``/cycles-ledger``, ``POST /clock``, ``/weights``) are open
on a loopback address and need moxzid's admin token elsewhere.

Errors answer ``{"error": MESSAGE}`` with the status ``moxzi_gateway_http.routes`` documents.
"""

from moxzi_core.hookspecs import hookimpl

from . import hookspecs
from .server import HttpGateway
from .settings import SETTINGS
from .streams import STREAMS, Streams
from .transport import HttpTransport

__all__ = ["STREAMS", "HttpGateway", "HttpTransport", "Streams"]


@hookimpl
def register_hookspecs(register):
    register(hookspecs)


@hookimpl
def register_settings(register):
    for setting in SETTINGS:
        register(setting)


@hookimpl
def register_gateways(register, added):
    apps, redirects = added["register_http_apps"], added["register_http_redirects"]
    register("http", lambda host, settings: HttpGateway(host, settings, apps, redirects), check=HttpGateway.check)


@hookimpl
def register_transports(register):
    register("http", HttpTransport)
