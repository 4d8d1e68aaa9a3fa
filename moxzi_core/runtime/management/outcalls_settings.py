"""HTTPS outcalls' settings (the management canister's http_request, `outcalls`): whether actors may
make them, which hosts that are not on the public internet they may reach, and their bounds in time
and number. Registered like a plugin's (``register_settings``: `plugins.CORE_PARTS`);
``outcall_config`` makes the host's configuration of them."""

from __future__ import annotations

from ...hookspecs import hookimpl
from ...settings import Setting, Settings, at_least
from .web import MAX_IN_FLIGHT, MAX_IN_FLIGHT_PER_ACTOR, TIMEOUT_SECS, OutcallConfig

SETTINGS = (
    Setting(
        "http-outcalls",
        "text",
        "on: actors may make HTTPS outcalls (the management canister's http_request); off: every one is "
        "refused (default on)",
        default="on",
        metavar="on|off",
        check=lambda value: None if value in ("on", "off") else "give on or off",
    ),
    Setting(
        "http-outcalls-allow",
        "names",
        "comma-separated hosts (names or addresses) that HTTPS outcalls may reach although they are this "
        "machine's or a private network's (loopback, link-local, private addresses): without it every "
        "address a host resolves to must be on the public internet (default: none)",
        default=[],
        metavar="HOSTS",
    ),
    Setting(
        "http-outcalls-timeout-secs",
        "count",
        f"how long an HTTPS outcall may take before it is rejected SYS_TRANSIENT (default {TIMEOUT_SECS})",
        default=TIMEOUT_SECS,
        metavar="S",
        check=at_least(1, "no outcall could finish"),
    ),
    Setting(
        "max-http-outcalls",
        "count",
        "HTTPS outcalls all actors may have in flight at once; one more is rejected SYS_TRANSIENT "
        f"(default {MAX_IN_FLIGHT})",
        default=MAX_IN_FLIGHT,
        metavar="N",
        check=at_least(1, "no outcall could be made"),
    ),
    Setting(
        "max-http-outcalls-per-actor",
        "count",
        "HTTPS outcalls each actor may have in flight at once; one more is rejected SYS_TRANSIENT "
        f"(default {MAX_IN_FLIGHT_PER_ACTOR})",
        default=MAX_IN_FLIGHT_PER_ACTOR,
        metavar="N",
        check=at_least(1, "no outcall could be made"),
    ),
)


@hookimpl
def register_settings(register):
    for setting in SETTINGS:
        register(setting)


def outcall_config(settings: Settings) -> OutcallConfig:
    return OutcallConfig(
        enabled=settings.http_outcalls == "on",
        allow=frozenset(settings.http_outcalls_allow or ()),
        timeout_secs=settings.http_outcalls_timeout_secs,
        max_in_flight=settings.max_http_outcalls,
        max_in_flight_per_actor=settings.max_http_outcalls_per_actor,
    )
