"""moxzid's command line: a flag per declared setting, grouped by who declares it (the core, a core part,
a plugin), and its commands. ``moxzid --help`` is short (what to give, the common flags, the commands,
the groups and how many flags each has); ``--help-all`` lists every flag by group. Help needs only the
settings, so moxzid loads the plugins for it without calling their other hooks (``plugins.load``'s
``settings_only``): no device is imported for it."""

from __future__ import annotations

import argparse
import sys
import textwrap
from pathlib import Path

from . import __version__
from . import settings as settings_module
from .registry import Registry

HELP_FLAGS = ("-h", "--help", "--help-all")
# The flags most runs give: the rest have defaults that serve.
COMMON = ("manifest", "state", "device", "listen", "plugins")
CORE = "core"  # the group of the settings no part or plugin declares (CORE_SETTINGS)
DESCRIPTION = (
    "Host the Motoko actors a manifest names and serve them over the loaded gateways (the http plugin's "
    "routes, the console plugin's web page, the IC interface). Settings come from defaults, then the "
    "--config file, then flags. Stop with SIGINT or SIGTERM."
)

COMMANDS = {
    "plugins": "list installed plugins, their versions and what each registers; with --device, whose "
    "kernel runs each op there (and with --device-world, its ranks)",
    "compact": "compress the -s directory's actor memories again, harder, and give the space its store "
    "freed back to the OS (a compacting copy of it); refused while a moxzid uses the directory",
    "backup": "copy the -s directory (its store and the keys beside it) into DEST, a new or empty "
    "directory; refused while a moxzid uses it (`moxzi backup DEST` asks a running one)",
    "device-worker": "run rank RANK of a device that spans ranks (needs --device, --device-world and "
    "--device-rendezvous; exits when the group ends)",
}


def wants_help(argv: list[str]) -> bool:
    """Whether ``argv`` asks for help (moxzid's or a command's) rather than for a run."""
    return any(arg in HELP_FLAGS for arg in argv)


def parser(registry: Registry) -> argparse.ArgumentParser:
    """moxzid's command line, with a flag per setting ``registry`` declares, in a group per declarer."""
    top = argparse.ArgumentParser(prog="moxzid", description=DESCRIPTION, add_help=False)
    top.add_argument("-h", "--help", action=_ShortHelp, registry=registry, help="show the short help and exit")
    top.add_argument("--help-all", action=_FullHelp, help="show every flag, by the part or plugin that declares it")
    top.add_argument("--version", action="version", version=f"moxzid {__version__}")
    settings_module.add_arguments(top, [])  # --config
    for group, declared in _groups(registry).items():
        settings_module.add_settings(top.add_argument_group(f"{group} flags"), declared)
    commands = top.add_subparsers(dest="command", metavar="COMMAND")
    made = {name: commands.add_parser(name, help=help) for name, help in COMMANDS.items()}
    for command in ("compact", "backup"):
        _state_flag(made[command])
    made["backup"].add_argument("destination", metavar="DEST", type=Path)
    made["device-worker"].add_argument("rank", metavar="RANK", type=int)
    return top


def _state_flag(command: argparse.ArgumentParser) -> None:
    """-s, also after the command, so that `moxzid compact -s DIR` reads as it is written."""
    command.add_argument(
        "-s", "--state", dest="state", metavar="DIR", default=argparse.SUPPRESS, help="the state directory"
    )


def _groups(registry: Registry) -> dict[str, list]:
    """The declared settings by who declares them: the core's first, then in the order they loaded."""
    groups: dict[str, list] = {}
    for setting in registry.settings:
        groups.setdefault(registry.provided_by.get(("setting", setting.flag), CORE), []).append(setting)
    return groups


def short_help(registry: Registry) -> str:
    """What to give moxzid, the common flags, the commands, and the other flags' names by group."""
    by_flag = {s.flag: s for s in registry.settings}
    lines = [
        "usage: moxzid -m FILE [-s DIR] [--device SPEC] [--listen HOST:PORT] [FLAG ...]",
        "       moxzid COMMAND ...",
        "",
        *textwrap.wrap(DESCRIPTION, 100, break_on_hyphens=False),
        "",
        "common flags:",
    ]
    for flag in COMMON:
        setting = by_flag.get(flag)
        if setting is not None:
            names = f"{setting.short + ', ' if setting.short else ''}--{flag} {setting.metavar or ''}".rstrip()
            lines += _item(names, setting.help)
    lines += _item("--config FILE", "read settings from this TOML file (keys are the long flag names)")
    lines += _item("--help-all", "every flag, by the part or plugin that declares it")
    lines += ["", "commands:"]
    for name, help in COMMANDS.items():
        lines += _item(name, help)
    lines += ["", "every other flag has a default; by group (`moxzid --help-all` lists them):"]
    for group, declared in _groups(registry).items():
        others = [f"--{s.flag}" for s in declared if s.flag not in COMMON]
        if others:
            lines += _item(group, f"{len(others)}: {', '.join(others)}")
    return "\n".join(lines) + "\n"


def _item(name: str, text: str) -> list[str]:
    """``name`` and ``text`` as an entry of the short help: the text wrapped beside the name."""
    wrapped = textwrap.wrap(text, 100 - 24, break_on_hyphens=False) or [""]
    first = f"  {name:<21} {wrapped[0]}" if len(name) <= 21 else f"  {name}\n{' ' * 24}{wrapped[0]}"
    return [first, *(" " * 24 + line for line in wrapped[1:])]


class _ShortHelp(argparse.Action):
    def __init__(self, option_strings, dest, registry: Registry, help=None):
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)
        self.registry = registry

    def __call__(self, parser, namespace, values, option_string=None):
        sys.stdout.write(short_help(self.registry))
        parser.exit()


class _FullHelp(argparse.Action):
    def __init__(self, option_strings, dest, help=None):
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        parser.print_help()
        parser.exit()
