"""Actors tested from pytest: a host in the test process, driven by plain (synchronous) calls, in the
manner of PocketIC's Python library.

``MoxziHost(state_dir)`` runs a ``runtime.host.Host`` on an event loop of its own (a thread), with the
manual clock (``HostConfig(clock="manual")``: time moves only when the test says) and its state in
``state_dir``: in the store the installed ``lmdb`` plugin registers, as ``moxzid -s DIR`` keeps it, or
else in a memory store the ``MoxziHost`` holds. ``deploy`` builds a ``.mo`` (``build.build``, answered
from the build cache when unchanged) or takes a ``.wasm``, and gives a ``DeployedActor`` whose
``update``/``query`` take and return Python Candid values (``moxzi_core.candid``'s value model), typed
by the actor's interface. ``advance`` moves the clock and runs the timers and heartbeats due;
``restart`` stops the host as a crash would and brings it back from its store.

The ``moxzi_host`` fixture is one ``MoxziHost`` per test, in the test's ``tmp_path``. pytest finds it
through the ``pytest11`` entry point ``moxzi``, or a conftest.py's ``pytest_plugins =
["moxzi_core.testing"]`` (both at once are fine: see ``pytest_plugin_registered``).

PYTEST_DONT_REWRITE: it holds no asserts, and a test module that imports from it (CallRejected) before
naming it in pytest_plugins would otherwise get a warning that it cannot be rewritten."""

from __future__ import annotations

import asyncio
import sys
import threading
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest

from . import plugins
from .build import build
from .candid import NULL, FuncType, decode_args, encode_args, resolve
from .errors import no_method
from .runtime.clock import MANUAL
from .runtime.host import ActorSpec, Host, HostConfig
from .store import MemoryStore, Store

T = TypeVar("T")
STORE_PLUGIN = "lmdb"  # the store moxzid -s DIR keeps state in
ENTRY_POINT = "moxzi"  # this plugin's name in the pytest11 entry-point group
CALL_SECONDS = 600.0  # how long a call from the test may take before it fails the test


class CallRejected(Exception):
    """The actor (or the host) rejected the call: ``code`` is the IC's reject code."""

    def __init__(self, code: int, message: str):
        super().__init__(f"reject {code}: {message}")
        self.code, self.message = code, message


class MoxziHost:
    """A host of actors for a test; ``close`` it when done (the fixture does)."""

    def __init__(self, state_dir: Path | str):
        self.state_dir = Path(state_dir)
        self.state_dir.mkdir(parents=True, exist_ok=True)
        self._specs: list[ActorSpec] = []
        self._open_store = _store_opener(self.state_dir / "store")
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="moxzi-host", daemon=True)
        self._thread.start()
        self._store = self._open_store()
        self.host = self._run(self._started())

    def _run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result(CALL_SECONDS)

    async def _started(self) -> Host:
        host = Host(list(self._specs), HostConfig(clock=MANUAL, key_dir=self.state_dir), store=self._store)
        await host.start()
        return host

    def deploy(self, source: Path | str, name: str | None = None) -> DeployedActor:
        """Install ``source`` (NAME.mo, built here, or NAME.wasm with NAME.did beside it if there is
        one) as actor ``name`` (NAME unless given). The host restarts to take it, as moxzid takes a
        manifest's new actor: the actors already there keep their state."""
        source = Path(source)
        if source.suffix == ".mo":
            built = build(source, out_dir=self.state_dir / "build")
            wasm_path, did_path = built.wasm_path, built.did_path
        else:
            wasm_path, did_path = source, source.with_suffix(".did")
        name = name or source.stem
        if any(spec.name == name for spec in self._specs):
            raise ValueError(f"an actor named {name!r} is deployed already")
        did = did_path.read_text() if did_path.is_file() else None
        self._specs.append(ActorSpec(name, wasm_path.read_bytes(), did))
        try:
            self.restart()
        except Exception:  # (a module the engine refuses): the host comes back without it
            self._specs.pop()
            self.host = self._run(self._started())
            raise
        return DeployedActor(self, name)

    def advance(self, seconds: float = 0.0, *, nanoseconds: int = 0) -> int:
        """Move the clock on and run what comes due (timers, heartbeats, what they call); the time
        now, in nanoseconds since the epoch."""
        return self._run(self.host.clock.advance(round(seconds * 10**9) + nanoseconds))

    def now_ns(self) -> int:
        return self.host.clock.now_ns()

    def restart(self) -> None:
        """Stop the host, cutting short what runs (as a crash would), close its store and bring
        every actor back from it."""
        self._run(self.host.stop())
        if not self._store.in_memory:  # (a memory store is where the state lives on)
            self._store.close()
        self._store = self._open_store()
        self.host = self._run(self._started())

    def close(self) -> None:
        self._run(self.host.stop())
        self._store.close()
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join()
        self._loop.close()


class DeployedActor:
    """One deployed actor; its calls go through the host's current run, so it outlives ``restart``."""

    def __init__(self, moxzi: MoxziHost, name: str):
        self._moxzi, self.name = moxzi, name

    @property
    def principal(self):
        return self._moxzi.host.info(self.name).principal

    def update(self, method: str, *args: Any, caller: bytes | None = None) -> Any:
        """Call ``method`` as an update with ``args``: its result (None for none, a tuple for several);
        CallRejected if it is rejected."""
        return self._call(method, args, query=False, caller=caller)

    def query(self, method: str, *args: Any, caller: bytes | None = None) -> Any:
        """Call query ``method`` with ``args``, as ``update`` does."""
        return self._call(method, args, query=True, caller=caller)

    def logs(self) -> list[str]:
        """The actor's canister log (what ``Debug.print`` wrote, and its traps), oldest first."""
        return [content.decode("utf-8", "replace") for _, _, content in self._moxzi.host.canister_log(self.name, None)]

    def _call(self, method: str, args: tuple, *, query: bool, caller: bytes | None) -> Any:
        host = self._moxzi.host
        methods = host.info(self.name).interface.methods
        func = resolve(methods.get(method, NULL))
        if not isinstance(func, FuncType):
            raise AttributeError(no_method(self.name, method, methods))
        arg = encode_args(list(func.args), list(args))
        extra = {} if caller is None else {"caller": caller}
        outcome = self._moxzi._run(host.call(self.name, method, arg, query=query, **extra))
        if outcome.reply is None:
            raise CallRejected(outcome.reject_code, outcome.reject_message)
        results = decode_args(outcome.reply, list(func.rets))
        return None if not results else results[0] if len(results) == 1 else tuple(results)


def _store_opener(directory: Path) -> Callable[[], Store]:
    """What opens the state store: the ``lmdb`` plugin's on ``directory`` when it is installed, else
    one memory store, which outlives the restarts of the ``MoxziHost`` that holds it."""
    if STORE_PLUGIN in plugins.installed_plugins():
        registry, _ = plugins.load([STORE_PLUGIN])
        opener = registry.stores[STORE_PLUGIN]
        return lambda: opener(directory)
    kept = MemoryStore()
    return lambda: kept


@pytest.fixture
def moxzi_host(tmp_path: Path) -> Iterator[MoxziHost]:
    """A ``MoxziHost`` with its state in the test's ``tmp_path``."""
    moxzi = MoxziHost(tmp_path / "moxzi")
    yield moxzi
    moxzi.close()


def pytest_plugin_registered(plugin: object, plugin_name: str, manager: pytest.PytestPluginManager) -> None:
    # This module is one plugin under two names: its entry point's ("moxzi") and its module's (a
    # conftest's pytest_plugins, or -p). pluggy refuses to register it twice (ValueError), so once it is
    # registered under one name the other is blocked, which makes a second mention a no-op.
    if plugin is sys.modules[__name__]:
        for name in {ENTRY_POINT, __name__} - {plugin_name}:
            manager.set_blocked(name)
