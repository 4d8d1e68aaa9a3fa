"""The modules actors run: each prepared for hosting (`engine.prepare`) and compiled once, by the
sha256 of its original wasm; the Candid interface each actor's module gives it; and the check an
upgrade's stable variables must pass."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator

import wasmtime

from .. import errors
from ..build import BuildError, stable_incompatibilities
from ..candid import Service, parse_did, service_from_sections
from .clock import Clock
from .engine import Instance, Limits, PreparedModule, UnsupportedModule, new_engine, prepare
from .journal import Journal

log = logging.getLogger("moxzid")
STABLE_TYPES = "icp:private motoko:stable-types"


class Modules:
    """The compiled modules, on one engine every actor shares. Iterating gives the sha256 of each module
    compiled now."""

    def __init__(self, limits: Limits, journal: Journal, clock: Clock):
        self.engine = new_engine()
        self._clock = clock  # what the instances' ic0.time reads
        self._limits = limits
        self._journal = journal  # where a module compiled before a restart (or dropped since) is read again
        self._compiled: dict[bytes, tuple[PreparedModule, wasmtime.Module]] = {}
        self._compiling: dict[bytes, threading.Lock] = {}  # (dict.setdefault is atomic: one lock a module)

    def __iter__(self) -> Iterator[bytes]:
        return iter(list(self._compiled))

    def prepared(self, digest: bytes) -> PreparedModule:
        return self._compiled[digest][0]

    def remember(self, digest: bytes, wasm: bytes, name: str, prepared: PreparedModule | None = None) -> None:
        """Prepare (unless ``prepared`` is given) and compile a module once, for actor ``name``. Actors
        restored side by side that run one module wait for the first to compile it: preparing is
        Python (it holds the GIL), so each doing it too would cost the others as much again."""
        with self._compiling.setdefault(digest, threading.Lock()):
            if digest in self._compiled:
                return
            if prepared is None:
                prepared = prepared_for(wasm, name, self._limits)
            try:
                module = wasmtime.Module(self.engine, prepared.wasm)
            except wasmtime.WasmtimeError as error:
                raise UnsupportedModule(f"actor {name}: the module does not compile: {error}") from None
            self._compiled[digest] = (prepared, module)

    def drop(self, digest: bytes, running: set[bytes | None]) -> None:
        """Forget the compiled module of a refused upload unless an actor runs it (``running``):
        compiled modules are large, and `instantiate` compiles one again from the store should it be
        needed."""
        if digest not in running:
            self._compiled.pop(digest, None)
            self._compiling.pop(digest, None)

    def instantiate(
        self, module: bytes, name: str, principal: bytes, stable: bytes = b"", *, replica: bool = False
    ) -> Instance:
        """A fresh instance of a module in the store for actor ``name`` (its start function not yet run),
        or a query replica of it."""
        if module not in self._compiled:  # compiled again after a restart or a refusal (an upgrade's, an install's)
            self.remember(module, self._journal.module(module), name)
        prepared, compiled = self._compiled[module]
        return Instance(
            self.engine,
            compiled,
            prepared,
            principal,
            self._limits,
            lambda text: log.info("[%s] %s", name, text, extra={"actor": name}),
            stable,
            replica=replica,
            compress=not self._journal.store.in_memory,
            clock=self._clock,
        )


class Interfaces:
    """Each actor's Candid interface, kept with the module it was read from."""

    def __init__(self) -> None:
        self._by_actor: dict[str, tuple[bytes | None, Service]] = {}  # name -> (module, its interface)

    def set(self, name: str, module: bytes | None, interface: Service) -> None:
        self._by_actor[name] = (module, interface)

    def of(self, name: str, module: bytes | None, prepared: PreparedModule | None) -> Service:
        """The interface of actor ``name`` running ``module`` (None: no code), ``prepared``."""
        cached = self._by_actor.get(name)
        if cached is None or cached[0] != module:  # installed or upgraded since
            service = prepared and service_from_sections(prepared.custom_sections)
            cached = self._by_actor[name] = (module, service or Service({}))
        return cached[1]

    def forget(self, name: str) -> None:
        self._by_actor.pop(name, None)


def prepared_for(wasm: bytes, name: str, limits: Limits) -> PreparedModule:
    """``wasm`` prepared for hosting, its memory growing to what an actor may hold at most."""
    try:
        return prepare(wasm, limits.memory_pages)
    except ValueError as error:
        raise UnsupportedModule(f"actor {name}: {error}") from None


def prepared_with_interface(wasm: bytes, name: str, limits: Limits) -> tuple[PreparedModule, Service]:
    """An uploaded module prepared, and the interface embedded in it."""
    prepared = prepared_for(wasm, name, limits)
    return prepared, interface(prepared, None, name)


def interface(prepared: PreparedModule, did: str | None, name: str) -> Service:
    """The actor's Candid interface: the .did beside its wasm, else the one embedded in the module."""
    if did is not None:
        return parse_did(did)
    service = service_from_sections(prepared.custom_sections)
    if service is None:
        raise UnsupportedModule(f"actor {name}: no .did beside the wasm and no candid:service in it")
    return service


def metadata(prepared: PreparedModule | None) -> tuple[dict[str, bytes], frozenset[str]]:
    """A module's canister metadata, as the IC reads it: its ``icp:public NAME`` and ``icp:private NAME``
    sections by NAME, and the NAMEs of the private ones (only controllers read those)."""
    sections = prepared.custom_sections if prepared is not None else {}
    by_name = {
        key.split(" ", 1)[1]: value
        for key, value in sections.items()
        if key.startswith(("icp:public ", "icp:private "))
    }
    return by_name, frozenset(key.split(" ", 1)[1] for key in sections if key.startswith("icp:private "))


def check_stable_variables(old: PreparedModule, new: PreparedModule, name: str) -> None:
    """Refuse an upgrade whose stable variables cannot take over the old ones, by the Motoko compiler's
    rule. Enhanced persistence also has the runtime's own check; classic persistence has none and would
    silently reset incompatible variables, so there the check is required."""
    before = old.custom_sections.get(STABLE_TYPES)
    after = new.custom_sections.get(STABLE_TYPES)
    if before is None or after is None:
        return  # not Motoko, or built without the signature: the runtime decides
    try:
        problems = stable_incompatibilities(before.decode(), after.decode())
    except BuildError as error:
        if new.memory64:
            log.warning("upgrade of %s: stable variables not checked (%s); the runtime will", name, error)
            return
        raise errors.UpgradeRefused(f"upgrade of {name} refused: cannot check its stable variables: {error}") from None
    if problems:
        raise errors.UpgradeRefused(
            f"upgrade of {name} refused: the new code is incompatible with the "
            f"actor's stable variables:\n" + "\n".join(problems)
        )
