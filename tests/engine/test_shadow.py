"""The committed copy of a tracked memory, kept in wasm (`runtime/engine/shadow.py`), as TrackedMemory uses it:
what a commit lists, what a rollback puts back, and that neither touches the actor's fuel or is cut short
by the host stopping."""

import numpy as np
import pytest
import wasmtime

from moxzi_core.runtime.engine.instance import new_engine, new_store
from moxzi_core.runtime.engine.memory import PAGE, TrackedMemory


@pytest.fixture(params=[False, True], ids=["memory32", "memory64"])
def tracked(request):
    engine = new_engine()
    store = new_store(engine, 10**9)
    memory = wasmtime.Memory(store, wasmtime.MemoryType(wasmtime.Limits(2, None), is_64=request.param))
    dirty_map = wasmtime.Memory(store, wasmtime.MemoryType(wasmtime.Limits(1, None)))
    return engine, store, memory, TrackedMemory(memory, store, dirty_map)


def test_a_commit_lists_the_pages_that_changed_and_keeps_them(tracked):
    _, _, _, memory = tracked
    memory.write(3 * PAGE + 100, b"abc")
    memory.write(17 * PAGE, b"x" * (2 * PAGE))  # pages 17 and 18
    memory.write(30 * PAGE + 5, bytes(4))  # written back as it was (zero): no change
    assert memory.commit() == [3, 17, 18]
    assert memory.commit() == []  # the marks went with the commit
    assert memory.image(19)[3 * PAGE + 100 : 3 * PAGE + 103] == b"abc"
    assert memory.extent == 32 * PAGE  # a fresh memory's extent is all of it


def test_a_rollback_puts_back_the_committed_bytes_and_zeroes_growth(tracked):
    _, store, wasm_memory, memory = tracked
    memory.write(5 * PAGE, b"kept")
    memory.commit()
    memory.write(5 * PAGE, b"lost")
    wasm_memory.grow(store, 1)  # 16 pages more, past the extent
    memory.write(40 * PAGE, b"grown")
    memory.rollback()
    assert bytes(memory.read(5 * PAGE, 4)) == b"kept"
    assert bytes(memory.read(40 * PAGE, 5)) == bytes(5)
    assert memory.commit() == []


def test_growth_the_shadow_follows(tracked):
    _, store, wasm_memory, memory = tracked
    wasm_memory.grow(store, 3)
    memory.write(70 * PAGE, b"far")
    assert memory.extent_if_committed() == 71 * PAGE
    assert memory.commit() == [70]
    assert memory.extent == 71 * PAGE
    assert memory.image()[70 * PAGE : 70 * PAGE + 3] == b"far"


def test_neither_the_fuel_nor_a_stopping_host_changes_a_commit(tracked):
    engine, store, _, memory = tracked
    store.set_fuel(12345)
    memory.write(1, b"a")
    engine.increment_epoch()  # the host stopping: the actor's code would be interrupted now
    assert memory.commit() == [0]
    assert store.get_fuel() == 12345  # what the actor had left is as it was
    memory.write(PAGE, b"b")
    memory.rollback()
    assert store.get_fuel() == 12345


def test_the_globals_a_commit_keeps_a_rollback_puts_back():
    """Given globals, the committed copy keeps their values with each commit (an empty memory's too)
    and puts them back with each rollback, in the same call into wasm."""
    engine = new_engine()
    store = new_store(engine, 10**9)
    zeros = [wasmtime.Val.i32(0), wasmtime.Val.i64(0), wasmtime.Val.f32(0.0), wasmtime.Val.f64(0.0)]
    globals_ = [wasmtime.Global(store, wasmtime.GlobalType(zero.type, True), zero) for zero in zeros]
    for pages in (0, 1):  # (an empty memory commits without a call into wasm for its pages)
        memory = wasmtime.Memory(store, wasmtime.MemoryType(wasmtime.Limits(pages, None)))
        dirty_map = wasmtime.Memory(store, wasmtime.MemoryType(wasmtime.Limits(1, None)))
        tracked = TrackedMemory(memory, store, dirty_map, globals_=globals_)
        for g, value in zip(globals_, (-7, 2**40 + pages, 1.5, -2.25)):
            g.set_value(store, value)
        tracked.commit()
        assert tracked.committed_globals() == [-7, 2**40 + pages, 1.5, -2.25]
        for g, zero in zip(globals_, (0, 0, 0.0, 0.0)):
            g.set_value(store, zero)
        assert tracked.committed_globals() == [-7, 2**40 + pages, 1.5, -2.25]  # until the next commit
        tracked.rollback()
        assert [g.value(store) for g in globals_] == [-7, 2**40 + pages, 1.5, -2.25]


def test_random_pages_commit_as_numpy_compares_them(tracked):
    _, _, _, memory = tracked
    rng = np.random.default_rng(7)
    committed = bytearray(memory.image())
    for _ in range(20):
        for page in rng.choice(32, size=int(rng.integers(0, 12)), replace=False):
            data = bytes(rng.integers(0, 3, size=int(rng.integers(1, 64)), dtype=np.uint8))  # often unchanged
            at = int(page) * PAGE + int(rng.integers(0, PAGE - 64))
            memory.write(at, data)
        live = bytes(memory.read(0, 32 * PAGE))
        expected = [p for p in range(32) if live[p * PAGE : (p + 1) * PAGE] != committed[p * PAGE : (p + 1) * PAGE]]
        assert memory.commit() == expected
        committed = bytearray(live)
        assert memory.image() == live


def test_the_extent_a_commit_would_leave_is_past_the_last_page_marked_beyond_it(tracked):
    """Found 16 marks at a time where they lie whole in the memory, one at a time elsewhere."""
    _, store, wasm_memory, memory = tracked
    wasm_memory.grow(store, 7)  # 144 pages, the committed memory zero past its extent
    memory.write(37 * PAGE, b"\x01")
    memory.commit()
    assert memory.extent == 38 * PAGE  # (not at a group of 16 marks)
    rng = np.random.default_rng(11)
    for _ in range(30):
        marked = sorted(int(p) for p in rng.choice(144, size=int(rng.integers(0, 4)), replace=False))
        for page in marked:
            memory.write(page * PAGE + int(rng.integers(0, PAGE)), b"\x01")
        beyond = [page for page in marked if page >= memory.extent // PAGE]
        expected = (beyond[-1] + 1) * PAGE if beyond else memory.extent
        assert memory.extent_if_committed() == expected
        memory.rollback()  # (zeroes what was written past the extent: the extent stays)
    for page in (39, 47, 48, 63, 143):  # a group's first and last, the memory's last
        memory.write(page * PAGE, b"\x01")
        assert memory.extent_if_committed() == (page + 1) * PAGE


def test_a_commit_finds_pages_marked_anywhere_in_a_run_of_64_marks(tracked):
    """The scan skips 64 marks without any at once, else goes 16 at a time: a page at either end of a run of
    64, in the middle, and in the last marks (fewer than 64 left) is found."""
    _, store, wasm_memory, memory = tracked
    wasm_memory.grow(store, 9)  # 176 pages: two runs of 64, then 48 marks
    for pages in ([0], [63], [64], [100, 127], [128], [150, 175], [15, 16, 47, 48, 130, 160]):
        for page in pages:
            memory.write(page * PAGE + 9, b"\x07")
        assert memory.commit() == pages
        for page in pages:  # back as it was: a change again
            memory.write(page * PAGE + 9, b"\x00")
        assert memory.commit() == pages


def test_a_filled_memory_holds_only_what_was_written_and_a_replica_follows_it(tracked):
    """`fill` (a restore) zeroes only what the memory held before and writes the memory and its
    committed copy at once; its extent ends where the writing did, and a new replica copies up to it."""
    _, store, wasm_memory, memory = tracked
    memory.write(20 * PAGE, b"old")  # held before the fill, below and past what it writes
    memory.write(31 * PAGE, b"old")
    memory.commit()
    content = np.frombuffer(b"new!" * (PAGE // 4), dtype=np.uint8)

    def write(targets):
        for target in targets:
            target[3 * PAGE : 4 * PAGE] = content
        return 4 * PAGE

    memory.fill(48 * PAGE, write)  # grown by 16 pages
    expected = bytearray(48 * PAGE)
    expected[3 * PAGE : 4 * PAGE] = content.tobytes()
    assert memory.read(0, 48 * PAGE) == expected
    assert memory.image() == expected
    assert memory.extent == 4 * PAGE
    assert memory.commit() == []
    memory.write(40 * PAGE, b"lost")  # past the extent: a rollback zeroes it
    memory.rollback()
    assert memory.read(40 * PAGE, 4) == bytes(4)
    replica_memory = wasmtime.Memory(
        store, wasmtime.MemoryType(wasmtime.Limits(2, None), is_64=wasm_memory.type(store).is_64)
    )
    replica_map = wasmtime.Memory(store, wasmtime.MemoryType(wasmtime.Limits(1, None)))
    replica = TrackedMemory(replica_memory, store, replica_map, shadow=False)
    replica.write(5 * PAGE, b"its initial image")  # (a replica's module's data segments)
    replica._take_marks()
    replica.follow(memory, None)
    assert replica.read(0, 48 * PAGE) == expected
