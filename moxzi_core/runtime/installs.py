"""Giving an actor code: a fresh install (or reinstall) runs the start function and canister_init on
empty memories; an upgrade runs the old code's canister_pre_upgrade, hands the stable memory (and, with
enhanced persistence, the heap) to the new code and runs its canister_post_upgrade. Any trap leaves the
actor as it was. These make the new instance; the actor adopts it (`Actor.replace_code`), or raise
``CodeRefused``."""

from __future__ import annotations

from .engine import Instance
from .ic0 import Execution
from .services import Services
from .turn import Turn


class CodeRefused(Exception):
    """Why new code cannot run (a module that does not instantiate, a trap in its start or its hooks); the
    actor's code and state are as they were."""


def run_init(services: Services, turn: Turn, instance: Instance, arg: bytes, caller: bytes) -> tuple[str | None, bytes]:
    """Run canister_init in its own transaction, keeping it unless it traps: (the trap or None, the
    certified data it set: a fresh install's, empty unless set)."""
    if not instance.has_export("canister_init"):
        return None, b""
    turn.begin(instance)
    execution = Execution("I", arg=arg, caller=caller, balance=turn.balance())
    trap = instance.invoke(execution, "canister_init", fuel=services.limits.instructions_per_message)
    if trap is None:
        trap = turn.past_total(instance)
    if trap is None:
        instance.commit()
        turn.burn(execution.cycles_burned)
    else:
        instance.rollback()
    return trap, execution.certified_data or b""


def fresh(
    services: Services, turn: Turn, name: str, module: bytes, arg: bytes, caller: bytes, previous: Instance | None
) -> tuple[Instance, bytes]:
    """``module`` installed with empty memories, its start function and canister_init run: the new
    instance and its certified data (raises CodeRefused). ``previous``: the code it replaces (its clock
    goes on)."""
    try:
        new = services.instantiate(module, name)
    except Exception as error:
        raise CodeRefused(str(error)) from error
    if previous is not None:
        new.now = previous.now
    trap, certified_data = new.run_start(), b""
    if trap is None:
        trap, certified_data = run_init(services, turn, new, arg, caller)
    if trap is None:
        trap = turn.past_total(new)  # (the start function's memory, where there is no canister_init)
    if trap is not None:
        raise CodeRefused(f"canister_init trapped: {trap}")
    return new, certified_data


def upgrade(
    services: Services,
    turn: Turn,
    name: str,
    old: Instance,
    module: bytes,
    arg: bytes,
    caller: bytes,
    persistence: str | None,
) -> tuple[Instance, bytes | None]:
    """``module`` taking over ``old``'s state: the new instance (to commit as the actor adopts it) and
    the certified data the upgrade's hooks set (None: the old one stays); raises CodeRefused, with ``old``
    as it was. ``persistence`` is install_code's wasm_memory_persistence: "keep" the heap of enhanced
    persistence, "replace" it, or None (refused for enhanced persistence, as on the IC)."""
    fuel = services.limits.instructions_per_message
    turn.begin(old)
    pre = Execution("G", caller=caller, balance=turn.balance())
    if old.has_export("canister_pre_upgrade"):
        trap = old.invoke(pre, "canister_pre_upgrade", fuel=fuel)
        if trap is not None:
            old.rollback()
            raise CodeRefused(f"canister_pre_upgrade trapped: {trap}")
    try:
        # The stable memory as pre_upgrade left it, copied: the old one stays for a rollback.
        new = services.instantiate(module, name, stable=old.stable.read(0, old.stable.size))
    except Exception as error:
        old.rollback()
        raise CodeRefused(str(error)) from error
    if new.prepared.memory64 != old.prepared.memory64:
        old.rollback()
        raise CodeRefused(
            f"the new module uses {new.prepared.persistence} persistence, the running one {old.prepared.persistence}"
        )
    if new.prepared.memory64 and persistence is None:
        old.rollback()
        raise CodeRefused(
            "enhanced orthogonal persistence requires the wasm_memory_persistence upgrade option "
            "(keep, or replace to drop the heap)"
        )
    if new.prepared.memory64 and persistence == "keep":  # enhanced persistence: the heap is kept
        new.memory.load(old.memory.read(0, old.memory.size))
    new.now = old.now
    trap = new.run_start()
    post = Execution("I", arg=arg, caller=caller, balance=pre.cycle_balance)
    if trap is None:
        turn.begin(new)
        has_hook = new.has_export("canister_post_upgrade")
        trap = new.invoke(post, "canister_post_upgrade", fuel=fuel) if has_hook else None
    if trap is None:
        trap = turn.past_total(new)
    if trap is not None:
        old.rollback()  # undoes pre_upgrade's stable-memory writes; post_upgrade's were on the copy
        raise CodeRefused(f"the new code trapped while taking over the state: {trap}")
    turn.burn(pre.cycles_burned + post.cycles_burned)
    # The certified data an upgrade's hooks set (post_upgrade's last), else the old one, as on the IC.
    return new, post.certified_data if post.certified_data is not None else pre.certified_data
