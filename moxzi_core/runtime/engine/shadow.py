"""A tracked memory's committed copy, kept by a small wasm module of moxzid's own in the actor's store, so
that a commit and a rollback are each one call into wasm instead of a dozen numpy operations (six
changed pages of letters.mo's heap: 21 -> 6 µs; a letters.mo callback's two commits, on a busy machine:
92-133 -> 40-46 µs of CPU). What a commit would leave (`TrackedMemory.extent_if_committed`) numpy
finds sooner than a call into wasm could start.

Per tracked memory (an actor's main memory, its stable memory's bytes), one instance, given the memory
and its dirty-page map (`dirty`: a byte per 4 KiB page, nonzero = written since the last commit or
rollback). It holds:

- ``shadow``: a memory of the same address type holding the committed contents; it grows (zero) as the
  tracked memory does, so a page nobody committed is zero there, as in a fresh memory;
- ``changed``: a memory where ``commit`` lists, as i32s, the pages it found changed;
- ``globals``: the committed values of the globals it is given (the instance's mutable ones, for the
  main memory's copy: numeric, which Motoko's all are), 8 bytes each in their order, which ``commit``
  takes and ``rollback`` puts back in the same call into wasm (a letters.mo callback's 36 globals read
  one C call each: ~10 µs a commit);
- the exports below, ``commit`` and ``rollback`` each given the tracked memory's size in 4 KiB pages (the host's count: a store
  that trapped may have marked pages past it, which are unmarked, never copied) and its extent (the
  pages from which the committed memory is zero):

  ``commit(pages, extent) -> (count, extent)``: keep the globals' values; for each marked page (after
  a message that completed, only the memory's pages are), unmark it and, if it differs from the
  shadow, copy it there and list it; the extent grows past the last page listed. A count of -1: the
  shadow cannot grow (its memory is at the store's limit).

  ``rollback(pages, extent) -> beyond``: put the globals' kept values back; unmark every page, copying
  the shadow's back over those below the extent; 1 if a page at or past it was marked (the host
  zeroes those, with any growth).

  ``keep_globals()``: keep the globals' values (as ``commit`` does), without a commit.

The module runs in the actor's store, whose fuel counts the actor's instructions and whose epoch
interrupts the actor when the host stops: `Shadow.call` gives it fuel and lifts the epoch deadline
first, and puts both back after, so neither an actor that ran out of fuel nor a host stopping can cut
a commit short, and the actor's count of instructions stays its own.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence

import wasmtime

from .calls import WasmCalls
from .own import compiled

PAGE = 4096
# The globals a copy keeps, by wasm value type: the struct code of one kept in its 8 bytes
GLOBAL_TYPES = {"i32": "i4x", "i64": "q", "f32": "f4x", "f64": "d"}


def _text(memory64: bool, global_types: tuple[str, ...]) -> str:
    """The module's text for a tracked memory with 64-bit (else 32-bit) addresses, keeping globals of
    ``global_types``."""
    a = "i64" if memory64 else "i32"
    imports = "".join(f'(import "moxzi" "g{i}" (global $g{i} (mut {t})))' for i, t in enumerate(global_types))
    keep = "".join(f"({t}.store $globals (i32.const {8 * i}) (global.get $g{i}))" for i, t in enumerate(global_types))
    put_back = "".join(
        f"(global.set $g{i} ({t}.load $globals (i32.const {8 * i})))" for i, t in enumerate(global_types)
    )

    def address(i32: str) -> str:  # an i32 count (of bytes) as an address of the tracked memory
        return f"(i64.extend_i32_u {i32})" if memory64 else i32

    return f"""
(module
  (import "moxzi" "memory" (memory $live {a} 0))
  (import "moxzi" "map" (memory $map 0))
  {imports}
  (memory $shadow (export "shadow") {a} 0)
  (memory $changed (export "changed") 1)
  (memory $globals (export "globals") {-(-len(global_types) // 8192)})

  (func $keep_globals (export "keep_globals") {keep})

  ;; The address of 4 KiB page `page`.
  (func $at (param $page i32) (result {a}) {address("(i32.shl (local.get $page) (i32.const 12))")})

  ;; Grow the shadow to hold `pages` 4 KiB pages; 0 when it cannot.
  (func $cover (param $pages i32) (result i32) (local $want {a})
    (local.set $want {address("(i32.shr_u (i32.add (local.get $pages) (i32.const 15)) (i32.const 4))")})
    (if (result i32) ({a}.gt_u (local.get $want) (memory.size $shadow))
      (then ({a}.ne (memory.grow $shadow ({a}.sub (local.get $want) (memory.size $shadow))) ({a}.const -1)))
      (else (i32.const 1))))

  ;; Whether the live page differs from its shadow, 16 bytes at a time.
  (func $differs (param $page i32) (result i32) (local $p {a}) (local $end {a})
    (local.set $p (call $at (local.get $page)))
    (local.set $end ({a}.add (local.get $p) ({a}.const 4096)))
    (loop $next
      (if (v128.any_true (v128.xor (v128.load $live (local.get $p)) (v128.load $shadow (local.get $p))))
        (then (return (i32.const 1))))
      (local.set $p ({a}.add (local.get $p) ({a}.const 16)))
      (br_if $next ({a}.lt_u (local.get $p) (local.get $end))))
    (i32.const 0))

  (func $copy_in (param $page i32)
    (memory.copy $shadow $live (call $at (local.get $page)) (call $at (local.get $page)) ({a}.const 4096)))

  (func $copy_back (param $page i32)
    (memory.copy $live $shadow (call $at (local.get $page)) (call $at (local.get $page)) ({a}.const 4096)))

  (func (export "commit") (param $pages i32) (param $extent i32) (result i32 i32)
    (local $at i32) (local $end i32) (local $page i32) (local $last i32) (local $count i32)
    (call $keep_globals)
    (if (i32.eqz (call $cover (local.get $pages))) (then (return (i32.const -1) (local.get $extent))))
    ;; The marks of the memory's pages, 16 at a time (the map, whole 64 KiB pages, covers them); a
    ;; message that completed marked no page past them (only a trapped store can: `rollback`). 64
    ;; without a mark are skipped at once (gpt.mo's 65,536 marks: a commit's scan 10 -> ~3 µs).
    (local.set $end (i32.and (i32.add (local.get $pages) (i32.const 15)) (i32.const -16)))
    (block $done (loop $scan
      (br_if $done (i32.ge_u (local.get $at) (local.get $end)))
      (if (i32.le_u (i32.add (local.get $at) (i32.const 64)) (local.get $end)) (then
        (if (i32.eqz (v128.any_true (v128.or
              (v128.or (v128.load $map (local.get $at)) (v128.load $map offset=16 (local.get $at)))
              (v128.or (v128.load $map offset=32 (local.get $at)) (v128.load $map offset=48 (local.get $at))))))
          (then
            (local.set $at (i32.add (local.get $at) (i32.const 64)))
            (br $scan)))))
      (if (v128.any_true (v128.load $map (local.get $at))) (then
        (local.set $page (local.get $at))
        (local.set $last (i32.add (local.get $at) (i32.const 16)))
        (loop $each
          (if (i32.and (i32.load8_u $map (local.get $page)) (i32.lt_u (local.get $page) (local.get $pages))) (then
            (if (call $differs (local.get $page)) (then
              (call $copy_in (local.get $page))
              (if (i32.ge_u (i32.shl (local.get $count) (i32.const 2)) (i32.shl (memory.size $changed) (i32.const 16)))
                (then (drop (memory.grow $changed (i32.const 1)))))
              (i32.store $changed (i32.shl (local.get $count) (i32.const 2)) (local.get $page))
              (local.set $count (i32.add (local.get $count) (i32.const 1)))
              (if (i32.ge_u (local.get $page) (local.get $extent))
                (then (local.set $extent (i32.add (local.get $page) (i32.const 1)))))))))
          (local.set $page (i32.add (local.get $page) (i32.const 1)))
          (br_if $each (i32.lt_u (local.get $page) (local.get $last))))
        (v128.store $map (local.get $at) (v128.const i64x2 0 0))))
      (local.set $at (i32.add (local.get $at) (i32.const 16)))
      (br $scan)))
    (local.get $count) (local.get $extent))

  (func (export "rollback") (param $pages i32) (param $extent i32) (result i32)
    (local $word i32) (local $words i32) (local $page i32) (local $last i32) (local $beyond i32)
    {put_back}
    (local.set $words (i32.shl (memory.size $map) (i32.const 13)))
    (block $done (loop $scan
      (br_if $done (i32.ge_u (local.get $word) (local.get $words)))
      (if (i64.ne (i64.load $map (i32.shl (local.get $word) (i32.const 3))) (i64.const 0)) (then
        (local.set $page (i32.shl (local.get $word) (i32.const 3)))
        (local.set $last (i32.add (local.get $page) (i32.const 8)))
        (loop $each
          (if (i32.and (i32.load8_u $map (local.get $page)) (i32.lt_u (local.get $page) (local.get $pages))) (then
            (if (i32.lt_u (local.get $page) (local.get $extent))
              (then (call $copy_back (local.get $page)))
              (else (local.set $beyond (i32.const 1))))))
          (local.set $page (i32.add (local.get $page) (i32.const 1)))
          (br_if $each (i32.lt_u (local.get $page) (local.get $last))))
        (i64.store $map (i32.shl (local.get $word) (i32.const 3)) (i64.const 0))))
      (local.set $word (i32.add (local.get $word) (i32.const 1)))
      (br $scan)))
    (local.get $beyond)))
"""


def _module(engine: wasmtime.Engine, memory64: bool, global_types: tuple[str, ...]) -> wasmtime.Module:
    """The module for a tracked memory with 64-bit (else 32-bit) addresses keeping globals of
    ``global_types``, compiled once per engine (Motoko's actors share a few layouts)."""
    return compiled(engine, ("shadow", memory64, global_types), lambda: _text(memory64, global_types))


_FUEL = 1 << 62  # the module's loops are bounded by the memories' sizes; fuel only keeps wasmtime going
_NO_DEADLINE = 1 << 62


class Shadow:
    """The committed copy of ``memory`` (whose pages ``dirty_map`` marks), and of ``globals_`` (mutable,
    each of a type in GLOBAL_TYPES), in ``store``."""

    def __init__(
        self,
        store: wasmtime.Store,
        memory: wasmtime.Memory,
        dirty_map: wasmtime.Memory,
        memory64: bool,
        globals_: Sequence[wasmtime.Global] = (),
    ):
        global_types = tuple(str(g.type(store).content) for g in globals_)
        module = _module(store.engine, memory64, global_types)
        exports = wasmtime.Instance(store, module, [memory, dirty_map, *globals_]).exports(store)
        shadow, changed, kept = exports["shadow"], exports["changed"], exports["globals"]
        assert isinstance(shadow, wasmtime.Memory) and isinstance(changed, wasmtime.Memory)
        assert isinstance(kept, wasmtime.Memory)
        self.memory, self.changed, self.globals = shadow, changed, kept
        # (the globals' kept values, as `globals` holds them)
        self.globals_layout = struct.Struct("<" + "".join(GLOBAL_TYPES[t] for t in global_types))
        self._functions: dict[str, wasmtime.Func] = {}
        for name in ("commit", "rollback", "keep_globals"):
            function = exports[name]
            assert isinstance(function, wasmtime.Func)
            self._functions[name] = function
        self._calls = WasmCalls(store)

    def call(self, name: str, *args: int) -> tuple[int, int]:
        """``name(*args)``'s results (0 for each it does not have): ``name(pages, extent)``, or
        ``keep_globals()``. The store's fuel is
        as it was (the actor's count of instructions stays its own) and its epoch deadline one tick
        on, as `Instance.invoke` sets it."""
        calls = self._calls
        fuel = calls.fuel()
        calls.set_fuel(_FUEL)
        calls.set_epoch_deadline(_NO_DEADLINE)
        try:
            results = calls.call(self._functions[name], *args)
        finally:
            calls.set_fuel(fuel)
            calls.set_epoch_deadline(1)
        results += [0, 0]
        return int(results[0]), int(results[1])
