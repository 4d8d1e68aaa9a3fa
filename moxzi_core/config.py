"""moxzid's settings: each one has a default, may be set in a TOML file, and a command-line flag wins.

Every setting is declared once, in SETTINGS: its flag (``--device-checkpoint-secs``) is also its TOML
key (``device-checkpoint-secs``, or ``device_checkpoint_secs``) and, with underscores, its attribute
on Config. Paths in a TOML file are relative to that file's folder; paths on the command line are
relative to the working directory.
"""

from __future__ import annotations

import argparse
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from .runtime.host import Limits


class ConfigError(ValueError):
    """A setting has a value moxzid cannot use; the message names the setting and where it came from."""


class Address(NamedTuple):
    host: str
    port: int

    def __str__(self) -> str:
        return f"[{self.host}]:{self.port}" if ":" in self.host else f"{self.host}:{self.port}"


@dataclass(frozen=True)
class Config:
    """The settings moxzid runs with. ``plugins`` is None for "every installed plugin"."""

    manifest: Path | None = None
    state: Path | None = None
    plugins: list[str] | None = None
    listen: Address = Address("127.0.0.1", 7000)
    max_message_bytes: int = Limits().max_message_bytes
    device: str | None = None
    device_seed: int = 0
    cycles: int = 0
    device_cycles_per_ms: int = 100_000_000
    device_checkpoint_secs: float = 30.0
    device_checkpoint_mb: float = 64.0
    device_listen: Address | None = None
    http_idle_secs: float = 60.0
    http_body_secs: float = 60.0
    http_max_connections: int = 512


@dataclass(frozen=True)
class Setting:
    flag: str  # long flag without dashes; also the TOML key
    kind: str  # how a value is read: path, names, address, count, amount, text
    help: str
    short: str | None = None
    metavar: str | None = None

    @property
    def attribute(self) -> str:
        return self.flag.replace("-", "_")


SETTINGS = (
    Setting("manifest", "path", "the manifest naming the actors to host (JSON)", "-m", "FILE"),
    Setting("state", "path", "keep actor state in DIR across restarts and crashes, in the store a plugin "
            "registers (lmdb), with the device's contents (--device); without it state lives in memory and is "
            "lost at exit", "-s", "DIR"),
    Setting("plugins", "names", "comma-separated plugins to load (default: every installed plugin; "
            "see `moxzid plugins`)", metavar="NAMES"),
    Setting("listen", "address", "address the HTTP gateway serves on (default 127.0.0.1:7000; port 0 "
            "picks a free port)", metavar="HOST:PORT"),
    Setting("max-message-bytes", "count", "largest request body and message argument accepted "
            f"(default {Config.max_message_bytes})", metavar="N"),
    Setting("http-idle-secs", "amount", "close an HTTP connection that has not sent a whole request's "
            "headers this long after it opened or was last answered (slow headers included; default "
            f"{Config.http_idle_secs:g})", metavar="SECS"),
    Setting("http-body-secs", "amount", "answer 408 and close the connection when a request body takes "
            f"longer than this to arrive (default {Config.http_body_secs:g})", metavar="SECS"),
    Setting("http-max-connections", "count", "HTTP connections held open at once; one more is answered 503 "
            f"and closed (default {Config.http_max_connections}; lowered to fit the open-file limit)",
            metavar="N"),
    Setting("device", "text", "give the actors a tensor device on this backend: torch:cpu or torch:cuda "
            "(its plugin must be loaded)", metavar="SPEC"),
    Setting("device-seed", "count", "the device's seed: parameters initialised #normal or #uniform draw from "
            "sha256(seed, actor, name), so the same seed gives the same starting weights (default 0; a state "
            "directory keeps the seed it was started with)", metavar="N"),
    Setting("cycles", "count", "charge actors cycles when greater than 0: each actor starts with N "
            "cycles, and device calls are refused once its balance is spent (default 0: no charging)",
            metavar="N"),
    Setting("device-cycles-per-ms", "count", "cycles a device call costs per millisecond it took "
            f"(default {Config.device_cycles_per_ms})", metavar="N"),
    Setting("device-checkpoint-secs", "amount", "with -s, copy the device once the calls recorded since "
            f"the last copy took this much device time (default {Config.device_checkpoint_secs:g}; 0: by "
            "size only)", metavar="SECS"),
    Setting("device-checkpoint-mb", "amount", "with -s, copy the device once the call record passes this "
            f"size (default {Config.device_checkpoint_mb:g})", metavar="MB"),
    Setting("device-listen", "address", "serve the device's exports (moxzi_device_export) to other "
            "machines' devices on this address (port 0 picks a free port); put TLS in front of it on an "
            "untrusted network", metavar="HOST:PORT"),
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``--config`` and one flag per setting. Flags not given stay absent from the parsed namespace,
    so ``from_sources`` can tell "not given" from "given the default"."""
    parser.add_argument("--config", metavar="FILE", default=argparse.SUPPRESS,
                        help="read settings from this TOML file (keys are the long flag names)")
    for setting in SETTINGS:
        names = [setting.short] if setting.short else []
        parser.add_argument(*names, f"--{setting.flag}", dest=setting.attribute, metavar=setting.metavar,
                            default=argparse.SUPPRESS, help=setting.help)


def from_sources(flags: dict[str, Any]) -> Config:
    """The settings from defaults, then the TOML file named by ``flags["config"]`` if any, then the
    other flags (raw strings as argparse gives them). Raises ConfigError naming the bad setting."""
    values: dict[str, Any] = {}
    config_file = flags.get("config")
    if config_file is not None:
        values.update(_read_toml(Path(config_file)))
    by_attribute = {s.attribute: s for s in SETTINGS}
    for attribute, raw in flags.items():
        if attribute in by_attribute:
            values[attribute] = _convert(by_attribute[attribute], raw, Path(), "command line")
    return Config(**values)


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as file:
            table = tomllib.load(file)
    except OSError as exc:
        raise ConfigError(f"cannot read config file {path}: {exc.strerror}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"config file {path} is not TOML: {exc}") from exc
    by_key = {s.flag: s for s in SETTINGS}
    values = {}
    for key, raw in table.items():
        setting = by_key.get(key.replace("_", "-"))
        if setting is None:
            known = ", ".join(s.flag for s in SETTINGS)
            raise ConfigError(f"config file {path}: unknown setting {key!r}; known: {known}")
        values[setting.attribute] = _convert(setting, raw, path.parent, f"config file {path}")
    return values


def _convert(setting: Setting, raw: Any, base: Path, source: str) -> Any:
    """One setting's value from a flag's text or a TOML value; ``base`` anchors relative paths."""
    def bad(expected: str) -> ConfigError:
        return ConfigError(f"{source}: {setting.flag} must be {expected}, got {raw!r}")

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
