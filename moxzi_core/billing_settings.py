"""Billing's settings: whether moxzid charges cycles (``--cycles``) and the default price list's rate
(``--device-cycles-per-ms``). Registered like a plugin's (``register_settings``: `plugins.CORE_PARTS`),
whichever price list is loaded."""

from __future__ import annotations

from .billing import DefaultPrices, PriceList
from .hookspecs import hookimpl
from .registry import Registry
from .settings import Setting, Settings

CYCLES_PER_MS = int(DefaultPrices().rates["device_ms"])  # (the rates hold floats too)

CYCLES = Setting(
    "cycles",
    "count",
    "charge actors cycles when greater than 0: each actor starts with N "
    "cycles (which it may give to others with calls), and device calls are refused once its balance "
    "is spent (default 0: no charging, every balance 0)",
    default=0,
    metavar="N",
)

DEVICE_CYCLES_PER_MS = Setting(
    "device-cycles-per-ms",
    "count",
    f"cycles a device call costs per millisecond it took, with the default price list (default {CYCLES_PER_MS})",
    default=CYCLES_PER_MS,
    metavar="N",
)
SETTINGS = (CYCLES, DEVICE_CYCLES_PER_MS)


@hookimpl
def register_settings(register):
    for setting in SETTINGS:
        register(setting)


def choose_prices(registry: Registry, settings: Settings) -> PriceList:
    """The price list moxzid charges by: the last one the loaded plugins registered (``registry.billing``
    maps a name to a factory ``factory(settings) -> PriceList``), or DefaultPrices for ``settings`` when
    none is loaded. moxzi's own plugins load first, then the others in ``--plugins`` order, else in the
    order of their names."""
    if not registry.billing:
        return DefaultPrices(settings[DEVICE_CYCLES_PER_MS])
    factory = list(registry.billing.values())[-1]
    return factory(settings)
