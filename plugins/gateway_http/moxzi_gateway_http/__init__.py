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

Errors answer ``{"error": MESSAGE}`` with the status ``moxzi_gateway_http.routes`` documents.
"""

from moxzi_core.hookspecs import hookimpl
from moxzi_core.settings import Address, Setting

from . import hookspecs
from .routes import CALLS_PER_CLIENT
from .server import HttpGateway
from .streams import STREAMS, Streams
from .transport import HttpTransport

__all__ = ["STREAMS", "HttpGateway", "HttpTransport", "Streams"]


@hookimpl
def register_hookspecs(register):
    register(hookspecs)


@hookimpl
def register_settings(register):
    register(
        Setting(
            "listen",
            "address",
            "address the HTTP gateway serves on (default 127.0.0.1:7000; port 0 picks a free port)",
            default=Address("127.0.0.1", 7000),
            metavar="HOST:PORT",
        )
    )
    register(
        Setting(
            "http-idle-secs",
            "amount",
            "close an HTTP connection that has not sent a whole request's "
            "headers this long after it opened or was last answered (slow headers included; default "
            "60)",
            default=60.0,
            metavar="SECS",
        )
    )
    register(
        Setting(
            "http-body-secs",
            "amount",
            "answer 408 and close the connection when a request body takes longer than this to arrive (default 60)",
            default=60.0,
            metavar="SECS",
        )
    )
    register(
        Setting(
            "http-write-secs",
            "amount",
            "close an HTTP connection whose client takes none of its reply this long (it stopped "
            "reading), dropping the reply (default 60)",
            default=60.0,
            metavar="SECS",
        )
    )
    register(
        Setting(
            "http-max-connections",
            "count",
            "HTTP connections held open at once; one more is answered "
            "503 and closed (default 512; lowered to fit the open-file limit)",
            default=512,
            metavar="N",
        )
    )
    register(
        Setting(
            "http-max-calls-per-client",
            "count",
            "calls and queries one client (a remote address) may have in flight on the call and query "
            f"routes, a client that hung up included; one more is answered 429 (default {CALLS_PER_CLIENT})",
            default=CALLS_PER_CLIENT,
            metavar="N",
        )
    )
    register(
        Setting(
            "http-max-streams",
            "count",
            "event streams (/events) held open at once, counted apart from --http-max-connections; past it a "
            "new one is answered 503, and one from a client (a remote address) already holding 8 is a 429 "
            "(default 64; lowered to fit the open-file limit)",
            default=64,
            metavar="N",
        )
    )
    register(
        Setting(
            "allowed-hosts",
            "names",
            "more names moxzid answers as (a proxy's, this machine's on a network), NAME on any port or "
            "NAME:PORT; a request whose Host is none of moxzid's names is answered 403 (default: the listen "
            "address, localhost, 127.0.0.1 and [::1] with its port)",
            default=[],
            metavar="NAME,...",
        )
    )
    register(
        Setting(
            "allowed-origins",
            "names",
            "web pages' origins (http://localhost:5173) that may use every route, as moxzid's own console "
            "does; other pages are answered 403 on all but the IC interface /api (default: none)",
            default=[],
            metavar="ORIGIN,...",
        )
    )
    register(
        Setting(
            "device-listen",
            "address",
            "serve the device's exports (moxzi_device_export) to other "
            "machines' devices on this address (port 0 picks a free port); put TLS in front of it on "
            "an untrusted network",
            metavar="HOST:PORT",
        )
    )
    register(
        Setting(
            "device-max-connections",
            "count",
            "connections --device-listen holds open at once (the --http-idle-secs and --http-write-secs "
            "timeouts apply there too); one more is answered 503 (default 64; lowered to fit the "
            "open-file limit)",
            default=64,
            metavar="N",
        )
    )


@hookimpl
def register_gateways(register, added):
    apps, redirects = added["register_http_apps"], added["register_http_redirects"]
    register("http", lambda host, settings: HttpGateway(host, settings, apps, redirects), check=HttpGateway.check)


@hookimpl
def register_transports(register):
    register("http", HttpTransport)
