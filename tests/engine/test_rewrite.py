import re

import pytest
import wasmtime

from moxzi_core.runtime.engine.rewrite import (
    DIRTY_PAGES_EXPORT,
    EMPTY_MEMORY_EXPORT,
    GLOBAL_EXPORT_PREFIX,
    GROW_CAP_EXPORT,
    START_EXPORT,
    prepare,
)


def engine() -> wasmtime.Engine:
    config = wasmtime.Config()
    config.wasm_memory64 = True
    return wasmtime.Engine(config)


def instantiate_without_host(store: wasmtime.Store, module: wasmtime.Module) -> wasmtime.Instance:
    """Instantiate with every import a function that fails if called (the start function must not)."""
    linker = wasmtime.Linker(store.engine)
    for item in module.imports:

        def not_available(*args, name=item.name):
            raise AssertionError(f"ic0.{name} called while instantiating")

        linker.define_func(item.module, item.name, item.type, not_available)
    return linker.instantiate(store, module)


@pytest.mark.parametrize("classic", [False, True], ids=["enhanced", "classic"])
def test_motoko_actor_exposes_its_globals_and_start(actor_build, classic):
    original = actor_build("counter", classic=classic).wasm
    prepared = prepare(original)

    assert prepared.memory64 is not classic
    assert prepared.persistence == ("classic" if classic else "enhanced")
    assert prepared.has_start
    assert prepared.global_exports, "Motoko modules define globals"
    assert b"inc: () -> (nat)" in prepared.custom_sections["icp:public candid:service"]
    assert b"count" in prepared.custom_sections["icp:private motoko:stable-types"]

    store = wasmtime.Store(engine())
    module = wasmtime.Module(store.engine, prepared.wasm)
    kept = {item.name for item in wasmtime.Module(store.engine, original).exports}
    assert kept <= {item.name for item in module.exports}

    exports = instantiate_without_host(store, module).exports(store)
    values = {name: exports[name].value(store) for name in prepared.global_exports}
    assert all(isinstance(value, int) for value in values.values())
    mutable = next(name for name in prepared.global_exports if exports[name].type(store).mutable)
    exports[mutable].set_value(store, 12345)
    assert exports[mutable].value(store) == 12345

    start = exports[START_EXPORT]
    assert isinstance(start, wasmtime.Func)
    assert (start.type(store).params, start.type(store).results) == ([], [])


START_SETS_GLOBAL = """
(module
  (import "env" "seed" (global i32))
  (global $flag (mut i32) (i32.const 1))
  (func $start (global.set $flag (i32.const 42)))
  (start $start))
"""


def test_start_function_runs_only_when_called():
    prepared = prepare(wasmtime.wat2wasm(START_SETS_GLOBAL))
    # Index 0 is the imported global: only defined globals are exported, by their index.
    assert prepared.global_exports == (f"{GLOBAL_EXPORT_PREFIX}1",)
    assert prepared.has_start and not prepared.memory64

    store = wasmtime.Store(engine())
    seed = wasmtime.Global(store, wasmtime.GlobalType(wasmtime.ValType.i32(), False), 7)
    exports = wasmtime.Instance(store, wasmtime.Module(store.engine, prepared.wasm), [seed]).exports(store)
    flag = exports[f"{GLOBAL_EXPORT_PREFIX}1"]
    assert flag.value(store) == 1
    exports[START_EXPORT](store)
    assert flag.value(store) == 42


def test_module_without_memory_is_given_an_empty_one():
    # the IC installs a module without memory (Motoko's tests install "\0asm\1\0\0\0"); the host gives
    # it a memory of no pages, which the module cannot grow, as every actor needs one to pass data
    prepared = prepare(wasmtime.wat2wasm('(module (func (export "f")))'))
    assert not prepared.has_start and prepared.global_exports == () and not prepared.memory64
    store = wasmtime.Store(engine())
    exports = wasmtime.Instance(store, wasmtime.Module(store.engine, prepared.wasm), []).exports(store)
    assert sorted(exports) == sorted(["f", EMPTY_MEMORY_EXPORT, DIRTY_PAGES_EXPORT, GROW_CAP_EXPORT])
    memory = exports[EMPTY_MEMORY_EXPORT]
    assert memory.size(store) == 0
    with pytest.raises(wasmtime.WasmtimeError):
        memory.grow(store, 1)
    assert prepare(b"\0asm\x01\0\0\0").wasm != b"\0asm\x01\0\0\0"  # the empty module, too


HEADER = b"\0asm\x01\0\0\0"


@pytest.mark.parametrize(
    "wasm, complaint",
    [
        (b"\0asn\x01\0\0\0", "bad magic"),
        (b"\0asm\x02\0\0\0", "unsupported wasm version"),
        (HEADER + b"\x01\x05\x01", "truncated"),
        (HEADER + b"\x01\x80\x80\x80\x80\x80\x01", "LEB128 longer than 32 bits"),
        (HEADER + b"\x01\x80\x80\x80\x80\x10", "does not fit in 32 bits"),
        (HEADER + b"\x08\x02\x00\x00", "trailing byte(s) in start section"),
        (HEADER + b"\x06\x05\xff\xff\xff\xff\x0f", "globals cannot fit"),
        (HEADER + b"\x07\x01\x00\x06\x01\x00", "out of order"),
        (HEADER + b"\x0e\x00", "unknown section id 14"),
        (HEADER + b"\x00\x03\x02\xc3\x28", "not valid UTF-8"),
    ],
)
def test_malformed_modules_are_refused(wasm, complaint):
    with pytest.raises(ValueError, match=re.escape(complaint)):
        prepare(wasm)


def test_reserved_export_name_is_refused():
    wasm = wasmtime.wat2wasm(f'(module (func (export "{START_EXPORT}")) (start 0))')
    with pytest.raises(ValueError, match="reserved for the host"):
        prepare(wasm)


def test_truncated_real_module_fails_cleanly(actor_build):
    wasm = actor_build("counter").wasm
    with pytest.raises(ValueError, match="truncated"):
        prepare(wasm[:-1])
    # Wherever the cut falls, the only failure is a ValueError (a cut between sections is valid).
    for size in range(len(HEADER), len(wasm), 1009):
        try:
            prepare(wasm[:size])
        except ValueError:
            pass


@pytest.mark.parametrize("address", ["i32", "i64"])
def test_memory_grows_to_the_budget_at_most(address):
    def grown(limits: str, budget: int | None) -> list[int]:
        """What four memory.grow(1) answer, the module's memory declared ``limits``."""
        wat = f"""(module (memory {address} {limits})
          (func (export "grow") (result {address}) (memory.grow ({address}.const 1))))"""
        config = wasmtime.Config()
        config.wasm_memory64 = True
        config.wasm_multi_memory = True  # the dirty-page map
        store = wasmtime.Store(wasmtime.Engine(config))
        module = wasmtime.Module(store.engine, prepare(wasmtime.wat2wasm(wat), budget).wasm)
        grow = wasmtime.Instance(store, module, []).exports(store)["grow"]
        return [grow(store) for _ in range(4)]

    assert grown("1", 3) == [1, 2, -1, -1]
    assert grown("1 2", 3) == [1, -1, -1, -1]  # the module's own maximum, when lower, stays
    assert grown("1", None) == [1, 2, 3, 4]
    with pytest.raises(ValueError, match="starts at 5 pages of 64 KiB, over the 4 allowed"):
        grown("5", 4)
