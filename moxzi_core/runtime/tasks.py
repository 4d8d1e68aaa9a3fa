"""The system tasks an actor runs by itself, no caller waiting: the global timer when it comes due,
``canister_heartbeat`` about once a round, and the low wasm memory hook. The host's clock (`clock`)
says when: the system clock's heartbeat runs about once a second, the manual clock's once a move.

The low wasm memory hook (``canister_on_low_wasm_memory``) runs as the IC runs it: its condition is
that the canister's free wasm memory, its ``wasm_memory_limit`` (4 GiB, wasm32's most, when the limit is
0: none) less the memory it uses, is below its ``wasm_memory_threshold``. It is checked after every
message (a settings change included, as the limit and the threshold move it); when it turns true, the
hook is due and runs once, after that message; it runs again only once the condition has been false
and turns true again. Its status (the IC's ``condition_not_satisfied``, ``ready``, ``executed``) is
the canister's, so a restart neither repeats nor forgets it."""

from __future__ import annotations

import time

from .canister import Canister
from .clock import Clock
from .engine import Instance

TIMER = None  # the global timer's message
HEARTBEAT = object()  # the message that runs canister_heartbeat
LOW_MEMORY = object()  # the message that runs canister_on_low_wasm_memory
HEARTBEAT_SECONDS = 1.0  # how often canister_heartbeat runs: the IC runs it about once a round
LOW_MEMORY_EXPORT = "canister_on_low_wasm_memory"

NOT_SATISFIED, READY, EXECUTED = "condition_not_satisfied", "ready", "executed"
UNLIMITED_WASM_MEMORY = 4 * 1024**3  # what a wasm_memory_limit of 0 leaves: wasm32's whole memory


def next_due(instance: Instance, canister: Canister, clock: Clock, heartbeat: float) -> tuple[float | None, object]:
    """Seconds until the next system task is due (None: none is, or only a move of the manual clock
    makes one), and which (TIMER, HEARTBEAT or LOW_MEMORY). ``heartbeat``: what the last heartbeat
    left (`heartbeat_ran`; 0.0 before the first)."""
    if canister.low_memory_hook == READY and instance.has_export(LOW_MEMORY_EXPORT):
        return 0.0, LOW_MEMORY
    # (the sooner of the two, the timer on a tie; no lists: the actor's thread asks before every message)
    wait: float | None = None
    task: object = None
    if instance.timer:
        wait, task = clock.seconds_until(instance.timer), TIMER
    if instance.has_export("canister_heartbeat"):
        if clock.manual:
            beat = 0.0 if clock.moves > heartbeat else None
        else:
            beat = max(0.0, heartbeat - time.monotonic())
        if beat is not None and (wait is None or beat < wait):
            wait, task = beat, HEARTBEAT
    return wait, (task if wait is not None else None)


def heartbeat_ran(clock: Clock) -> float:
    """What a heartbeat that runs now leaves for `next_due`: when the next is due (time.monotonic()),
    or the manual clock's moves so far (the next is due at its next move)."""
    return float(clock.moves) if clock.manual else time.monotonic() + HEARTBEAT_SECONDS


def low_memory(settings: dict, wasm_memory: int) -> bool:
    """Whether the low wasm memory hook's condition holds for a canister using ``wasm_memory`` bytes."""
    limit = settings["wasm_memory_limit"] or UNLIMITED_WASM_MEMORY
    return wasm_memory + settings["wasm_memory_threshold"] > limit


def check_low_memory(canister: Canister, wasm_memory: int) -> None:
    """The hook's status after a message that left the canister using ``wasm_memory`` bytes."""
    if not low_memory(canister.settings, wasm_memory):
        canister.low_memory_hook = NOT_SATISFIED
    elif canister.low_memory_hook == NOT_SATISFIED:
        canister.low_memory_hook = READY
