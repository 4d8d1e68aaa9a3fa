"""The hooks the http plugin adds for other plugins (``register_hookspecs``): what they serve on the
HTTP gateway's address (``--listen``) beside its own routes. The core's hooks know nothing of HTTP.

A plugin implements one as it implements the core's, marked optional so it still loads when the http
plugin is not selected::

    from moxzi_core.hookspecs import hookimpl

    @hookimpl(optionalhook=True)
    def register_http_apps(register):
        register("/mine", my_app)  # my_app(host, settings) -> aiohttp.web.Application
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from moxzi_core.hookspecs import hookspec

if TYPE_CHECKING:
    from aiohttp import web

    from moxzi_core.host_api import GatewayHost
    from moxzi_core.settings import Settings

HttpAppFactory = Callable[["GatewayHost", "Settings"], "web.Application"]


class HttpAppRegister(Protocol):
    def __call__(self, prefix: str, factory: HttpAppFactory, /) -> None: ...


class HttpRedirectRegister(Protocol):
    def __call__(self, path: str, target: str, /) -> None: ...


@hookspec
def register_http_apps(register: HttpAppRegister) -> None:
    """Mount an aiohttp application on the gateway's address: ``register(prefix, factory)``, where
    ``factory(host, settings)`` returns the ``aiohttp.web.Application`` the gateway mounts at ``prefix``
    (``/api``: the ic plugin's IC HTTP interface; ``/console``, ``/events``, ``/metrics``: the console's).

    :param register: takes the prefix and the factory; two plugins cannot claim one prefix."""


@hookspec
def register_http_redirects(register: HttpRedirectRegister) -> None:
    """Lead a path of the gateway's address elsewhere: ``register(path, target)`` has ``GET path``
    answered with a redirect (302) to ``target`` (the console leads ``/`` to its page, ``/console/``).

    :param register: takes the path and where it leads; two plugins cannot claim one path."""
