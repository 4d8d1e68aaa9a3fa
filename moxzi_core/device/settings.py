"""The device's settings: which backend (``--device``), its seed, what actors may hold on it, how long a
call may take, when its record is copied, and the ranks it spans. Registered like a plugin's
(``register_settings``: `plugins.CORE_PARTS`); the functions below give what the device and the host
take of them, in their units, and ``check`` refuses settings nothing here can honor."""

from __future__ import annotations

from ..hookspecs import hookimpl
from ..runtime.device_calls import CheckpointPolicy
from ..settings import STATE, Setting, Settings, SettingsError, at_least
from .budget import ACTOR_MB, TOTAL_MB, DeviceBudget
from .limits import DeviceLimits

MiB = 1 << 20

DEVICE = Setting(
    "device",
    "text",
    "give the actors a tensor device on this backend: torch:cpu or torch:cuda (its plugin must be loaded)",
    metavar="SPEC",
    every_rank=True,
)

DEVICE_SEED = Setting(
    "device-seed",
    "count",
    "the device's seed: parameters initialised #normal or #uniform draw from "
    "sha256(seed, actor, name), so the same seed gives the same starting weights (default 0; a state "
    "directory keeps the seed it was started with)",
    default=0,
    metavar="N",
    every_rank=True,
)

DEVICE_ACTOR_MB = Setting(
    "device-actor-mb",
    "count",
    "device memory each actor may hold: its parameters, optimizers' state, stored tensors and "
    "publications with what keeping their names costs, and a run's inputs and results while it runs; a call that would pass it is refused before it "
    f"changes anything (default {ACTOR_MB})",
    default=ACTOR_MB,
    metavar="MB",
    check=at_least(1, "the device's actors could hold nothing"),
)

DEVICE_TOTAL_MB = Setting(
    "device-total-mb",
    "count",
    f"device memory all actors together may hold, counted as --device-actor-mb is (default {TOTAL_MB})",
    default=TOTAL_MB,
    metavar="MB",
    check=at_least(1, "the device's actors could hold nothing"),
)

DEVICE_ACTOR_ENTRIES = Setting(
    "device-actor-entries",
    "count",
    "entries each actor may hold on the device: its parameters, stored tensors, optimizers and each "
    "parameter they are over, publications and each reader they name; a call that would pass it is "
    f"refused before it changes anything (default {DeviceLimits.max_entries})",
    default=DeviceLimits.max_entries,
    metavar="N",
    check=at_least(1, "the device's actors could hold nothing"),
)

DEVICE_CALL_SECS = Setting(
    "device-call-secs",
    "amount",
    "device time one device call may take: a call past it is stopped at its next op, changing "
    "nothing, and rejected (default 60; 0: no limit; not on a device over several ranks)",
    default=60.0,
    metavar="SECS",
)

DEVICE_CHECKPOINT_SECS = Setting(
    "device-checkpoint-secs",
    "amount",
    "with -s, copy the device once the calls recorded since "
    "the last copy took this much device time (default 30; 0: by size only)",
    default=30.0,
    metavar="SECS",
)

DEVICE_CHECKPOINT_MB = Setting(
    "device-checkpoint-mb",
    "amount",
    "with -s, copy the device once the call record passes this size (default 64)",
    default=64.0,
    metavar="MB",
)

DEVICE_WORLD = Setting(
    "device-world",
    "count",
    "run the device on N ranks, replicas that run every device call (a run "
    "that splits its batch gives each rank a slice); without --device-rendezvous moxzid starts ranks "
    "1..N-1 on this machine (default 1)",
    default=1,
    metavar="N",
    every_rank=True,
    check=lambda world: None if world >= 1 else "a device needs at least one rank",
)

DEVICE_RENDEZVOUS = Setting(
    "device-rendezvous",
    "address",
    "where the device's ranks meet (torch.distributed's TCP store, "
    "served by moxzid, rank 0): with it moxzid starts no other rank; start each one, here or on another "
    "machine, with `moxzid --device SPEC --device-world N --device-rendezvous HOST:PORT device-worker "
    "RANK`",
    metavar="HOST:PORT",
)

DEVICE_RANK_TIMEOUT = Setting(
    "device-rank-timeout",
    "amount",
    "seconds a rank may take to answer rank 0 during a device call "
    "before the group counts as broken and device calls are rejected (default 60)",
    default=60.0,
    metavar="SECS",
    every_rank=True,
)
SETTINGS = (
    DEVICE,
    DEVICE_SEED,
    DEVICE_ACTOR_MB,
    DEVICE_TOTAL_MB,
    DEVICE_ACTOR_ENTRIES,
    DEVICE_CALL_SECS,
    DEVICE_CHECKPOINT_SECS,
    DEVICE_CHECKPOINT_MB,
    DEVICE_WORLD,
    DEVICE_RENDEZVOUS,
    DEVICE_RANK_TIMEOUT,
)


@hookimpl
def register_settings(register):
    for setting in SETTINGS:
        register(setting)


def check(settings: Settings) -> None:
    """Raise SettingsError for device settings that ask for what nothing here can honor: a device's
    settings without ``--device``, a time limit on a device over several ranks (each rank must run a
    call to the same end), a rendezvous for one rank."""
    if settings[DEVICE] is None:
        if not settings.is_default(DEVICE_SEED):
            raise SettingsError(f"--device-seed {settings[DEVICE_SEED]}: seeds a device; give --device too")
        if not settings.is_default(DEVICE_WORLD):
            raise SettingsError(f"--device-world {settings[DEVICE_WORLD]}: spans a device; give --device too")
        if not settings.is_default(DEVICE_CALL_SECS):
            raise SettingsError(
                f"--device-call-secs {settings[DEVICE_CALL_SECS]:g}: limits device calls; give --device too"
            )
        return
    if settings[DEVICE_WORLD] > 1 and not settings.is_default(DEVICE_CALL_SECS):
        raise SettingsError(
            f"--device-call-secs {settings[DEVICE_CALL_SECS]:g}: a device over several ranks runs each call "
            "whole (every rank must run it to the same end); leave it out with --device-world"
        )
    if settings[DEVICE_WORLD] == 1 and settings[DEVICE_RENDEZVOUS] is not None:
        raise SettingsError(
            f"--device-rendezvous {settings[DEVICE_RENDEZVOUS]}: ranks meet there; give --device-world N (N > 1) too"
        )


def device_budget(settings: Settings) -> DeviceBudget:
    """--device-actor-mb and --device-total-mb. The other ranks need neither: rank 0 admits each call."""
    return DeviceBudget(settings[DEVICE_ACTOR_MB] * MiB, settings[DEVICE_TOTAL_MB] * MiB)


def device_limits(settings: Settings) -> DeviceLimits:
    return DeviceLimits(max_entries=settings[DEVICE_ACTOR_ENTRIES], call_seconds=settings[DEVICE_CALL_SECS] or None)


def checkpoint_policy(settings: Settings) -> CheckpointPolicy | None:
    """When the host copies the device: None without ``-s``, as then nothing is rebuilt (no record)."""
    if settings[STATE] is None:
        return None
    return CheckpointPolicy(settings[DEVICE_CHECKPOINT_SECS], settings[DEVICE_CHECKPOINT_MB])
