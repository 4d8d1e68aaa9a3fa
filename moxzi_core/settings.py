"""moxzid's settings: each one has a default, may be set in a TOML file, and a command-line flag wins.

A setting is declared once, as a ``Setting``, where the part that reads it lives: a plugin's through the
``register_settings`` hook, and so are the core's subsystems' (the runtime's in ``runtime/settings.py``,
the device's in ``device/settings.py``, billing's in ``billing_settings.py``, which the loader registers
before any plugin: ``plugins.CORE_PARTS``); moxzid's own (the manifest, the state directory, the
plugins) are ``CORE_SETTINGS``. A setting checks its own values (``check``). Its flag (``--device-checkpoint-secs``) is also its TOML key
(``device-checkpoint-secs``, or ``device_checkpoint_secs``) and, with underscores, its attribute on
``Settings``. Paths in a TOML file are relative to that file's folder; paths on the command line are
relative to the working directory. This module is public: plugins declare and read settings with it.
"""

from __future__ import annotations

import argparse
import dataclasses
import tomllib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Literal, NamedTuple, TypeVar, overload


class SettingsError(ValueError):
    """A setting has a value moxzid cannot use; the message names the setting and where it came from."""


class Address(NamedTuple):
    host: str
    port: int

    def __str__(self) -> str:
        return f"[{self.host}]:{self.port}" if ":" in self.host else f"{self.host}:{self.port}"


KINDS = ("path", "names", "address", "count", "amount", "text")

V = TypeVar("V")  # what a setting's kind reads: Path, list[str], Address, int, float or str
if TYPE_CHECKING:  # (typing's TypeVar takes a default from Python 3.13)
    from typing_extensions import TypeVar as _TypeVar

    D = _TypeVar("D", default=None)
else:
    D = TypeVar("D")  # a setting's default: None (unset) unless it declares one


@dataclass(frozen=True, init=False)
class Setting(Generic[V, D]):
    """One setting. ``kind`` says how a value is read: ``path``, ``names`` (comma-separated), ``address``
    (HOST:PORT), ``count`` (a whole number >= 0), ``amount`` (a number >= 0) or ``text``; ``default`` is
    its value when neither the TOML file nor a flag sets it (None: unset). ``every_rank``: every rank of
    a device that spans ranks (``--device-world``) needs the same value (it changes the device's
    numbers), so moxzid passes it to the ranks it starts. ``check``: why a value given for it cannot be
    used (None: it can), for a value of the right kind that is out of the setting's range.

    Its type says what ``Settings[setting]`` gives: ``Setting[int, int]`` for a count with a default,
    ``Setting[Path, None]`` for a path without one (then the value may be None)."""

    flag: str  # long flag without dashes; also the TOML key
    kind: str
    help: str
    default: Any
    short: str | None
    metavar: str | None
    every_rank: bool
    check: Callable[[Any], str | None] | None

    @overload
    def __init__(
        self: Setting[Path, D],
        flag: str,
        kind: Literal["path"],
        help: str,
        default: D = ...,
        short: str | None = ...,
        metavar: str | None = ...,
        every_rank: bool = ...,
        check: Callable[[Path], str | None] | None = ...,
    ) -> None: ...
    @overload
    def __init__(
        self: Setting[list[str], D],
        flag: str,
        kind: Literal["names"],
        help: str,
        default: D = ...,
        short: str | None = ...,
        metavar: str | None = ...,
        every_rank: bool = ...,
        check: Callable[[list[str]], str | None] | None = ...,
    ) -> None: ...
    @overload
    def __init__(
        self: Setting[Address, D],
        flag: str,
        kind: Literal["address"],
        help: str,
        default: D = ...,
        short: str | None = ...,
        metavar: str | None = ...,
        every_rank: bool = ...,
        check: Callable[[Address], str | None] | None = ...,
    ) -> None: ...
    @overload
    def __init__(
        self: Setting[int, D],
        flag: str,
        kind: Literal["count"],
        help: str,
        default: D = ...,
        short: str | None = ...,
        metavar: str | None = ...,
        every_rank: bool = ...,
        check: Callable[[int], str | None] | None = ...,
    ) -> None: ...
    @overload
    def __init__(
        self: Setting[float, D],
        flag: str,
        kind: Literal["amount"],
        help: str,
        default: D = ...,
        short: str | None = ...,
        metavar: str | None = ...,
        every_rank: bool = ...,
        check: Callable[[float], str | None] | None = ...,
    ) -> None: ...
    @overload
    def __init__(
        self: Setting[str, D],
        flag: str,
        kind: Literal["text"],
        help: str,
        default: D = ...,
        short: str | None = ...,
        metavar: str | None = ...,
        every_rank: bool = ...,
        check: Callable[[str], str | None] | None = ...,
    ) -> None: ...
    def __init__(
        self,
        flag: str,
        kind: str,
        help: str,
        default: Any = None,
        short: str | None = None,
        metavar: str | None = None,
        every_rank: bool = False,
        check: Callable[[Any], str | None] | None = None,
    ) -> None:
        if kind not in KINDS:
            raise ValueError(f"setting {flag!r}: kind {kind!r} is not one of {', '.join(KINDS)}")
        values = (flag, kind, help, default, short, metavar, every_rank, check)
        for field, value in zip(dataclasses.fields(self), values, strict=True):  # (frozen: no plain assignment)
            object.__setattr__(self, field.name, value)

    @property
    def attribute(self) -> str:
        return self.flag.replace("-", "_")


class Settings:
    """The value of every declared setting: ``settings[DEVICE_SEED]``, typed as the ``Setting`` says (or,
    untyped, as an attribute: ``settings.device_seed``)."""

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

    def __getitem__(self, setting: Setting[V, D]) -> V | D:
        try:
            return self._values[setting.attribute]
        except KeyError:
            raise KeyError(f"no setting {setting.flag!r} is declared (is its plugin loaded?)") from None

    def is_default(self, setting: Setting[Any, Any]) -> bool:
        """Whether ``setting`` still has its declared default (neither the file nor a flag changed it)."""
        return self[setting] == setting.default

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


MANIFEST = Setting("manifest", "path", "the manifest naming the actors to host (JSON)", short="-m", metavar="FILE")

STATE = Setting(
    "state",
    "path",
    "keep actor state in DIR across restarts and crashes, in the store a plugin "
    "registers (lmdb), with the device's contents (--device); without it state lives in memory and is "
    "lost at exit",
    short="-s",
    metavar="DIR",
)

PLUGINS = Setting(
    "plugins",
    "names",
    "comma-separated plugins to load (default: every installed plugin that can load here; see `moxzid plugins`)",
    metavar="NAMES",
    every_rank=True,
)
CORE_SETTINGS = (MANIFEST, STATE, PLUGINS)


def at_least(minimum: int, why: str) -> Callable[[Any], str | None]:
    """A ``check`` refusing values under ``minimum``: "``why``; give at least ``minimum``"."""
    return lambda value: None if value >= minimum else f"{why}; give at least {minimum}"


def add_arguments(parser: argparse.ArgumentParser, declared: Iterable[Setting]) -> None:
    """Add ``--config`` and one flag per declared setting. Flags not given stay absent from the parsed
    namespace, so ``from_sources`` can tell "not given" from "given the default"."""
    parser.add_argument(
        "--config",
        metavar="FILE",
        default=argparse.SUPPRESS,
        help="read settings from this TOML file (keys are the long flag names)",
    )
    add_settings(parser, declared)


def add_settings(parser: argparse.ArgumentParser | argparse._ArgumentGroup, declared: Iterable[Setting]) -> None:
    """One flag per declared setting, absent from the parsed namespace when not given."""
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
    value = _value(setting, raw, base, source)
    why = setting.check(value) if setting.check is not None else None
    if why is not None:
        raise SettingsError(f"--{setting.flag} {raw}: {why}")
    return value


def _value(setting: Setting, raw: Any, base: Path, source: str) -> Any:

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
