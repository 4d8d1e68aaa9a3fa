"""What the loaded plugins registered (`Registry`), and the records it keeps of a backend's and a gateway's
registration. `plugins.load` fills it through the hooks of `hookspecs`; moxzid reads it to assemble
itself."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .settings import CORE_SETTINGS

if TYPE_CHECKING:
    from .billing import PriceList
    from .device.backend import Backend
    from .device.ops import Kernel, Op
    from .device.transfer import Transport
    from .hookspecs import BackendOptions, Gateway, GatewayOptions
    from .host_api import GatewayHost
    from .settings import Setting, Settings
    from .store import Store


@dataclass(frozen=True)
class BackendFactory:
    """A registered backend factory and what it declared it takes (`hookspecs.BackendOptions`). Called
    with the spec alone, it makes a backend with its plugin's defaults on one rank."""

    make: Callable[..., Backend]
    options: BackendOptions

    @property
    def settings(self) -> bool:
        return self.options.get("settings", False)

    @property
    def ranks(self) -> bool:
        return self.options.get("ranks", False)

    @property
    def specs(self) -> Callable[[], list[str]] | None:
        return self.options.get("specs")

    def __call__(self, spec: str, **options: Any) -> Backend:
        return self.make(spec, **options)


@dataclass(frozen=True)
class GatewayFactory:
    """A registered gateway factory, ``make(host, settings)``, and its ``check(settings)``, if it declared
    one (`hookspecs.GatewayOptions`)."""

    make: Callable[[GatewayHost, Settings], Gateway]
    options: GatewayOptions

    @property
    def check(self) -> Callable[[Settings], None] | None:
        return self.options.get("check")

    def __call__(self, host: GatewayHost, settings: Settings) -> Gateway:
        return self.make(host, settings)


@dataclass
class Registry:
    """What the loaded plugins registered, by hook, each entry remembering which plugin gave it."""

    settings: list[Setting] = field(default_factory=lambda: list(CORE_SETTINGS))
    ops: dict[str, Op] = field(default_factory=dict)
    kernels: list[Kernel] = field(default_factory=list)
    backends: dict[str, BackendFactory] = field(default_factory=dict)
    stores: dict[str, Callable[[Path], Store]] = field(default_factory=dict)
    gateways: dict[str, GatewayFactory] = field(default_factory=dict)
    # What plugins registered through the hooks plugins added (register_hookspecs), by hook, by name.
    added: dict[str, dict[str, Any]] = field(default_factory=dict)
    transports: dict[str, Callable[[Settings], Transport]] = field(default_factory=dict)
    billing: dict[str, Callable[[Settings], PriceList]] = field(default_factory=dict)
    provided_by: dict[tuple[str, str], str] = field(default_factory=dict)  # (kind, name) -> plugin name
    skipped: dict[str, str] = field(default_factory=dict)  # installed plugin -> why it did not load
