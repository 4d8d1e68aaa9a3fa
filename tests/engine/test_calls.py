"""Calls into wasm and out to host functions through wasmtime's unchecked C API (`engine.calls`): the
values each way, what a host function raises, traps, a table's functions, and the callbacks' lifetime."""

import gc

import pytest
import wasmtime

from moxzi_core.runtime.engine import calls as wasm_calls
from moxzi_core.runtime.engine.calls import WasmCalls

WAT = """(module
  (import "m" "pass" (func $pass (param i32 i64 f32 f64) (result i32)))
  (import "m" "wide" (func $wide (result i64)))
  (import "m" "fail" (func $fail))
  (global $out (export "out") (mut i64) (i64.const 0))
  (table (export "table") 3 funcref)
  (elem (i32.const 0) $keep $nothing)
  (func $keep (param $env i32) (global.set $out (i64.extend_i32_s (local.get $env))))
  (func $nothing)
  (func (export "relay") (param $x i32)
    (global.set $out (i64.extend_i32_s
      (call $pass (local.get $x) (i64.const -9223372036854775808) (f32.const 1.5) (f64.const -0.25)))))
  (func (export "wide") (global.set $out (call $wide)))
  (func (export "fail") (call $fail))
  (func (export "spin") (loop (br 0)))
  (func (export "unreachable") unreachable))"""


class Module:
    def __init__(self, functions: dict):
        config = wasmtime.Config()
        config.consume_fuel = True
        engine = wasmtime.Engine(config)
        self.store = wasmtime.Store(engine)
        self.calls = WasmCalls(self.store)
        self.calls.set_fuel(10**6)
        module = wasmtime.Module(engine, WAT)
        linker = wasmtime.Linker(engine)
        for imp in module.imports:
            assert imp.name is not None and isinstance(imp.type, wasmtime.FuncType)
            self.calls.define(linker, imp.module, imp.name, imp.type, functions[imp.name])
        self.exports = linker.instantiate(self.store, module).exports(self.store)

    def call(self, name: str, *args: int) -> None:
        func = self.exports[name]
        assert isinstance(func, wasmtime.Func)
        self.calls.call(func, *args)

    @property
    def out(self) -> int:
        out = self.exports["out"]
        assert isinstance(out, wasmtime.Global)
        return out.value(self.store)

    @property
    def table(self) -> wasmtime.Table:
        table = self.exports["table"]
        assert isinstance(table, wasmtime.Table)
        return table


def test_values_pass_each_way_as_wasm_types_hold_them():
    seen = []
    results = iter([2**32 + 7, -1])

    def relay(*args):
        seen.append(args)
        return next(results)

    module = Module({"pass": relay, "wide": lambda: 2**63 - 1, "fail": lambda: None})
    module.call("relay", -5)
    assert seen == [(-5, -(2**63), 1.5, -0.25)] and module.out == 7  # an i32 result wraps, as in wasm
    module.call("relay", 2**31 - 1)
    assert seen[1][0] == 2**31 - 1 and module.out == -1
    module.call("wide")
    assert module.out == 2**63 - 1


def test_what_a_host_function_raises_is_raised_from_the_call_and_nothing_of_it_stays():
    failures = [ValueError("first"), None]

    def fail():
        error = failures.pop(0)
        if error is not None:
            raise error

    module = Module({"pass": lambda *_: 0, "wide": lambda: 0, "fail": fail})
    with pytest.raises(ValueError, match="first"):
        module.call("fail")
    module.call("fail")  # the next call runs as if nothing had happened
    with pytest.raises(TypeError):  # a result that is no int, as wasmtime-py's Val refuses it
        Module({"pass": lambda *_: None, "wide": lambda: 0, "fail": fail}).call("relay", 1)
    with pytest.raises(wasmtime.WasmtimeError, match="callback produced results"):
        Module({"pass": lambda *_: 0, "wide": lambda: 0, "fail": lambda: 3}).call("fail")


def test_traps_and_the_fuel_they_leave():
    module = Module({"pass": lambda *_: 0, "wide": lambda: 0, "fail": lambda: None})
    with pytest.raises(wasmtime.Trap) as trapped:
        module.call("unreachable")
    assert trapped.value.trap_code == wasmtime.TrapCode.UNREACHABLE and "unreachable" in trapped.value.message
    module.calls.set_fuel(1000)
    with pytest.raises(wasmtime.Trap) as trapped:
        module.call("spin")
    assert trapped.value.trap_code == wasmtime.TrapCode.OUT_OF_FUEL and module.calls.fuel() == 0
    with pytest.raises(wasmtime.WasmtimeError, match="too few parameters provided: given 0, expected 1"):
        module.call("relay")


def test_a_table_function_is_called_where_there_is_one():
    module = Module({"pass": lambda *_: 0, "wide": lambda: 0, "fail": lambda: None})
    assert module.calls.call_element(module.table, 0, -3) and module.out == -3
    assert not module.calls.call_element(module.table, 2, 1)  # a null reference
    assert not module.calls.call_element(module.table, 3, 1) and not module.calls.call_element(module.table, -1, 1)
    with pytest.raises(wasmtime.WasmtimeError, match="too many parameters provided: given 1, expected 0"):
        module.calls.call_element(module.table, 1, 1)
    assert module.calls.call_element(module.table, 0, 9) and module.out == 9  # as checked the first time


def test_host_functions_live_as_long_as_their_store():
    gc.collect()
    before = len(wasm_calls._LIVE)
    module = Module({"pass": lambda *_: 0, "wide": lambda: 0, "fail": lambda: None})
    module.calls.func(wasmtime.FuncType([], []), lambda: None)
    assert len(wasm_calls._LIVE) == before + 4
    del module
    gc.collect()
    assert len(wasm_calls._LIVE) == before
