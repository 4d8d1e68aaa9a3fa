"""A device op from outside moxzi: ``square : nat32`` (a register), x * x elementwise, on torch.

Uses only moxzi's public API, as any third party's op package would. Motoko declares it as
``#square : Nat32`` in its ``Op`` type.
"""

from moxzi_core.candid import NAT32
from moxzi_core.device import Op
from moxzi_core.hookspecs import hookimpl


def rule(p, c):
    """square reads one float32 register and has its shape."""
    return c.float("x", c.reg(p))


@hookimpl
def register_ops(register):
    register(Op("square", NAT32, rule, {"torch": lambda p, x: x * x}))
