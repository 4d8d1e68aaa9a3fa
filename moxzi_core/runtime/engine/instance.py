"""One actor's running wasm module: its store, memories, globals and timer, run as transactions.

`Instance` knows how to invoke an entry point and how to keep or undo what it did; it knows nothing
of call contexts or other actors (that is `actor.py`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypeVar

import numpy as np
import wasmtime

from ..canister import Canister
from ..clock import SYSTEM_CLOCK, Clock
from ..ic0 import Execution, SystemApi
from ..traps import ActorTrap
from .calls import WasmCalls
from .globals import Globals
from .memory import StableMemory, TrackedMemory
from .memory_image import Packer, Stored
from .motoko_heap import FreedPartitions
from .rewrite import DIRTY_PAGES_EXPORT, GROW_CAP_EXPORT, START_EXPORT, PreparedModule
from .stable import FUNCTION_TYPES as STABLE_FUNCTIONS
from .stable import StableFunctions

EMPTY_ARGS = b"DIDL\x00\x00"  # Candid encoding of no arguments
GROW_REFUSED = "Cannot grow memory"  # how Motoko's runtime traps when memory.grow fails
_WASM_PAGE = 65536


@dataclass(frozen=True)
class Limits:
    """What one actor's message may use. Exceeding any of them traps that message, nothing more."""

    max_message_bytes: int = 8 * 1024 * 1024
    instructions_per_message: int = 40_000_000_000
    instructions_per_query: int = 5_000_000_000
    memory_bytes: int = 2 * 1024 * 1024 * 1024  # wasm memory an actor may grow to (its limit)
    stable_memory_pages: int = 1 << 16  # 4 GiB

    @property
    def memory_pages(self) -> int:
        """``memory_bytes`` in wasm pages (64 KiB)."""
        return self.memory_bytes >> 16


def new_engine() -> wasmtime.Engine:
    """The engine every actor shares: memory64 for enhanced persistence, fuel for instruction limits,
    epochs so that stopping the host cuts short a running message (``Interrupted``). Compiled code is
    kept in wasmtime's own cache (``~/.cache/wasmtime``, keyed by the module and these settings), so a
    restart, or another host in the same process, does not compile a module again (0.85 s -> 0.23 s to
    start two test actors)."""
    config = wasmtime.Config()
    config.wasm_memory64 = True
    config.wasm_bulk_memory = True
    config.wasm_multi_value = True
    config.wasm_multi_memory = True  # the dirty-page map is a second memory (dirty)
    config.consume_fuel = True
    config.epoch_interruption = True
    config.cache = True
    return wasmtime.Engine(config)


def new_store(engine: wasmtime.Engine, fuel: int) -> wasmtime.Store:
    """A store for one instance on ``engine``: ``fuel`` instructions, until the engine's epoch moves."""
    store = wasmtime.Store(engine)
    store.set_fuel(fuel)
    store.set_epoch_deadline(1)
    return store


class Interrupted(Exception):
    """The host is stopping (its engine's epoch moved on) and cut the running message short. Nothing of
    the message may be kept or answered: it is still in its actor's inbox, and runs again from the
    start after a restart."""


class UnsupportedModule(Exception):
    """The module imports or lacks something moxzid cannot host."""


_Extern = TypeVar("_Extern", wasmtime.Func, wasmtime.Memory, wasmtime.Global)


def _export_of(exports: Mapping[str, object], name: str, kind: type[_Extern]) -> _Extern:
    """The export ``name``, which must be a ``kind`` (wasmtime types every export as a union of all
    kinds, so this is where each one's kind is checked)."""
    export = exports[name]
    if not isinstance(export, kind):
        raise UnsupportedModule(f"the module's export {name} is not a {kind.__name__}")
    return export


class Instance:
    """A module instantiated for one actor, with transactional state.

    Protocol: ``begin()``, then ``invoke(...)`` once, then ``commit()`` or ``rollback()``.

    ``stable`` is the stable memory to start with (whole 64 KiB pages: a restored snapshot's, or what an
    upgrade hands over).

    A query replica (``replica=True``) runs only queries, on another instance's committed state: before
    each one ``follow`` makes it that state again (which undoes the previous query), so its rollback
    leaves the memory and globals for ``follow`` and it keeps no shadow of its own."""

    def __init__(
        self,
        engine: wasmtime.Engine,
        module: wasmtime.Module,
        prepared: PreparedModule,
        principal: bytes,
        limits: Limits,
        log,
        stable: bytes = b"",
        *,
        replica: bool = False,
        compress: bool = True,
        clock: Clock = SYSTEM_CLOCK,
    ):
        self.principal = principal
        self.replica = replica
        self.limits = limits
        self.prepared = prepared
        self.clock = clock
        self.now = 0  # this message's time, ns (`Clock.message_time`)
        self.timer = 0  # the global timer's deadline, ns; 0 = inactive
        self.canister = Canister()  # the actor's controllers, status and version (its actor sets it)
        # With two memories (the dirty-page map), wasmtime evaluates data-segment offsets as code,
        # which costs fuel.
        self._store = new_store(engine, limits.instructions_per_message)
        # wasmtime limits each memory of the store alike; the main memory's limit is its maximum
        # (`rewrite.prepare`), this bounds the stable memory too.
        self._store.set_limits(memory_size=max(limits.memory_bytes, limits.stable_memory_pages * StableMemory.PAGE))
        self.api = SystemApi(self, log)
        self._calls = WasmCalls(self._store)
        stable_functions = StableFunctions(engine, self._store, self._calls)
        linker = wasmtime.Linker(engine)
        for imp in module.imports:
            try:
                if imp.module != "ic0" or imp.name is None or not isinstance(imp.type, wasmtime.FuncType):
                    raise LookupError
                if imp.name in STABLE_FUNCTIONS:  # wasm functions: no call into Python
                    linker.define(self._store, "ic0", imp.name, stable_functions.function(imp.name, imp.type))
                else:
                    self._calls.define(linker, "ic0", imp.name, imp.type, self.api.function(imp.name))
            except LookupError:
                raise UnsupportedModule(
                    f"the module imports {imp.module}.{imp.name}, which moxzid does not provide"
                ) from None
            except ValueError as error:
                raise UnsupportedModule(str(error)) from None
        self._wasm = linker.instantiate(self._store, module)
        exports = self._wasm.exports(self._store)
        memories = [e for e in exports if isinstance(exports[e], wasmtime.Memory) and e != DIRTY_PAGES_EXPORT]
        if len(memories) != 1:
            raise UnsupportedModule(f"expected one exported memory, found {len(memories)}")
        self._exports = exports
        memory = _export_of(exports, memories[0], wasmtime.Memory)
        dirty_map = _export_of(exports, DIRTY_PAGES_EXPORT, wasmtime.Memory)
        grow_cap = _export_of(exports, GROW_CAP_EXPORT, wasmtime.Global)
        self._grow_cap = Globals(self._store, [grow_cap])
        # What the running message may grow both memories by, and the main memory's pages that leaves
        # it (the growth cap), in `begin`; None: no cap.
        self._growth: int | None = None
        self._cap_pages: int | None = None
        self._written_cap: int | None = None  # what the growth cap's global holds (None: as instantiated)
        self.memory = TrackedMemory(memory, self._store, dirty_map, shadow=not replica)
        # What packs the memories for the store (none for a replica, which writes no snapshot): the main
        # memory over its image as instantiated (its data segments, up to the last non-zero byte);
        # ``compress``: False for a store that keeps its values in memory (`Store.in_memory`).
        self.memory_packer = Packer(b"" if replica else self.memory.image().rstrip(b"\0"), compress)
        self.stable_packer = Packer(compress=compress)
        self._freed = None if replica else FreedPartitions()
        self.stable = StableMemory(
            self._store,
            stable_functions.attach(memory, dirty_map, grow_cap, prepared.memory64, limits.stable_memory_pages),
            shadow=not replica,
        )
        if stable:
            self.stable.load(stable)
        self._table = next((e for e in exports.values() if isinstance(e, wasmtime.Table)), None)
        self._globals = Globals(
            self._store,
            [
                g
                for g in (_export_of(exports, n, wasmtime.Global) for n in prepared.global_exports)
                if g.type(self._store).mutable
            ],
        )
        self._committed_globals: list = []  # as of the start function, the last commit or restore
        self._saved_timer = 0
        self._fuel_given = 0

    # --- memory access for the System API ---------------------------------------------------
    def read(self, start: int, size: int) -> bytes:
        try:
            return self.memory.read(start, size)  # (it checks the bounds)
        except IndexError:
            raise ActorTrap(f"reading bytes {start}..{start + size} beyond memory of {self.memory.size}") from None

    def write(self, start: int, data: bytes) -> None:
        try:
            self.memory.write(start, data)
        except IndexError:
            raise ActorTrap(f"writing bytes {start}..{start + len(data)} beyond memory of {self.memory.size}") from None

    def instructions_used(self) -> int:
        return self._fuel_given - self._calls.fuel()

    def has_export(self, name: str) -> bool:
        return name in self._exports

    def method_kind(self, method: str) -> str | None:
        """'update', 'query', 'composite_query', or None when the module exports no such method."""
        for kind in ("update", "query", "composite_query"):
            if self.has_export(f"canister_{kind} {method}"):
                return kind
        return None

    # --- transactions ------------------------------------------------------------------------
    def reach(self) -> int:
        """Bytes a message can write without growing a memory: the main memory's size and the stable
        memory's (pages past `extent` included: a rolled-back growth leaves the main memory grown).
        Between messages."""
        return self.memory.size + self.stable.kept_size

    def begin(self, growth: int | None = None) -> None:
        """Start a message. ``growth``: the bytes by which it may grow the two memories together, their
        limits still holding (`memory_budget`; a growth past it answers -1, as one past the limits
        does); None: only their limits bound it."""
        self._saved_timer = self.timer
        self.now = self.clock.message_time(self.now)
        self._growth = growth
        self._cap_pages = None if growth is None else (self.memory.size + growth) // _WASM_PAGE
        cap = -1 if self._cap_pages is None else self._cap_pages
        if cap != self._written_cap:  # (mostly the same: the total less the others' shares and the stable memory)
            self._grow_cap.write([cap])  # (only here: the global is moxzid's, the module's code never sets it)
            self._written_cap = cap

    def _read_globals(self) -> list:
        return self._globals.read()  # Motoko modules have dozens: read once per message

    def invoke(
        self,
        execution: Execution | None,
        export: str | None = None,
        callback: tuple[int, int] | None = None,
        *,
        fuel: int,
    ) -> str | None:
        """Run an export, or a callback from the table (function index, env), in ``execution``'s
        context (None: the start function). Returns None, or the trap message, which the canister's
        log keeps (`canister_log`)."""
        trap = self._run(execution, export, callback, fuel)
        if trap is not None:
            self.api.keep_trap_in_log(execution, trap)
        return trap

    def _run(
        self, execution: Execution | None, export: str | None, callback: tuple[int, int] | None, fuel: int
    ) -> str | None:
        self.api.execution = execution
        self._fuel_given = fuel
        self._calls.set_fuel(fuel)
        self._calls.set_epoch_deadline(1)  # the next increment_epoch (Host.stop) interrupts
        try:
            if export is not None:
                self._calls.call(_export_of(self._exports, export, wasmtime.Func))
            else:
                assert callback is not None, "invoke runs an export or a callback"
                fun, env = callback
                if self._table is None or not self._calls.call_element(self._table, fun, env):
                    return f"callback {fun} is not a function in the table"
            return None
        except ActorTrap as trap:
            if GROW_REFUSED in str(trap):  # a memory.grow past the limit or the growth cap answered -1
                return f"{trap} ({self._grow_limit()})"
            return str(trap)
        except wasmtime.Trap as trap:
            if trap.trap_code == wasmtime.TrapCode.INTERRUPT:
                raise Interrupted(f"interrupted by the host stopping, in {export or 'a callback'}") from None
            if trap.trap_code == wasmtime.TrapCode.OUT_OF_FUEL:
                return f"instruction limit exceeded: the message ran more than {fuel:,} instructions"
            return trap.message
        except wasmtime.WasmtimeError as error:
            return str(error)
        finally:
            self.api.execution = None

    def _grow_limit(self) -> str:
        """What refused the running message's memory growth: the growth cap where it was the lower."""
        limit = self.limits.memory_bytes
        if self._growth is not None and self._cap_pages is not None and self._cap_pages * _WASM_PAGE < limit:
            return (
                f"moxzid's wasm memory for all actors had room for {self._growth >> 20} MiB more when the "
                "message began: moxzid --total-memory-mb"
            )
        return f"its memory may grow to {limit >> 20} MiB: moxzid --actor-memory-mb"

    def extent(self, *, committing: bool = False) -> int:
        """Bytes of both memories up to the last page written in each (`TrackedMemory.extent`), as
        committed, or as committing the running message would leave them: what they may cost in RAM."""
        if committing:
            return self.memory.extent_if_committed() + self.stable.extent_if_committed()
        return self.memory.extent + self.stable.extent

    def commit(self) -> tuple[list[int], list[int]]:
        """Keep the message's effects; return the changed pages of (main, stable) memory."""
        self._committed_globals = self._read_globals()
        if self._freed is not None:
            self._freed.zero(self.memory)
        return self.memory.commit(), self.stable.commit()

    def rollback(self) -> None:
        self.timer = self._saved_timer
        if self.replica:
            return  # `follow` puts the memories and globals back, with what was committed since
        self._set_globals(self._committed_globals)
        self.memory.rollback()
        self.stable.rollback()

    def _set_globals(self, values: list) -> None:
        self._globals.write(values)

    def follow(self, source: Instance, memory_pages: np.ndarray | None, stable_pages: np.ndarray | None) -> None:
        """(A replica, between queries) Become ``source``'s committed state again, given the pages of
        both memories ``source`` committed since the last call (None: everything). Call while
        ``source`` is not committing; its running message, if any, is not seen."""
        self.memory.follow(source.memory, memory_pages)
        self.stable.follow(source.stable, stable_pages)
        self._committed_globals = source._committed_globals
        self._set_globals(self._committed_globals)
        self.now = max(self.now, source.now)

    def state(self) -> dict:
        """The committed state besides the memories' contents, as plain data (between messages)."""
        return {
            "memory_size": self.memory.size,
            "stable_size": self.stable.kept_size,
            "globals": self._committed_globals,
            "timer": self.timer,
            "now": self.now,
        }

    @property
    def global_types(self) -> list[str]:
        """The wasm value types of the globals `state` holds ("i32", "i64", "f32", "f64", ...)."""
        return self._globals.types

    def restore(self, state: dict, memory: bytes | Stored) -> None:
        """Become the instance a saved state describes (instead of running start and init): ``memory``
        is its main memory's contents (a snapshot's), or as the store holds it, written straight into
        its own over the module's initial image."""
        if isinstance(memory, Stored):
            self.memory.fill(memory.size, lambda targets: memory.write(targets, self.memory_packer.initial))
        else:
            self.memory.load(memory)
        self._set_globals(state["globals"])
        self._committed_globals = list(state["globals"])
        self.timer, self.now = state["timer"], state["now"]

    def run_start(self) -> str | None:
        """Run the module's deferred start function (outside any message); its globals become the
        committed ones."""
        trap = None
        if self.prepared.has_start:
            trap = self.invoke(None, START_EXPORT, fuel=self.limits.instructions_per_message)
        self._committed_globals = self._read_globals()
        return trap
