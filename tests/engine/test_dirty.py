"""Write tracking: every write to memory 0 marks its pages, and `TrackedMemory` commits and rolls back
exactly the marked pages. The reference is a brute-force diff of the whole memory."""

import random

import numpy as np
import pytest
import wasmtime
from kit.host import spec, update

from moxzi_core.candid import NAT
from moxzi_core.runtime.engine.instance import new_engine, new_store
from moxzi_core.runtime.engine.memory import PAGE, TrackedMemory
from moxzi_core.runtime.engine.rewrite import DIRTY_PAGES_EXPORT, prepare
from moxzi_core.runtime.host import Host

MODES = pytest.mark.parametrize("memory64", [False, True], ids=["32-bit", "memory64"])

# (store instruction, value type, bytes written)
STORES = [
    ("i32.store", "i32", 4),
    ("i64.store", "i64", 8),
    ("f32.store", "f32", 4),
    ("f64.store", "f64", 8),
    ("i32.store8", "i32", 1),
    ("i32.store16", "i32", 2),
    ("i64.store8", "i64", 1),
    ("i64.store16", "i64", 2),
    ("i64.store32", "i64", 4),
]
# A value of each type whose every byte is nonzero (memory starts zeroed: every byte written changes).
NONZERO = {
    "i32": "(i32.const -1)",
    "i64": "(i64.const -1)",
    "f32": "(f32.const nan:0x7fffff)",
    "f64": "(f64.const nan:0xfffffffffffff)",
}


class Module:
    """A WAT module (memory 0 of 4 wasm pages, exported as "memory"), prepared and instantiated."""

    def __init__(self, functions: str, memory64: bool):
        a = "i64" if memory64 else "i32"
        wat = (
            f'(module (memory (export "memory") {a} 4) (data $seg "0123456789abcdef")\n'
            + functions.replace("$A", a)
            + ")"
        )
        engine = new_engine()
        self.store = new_store(engine, 10**9)
        module = wasmtime.Module(engine, prepare(wasmtime.wat2wasm(wat)).wasm)
        self.exports = wasmtime.Instance(self.store, module, []).exports(self.store)
        self.memory = TrackedMemory(self.exports["memory"], self.store, self.exports[DIRTY_PAGES_EXPORT])

    def bytes(self) -> bytes:
        return bytes(self.memory.read(0, self.memory.size))

    def run(self, name: str, *args) -> tuple[set[int], set[int]]:
        """Call an export and commit; return (pages reported, pages whose bytes changed or are new)."""
        before = self.bytes()
        self.exports[name](self.store, *args)
        return set(self.memory.commit()), changed_pages(before, self.bytes())


def changed_pages(before: bytes, after: bytes) -> set[int]:
    old = np.frombuffer(before, dtype=np.uint8).reshape(-1, PAGE)
    new = np.frombuffer(after, dtype=np.uint8).reshape(-1, PAGE)
    differs = set(np.flatnonzero((new[: len(old)] != old).any(axis=1)).tolist())
    written = set((len(old) + np.flatnonzero(new[len(old) :].any(axis=1))).tolist())  # grown pages start zero
    return differs | written


@MODES
@pytest.mark.parametrize("store, type_, width", STORES, ids=[s[0] for s in STORES])
def test_every_store_marks_the_pages_it_writes(memory64, store, type_, width):
    module = Module(f'(func (export "f") (param $a $A) ({store} offset=16 (local.get $a) {NONZERO[type_]}))', memory64)
    # Within one page, ending exactly at a page's last byte, and spanning a boundary (if wider than 1).
    for address in (100, 3 * PAGE - 16 - width, 5 * PAGE - 16 - 1):
        reported, changed = module.run("f", address)
        first, last = (address + 16) // PAGE, (address + 16 + width - 1) // PAGE
        assert reported == changed == set(range(first, last + 1)), address


@MODES
def test_a_large_offset_is_added_to_the_address(memory64):
    module = Module(
        '(func (export "f") (param $a $A) (i64.store offset=200000 (local.get $a) (i64.const -1)))', memory64
    )
    reported, changed = module.run("f", 4096 - 200000 % 4096 - 3)
    assert reported == changed == {200000 // PAGE, 200000 // PAGE + 1}


@MODES
def test_fill_copy_and_init_mark_their_destination(memory64):
    module = Module(
        """
      (func (export "fill") (param $d $A) (param $n $A) (memory.fill (local.get $d) (i32.const 7) (local.get $n)))
      (func (export "copy") (param $d $A) (param $s $A) (param $n $A)
        (memory.copy (local.get $d) (local.get $s) (local.get $n)))
      (func (export "init") (param $d $A) (param $n i32)
        (memory.init $seg (local.get $d) (i32.const 0) (local.get $n)))
    """,
        memory64,
    )
    assert module.run("fill", PAGE - 1, 2 * PAGE + 2) == ({0, 1, 2, 3}, {0, 1, 2, 3})
    assert module.run("fill", 5 * PAGE, 0) == (set(), set())
    assert module.run("copy", 10 * PAGE - 5, PAGE, 10) == ({9, 10}, {9, 10})  # copies sevens
    assert module.run("copy", 20 * PAGE, 0, 0) == (set(), set())
    assert module.run("init", 30 * PAGE + 4090, 16) == ({30, 31}, {30, 31})
    assert module.run("init", 40 * PAGE, 0) == (set(), set())


@pytest.mark.slow
@MODES
def test_grown_pages_are_zero_until_written_and_the_map_grows_with_the_memory(memory64):
    module = Module(
        """
      (func (export "grow") (param $n $A) (result $A) (memory.grow (local.get $n)))
      (func (export "poke") (param $a $A) (i32.store8 (local.get $a) (i32.const 1)))
    """,
        memory64,
    )
    reported, _ = module.run("grow", 5000)  # 5004 wasm pages: more than one page of map covers
    assert reported == set() and module.memory.size == 5004 * 16 * PAGE  # zero, as an absent page is
    assert module.memory.image() == module.bytes()
    last = module.memory.size - 1
    assert module.run("poke", last) == ({last // PAGE}, {last // PAGE})
    # A refused growth (beyond 4 GiB for 32-bit, or the store's limit) changes nothing.
    assert module.exports["grow"](module.store, 70000 if not memory64 else 1 << 40) in (-1, 2**64 - 1)
    assert module.memory.commit() == []


@MODES
def test_rollback_puts_back_what_a_trapped_call_wrote(memory64):
    module = Module(
        """
      (func (export "write_then_trap") (param $a $A)
        (i64.store (local.get $a) (i64.const -1))
        (memory.fill ($A.const 0) (i32.const 9) ($A.const 5000))
        (drop (memory.grow ($A.const 1)))
        unreachable)
    """,
        memory64,
    )
    committed = module.bytes()
    with pytest.raises(wasmtime.Trap):
        module.exports["write_then_trap"](module.store, 3 * PAGE - 4)
    module.memory.rollback()
    assert module.bytes()[: len(committed)] == committed
    assert not any(module.bytes()[len(committed) :])  # the grown page stays, zeroed
    assert module.memory.image() == committed


@MODES
def test_an_out_of_bounds_store_traps_as_before(memory64):
    module = Module('(func (export "f") (param $a $A) (i32.store (local.get $a) (i32.const 1)))', memory64)
    for address in (4 * 65536 - 3, 2**32 - 1):
        with pytest.raises(wasmtime.Trap, match="out of bounds"):
            module.exports["f"](module.store, address)
        module.memory.rollback()
    assert module.memory.commit() == []


def test_host_writes_are_marked():
    module = Module('(func (export "f"))', memory64=True)
    module.memory.write(PAGE - 2, b"abcd")
    module.memory.write(9 * PAGE, b"")
    assert module.memory.commit() == [0, 1]
    assert module.memory.runs([1], 1) == [b"cd" + bytes(PAGE - 2)]


@MODES
def test_random_writes_are_never_missed(memory64):
    """Property: for random sequences of writes, the reported pages include every changed page."""
    rng = random.Random(1234)
    size = 4 * 65536
    for round_ in range(40):
        body = []
        for _ in range(rng.randint(1, 30)):
            kind = rng.random()
            if kind < 0.8:
                store, type_, width = rng.choice(STORES)
                offset = rng.choice([0, rng.randrange(64), rng.randrange(size // 2)])
                address = rng.randrange(size - offset - width + 1)
                value = rng.choice(["0", "1", "-1", str(rng.randrange(1 << 30))])
                body.append(f"({store} offset={offset} ($A.const {address}) ({type_}.const {value}))")
            elif kind < 0.9:
                length = rng.randrange(3 * PAGE)
                start = rng.randrange(size - length + 1)
                body.append(f"(memory.fill ($A.const {start}) (i32.const {rng.randrange(256)}) ($A.const {length}))")
            else:
                length = rng.randrange(3 * PAGE)
                source, destination = rng.randrange(size - length + 1), rng.randrange(size - length + 1)
                body.append(f"(memory.copy ($A.const {destination}) ($A.const {source}) ($A.const {length}))")
        module = Module(f'(func (export "f") {" ".join(body)})', memory64)
        for _ in range(2):  # the second run rewrites the same bytes: a superset, nothing changed
            reported, changed = module.run("f")
            assert changed <= reported, (round_, body)


@MODES
def test_a_replica_follows_commits_and_undoes_its_own_writes(memory64):
    """A query replica's memory (no shadow) holds the source's committed bytes after each `follow`:
    through commits, rollbacks, growth on either side and writes of its own."""
    functions = """
      (func (export "poke") (param $a $A) (param $v i32) (i32.store8 (local.get $a) (local.get $v)))
      (func (export "grow") (param $n $A) (result $A) (memory.grow (local.get $n)))
    """
    source, replica = Module(functions, memory64), Module(functions, memory64)
    replica.memory = TrackedMemory(
        replica.exports["memory"], replica.store, replica.exports[DIRTY_PAGES_EXPORT], shadow=False
    )
    replica.memory.follow(source.memory, None)
    rng = random.Random(7)
    pending: set[int] = set()
    for round_ in range(60):
        kind = rng.random()
        if kind < 0.1:
            source.exports["grow"](source.store, 1)
        elif kind < 0.2:
            replica.exports["grow"](replica.store, 2)  # a query grows memory, and writes there
            replica.exports["poke"](replica.store, replica.memory.size - 1, 7)
        for module in (source, replica):
            for _ in range(rng.randint(0, 5)):
                module.exports["poke"](module.store, rng.randrange(module.memory.size), rng.randrange(1, 256))
        if rng.random() < 0.7:
            pending.update(source.memory.commit())
        else:
            source.memory.rollback()
        if rng.random() < 0.5:
            replica.memory.follow(source.memory, np.array(sorted(pending), dtype=np.int64))
            pending.clear()
            image = source.memory.image()
            assert replica.bytes()[: len(image)] == image, round_
            assert not any(replica.bytes()[len(image) :]), round_


def test_unsupported_instructions_are_refused():
    simd = wasmtime.wat2wasm("(module (memory 1) (func (v128.store (i32.const 0) (v128.const i64x2 0 0))))")
    with pytest.raises(ValueError, match="unsupported instruction at byte .*opcode 0xfd"):
        prepare(simd)
    two_memories = wasmtime.wat2wasm("(module (memory 1) (memory 1))")
    with pytest.raises(ValueError, match="2 memories"):
        prepare(two_memories)


EVERY_KIND_OF_INSTRUCTION = """
(module
  (type $pair (func (param i32) (result i32 i32)))
  (type $unary (func (param i32) (result i32)))
  (memory (export "memory") 1)
  (table $t 2 funcref) (elem (table $t) (i32.const 0) func $double $double)
  (global $g (mut i64) (i64.const -5))
  (data $d "xyz")
  (func $double (type $unary) (i32.mul (local.get 0) (i32.const 2)))
  (func (export "f") (param $x i32) (result i32) (local $f f64) (local $r funcref)
    (local.set $f (f64.const 2.5))
    (block $a (block $b (br_table $a $b $a (i32.and (local.get $x) (i32.const 1)))))
    (i32.store16 offset=3 (i32.const 4094) (i32.extend8_s (local.get $x)))
    (local.set $r (ref.func $double))
    (drop (ref.is_null (local.get $r)))
    (table.set $t (i32.const 1) (local.get $r))
    (drop (table.size $t))
    (global.set $g (i64.extend32_s (i64.const 0x80000000)))
    (f32.store (i32.const 100) (f32.const 1.5))
    (memory.init $d (i32.const 200) (i32.const 0) (i32.const 3))
    (data.drop $d)
    (i32.trunc_sat_f64_s (f64.mul (local.get $f) (f64.const 1e300)))
    (call_indirect $t (type $unary) (i32.const 7) (i32.const 0))
    i32.add
    (block (type $pair) (i32.const 1))
    i32.add
    (select (result i32) (i32.const 9) (local.get $x))
    (if (result i32) (local.get $x) (then (i32.const 1)) (else (return_call $double (local.get $x))))
    i32.add))
"""


def test_the_decoder_knows_every_instruction_family_and_keeps_behaviour():
    wasm = wasmtime.wat2wasm(EVERY_KIND_OF_INSTRUCTION)
    results = []
    for candidate in (wasm, prepare(wasm).wasm):
        engine = new_engine()
        store = new_store(engine, 10**6)
        exports = wasmtime.Instance(store, wasmtime.Module(engine, candidate), []).exports(store)
        results.append((exports["f"](store, 3), bytes(exports["memory"].read(store, 0, 8192))))
    assert results[0] == results[1]


def test_an_imported_memory_gets_a_map_too():
    wasm = wasmtime.wat2wasm(
        '(module (import "env" "mem" (memory 2)) (func (export "f") (i32.store (i32.const 70000) (i32.const 1))))'
    )
    engine = new_engine()
    store = new_store(engine, 10**6)
    memory = wasmtime.Memory(store, wasmtime.MemoryType(wasmtime.Limits(2, None)))
    exports = wasmtime.Instance(store, wasmtime.Module(engine, prepare(wasm).wasm), [memory]).exports(store)
    tracked = TrackedMemory(memory, store, exports[DIRTY_PAGES_EXPORT])
    exports["f"](store)
    assert tracked.commit() == [70000 // PAGE]


def test_functions_without_writes_are_copied_unchanged():
    wasm = wasmtime.wat2wasm('(module (memory 1) (func (export "f") (result i32) (i32.load (i32.const 8))))')
    prepared = prepare(wasm)
    body = b"\x00\x41\x08\x28\x02\x00\x0b"  # no locals; i32.const 8; i32.load; end
    assert body in wasm and body in prepared.wasm
    assert len(prepared.wasm) - len(wasm) < 64  # exports and the map's memory entry only


@pytest.mark.parametrize("classic", [False, True], ids=["enhanced", "classic"])
async def test_a_motoko_actor_never_changes_a_page_it_does_not_report(monkeypatch, classic):
    commits: list[tuple[set[int], set[int]]] = []
    original = TrackedMemory.commit

    def checked_commit(self: TrackedMemory) -> list[int]:
        before = self.image()
        after = bytes(self.read(0, self.size))
        reported = original(self)
        commits.append((set(reported), changed_pages(before, after)))
        return reported

    monkeypatch.setattr(TrackedMemory, "commit", checked_commit)
    host = Host([spec("a", "heap", classic=classic)])
    await host.start()
    try:
        word = 4 if classic else 8
        assert await update(host, "a", "fill", [NAT, NAT], [1, word]) == [(1 << 20) // word]
        for expected in (1, 2, 3):
            assert await update(host, "a", "touch") == [expected]
        assert await update(host, "a", "churn", [NAT], [20000]) == [19999]
    finally:
        await host.stop()
    assert len(commits) >= 6
    for reported, changed in commits:
        assert changed <= reported
