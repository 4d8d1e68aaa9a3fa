"""The core's price list, a plugin like a third party's (entry point ``cycles``): it registers the
seed's rule, ``DefaultPrices`` at ``--device-cycles-per-ms``. A price list registered after it wins."""

from .billing import DefaultPrices
from .hookspecs import hookimpl


@hookimpl
def register_billing(register):
    register("default", lambda settings: DefaultPrices(settings.device_cycles_per_ms))
