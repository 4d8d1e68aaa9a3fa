"""The extension points of moxzi: every hook a plugin may implement, and what each ``register`` takes.

Each hook hands the plugin a ``register`` callable; the plugin calls it with the objects it contributes
and never reaches into the core. moxzi's own plugins (``http``, ``ic``, ``console``, ``lmdb``, ``torch``,
``triton``, ``cycles``) use exactly these hooks, through the same entry-point group (``moxzi``) as a
third party's. A name registered twice (an op, a backend, a store, a gateway, a transport, a setting,
a name in a hook a plugin added) is a start-up error naming both plugins; price lists are the
exception: the last one registered wins.

A plugin may add hooks of its own for others to implement (``register_hookspecs``, pytest's
``pytest_addhooks``): the http plugin's ``moxzi_gateway_http.hookspecs`` is how other plugins mount
HTTP apps on its address, so nothing about HTTP is in this file.

A plugin implements a hook by defining a function of the same name decorated with ``hookimpl``::

    from moxzi_core.hookspecs import hookimpl

    @hookimpl
    def register_stores(register):
        register("mystore", MyStore.open)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Protocol, TypedDict, Unpack

import pluggy

if TYPE_CHECKING:  # the hook specs name these types; importing them here would load the whole core
    from .billing import PriceList
    from .device.backend import Backend
    from .device.ops import Kernel, Op
    from .device.transfer import Transport
    from .host_api import GatewayHost
    from .settings import Setting, Settings
    from .store import Store

hookspec = pluggy.HookspecMarker("moxzi")
hookimpl = pluggy.HookimplMarker("moxzi")


class Gateway(Protocol):
    """Serves the host to the outside world from ``start`` until ``stop``."""

    async def start(self) -> None:
        """Begin serving; raise OSError when the address cannot be used (moxzid then exits 1)."""

    async def stop(self) -> None:
        """Stop serving and release what ``start`` took."""


class OpRegister(Protocol):
    def __call__(self, op: Op, /) -> None: ...


class KernelRegister(Protocol):
    def __call__(self, kernel: Kernel, /) -> None: ...


class BackendOptions(TypedDict, total=False):
    """What a backend factory declares it takes besides the ``--device`` spec (``register_backends``):
    ``settings``, its plugin's settings (``make(spec, settings=Settings)``); ``ranks``, it can span ranks
    (``make(spec, ranks=Ranks)``); ``specs``, what lists the ``--device`` values it serves on this
    machine. Each is absent (False, None) unless given."""

    settings: bool
    ranks: bool
    specs: Callable[[], list[str]]


class BackendRegister(Protocol):
    def __call__(self, name: str, factory: Callable[..., Backend], /, **options: Unpack[BackendOptions]) -> None: ...


class StoreRegister(Protocol):
    def __call__(self, name: str, opener: Callable[[Path], Store], /) -> None: ...


class GatewayOptions(TypedDict, total=False):
    """What a gateway may register besides its factory (``register_gateways``): ``check(settings)``,
    called before the store, the device and the actors load, raises
    ``moxzi_core.settings.SettingsError`` for settings the gateway could not serve (an address in use)."""

    check: Callable[[Settings], None]


class GatewayRegister(Protocol):
    def __call__(
        self, name: str, factory: Callable[[GatewayHost, Settings], Gateway], /, **options: Unpack[GatewayOptions]
    ) -> None: ...


class HookspecRegister(Protocol):
    def __call__(self, specs: ModuleType, /) -> None: ...


Added = Mapping[str, Mapping[str, Any]]  # by hook a plugin added: {name: object} as plugins registered them


class TransportRegister(Protocol):
    def __call__(self, name: str, factory: Callable[[Settings], Transport], /) -> None: ...


class BillingRegister(Protocol):
    def __call__(self, name: str, factory: Callable[[Settings], PriceList], /) -> None: ...


class SettingRegister(Protocol):
    def __call__(self, setting: Setting, /) -> None: ...


@hookspec
def register_settings(register: SettingRegister) -> None:
    """Add settings this plugin reads: ``register(Setting(flag, kind, help, default=...))``. Each becomes
    the flag ``--FLAG`` (shown in ``moxzid --help``) and the TOML key ``FLAG``; the plugin reads its
    value back from the ``Settings`` its factories receive, as ``settings[THE_SETTING]`` (typed by its
    kind and default) or, untyped, ``settings.FLAG_WITH_UNDERSCORES``.

    :param register: takes one ``moxzi_core.settings.Setting``; a flag another plugin or the core
        already declares is a start-up error."""


@hookspec
def register_ops(register: OpRegister) -> None:
    """Register device ops: ``register(op)`` with a ``moxzi_core.device.Op`` (its name, Candid payload
    type, shape rule, and a kernel per backend family).

    :param register: takes one ``Op``; an op name registered by two plugins is a start-up error, so two
        plugins never silently fight over an op."""


@hookspec
def register_kernels(register: KernelRegister) -> None:
    """Replace an existing op's kernel (or an optimizer kind's, ``optimizer:adamw``) on one backend
    (``torch:cuda``) or a whole family (``torch``): ``register(Kernel(op, backend, fn, provider))``.
    The most specific backend wins; ``moxzid --device SPEC plugins`` says whose kernel runs each op.

    :param register: takes one ``moxzi_core.device.Kernel``."""


@hookspec
def register_backends(register: BackendRegister) -> None:
    """Register device backends: ``register(name, factory)``, where ``factory(spec)`` builds the
    ``moxzi_core.device.Backend`` for a ``--device`` value such as ``torch:cpu`` (``name`` is the part
    before the colon). A factory says what more it takes: ``register(name, factory, ranks=True)`` for
    one that can span ranks (``--device-world``): it also takes ``factory(spec,
    ranks=moxzi_core.device.Ranks(...))`` and its backend then has a ``group`` (``ranks.Group``);
    ``register(name, factory, settings=True)`` for one that reads its plugin's settings
    (``register_settings``): it also takes ``factory(spec, settings=moxzi_core.settings.Settings)``;
    moxzid passes them, and a device opened without them (``open_device`` in a script) gets the
    factory's defaults; ``register(name, factory, specs=fn)``: ``fn()`` lists the ``--device`` values
    it serves on this machine, named in the error for a family no plugin registers.

    :param register: takes the family name, the factory and what it takes; the registry keeps them
        as a ``moxzi_core.registry.BackendFactory``."""


@hookspec
def register_stores(register: StoreRegister) -> None:
    """Register state stores: ``register(name, opener)``, where ``opener(directory)`` opens (creating if
    needed) the ``moxzi_core.store.Store`` that keeps everything moxzid must not lose under ``-s DIR``.
    Beyond its abstract methods, a store may override ``Store.read_into`` (many values copied into one
    buffer in one read: how a recorded fetch's parts are read back); one that does not inherits a
    version that gets each key on its own.

    :param register: takes the store's name and its opener; with ``-s``, exactly one loaded plugin may
        register a store."""


@hookspec
def register_hookspecs(register: HookspecRegister) -> None:
    """Add hooks for other plugins to implement: ``register(specs)``, a module of functions marked
    ``hookspec``, each ``register_THINGS(register)`` with a docstring saying what its ``register(name,
    obj)`` takes. moxzid collects them as it collects its own, each registration credited to its
    plugin and a name registered twice an error, and hands what they collected to
    ``register_gateways`` (``added``), where the adding plugin builds what uses them. A plugin implementing another's hook marks it
    ``@hookimpl(optionalhook=True)``, so it still loads when the other is not selected.

    :param register: takes the module; a hook name another plugin (or moxzid) already declares is a
        start-up error."""


@hookspec
def register_gateways(register: GatewayRegister, added: Added) -> None:
    """Register gateways that serve the host to the outside: ``register(name, factory)``, where
    ``factory(host, settings)`` returns a ``Gateway`` (``async start()``, ``async stop()``). moxzid
    starts every registered gateway after the actors, and stops them before the actors. With
    ``register(name, factory, check=fn)``, ``fn(settings)`` is called first, before the store, the
    device and the actors load: it raises ``moxzi_core.settings.SettingsError`` for an address it
    could not serve.

    :param register: takes the gateway's name and its factory; ``host`` is a running
        ``moxzi_core.host_api.GatewayHost``, ``settings`` the ``moxzi_core.settings.Settings``.
    :param added: what the hooks plugins added (``register_hookspecs``) collected, by hook name (the
        http gateway mounts ``added["register_http_apps"]``); an implementation that needs none of it
        leaves the parameter out."""


@hookspec
def register_transports(register: TransportRegister) -> None:
    """Register how devices move publications between machines: ``register(name, factory)``, where
    ``factory(settings)`` returns a ``moxzi_core.device.transfer.Transport``: it serves the device's
    exports (if its settings ask it to) and downloads the URLs of the schemes it names for
    ``moxzi_device_fetch``.

    :param register: takes the transport's name and its factory; a URL scheme claimed by two loaded
        transports is a start-up error."""


@hookspec
def register_billing(register: BillingRegister) -> None:
    """Register a price list: ``register(name, factory)``, where ``factory(settings)`` returns a
    ``moxzi_core.billing.PriceList`` that prices work (device time, wasm instructions) in cycles. The
    last registered price list wins, so a third-party plugin can replace the default one without
    touching the core.

    :param register: takes the price list's name and its factory."""
