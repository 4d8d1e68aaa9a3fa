"""Stable memory in wasm: the ``ic0.stable64_*`` functions as a small module of moxzid's own that holds
an actor instance's stable memory as a wasm memory, so that a stable read or write is a wasm call and a
``memory.copy``, not a call into Python (tens of nanoseconds instead of tens of microseconds).

Per actor instance, in its store, three instances:

- the *forwarder*, made first: the functions the actor's module imports as ``ic0.stable64_*``, each a
  ``call_indirect`` through its table (the stable functions need the actor's memory, which exists only
  once the actor is instantiated, and the actor needs its imports before that);
- the actor's module;
- the *stable module*, given the actor's memory and dirty-page map (`dirty`): it holds the stable
  memory, its own dirty-page map and the stable memory's size in 64 KiB pages (a global: wasm memory
  cannot shrink, and a rolled-back ``stable64_grow`` must). `attach` puts its functions in the
  forwarder's table.

The functions check bounds as the IC does (stable memory first, then the actor's memory) and trap with
the IC's words through one host function; ``stable64_grow`` answers -1 past the limit, and past the
actor's growth cap (`rewrite`: the pages its main memory may reach in this message), which each
stable growth lowers by the pages it took, so that the two memories together grow by no more than the
cap allowed the main memory alone. A read marks the
pages it writes in the actor's memory, a write those of the stable memory, so that commits, rollbacks,
snapshots and query replicas see them (`memory.TrackedMemory`). A copy costs about an instruction per
byte, as on the IC, so that the instruction limit bounds a loop of large copies: wasmtime charges
``memory.copy`` (and ``memory.fill``) a unit of fuel per byte.
"""

from __future__ import annotations

from dataclasses import dataclass

import wasmtime

from ..traps import ActorTrap
from .calls import WasmCalls
from .own import compiled

# The IC's types for these imports (the same in both persistence modes).
_I64 = wasmtime.ValType.i64()
FUNCTION_TYPES = {
    "stable64_size": wasmtime.FuncType([], [_I64]),
    "stable64_grow": wasmtime.FuncType([_I64], [_I64]),
    "stable64_read": wasmtime.FuncType([_I64, _I64, _I64], []),
    "stable64_write": wasmtime.FuncType([_I64, _I64, _I64], []),
}
# The IC's trap messages, by the code the stable module passes to its host function.
OUT_OF_BOUNDS = ("stable memory out of bounds", "heap out of bounds")

_FORWARDER = """
(module
  (type $size (func (result i64)))
  (type $grow (func (param i64) (result i64)))
  (type $copy (func (param i64 i64 i64)))
  (table $targets (export "targets") 4 4 funcref)
  (func (export "stable64_size") (type $size) (call_indirect $targets (type $size) (i32.const 0)))
  (func (export "stable64_grow") (type $grow) (call_indirect $targets (type $grow) (local.get 0) (i32.const 1)))
  (func (export "stable64_read") (type $copy)
    (call_indirect $targets (type $copy) (local.get 0) (local.get 1) (local.get 2) (i32.const 2)))
  (func (export "stable64_write") (type $copy)
    (call_indirect $targets (type $copy) (local.get 0) (local.get 1) (local.get 2) (i32.const 3))))
"""


def _stable_module(memory64: bool) -> str:
    """The stable module's text for an actor memory with 64-bit (else 32-bit) addresses."""
    a = "i64" if memory64 else "i32"

    def to_a(local: str) -> str:  # an i64 argument as an address (or a length) of the actor's memory
        return f"(local.get {local})" if memory64 else f"(i32.wrap_i64 (local.get {local}))"

    main_pages = "(memory.size $main)" if memory64 else "(i64.extend_i32_u (memory.size $main))"
    # A 32-bit memory takes lengths below 4 GiB only.
    too_long = "(i32.const 0)" if memory64 else "(i64.gt_u (local.get $size) (i64.const 0xFFFFFFFF))"
    return f"""
(module
  (import "moxzi" "out_of_bounds" (func $out_of_bounds (param i32)))
  (import "moxzi" "memory" (memory $main {a} 0))
  (import "moxzi" "dirty_pages" (memory $main_map 0))
  (import "moxzi" "max_pages" (global $max_pages i64))
  (import "moxzi" "grow_cap" (global $grow_cap (mut i64)))
  (memory $stable (export "stable") i64 0)
  (memory $stable_map (export "stable_dirty_pages") 0)
  (global $pages (export "stable_pages") (mut i64) (i64.const 0))

  ;; Trap unless [start, start + size) lies within `bytes` (no overflow: start <= bytes first).
  (func $check (param $start i64) (param $size i64) (param $bytes i64) (param $code i32)
    (if (i32.or (i64.gt_u (local.get $start) (local.get $bytes))
                (i64.gt_u (local.get $size) (i64.sub (local.get $bytes) (local.get $start))))
      (then (call $out_of_bounds (local.get $code)) (unreachable))))

  (func $check_stable (param $offset i64) (param $size i64)
    (call $check (local.get $offset) (local.get $size)
      (i64.shl (global.get $pages) (i64.const 16)) (i32.const 0)))

  (func $check_main (param $address i64) (param $size i64)
    (if {too_long} (then (call $out_of_bounds (i32.const 1)) (unreachable)))
    (call $check (local.get $address) (local.get $size)
      (i64.shl {main_pages} (i64.const 16)) (i32.const 1)))

  ;; The 4 KiB page numbers of the first and the last byte of [start, start + size), size > 0.
  (func $first_page (param $start i64) (result i32) (i32.wrap_i64 (i64.shr_u (local.get $start) (i64.const 12))))
  (func $page_count (param $start i64) (param $size i64) (result i32)
    (i32.add (i32.const 1)
      (i32.sub (call $first_page (i64.sub (i64.add (local.get $start) (local.get $size)) (i64.const 1)))
               (call $first_page (local.get $start)))))

  (func (export "stable64_size") (result i64) (global.get $pages))

  (func (export "stable64_grow") (param $new i64) (result i64) (local $old i64) (local $want i64) (local $map i32)
    (local.set $old (global.get $pages))
    ;; (A stable memory restored under a lower limit may be over it already.)
    (if (i32.or (i64.gt_u (local.get $old) (global.get $max_pages))
                (i64.gt_u (local.get $new) (i64.sub (global.get $max_pages) (local.get $old))))
      (then (return (i64.const -1))))
    ;; What the main memory may still grow by, shared: this growth takes its part.
    (if (i32.or (i64.gt_u {main_pages} (global.get $grow_cap))
                (i64.gt_u (local.get $new) (i64.sub (global.get $grow_cap) {main_pages})))
      (then (return (i64.const -1))))
    (local.set $want (i64.add (local.get $old) (local.get $new)))
    ;; The wasm memory keeps what rolled-back growth added (zeroed): it grows only past that.
    (if (i64.gt_u (local.get $want) (memory.size $stable)) (then
      ;; The map first: a map page holds a mark for each 4 KiB of 4096 pages.
      (local.set $map (i32.sub (i32.wrap_i64 (i64.shr_u (i64.add (local.get $want) (i64.const 4095)) (i64.const 12)))
                               (memory.size $stable_map)))
      (if (i32.gt_s (local.get $map) (i32.const 0)) (then
        (if (i32.eq (memory.grow $stable_map (local.get $map)) (i32.const -1)) (then (return (i64.const -1))))))
      (if (i64.eq (memory.grow $stable (i64.sub (local.get $want) (memory.size $stable))) (i64.const -1))
        (then (return (i64.const -1))))))
    (global.set $pages (local.get $want))
    (global.set $grow_cap (i64.sub (global.get $grow_cap) (local.get $new)))
    (local.get $old))

  (func (export "stable64_read") (param $dst i64) (param $offset i64) (param $size i64)
    (call $check_stable (local.get $offset) (local.get $size))
    (call $check_main (local.get $dst) (local.get $size))
    (if (i64.eqz (local.get $size)) (then (return)))
    (memory.fill $main_map (call $first_page (local.get $dst)) (i32.const 1)
      (call $page_count (local.get $dst) (local.get $size)))
    (memory.copy $main $stable {to_a("$dst")} (local.get $offset) {to_a("$size")}))

  (func (export "stable64_write") (param $offset i64) (param $src i64) (param $size i64)
    (call $check_stable (local.get $offset) (local.get $size))
    (call $check_main (local.get $src) (local.get $size))
    (if (i64.eqz (local.get $size)) (then (return)))
    (memory.fill $stable_map (call $first_page (local.get $offset)) (i32.const 1)
      (call $page_count (local.get $offset) (local.get $size)))
    (memory.copy $stable $main (local.get $offset) {to_a("$src")} {to_a("$size")})))
"""


def _module(engine: wasmtime.Engine, which: str) -> wasmtime.Module:
    """The forwarder (``which="forwarder"``) or a stable module ("32", "64"), compiled once per engine."""
    return compiled(
        engine, ("stable", which), lambda: _FORWARDER if which == "forwarder" else _stable_module(which == "64")
    )


def _signature(type_: wasmtime.FuncType) -> str:
    return f"({', '.join(map(str, type_.params))}) -> ({', '.join(map(str, type_.results))})"


def _out_of_bounds(code: int) -> None:
    raise ActorTrap(OUT_OF_BOUNDS[code])


@dataclass(frozen=True)
class StableParts:
    """What the stable module holds for one actor instance."""

    memory: wasmtime.Memory  # the stable memory's bytes (maybe more than its size: see `pages`)
    dirty_map: wasmtime.Memory  # a mark per 4 KiB page of `memory` written
    pages: wasmtime.Global  # the stable memory's size, in 64 KiB pages (i64)


class StableFunctions:
    """The ``ic0.stable64_*`` functions of one actor instance (in ``store``): link each `function` as
    the actor's import, instantiate the actor, then `attach` its memory before it runs."""

    def __init__(self, engine: wasmtime.Engine, store: wasmtime.Store, calls: WasmCalls):
        self._engine, self._store, self._calls = engine, store, calls
        forwarder = wasmtime.Instance(store, _module(engine, "forwarder"), []).exports(store)
        self._functions: dict[str, wasmtime.Func] = {}
        for name in FUNCTION_TYPES:
            function = forwarder[name]
            assert isinstance(function, wasmtime.Func)
            self._functions[name] = function
        targets = forwarder["targets"]
        assert isinstance(targets, wasmtime.Table)
        self._targets = targets

    def function(self, name: str, imported_as: wasmtime.FuncType) -> wasmtime.Func:
        """The function to link as ``ic0.name`` (one of `FUNCTION_TYPES`), which the actor's module
        imports with type ``imported_as``: ValueError unless that is the IC's type."""
        if _signature(imported_as) != _signature(FUNCTION_TYPES[name]):
            raise ValueError(
                f"the module imports ic0.{name} as {_signature(imported_as)}, "
                f"not as the IC's {_signature(FUNCTION_TYPES[name])}"
            )
        return self._functions[name]

    def attach(
        self,
        memory: wasmtime.Memory,
        dirty_map: wasmtime.Memory,
        grow_cap: wasmtime.Global,
        memory64: bool,
        max_pages: int,
    ) -> StableParts:
        """Make the stable memory, of at most ``max_pages``, for the actor memory ``memory`` (its
        addresses 64-bit if ``memory64``) whose pages ``dirty_map`` marks and whose growth
        ``grow_cap`` caps."""
        store = self._store
        limit = wasmtime.Global(store, wasmtime.GlobalType(_I64, False), wasmtime.Val.i64(max_pages))
        trap = self._calls.func(wasmtime.FuncType([wasmtime.ValType.i32()], []), _out_of_bounds)
        stable = wasmtime.Instance(
            store, _module(self._engine, "64" if memory64 else "32"), [trap, memory, dirty_map, limit, grow_cap]
        ).exports(store)
        for index, name in enumerate(FUNCTION_TYPES):  # the forwarder's order
            self._targets.set(store, index, stable[name])
        bytes_, marks, pages = stable["stable"], stable["stable_dirty_pages"], stable["stable_pages"]
        assert isinstance(bytes_, wasmtime.Memory) and isinstance(marks, wasmtime.Memory)
        assert isinstance(pages, wasmtime.Global)
        return StableParts(bytes_, marks, pages)
