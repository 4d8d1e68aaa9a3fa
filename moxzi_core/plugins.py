"""Finds, selects and loads plugins; collects what they register.

Every plugin, moxzi's own included, is a distribution that declares an entry point in the group
``moxzi``; its entry-point name (``http``, ``lmdb``, ...) is what ``--plugins`` selects. Hooks are
called through pluggy one plugin at a time, so each registration is credited to the plugin that made it
(``Registry.provided_by``, duplicate errors); the hooks plugins add (``register_hookspecs``) are
collected the same way, into ``Registry.added``. ``MOXZI_TRACE_HOOKS=1`` prints every hook call to
stderr (those after the plugins added their hook specs).
"""

from __future__ import annotations

import importlib
import importlib.metadata
import os
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType, ModuleType
from typing import TYPE_CHECKING, Any, Unpack

import pluggy

from . import hookspecs
from .registry import BackendFactory, GatewayFactory, Registry
from .settings import CORE_SETTINGS, Setting

if TYPE_CHECKING:
    from .device.backend import Backend
    from .device.ops import Kernel, Op

ENTRY_POINT_GROUP = "moxzi"
CORE_DISTRIBUTION = "moxzi"
# The core's own parts that declare settings where they live, through the same hooks as a plugin: always
# loaded, before any plugin, by module name (as an entry point names a plugin). What they register is a
# core setting, which no plugin may register again.
CORE_PARTS = {
    "core.runtime": "moxzi_core.runtime.settings",
    "core.device": "moxzi_core.device.settings",
    "core.billing": "moxzi_core.billing_settings",
    "core.outcalls": "moxzi_core.runtime.management.outcalls_settings",
}


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
class _Collector:
    """The ``register`` callables handed to one plugin's hooks."""

    plugin: str
    registry: Registry

    def _claim(self, kind: str, name: str, replace: bool = False) -> None:
        key = (kind, name)
        if key in self.registry.provided_by and not replace:
            raise PluginError(
                f"plugin {self.plugin!r} registers {kind} {name!r}, "
                f"already registered by {self.registry.provided_by[key]!r}"
            )
        self.registry.provided_by[key] = self.plugin

    def setting(self, setting: Setting) -> None:
        claimed = self.registry.provided_by.get(("setting", setting.flag))
        if any(s.flag == setting.flag for s in CORE_SETTINGS) or claimed in CORE_PARTS:
            raise PluginError(f"plugin {self.plugin!r} registers setting {setting.flag!r}, a core setting")
        self._claim("setting", setting.flag)
        self.registry.settings.append(setting)

    def op(self, op: Op) -> None:
        self._claim("op", op.name)
        self.registry.ops[op.name] = op

    def kernel(self, kernel: Kernel) -> None:
        self._claim("kernel", f"{kernel.op}@{kernel.backend}")
        self.registry.kernels.append(kernel)

    def backend(
        self, name: str, factory: Callable[..., Backend], /, **options: Unpack[hookspecs.BackendOptions]
    ) -> None:
        self._claim("backend", name)
        self.registry.backends[name] = BackendFactory(factory, options)

    def gateway(
        self, name: str, factory: Callable[..., hookspecs.Gateway], /, **options: Unpack[hookspecs.GatewayOptions]
    ) -> None:
        self._claim("gateway", name)
        self.registry.gateways[name] = GatewayFactory(factory, options)

    def keyed(self, kind: str, table: dict, replace: bool = False) -> Callable[[str, Any], None]:
        def register(name: str, obj: Any) -> None:
            self._claim(kind, name, replace)
            table[name] = obj

        return register

    def hooks(self) -> dict[str, Callable[..., None]]:
        """The core's hooks (hookspecs.py) but ``register_hookspecs``, which ``load`` calls first."""
        r = self.registry
        return {
            "register_settings": self.setting,
            "register_ops": self.op,
            "register_kernels": self.kernel,
            "register_backends": self.backend,
            "register_stores": self.keyed("store", r.stores),
            "register_gateways": self.gateway,
            "register_transports": self.keyed("transport", r.transports),
            "register_billing": self.keyed("billing", r.billing, replace=True),  # the last one wins
        }

    def added_hooks(self) -> dict[str, Callable[..., None]]:
        """The hooks plugins added: each ``register(name, obj)``, claimed as ``"THINGS name"``
        (``register_http_apps``: ``http apps /api``)."""
        return {
            hook: self.keyed(hook.removeprefix("register_").replace("_", " "), table)
            for hook, table in self.registry.added.items()
        }

    def hookspecs(self, pm: pluggy.PluginManager) -> Callable[[ModuleType], None]:
        def register(specs: ModuleType) -> None:
            hooks = [name for name in dir(specs) if pm.parse_hookspec_opts(specs, name) is not None]
            try:
                pm.add_hookspecs(specs)
            except ValueError as error:  # pluggy's: a hook moxzid or another plugin declares
                raise PluginError(f"plugin {self.plugin!r} adds hooks from {specs.__name__}: {error}") from None
            except pluggy.PluginValidationError as error:  # an implementation that does not match
                raise PluginError(str(error)) from None
            for hook in hooks:
                self.registry.added[hook] = {}

        return register


def load(selected: list[str] | None = None, settings_only: bool = False) -> tuple[Registry, dict[str, InstalledPlugin]]:
    """Load the selected plugins and collect what they register (with ``settings_only``, their settings
    alone: what ``moxzid --help`` lists, without what their other hooks import). With ``selected`` None, every
    installed plugin that imports here loads, and one that cannot (the Triton plugin without a GPU) is
    skipped, with the reason in ``Registry.skipped``; a plugin named in ``selected`` that cannot load is
    an error, as is an unknown name (listing what is installed) or a hook moxzi does not define
    (pluggy's ``check_pending``, so a misspelled hook fails here rather than never running)."""
    installed = installed_plugins()
    names = list(installed) if selected is None else selected
    unknown = [n for n in names if n not in installed]
    if unknown:
        have = ", ".join(installed) or "none"
        raise PluginError(f"unknown plugin(s): {', '.join(unknown)}; installed: {have}")
    # moxzi's own plugins register first, so a third party's (a price list, say) can replace theirs.
    names = sorted(names, key=lambda n: installed[n].distribution != CORE_DISTRIBUTION)
    pm = pluggy.PluginManager("moxzi")
    pm.add_hookspecs(hookspecs)
    registry = Registry()
    for part, module in CORE_PARTS.items():  # first, and untraced: they register the same every time
        pm.register(importlib.import_module(module), name=part)
        others = [p for p in pm.get_plugins() if p is not pm.get_plugin(part)]
        pm.subset_hook_caller("register_settings", remove_plugins=others)(register=_Collector(part, registry).setting)
    loaded = {}
    for name in names:
        try:
            plugin = installed[name].entry_point.load()
        except Exception as exc:  # a broken or unusable package must name itself
            if selected is not None:
                raise PluginError(f"plugin {name!r} failed to import: {exc}") from exc
            registry.skipped[name] = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            continue
        pm.register(plugin, name=name)
        loaded[name] = installed[name]

    def reaching(name: str) -> Callable[[str], Any]:
        """A hook's caller that reaches plugin ``name`` alone, so what it registers is credited to it."""
        others = [p for p in pm.get_plugins() if p is not pm.get_plugin(name)]
        return lambda hook: pm.subset_hook_caller(hook, remove_plugins=others)

    # The plugins' own hook specs first, so check_pending knows them (tracing starts after them).
    for name in loaded:
        reaching(name)("register_hookspecs")(register=_Collector(name, registry).hookspecs(pm))
    if os.environ.get("MOXZI_TRACE_HOOKS"):
        _trace(pm)
    try:
        pm.check_pending()
    except pluggy.PluginValidationError as exc:
        raise PluginError(str(exc)) from exc
    if settings_only:
        for name in loaded:
            reaching(name)("register_settings")(register=_Collector(name, registry).setting)
        return registry, loaded
    for name in loaded:  # what the added hooks collect, before a register_gateways builds what uses it
        for hook, register in _Collector(name, registry).added_hooks().items():
            reaching(name)(hook)(register=register)
    added = MappingProxyType({hook: MappingProxyType(table) for hook, table in registry.added.items()})
    for name in loaded:
        for hook, register in _Collector(name, registry).hooks().items():
            also = {"added": added} if hook == "register_gateways" else {}
            reaching(name)(hook)(register=register, **also)
    return registry, loaded


def _trace(pm: pluggy.PluginManager) -> None:
    """Print each hook call (which plugins it reaches) and how long it took to stderr."""
    started: list[float] = []

    def before(hook_name: str, impls: Sequence[pluggy.HookImpl], kwargs: Mapping[str, Any]) -> None:
        if impls:
            started.append(time.perf_counter())
            print(f"moxzi hooks: {hook_name} -> {', '.join(i.plugin_name for i in impls)}", file=sys.stderr)

    def after(
        outcome: pluggy.Result[Any], hook_name: str, impls: Sequence[pluggy.HookImpl], kwargs: Mapping[str, Any]
    ) -> None:
        if impls:
            took = (time.perf_counter() - started.pop()) * 1000
            print(f"moxzi hooks: {hook_name} done in {took:.1f} ms", file=sys.stderr)

    pm.add_hookcall_monitoring(before, after)


def describe(registry: Registry, plugins: dict[str, InstalledPlugin]) -> list[str]:
    """One line per plugin: name, distribution, version, and what it registered."""
    lines = []
    for name, info in plugins.items():
        things = sorted(f"{kind} {what}" for (kind, what), by in registry.provided_by.items() if by == name)
        lines.append(f"{name:<8} {info.distribution} {info.version}: {', '.join(things) or 'nothing'}")
    return lines
