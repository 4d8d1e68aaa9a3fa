"""The device's methods, one module per method (or pair): each is ``handler(device, caller, space,
argument) -> (result, changed)``, where ``device`` is the ``DeviceState``, ``space`` the caller's, and
``argument`` decoded from Candid (the ``FETCHED`` and ``IMPORTED`` calls': an ``Attachment``). A handler checks
everything, then calls ``device.admit`` once before it changes anything, and raises ``DeviceError`` to
reject the call. ``Device.call`` runs them; a new method is a row of ``METHODS`` and its module."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .entries import delete, list_entries
from .export import export
from .fetch import download, fetched
from .imported import imported
from .mix import mix
from .optimizer import optimizer
from .params import params
from .publish import publish
from .run import run

Handler = Callable[..., tuple[Any, bool]]

# By method name less METHOD_PREFIX. "fetched" is a fetch's second half (fetch.py): the host runs it
# with the download (``download``), an actor never calls it; nor "imported", a weights import the host
# runs with the file sent to moxzid (imported.py).
METHODS: dict[str, Handler] = {
    "params": params,
    "optimizer": optimizer,
    "run": run,
    "publish": publish,
    "mix": mix,
    "list": list_entries,
    "delete": delete,
    "export": export,
    "fetched": fetched,
    "imported": imported,
}

__all__ = ["METHODS", "Handler", "download"]
