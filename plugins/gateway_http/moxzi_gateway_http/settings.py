"""The HTTP plugin's settings, registered by the plugin (``register_settings``) and read typed by its
parts (``settings[LISTEN]``)."""

from moxzi_core.settings import Address, Setting

from .routes import CALLS_PER_CLIENT

LISTEN = Setting(
    "listen",
    "address",
    "address the HTTP gateway serves on (default 127.0.0.1:7000; port 0 picks a free port)",
    default=Address("127.0.0.1", 7000),
    metavar="HOST:PORT",
)

HTTP_IDLE_SECS = Setting(
    "http-idle-secs",
    "amount",
    "close an HTTP connection that has not sent a whole request's "
    "headers this long after it opened or was last answered (slow headers included; default "
    "60)",
    default=60.0,
    metavar="SECS",
)

HTTP_BODY_SECS = Setting(
    "http-body-secs",
    "amount",
    "answer 408 and close the connection when a request body takes longer than this to arrive (default 60)",
    default=60.0,
    metavar="SECS",
)

HTTP_WRITE_SECS = Setting(
    "http-write-secs",
    "amount",
    "close an HTTP connection whose client takes none of its reply this long (it stopped "
    "reading), dropping the reply (default 60)",
    default=60.0,
    metavar="SECS",
)

HTTP_MAX_CONNECTIONS = Setting(
    "http-max-connections",
    "count",
    "HTTP connections held open at once; one more is answered "
    "503 and closed (default 512; lowered to fit the open-file limit)",
    default=512,
    metavar="N",
)

HTTP_MAX_CALLS_PER_CLIENT = Setting(
    "http-max-calls-per-client",
    "count",
    "calls and queries one client (a remote address) may have in flight on the call and query "
    f"routes, a client that hung up included; one more is answered 429 (default {CALLS_PER_CLIENT})",
    default=CALLS_PER_CLIENT,
    metavar="N",
)

HTTP_MAX_STREAMS = Setting(
    "http-max-streams",
    "count",
    "event streams (/events) held open at once, counted apart from --http-max-connections; past it a "
    "new one is answered 503, and one from a client (a remote address) already holding 8 is a 429 "
    "(default 64; lowered to fit the open-file limit)",
    default=64,
    metavar="N",
)

ALLOWED_HOSTS: Setting[list[str], list[str]] = Setting(
    "allowed-hosts",
    "names",
    "more names moxzid answers as (a proxy's, this machine's on a network), NAME on any port or "
    "NAME:PORT; a request whose Host is none of moxzid's names is answered 403 (default: the listen "
    "address, localhost, 127.0.0.1 and [::1] with its port)",
    default=[],
    metavar="NAME,...",
)

ALLOWED_ORIGINS: Setting[list[str], list[str]] = Setting(
    "allowed-origins",
    "names",
    "web pages' origins (http://localhost:5173) that may use every route, as moxzid's own console "
    "does; other pages are answered 403 on all but the IC interface /api (default: none)",
    default=[],
    metavar="ORIGIN,...",
)

DEVICE_LISTEN = Setting(
    "device-listen",
    "address",
    "serve the device's exports (moxzi_device_export) to other "
    "machines' devices on this address (port 0 picks a free port); put TLS in front of it on "
    "an untrusted network",
    metavar="HOST:PORT",
)

DEVICE_MAX_CONNECTIONS = Setting(
    "device-max-connections",
    "count",
    "connections --device-listen holds open at once (the --http-idle-secs and --http-write-secs "
    "timeouts apply there too); one more is answered 503 (default 64; lowered to fit the "
    "open-file limit)",
    default=64,
    metavar="N",
)
SETTINGS = (
    LISTEN,
    HTTP_IDLE_SECS,
    HTTP_BODY_SECS,
    HTTP_WRITE_SECS,
    HTTP_MAX_CONNECTIONS,
    HTTP_MAX_CALLS_PER_CLIENT,
    HTTP_MAX_STREAMS,
    ALLOWED_HOSTS,
    ALLOWED_ORIGINS,
    DEVICE_LISTEN,
    DEVICE_MAX_CONNECTIONS,
)
