"""An instance's globals read and written in one go (moxzi_core/runtime/engine/globals.py): every
numeric kind keeps its value, in order, beside a global of another kind (wasmtime-py's way)."""

import math

import wasmtime

from moxzi_core.runtime.engine.globals import Globals

KINDS = ("i32", "i64", "f32", "f64")


def test_globals_of_every_kind_read_and_write_back_as_wasmtime_sees_them():
    wat = (
        "(module "
        + " ".join(f'(global (export "g{i}") (mut {k}) ({k}.const {i + 1}))' for i, k in enumerate(KINDS * 3))
        + ' (global (export "ref") (mut externref) (ref.null extern)))'
    )
    engine = wasmtime.Engine()
    store = wasmtime.Store(engine)
    exports = wasmtime.Instance(store, wasmtime.Module(engine, wat), []).exports(store)
    numeric = [exports[f"g{i}"] for i in range(len(KINDS) * 3)]
    both = Globals(store, numeric[:6] + [exports["ref"]] + numeric[6:])
    assert [v for i, v in enumerate(both.read()) if i != 6] == [1, 2, 3.0, 4.0, 5, 6, 7.0, 8.0, 9, 10, 11.0, 12.0]

    values = [-(2**31), -(2**63), 0.1, math.pi, 2**31 - 1, 2**63 - 1, None, -1.5, -0.0, 0, 1, float("inf"), 1e300]
    both.write(values)
    f32 = wasmtime.Global(store, wasmtime.GlobalType(wasmtime.ValType.f32(), True), wasmtime.Val.f32(0.1))
    expected = values[:6] + values[7:]
    expected[2] = f32.value(store)  # 0.1 rounded to float32 as wasmtime rounds it
    assert [g.value(store) for g in numeric] == expected
    read = both.read()
    assert read[:6] + read[7:] == expected
    assert math.copysign(1.0, read[8]) == -1.0  # -0.0 stays negative
