"""moxzid's own wasm modules (`stable`'s, `shadow`'s), written as WAT and each compiled once per
engine: every actor instance instantiates them in its store."""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Hashable

import wasmtime

_compiled: weakref.WeakKeyDictionary[wasmtime.Engine, dict[Hashable, wasmtime.Module]] = weakref.WeakKeyDictionary()
_compiling = threading.Lock()


def compiled(engine: wasmtime.Engine, key: Hashable, text: Callable[[], str]) -> wasmtime.Module:
    """The module ``key`` names, compiled from ``text()`` (WAT) the first time ``engine`` asks for it."""
    with _compiling:
        modules = _compiled.setdefault(engine, {})
        if key not in modules:
            modules[key] = wasmtime.Module(engine, text())
        return modules[key]
