"""Billing's settings: whether moxzid charges cycles (``--cycles``) and the default price list's rate
(``--device-cycles-per-ms``). Registered like a plugin's (``register_settings``: `plugins.CORE_PARTS`),
whichever price list is loaded."""

from __future__ import annotations

from .billing import DefaultPrices
from .hookspecs import hookimpl
from .settings import Setting

CYCLES_PER_MS = DefaultPrices().rates["device_ms"]

SETTINGS = (
    Setting(
        "cycles",
        "count",
        "charge actors cycles when greater than 0: each actor starts with N "
        "cycles (which it may give to others with calls), and device calls are refused once its balance "
        "is spent (default 0: no charging, every balance 0)",
        default=0,
        metavar="N",
    ),
    Setting(
        "device-cycles-per-ms",
        "count",
        f"cycles a device call costs per millisecond it took, with the default price list (default {CYCLES_PER_MS})",
        default=CYCLES_PER_MS,
        metavar="N",
    ),
)


@hookimpl
def register_settings(register):
    for setting in SETTINGS:
        register(setting)
