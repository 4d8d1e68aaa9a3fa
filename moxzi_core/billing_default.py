"""The core's price list, a plugin like a third party's (entry point ``cycles``): it registers the
seed's rule, ``DefaultPrices`` at ``--device-cycles-per-ms``. A price list registered after it wins."""

from .billing import DefaultPrices
from .billing_settings import DEVICE_CYCLES_PER_MS
from .hookspecs import hookimpl


@hookimpl
def register_billing(register):
    register("default", lambda settings: DefaultPrices(settings[DEVICE_CYCLES_PER_MS]))
