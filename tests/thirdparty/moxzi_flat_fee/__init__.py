"""A price list from outside moxzi: every device call costs a flat FEE, however long it took; wasm
instructions are free.

Uses only moxzi's public API, as any third party's billing package would. Registered after the core's
``cycles`` plugin, it replaces the default price list.
"""

from moxzi_core.hookspecs import hookimpl

FEE = 1_000_000


class FlatFee:
    def price(self, kind: str, amount: float) -> int:
        if kind == "device_ms":
            return FEE
        if kind == "instructions":
            return 0
        raise ValueError(f"no price for {kind!r}")


@hookimpl
def register_billing(register):
    register("flat-fee", lambda config: FlatFee())
