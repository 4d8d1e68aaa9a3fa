"""HTTPS outcalls' settings (the management canister's http_request, `outcalls`): whether actors may
make them, which hosts that are not on the public internet they may reach, and their bounds in time
and number. Registered like a plugin's (``register_settings``: `plugins.CORE_PARTS`);
``outcall_config`` makes the host's configuration of them."""

from __future__ import annotations

from ...hookspecs import hookimpl
from ...settings import Setting, Settings, at_least
from .web import MAX_IN_FLIGHT, MAX_IN_FLIGHT_PER_ACTOR, TIMEOUT_SECS, OutcallConfig

HTTP_OUTCALLS = Setting(
    "http-outcalls",
    "text",
    "on: actors may make HTTPS outcalls (the management canister's http_request); off: every one is "
    "refused (default on)",
    default="on",
    metavar="on|off",
    check=lambda value: None if value in ("on", "off") else "give on or off",
)

HTTP_OUTCALLS_ALLOW: Setting[list[str], list[str]] = Setting(
    "http-outcalls-allow",
    "names",
    "comma-separated hosts (names or addresses) that HTTPS outcalls may reach although they are this "
    "machine's or a private network's (loopback, link-local, private addresses): without it every "
    "address a host resolves to must be on the public internet (default: none)",
    default=[],
    metavar="HOSTS",
)

HTTP_OUTCALLS_TIMEOUT_SECS = Setting(
    "http-outcalls-timeout-secs",
    "count",
    f"how long an HTTPS outcall may take before it is rejected SYS_TRANSIENT (default {TIMEOUT_SECS})",
    default=TIMEOUT_SECS,
    metavar="S",
    check=at_least(1, "no outcall could finish"),
)

MAX_HTTP_OUTCALLS = Setting(
    "max-http-outcalls",
    "count",
    "HTTPS outcalls all actors may have in flight at once; one more is rejected SYS_TRANSIENT "
    f"(default {MAX_IN_FLIGHT})",
    default=MAX_IN_FLIGHT,
    metavar="N",
    check=at_least(1, "no outcall could be made"),
)

MAX_HTTP_OUTCALLS_PER_ACTOR = Setting(
    "max-http-outcalls-per-actor",
    "count",
    "HTTPS outcalls each actor may have in flight at once; one more is rejected SYS_TRANSIENT "
    f"(default {MAX_IN_FLIGHT_PER_ACTOR})",
    default=MAX_IN_FLIGHT_PER_ACTOR,
    metavar="N",
    check=at_least(1, "no outcall could be made"),
)
SETTINGS = (
    HTTP_OUTCALLS,
    HTTP_OUTCALLS_ALLOW,
    HTTP_OUTCALLS_TIMEOUT_SECS,
    MAX_HTTP_OUTCALLS,
    MAX_HTTP_OUTCALLS_PER_ACTOR,
)


@hookimpl
def register_settings(register):
    for setting in SETTINGS:
        register(setting)


def outcall_config(settings: Settings) -> OutcallConfig:
    return OutcallConfig(
        enabled=settings[HTTP_OUTCALLS] == "on",
        allow=frozenset(settings[HTTP_OUTCALLS_ALLOW] or ()),
        timeout_secs=settings[HTTP_OUTCALLS_TIMEOUT_SECS],
        max_in_flight=settings[MAX_HTTP_OUTCALLS],
        max_in_flight_per_actor=settings[MAX_HTTP_OUTCALLS_PER_ACTOR],
    )
