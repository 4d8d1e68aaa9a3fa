"""A ``Host`` in the test process with compiled test actors, and calls to it."""

import asyncio

from kit.actorbuild import build_actor
from moxzi_core.candid import NAT, decode_args, encode_args
from moxzi_core.runtime.engine import Limits
from moxzi_core.runtime.host import ActorSpec, Host, HostConfig

NO_ARGS = encode_args([], [])
# For an update that spins until it runs out of instructions while a test queries meanwhile: ~0.7 s here
# (~8e9 instructions a second), longer than those queries (0.1-0.15 s) on a machine up to 6x quicker.
# (3e9, 0.36 s here, was not: a machine 3-4x quicker trapped before the query 0.1 s after the start.)
SPIN_LIMITS = Limits(instructions_per_message=6 * 10**9)


def spec(name: str, actor: str = "lab", *, classic: bool = False) -> ActorSpec:
    """Actor ``name`` running tests/actors/ACTOR.mo."""
    built = build_actor(actor, classic=classic)
    return ActorSpec(name, built.wasm, built.did)


async def started(*specs: ActorSpec, limits: Limits | None = None) -> Host:
    host = Host(list(specs), HostConfig(limits or Limits()))
    await host.start()
    return host


async def update(host, actor, method, types=(), values=(), rets=(NAT,)):
    """The decoded results of an update call that must succeed."""
    outcome = await host.call(actor, method, encode_args(list(types), list(values)), query=False)
    assert outcome.reply is not None, outcome.reject_message
    return decode_args(outcome.reply, list(rets))


async def query(host, actor, method, rets=(NAT,)):
    """The decoded results of a query (no arguments) that must succeed."""
    outcome = await host.call(actor, method, NO_ARGS, query=True)
    assert outcome.reply is not None, outcome.reject_message
    return decode_args(outcome.reply, list(rets))


async def eventually(check, seconds=10.0):
    """Wait until ``await check()`` is true; fail after ``seconds``."""
    for _ in range(int(seconds / 0.02)):
        if await check():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("condition not reached in time")
