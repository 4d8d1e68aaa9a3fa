"""The runtime's settings: what each actor's messages may use, all actors together, their inboxes and
the actors callers may create. Registered like a plugin's (``register_settings``: `plugins.CORE_PARTS`);
``host_config`` makes the host's configuration of them."""

from __future__ import annotations

from ..hookspecs import hookimpl
from ..settings import STATE, Setting, Settings, at_least
from . import creations, inbox_bounds
from .clock import MODES, SYSTEM
from .device_calls import CheckpointPolicy
from .engine import Limits
from .host import HostConfig
from .inbox_bounds import MiB
from .management.outcalls_settings import outcall_config
from .memory_budget import default_total_mb

MAX_ACTOR_MEMORY_MB = 4096  # what a 32-bit wasm memory can address; the classic persistence limit
_LIMITS = Limits()


def _memory(what: str):
    return lambda mb: (
        None if 0 < mb <= MAX_ACTOR_MEMORY_MB else f"an actor's {what} may be 1 to {MAX_ACTOR_MEMORY_MB} MB"
    )


MAX_MESSAGE_BYTES = Setting(
    "max-message-bytes",
    "count",
    f"largest request body and message argument accepted (default {_LIMITS.max_message_bytes})",
    default=_LIMITS.max_message_bytes,
    metavar="N",
)

ACTOR_MEMORY_MB = Setting(
    "actor-memory-mb",
    "count",
    "wasm memory each actor may grow to; a message that would grow past "
    f"it traps (default {_LIMITS.memory_bytes >> 20}; at most {MAX_ACTOR_MEMORY_MB})",
    default=_LIMITS.memory_bytes >> 20,
    metavar="MB",
    check=_memory("wasm memory"),
)

ACTOR_STABLE_MB = Setting(
    "actor-stable-mb",
    "count",
    "stable memory each actor may grow to; ic0.stable64_grow answers -1 past it "
    f"(default {_LIMITS.stable_memory_pages >> 4}; at most {MAX_ACTOR_MEMORY_MB})",
    default=_LIMITS.stable_memory_pages >> 4,  # (16 pages of 64 KiB a MiB)
    metavar="MB",
    check=_memory("stable memory"),
)

TOTAL_MEMORY_MB = Setting(
    "total-memory-mb",
    "count",
    "wasm memory (heap and stable) all actors together may hold; a message that would grow its actor "
    f"past it is rolled back, as a trap (default: a quarter of this machine's RAM, {default_total_mb()})",
    default=default_total_mb(),
    metavar="MB",
    check=at_least(1, "all actors' wasm memory could hold nothing"),
)

MAX_CREATED_ACTORS = Setting(
    "max-created-actors",
    "count",
    "actors that callers may create (the management canister's create_canister, the cycles ledger's) "
    "and have not deleted; past it create_canister is refused (default "
    f"{creations.MAX_CREATED_ACTORS}; the manifest's actors do not count); the last "
    "--max-created-per-creator of them are kept for the manifest's actors and their controllers",
    default=creations.MAX_CREATED_ACTORS,
    metavar="N",
)

MAX_CREATED_PER_CREATOR = Setting(
    "max-created-per-creator",
    "count",
    "of those actors, how many one creator (an actor, a key, the anonymous principal: every anonymous "
    "client together) may have made; past it its create_canister is refused (default "
    f"{creations.MAX_CREATED_PER_CREATOR})",
    default=creations.MAX_CREATED_PER_CREATOR,
    metavar="N",
)

MAX_QUEUED_CALLS = Setting(
    "max-queued-calls",
    "count",
    "calls from outside (update calls, management calls acting on it) each actor's inbox may hold, "
    "queued or running; one more is rejected SYS_TRANSIENT, as the IC rejects a call to a full queue "
    f"(default {inbox_bounds.MAX_QUEUED_CALLS}, the IC's queue capacity)",
    default=inbox_bounds.MAX_QUEUED_CALLS,
    metavar="N",
    check=at_least(1, "no actor could take a call from outside"),
)

MAX_QUEUED_MB = Setting(
    "max-queued-mb",
    "count",
    "bytes of those calls (their arguments, and a module install_chunked_code puts together) each "
    "actor's inbox may hold; one more past it is rejected as one past --max-queued-calls (an inbox "
    f"holding none takes any one) (default {inbox_bounds.MAX_QUEUED_MB}: 16 arguments of the largest size)",
    default=inbox_bounds.MAX_QUEUED_MB,
    metavar="MB",
    check=at_least(1, "inboxes could hold no call's bytes"),
)

TOTAL_QUEUED_MB = Setting(
    "total-queued-mb",
    "count",
    "bytes of those calls all actors' inboxes together may hold; one more past it is rejected as one "
    f"past --max-queued-calls (default {inbox_bounds.TOTAL_QUEUED_MB})",
    default=inbox_bounds.TOTAL_QUEUED_MB,
    metavar="MB",
    check=at_least(1, "inboxes could hold no call's bytes"),
)

RAND_SEED = Setting(
    "rand-seed",
    "count",
    "make the management canister's raw_rand give the same bytes, and its signatures the same "
    "randomness, on every run from the same state (default: random bytes from the OS)",
    metavar="N",
)

CLOCK = Setting(
    "clock",
    "text",
    "the actors' time (ic0.time, timers, heartbeats, call deadlines): 'system', the machine's clock "
    "(default), or 'manual': it starts at a fixed instant and moves only when POST /clock moves it, "
    "which then runs every timer and heartbeat due; a restart with -s keeps its time",
    default=SYSTEM,
    metavar="MODE",
    check=lambda mode: None if mode in MODES else f"the clock is {' or '.join(MODES)}",
)
SETTINGS = (
    MAX_MESSAGE_BYTES,
    ACTOR_MEMORY_MB,
    ACTOR_STABLE_MB,
    TOTAL_MEMORY_MB,
    MAX_CREATED_ACTORS,
    MAX_CREATED_PER_CREATOR,
    MAX_QUEUED_CALLS,
    MAX_QUEUED_MB,
    TOTAL_QUEUED_MB,
    RAND_SEED,
    CLOCK,
)


@hookimpl
def register_settings(register):
    for setting in SETTINGS:
        register(setting)


def host_config(settings: Settings, checkpoint: CheckpointPolicy | None) -> HostConfig:
    """The host's configuration from moxzid's settings, in the units the host counts in; ``checkpoint``:
    when system calls' record is copied (None: never; `device.settings.checkpoint_policy`)."""
    return HostConfig(
        Limits(
            max_message_bytes=settings[MAX_MESSAGE_BYTES],
            memory_bytes=settings[ACTOR_MEMORY_MB] * MiB,
            stable_memory_pages=settings[ACTOR_STABLE_MB] << 4,  # 64 KiB pages
        ),
        max_created_actors=settings[MAX_CREATED_ACTORS],
        max_created_per_creator=settings[MAX_CREATED_PER_CREATOR],
        total_memory_bytes=settings[TOTAL_MEMORY_MB] * MiB,
        max_queued_calls=settings[MAX_QUEUED_CALLS],
        max_queued_bytes=settings[MAX_QUEUED_MB] * MiB,
        total_queued_bytes=settings[TOTAL_QUEUED_MB] * MiB,
        seed=settings[RAND_SEED],
        key_dir=settings[STATE],
        checkpoint=checkpoint,
        clock=settings[CLOCK],
        outcalls=outcall_config(settings),
    )
