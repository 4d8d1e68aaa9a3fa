"""moxzid's settings: each one has a default, may be set in a TOML file, and a command-line flag wins.

A setting is declared once, as a ``Setting``: the core's in ``CORE_SETTINGS``, a plugin's through the
``register_settings`` hook. Its flag (``--device-checkpoint-secs``) is also its TOML key
(``device-checkpoint-secs``, or ``device_checkpoint_secs``) and, with underscores, its attribute on
``Settings``. Paths in a TOML file are relative to that file's folder; paths on the command line are
relative to the working directory. This module is public: plugins declare and read settings with it.
"""

from __future__ import annotations

import argparse
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from .device.budget import ACTOR_MB, TOTAL_MB
from .runtime.host import MAX_CREATED_ACTORS, Limits
from .runtime.inbox_bounds import MAX_QUEUED_CALLS, MAX_QUEUED_MB, TOTAL_QUEUED_MB
from .runtime.memory_budget import default_total_mb


class SettingsError(ValueError):
    """A setting has a value moxzid cannot use; the message names the setting and where it came from."""


class Address(NamedTuple):
    host: str
    port: int

    def __str__(self) -> str:
        return f"[{self.host}]:{self.port}" if ":" in self.host else f"{self.host}:{self.port}"


KINDS = ("path", "names", "address", "count", "amount", "text")


@dataclass(frozen=True)
class Setting:
    """One setting. ``kind`` says how a value is read: ``path``, ``names`` (comma-separated), ``address``
    (HOST:PORT), ``count`` (a whole number >= 0), ``amount`` (a number >= 0) or ``text``; ``default`` is
    its value when neither the TOML file nor a flag sets it (None: unset). ``every_rank``: every rank of
    a device that spans ranks (``--device-world``) needs the same value (it changes the device's
    numbers), so moxzid passes it to the ranks it starts."""

    flag: str  # long flag without dashes; also the TOML key
    kind: str
    help: str
    default: Any = None
    short: str | None = None
    metavar: str | None = None
    every_rank: bool = False

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"setting {self.flag!r}: kind {self.kind!r} is not one of {', '.join(KINDS)}")

    @property
    def attribute(self) -> str:
        return self.flag.replace("-", "_")


class Settings:
    """The value of every declared setting, read as an attribute (``settings.device_seed``)."""

    def __init__(self, declared: Iterable[Setting], values: Mapping[str, Any] | None = None):
        self._declared = {s.attribute: s for s in declared}
        values = values or {}
        unknown = set(values) - set(self._declared)
        if unknown:
            raise SettingsError(f"unknown setting(s): {', '.join(sorted(unknown))}")
        self._values = {a: values.get(a, s.default) for a, s in self._declared.items()}

    def __getattr__(self, attribute: str) -> Any:
        values = self.__dict__.get("_values", {})
        if attribute not in values:
            raise AttributeError(f"no setting {attribute!r} is declared (is its plugin loaded?)")
        return values[attribute]

    def is_default(self, attribute: str) -> bool:
        """Whether ``attribute`` still has its declared default (neither the file nor a flag changed it)."""
        return self._values[attribute] == self._declared[attribute].default

    def replace(self, **values: Any) -> Settings:
        """A copy with some values changed (for tests and embedders)."""
        return Settings(self._declared.values(), self._values | values)

    def every_rank_flags(self) -> list[str]:
        """The flags that give another process this one's value of each ``every_rank`` setting that has
        one (``["--device-seed", "0", ...]``), as a device's other ranks need them."""
        flags = []
        for attribute, setting in self._declared.items():
            value = self._values[attribute]
            if setting.every_rank and value is not None:
                flags += [f"--{setting.flag}", ",".join(value) if setting.kind == "names" else str(value)]
        return flags


MAX_MESSAGE_BYTES = Limits().max_message_bytes
ACTOR_MEMORY_MB = Limits().memory_bytes >> 20
ACTOR_STABLE_MB = Limits().stable_memory_pages >> 4  # (16 pages of 64 KiB a MiB)

CORE_SETTINGS = (
    Setting("manifest", "path", "the manifest naming the actors to host (JSON)", short="-m", metavar="FILE"),
    Setting(
        "state",
        "path",
        "keep actor state in DIR across restarts and crashes, in the store a plugin "
        "registers (lmdb), with the device's contents (--device); without it state lives in memory and is "
        "lost at exit",
        short="-s",
        metavar="DIR",
    ),
    Setting(
        "plugins",
        "names",
        "comma-separated plugins to load (default: every installed plugin that can load here; see `moxzid plugins`)",
        metavar="NAMES",
        every_rank=True,
    ),
    Setting(
        "max-message-bytes",
        "count",
        f"largest request body and message argument accepted (default {MAX_MESSAGE_BYTES})",
        default=MAX_MESSAGE_BYTES,
        metavar="N",
    ),
    Setting(
        "actor-memory-mb",
        "count",
        "wasm memory each actor may grow to; a message that would grow past "
        f"it traps (default {ACTOR_MEMORY_MB}; at most 4096)",
        default=ACTOR_MEMORY_MB,
        metavar="MB",
    ),
    Setting(
        "actor-stable-mb",
        "count",
        "stable memory each actor may grow to; ic0.stable64_grow answers -1 past it "
        f"(default {ACTOR_STABLE_MB}; at most 4096)",
        default=ACTOR_STABLE_MB,
        metavar="MB",
    ),
    Setting(
        "total-memory-mb",
        "count",
        "wasm memory (heap and stable) all actors together may hold; a message that would grow its actor "
        f"past it is rolled back, as a trap (default: a quarter of this machine's RAM, {default_total_mb()})",
        default=default_total_mb(),
        metavar="MB",
    ),
    Setting(
        "max-created-actors",
        "count",
        "actors that callers may create (the management canister's create_canister, the cycles ledger's) "
        "and have not deleted; past it create_canister is refused (default "
        f"{MAX_CREATED_ACTORS}; the manifest's actors do not count)",
        default=MAX_CREATED_ACTORS,
        metavar="N",
    ),
    Setting(
        "max-queued-calls",
        "count",
        "calls from outside (update calls, management calls acting on it) each actor's inbox may hold, "
        "queued or running; one more is rejected SYS_TRANSIENT, as the IC rejects a call to a full queue "
        f"(default {MAX_QUEUED_CALLS}, the IC's queue capacity)",
        default=MAX_QUEUED_CALLS,
        metavar="N",
    ),
    Setting(
        "max-queued-mb",
        "count",
        "bytes of those calls (their arguments, and a module install_chunked_code puts together) each "
        "actor's inbox may hold; one more past it is rejected as one past --max-queued-calls (an inbox "
        f"holding none takes any one) (default {MAX_QUEUED_MB}: 16 arguments of the largest size)",
        default=MAX_QUEUED_MB,
        metavar="MB",
    ),
    Setting(
        "total-queued-mb",
        "count",
        "bytes of those calls all actors' inboxes together may hold; one more past it is rejected as one "
        f"past --max-queued-calls (default {TOTAL_QUEUED_MB})",
        default=TOTAL_QUEUED_MB,
        metavar="MB",
    ),
    Setting(
        "device",
        "text",
        "give the actors a tensor device on this backend: torch:cpu, torch:cuda or torch:mps (its plugin must be loaded; "
        "burn:cpu, burn:cuda and burn:metal, the seeds' names, are the same three)",
        metavar="SPEC",
        every_rank=True,
    ),
    Setting(
        "device-seed",
        "count",
        "the device's seed: parameters initialised #normal or #uniform draw from "
        "sha256(seed, actor, name), so the same seed gives the same starting weights (default 0; a state "
        "directory keeps the seed it was started with)",
        default=0,
        metavar="N",
        every_rank=True,
    ),
    Setting(
        "device-actor-mb",
        "count",
        "device memory each actor may hold: its parameters, optimizers' state, stored tensors and "
        "publications, and a run's results while it runs; a call that would pass it is refused before it "
        f"changes anything (default {ACTOR_MB})",
        default=ACTOR_MB,
        metavar="MB",
    ),
    Setting(
        "device-total-mb",
        "count",
        f"device memory all actors together may hold, counted as --device-actor-mb is (default {TOTAL_MB})",
        default=TOTAL_MB,
        metavar="MB",
    ),
    Setting(
        "rand-seed",
        "count",
        "make the management canister's raw_rand give the same bytes on every run "
        "from the same state (default: random bytes from the OS)",
        metavar="N",
    ),
    Setting(
        "cycles",
        "count",
        "charge actors cycles when greater than 0: each actor starts with N "
        "cycles (which it may give to others with calls), and device calls are refused once its balance "
        "is spent (default 0: no charging, every balance 0)",
        default=0,
        metavar="N",
    ),
    Setting(
        "device-cycles-per-ms",
        "count",
        "cycles a device call costs per millisecond it took, with the default price list (default 100000000)",
        default=100_000_000,
        metavar="N",
    ),
    Setting(
        "device-call-secs",
        "amount",
        "device time one device call may take: a call past it is stopped at its next op, changing "
        "nothing, and rejected (default 60; 0: no limit; not on a device over several ranks)",
        default=60.0,
        metavar="SECS",
    ),
    Setting(
        "device-checkpoint-secs",
        "amount",
        "with -s, copy the device once the calls recorded since "
        "the last copy took this much device time (default 30; 0: by size only)",
        default=30.0,
        metavar="SECS",
    ),
    Setting(
        "device-checkpoint-mb",
        "amount",
        "with -s, copy the device once the call record passes this size (default 64)",
        default=64.0,
        metavar="MB",
    ),
    Setting(
        "device-world",
        "count",
        "run the device on N ranks, replicas that run every device call (a run "
        "that splits its batch gives each rank a slice); without --device-rendezvous moxzid starts ranks "
        "1..N-1 on this machine (default 1)",
        default=1,
        metavar="N",
        every_rank=True,
    ),
    Setting(
        "device-rendezvous",
        "address",
        "where the device's ranks meet (torch.distributed's TCP store, "
        "served by moxzid, rank 0): with it moxzid starts no other rank; start each one, here or on another "
        "machine, with `moxzid --device SPEC --device-world N --device-rendezvous HOST:PORT device-worker "
        "RANK`",
        metavar="HOST:PORT",
    ),
    Setting(
        "device-rank-timeout",
        "amount",
        "seconds a rank may take to answer rank 0 during a device call "
        "before the group counts as broken and device calls are rejected (default 60)",
        default=60.0,
        metavar="SECS",
        every_rank=True,
    ),
)


def add_arguments(parser: argparse.ArgumentParser, declared: Iterable[Setting]) -> None:
    """Add ``--config`` and one flag per declared setting. Flags not given stay absent from the parsed
    namespace, so ``from_sources`` can tell "not given" from "given the default"."""
    parser.add_argument(
        "--config",
        metavar="FILE",
        default=argparse.SUPPRESS,
        help="read settings from this TOML file (keys are the long flag names)",
    )
    for setting in declared:
        names = [setting.short] if setting.short else []
        parser.add_argument(
            *names,
            f"--{setting.flag}",
            dest=setting.attribute,
            metavar=setting.metavar,
            default=argparse.SUPPRESS,
            help=setting.help,
        )


def from_sources(flags: Mapping[str, Any], declared: Iterable[Setting]) -> Settings:
    """The settings from defaults, then the TOML file named by ``flags["config"]`` if any, then the
    other flags (raw strings as argparse gives them). Raises SettingsError naming the bad setting."""
    declared = tuple(declared)
    values: dict[str, Any] = {}
    config_file = flags.get("config")
    if config_file is not None:
        values.update(_read_toml(Path(config_file), declared))
    by_attribute = {s.attribute: s for s in declared}
    for attribute, raw in flags.items():
        if attribute in by_attribute:
            values[attribute] = _convert(by_attribute[attribute], raw, Path(), "command line")
    return Settings(declared, values)


def read_plugin_choice(flags: Mapping[str, Any]) -> list[str] | None:
    """``--plugins`` (or the TOML file's ``plugins``) alone, before the plugins' own settings are known:
    which plugins to load; None for every installed one."""
    plugins = next(s for s in CORE_SETTINGS if s.flag == "plugins")
    if "plugins" in flags:
        return _convert(plugins, flags["plugins"], Path(), "command line")
    if flags.get("config") is not None:
        table = _load_toml(Path(flags["config"]))
        raw = table.get("plugins")
        return None if raw is None else _convert(plugins, raw, Path(), f"config file {flags['config']}")
    return None


def _load_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as file:
            return tomllib.load(file)
    except OSError as exc:
        raise SettingsError(f"cannot read config file {path}: {exc.strerror}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise SettingsError(f"config file {path} is not TOML: {exc}") from exc


def _read_toml(path: Path, declared: tuple[Setting, ...]) -> dict[str, Any]:
    by_key = {s.flag: s for s in declared}
    values = {}
    for key, raw in _load_toml(path).items():
        setting = by_key.get(key.replace("_", "-"))
        if setting is None:
            known = ", ".join(s.flag for s in declared)
            raise SettingsError(f"config file {path}: unknown setting {key!r}; known: {known}")
        values[setting.attribute] = _convert(setting, raw, path.parent, f"config file {path}")
    return values


def _convert(setting: Setting, raw: Any, base: Path, source: str) -> Any:
    """One setting's value from a flag's text or a TOML value; ``base`` anchors relative paths."""

    def bad(expected: str) -> SettingsError:
        return SettingsError(f"{source}: {setting.flag} must be {expected}, got {raw!r}")

    if setting.kind == "path":
        if not isinstance(raw, str) or not raw:
            raise bad("a path")
        return base / raw
    if setting.kind == "names":
        names = raw.split(",") if isinstance(raw, str) else raw
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise bad("a list of plugin names")
        return [n.strip() for n in names if n.strip()]
    if setting.kind == "address":
        if not isinstance(raw, str):
            raise bad("HOST:PORT")
        host, _, port = raw.rpartition(":")
        if not host or not port.isdigit() or int(port) > 65535:
            raise bad("HOST:PORT")
        return Address(host.strip("[]"), int(port))
    if setting.kind in ("count", "amount"):
        number = _number(raw, int if setting.kind == "count" else float)
        if number is None or number < 0:
            raise bad("a whole number >= 0" if setting.kind == "count" else "a number >= 0")
        return number
    if not isinstance(raw, str) or not raw:
        raise bad("text")
    return raw


def _number(raw: Any, kind: type) -> int | float | None:
    if isinstance(raw, bool):  # TOML true/false are ints to Python; never a count
        return None
    if isinstance(raw, str):
        try:
            return kind(raw)
        except ValueError:
            return None
    if isinstance(raw, int) or (kind is float and isinstance(raw, float)):
        return kind(raw)
    return None
