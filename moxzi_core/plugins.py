"""Finds, selects and loads plugins; collects what they register.

Every plugin, moxzi's own included, is a distribution that declares an entry point in the group
``moxzi``; its entry-point name (``http``, ``lmdb``, ...) is what ``--plugins`` selects.
"""

from __future__ import annotations

import importlib.metadata
import os
from dataclasses import dataclass, field

import pluggy

from . import hookspecs

ENTRY_POINT_GROUP = "moxzi"
CORE_DISTRIBUTION = "moxzi"
HOOK_NAMES = ("register_ops", "register_backends", "register_stores", "register_gateways", "register_billing",
              "register_http_apps")


class PluginError(Exception):
    """A plugin could not be selected or loaded; the message says which and what is installed."""


@dataclass(frozen=True)
class InstalledPlugin:
    name: str
    distribution: str
    version: str
    entry_point: importlib.metadata.EntryPoint


def installed_plugins() -> dict[str, InstalledPlugin]:
    """Every plugin installed in this environment, by its short name."""
    found = {}
    for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        dist = ep.dist.name if ep.dist else "?"
        version = ep.dist.version if ep.dist else "?"
        found[ep.name] = InstalledPlugin(ep.name, dist, version, ep)
    return dict(sorted(found.items()))


@dataclass
class Registry:
    """What the loaded plugins registered, by hook, each entry remembering which plugin gave it."""

    ops: dict = field(default_factory=dict)
    backends: dict = field(default_factory=dict)
    stores: dict = field(default_factory=dict)
    gateways: dict = field(default_factory=dict)
    billing: dict = field(default_factory=dict)
    http_apps: dict = field(default_factory=dict)
    provided_by: dict = field(default_factory=dict)  # (kind, name) -> plugin name


def _collect(plugin_name: str, plugin, registry: Registry) -> None:
    """Run ``plugin``'s hook implementations into ``registry``. One plugin at a time rather than all
    through ``pm.hook``, so each registration is credited to the plugin that made it (``provided_by``,
    duplicate errors) and a later plugin's billing replaces an earlier one's."""
    def keyed(kind: str, table: dict, replace: bool):
        def register(name, obj=None):
            if obj is None:  # ops register themselves: the object carries its name
                name, obj = name.name, name
            if name in table and not replace:
                raise PluginError(
                    f"plugin {plugin_name!r} registers {kind} {name!r}, "
                    f"already registered by {registry.provided_by[(kind, name)]!r}")
            table[name] = obj
            registry.provided_by[(kind, name)] = plugin_name
        return register

    hooks = {
        "register_ops": keyed("op", registry.ops, False),
        "register_backends": keyed("backend", registry.backends, False),
        "register_stores": keyed("store", registry.stores, False),
        "register_gateways": keyed("gateway", registry.gateways, False),
        "register_billing": keyed("billing", registry.billing, True),
        "register_http_apps": keyed("HTTP app at", registry.http_apps, False),
    }
    for hook_name, register in hooks.items():
        impl = getattr(plugin, hook_name, None)
        if impl is not None:
            impl(register=register)


def load(selected: list[str] | None = None) -> tuple[Registry, dict[str, InstalledPlugin]]:
    """Load the selected plugins (all installed ones when ``selected`` is None) and collect what they
    register. Unknown names are an error listing what is installed; a plugin that implements a hook
    moxzi does not define fails here (pluggy's ``check_pending``) rather than never running."""
    installed = installed_plugins()
    names = list(installed) if selected is None else selected
    # moxzi's own plugins register first, so a third party's (a price list, say) can replace theirs.
    names = sorted(names, key=lambda n: n not in installed or installed[n].distribution != CORE_DISTRIBUTION)
    unknown = [n for n in names if n not in installed]
    if unknown:
        have = ", ".join(installed) or "none"
        raise PluginError(f"unknown plugin(s): {', '.join(unknown)}; installed: {have}")
    pm = pluggy.PluginManager("moxzi")
    pm.add_hookspecs(hookspecs)
    if os.environ.get("MOXZI_TRACE_HOOKS"):
        pm.trace.root.setwriter(print)
        pm.enable_tracing()
    registry = Registry()
    loaded = {}
    for name in names:
        try:
            plugin = installed[name].entry_point.load()
        except Exception as exc:  # a broken third-party package must name itself
            raise PluginError(f"plugin {name!r} failed to import: {exc}") from exc
        pm.register(plugin, name=name)
        loaded[name] = installed[name]
        _collect(name, plugin, registry)
    try:
        pm.check_pending()
    except pluggy.PluginValidationError as exc:
        raise PluginError(str(exc)) from exc
    return registry, loaded


def describe(registry: Registry, plugins: dict[str, InstalledPlugin]) -> list[str]:
    """One line per plugin: name, distribution, version, and what it registered."""
    lines = []
    for name, info in plugins.items():
        things = sorted(f"{kind} {what}" for (kind, what), by in registry.provided_by.items() if by == name)
        lines.append(f"{name:<8} {info.distribution} {info.version}: {', '.join(things) or 'nothing'}")
    return lines
