"""An actor's memories in the store: 64 KiB chunks, compressed, none for a chunk that holds the module's
initial image or zeros, a few pages written since as patches of their own; a damaged chunk found; a
store of layout 4 (a value per 4 KiB page) converted, one of layout 5 (patches inline) read as it is."""

import cbor2
import numpy as np
import pytest
import zstandard
from kit.host import query, spec, update

from moxzi_core.runtime.engine import memory_image
from moxzi_core.runtime.engine.memory import PAGE
from moxzi_core.runtime.host import Host
from moxzi_core.runtime.journal import Delta, Journal, repack_memories
from moxzi_core.store import Batch, MemoryStore, StoreError

CHUNK = memory_image.CHUNK
STATE = {"memory_size": 8 * CHUNK, "stable_size": 2 * CHUNK}


def heap_like(chunks: int, seed: int = 0) -> bytes:
    """Bytes that compress as a heap does: small numbers among random ones."""
    rng = np.random.default_rng(seed)
    words = rng.integers(0, 1 << 16, chunks * CHUNK // 8, dtype=np.uint64)
    words[::3] = rng.integers(0, 1 << 63, len(words[::3]), dtype=np.uint64)
    return words.tobytes()


def stored_memory(store: MemoryStore) -> dict[bytes, bytes]:
    """Actor a's memory values, by name."""
    prefix = b"actor/a/memory/"
    return {key[len(prefix) :]: value for key, value in store.scan(prefix)}


def chunk(number: int) -> bytes:
    return memory_image.chunk_name(number)


def patch(number: int, page: int) -> bytes:
    return memory_image.patch_name(number, page)


def snapshot(store: MemoryStore, delta: Delta) -> None:
    batch = Batch()
    Journal.put_delta(batch, "a", delta)
    store.commit(batch)


def runs_of(memory: bytearray):
    """``TrackedMemory.runs`` over ``memory``: views, as it gives."""
    return lambda numbers, pages: [
        memoryview(bytes(memory))[n * pages * PAGE : (n + 1) * pages * PAGE] for n in numbers
    ]


def read_back(value: bytes | None, number: int, initial: bytes) -> bytes:
    values = [] if value is None else [(chunk(number), value)]
    image = memory_image.Stored((number + 1) * CHUNK, values, "a").over(initial)
    return bytes(image[number * CHUNK :])


def test_a_chunk_that_holds_the_initial_image_or_zeros_gets_no_value():
    initial = heap_like(2)[: CHUNK + 100]  # a chunk and a bit
    assert memory_image.pack(initial[:CHUNK], 0, initial) is None
    assert memory_image.pack(initial[CHUNK:] + bytes(CHUNK - 100), 1, initial) is None  # zeros past it
    assert memory_image.pack(bytes(CHUNK), 5, initial) is None
    changed = bytearray(initial[:CHUNK])
    changed[CHUNK - 1] ^= 1
    packed = memory_image.pack(bytes(changed), 0, initial)
    assert packed is not None and len(packed) < CHUNK * 2 // 3
    assert read_back(packed, 0, initial) == changed
    assert memory_image.pack(initial[CHUNK:] + b"\x01" + bytes(CHUNK - 101), 1, initial) is not None
    # as views of the memory (`TrackedMemory.runs`)
    assert memory_image.pack(memoryview(initial)[:CHUNK], 0, initial) is None
    assert memory_image.pack(memoryview(bytes(CHUNK)), 5, initial) is None
    assert read_back(memory_image.pack(memoryview(changed), 0, initial), 0, initial) == changed
    assert memory_image.pack(memoryview(initial)[:100], 0, initial) is not None  # (shorter than the image's chunk)


def test_memories_read_back_over_the_initial_image_after_full_and_partial_snapshots():
    store = MemoryStore()
    journal = Journal(store)
    initial = heap_like(1, seed=1)[: CHUNK // 2]
    memory = bytearray(8 * CHUNK)
    memory[: len(initial)] = initial
    memory[3 * CHUNK : 5 * CHUNK] = heap_like(2, seed=2)
    stable = heap_like(1, seed=3) + bytes(CHUNK)
    packer = memory_image.Packer(initial)
    snapshot(store, Delta(STATE, packer.whole(bytes(memory)), memory_image.Packer().whole(stable), full=True))
    assert sorted(stored_memory(store)) == [chunk(3), chunk(4)]  # chunk 0 holds the initial image, the rest zeros
    assert all(len(value) < CHUNK for value in stored_memory(store).values())
    saved = journal.load("a")
    assert saved is not None and saved.memory.over(initial) == memory and saved.stable.over(b"") == stable

    memory[0] ^= 0xFF  # away from the initial image, and chunk 4 back to zeros
    memory[4 * CHUNK : 5 * CHUNK] = bytes(CHUNK)
    written = [0] + list(range(4 * 16, 5 * 16))
    snapshot(store, Delta(STATE, packer.changed(written, runs_of(memory)), {}))
    assert sorted(stored_memory(store)) == [patch(0, 0), chunk(3)]  # page 0: a patch over the initial image
    assert journal.load("a").memory.over(initial) == memory

    snapshot(store, Delta(STATE, memory_image.Packer().whole(bytes(CHUNK)), {}, full=True))  # a reinstall
    assert stored_memory(store) == {}
    assert journal.load("a").memory.over(b"") == bytes(CHUNK) + bytes(7 * CHUNK)


def test_a_few_pages_written_again_are_patches_of_their_own():
    """Up to MAX_PATCHES pages of a chunk written since it was packed are values of their own (compressed
    alone: a message that wrote a page of it neither compresses nor rewrites 64 KiB); more, and the
    chunk is packed whole and its patches go. A packer given a stored memory knows its patches."""
    store = MemoryStore()
    journal = Journal(store)
    memory = bytearray(heap_like(8))
    packer = memory_image.Packer()
    snapshot(store, Delta(STATE, packer.whole(bytes(memory)), {}, full=True))
    frame = stored_memory(store)[chunk(3)]
    for page in [48, 50, 48, 51, 63]:
        memory[page * PAGE] ^= 0xFF
        values = packer.changed([page], runs_of(memory))
        assert list(values) == [patch(3, page - 48)] and len(values[patch(3, page - 48)] or b"") < PAGE
        snapshot(store, Delta(STATE, values, {}))
        assert journal.load("a").memory.over(b"") == memory
    assert stored_memory(store)[chunk(3)] == frame  # the chunk's value was not written again
    assert [name for name in stored_memory(store) if len(name) == 9] == [patch(3, p) for p in (0, 2, 3, 15)]

    restarted = memory_image.Packer()  # as after a restart: it knows the patches from the store
    restarted.adopt(journal.load("a").memory)
    memory[52 * PAGE] ^= 0xFF  # a fifth page: the chunk is packed whole, its patches deleted
    values = restarted.changed([52], runs_of(memory))
    assert values == {
        chunk(3): memory_image.pack(bytes(memory[3 * CHUNK : 4 * CHUNK]), 3, b""),
        **{patch(3, p): None for p in (0, 2, 3, 15)},
    }
    snapshot(store, Delta(STATE, values, {}))
    assert [name for name in stored_memory(store) if len(name) == 9] == []
    assert journal.load("a").memory.over(b"") == memory

    memory[0] ^= 0xFF  # pages of two chunks at once, one of them five
    memory[16 * PAGE : 21 * PAGE] = heap_like(1, seed=7)[: 5 * PAGE]
    values = restarted.changed([0, *range(16, 21)], runs_of(memory))
    assert set(values) == {chunk(1), patch(0, 0)}
    snapshot(store, Delta(STATE, values, {}))
    assert journal.load("a").memory.over(b"") == memory


def test_a_patch_over_a_chunk_that_holds_the_initial_image():
    initial = heap_like(1, seed=4)
    memory = bytearray(initial + bytes(CHUNK))
    packer = memory_image.Packer(initial)
    assert packer.whole(bytes(memory)) == {chunk(0): None, chunk(1): None}
    memory[5 * PAGE + 1] ^= 1
    values = packer.changed([5], runs_of(memory))
    assert list(values) == [patch(0, 5)]
    assert memory_image.Stored(2 * CHUNK, values.items(), "a").over(initial) == memory  # type: ignore[arg-type]


@pytest.mark.parametrize("damage", ["a bit", "a cut", "not a frame", "a patch's bit"])
def test_a_damaged_chunk_makes_the_saved_state_corrupt(damage):
    store = MemoryStore()
    journal = Journal(store)
    memory = bytearray(heap_like(3))
    packer = memory_image.Packer()
    snapshot(store, Delta(STATE, packer.whole(bytes(memory)), {}, full=True))
    memory[2 * CHUNK + 5] ^= 1
    snapshot(store, Delta(STATE, packer.changed([32], runs_of(memory)), {}))  # chunk 2: a patch
    key, value = list(store.scan(b"actor/a/memory/"))[3 if damage == "a patch's bit" else 1]
    damaged = {
        "a bit": value[:40] + bytes([value[40] ^ 1]) + value[41:],
        "a cut": value[:-10],
        "not a frame": b"\x00" * 100,
        "a patch's bit": value[:20] + bytes([value[20] ^ 1]) + value[21:],
    }[damage]
    batch = Batch()
    batch.put(key, damaged)
    store.commit(batch)
    what = "page's patch" if damage == "a patch's bit" else "chunk"
    with pytest.raises(StoreError, match=f"the saved state of actor a is corrupt: a memory {what} is damaged"):
        journal.load("a").memory.over(b"")  # read where start-up reads it: Host._restore


def layout_4(store: MemoryStore, name: str, memory: bytes, stable: bytes) -> None:
    """Put ``name``'s memories back as layout 4 held them: a value per non-zero 4 KiB page."""
    batch = Batch()
    batch.clear_prefix(f"actor/{name}/memory/".encode())
    batch.clear_prefix(f"actor/{name}/stable-memory/".encode())
    for kind, image in ((b"mem", memory), (b"stable", stable)):
        for n in range(len(image) // PAGE):
            page = image[n * PAGE : (n + 1) * PAGE]
            if any(page):
                batch.put(f"actor/{name}/".encode() + kind + b"/" + n.to_bytes(8, "big"), page)
    batch.put(b"meta/layout", b"4")
    store.commit(batch)


def test_a_layout_4_store_is_converted_an_actor_per_batch():
    store = MemoryStore()
    images = {name: (heap_like(3, seed=i), heap_like(1, seed=9) + bytes(CHUNK)) for i, name in enumerate("ab")}
    for name, (memory, stable) in images.items():
        batch = Batch()
        batch.put(f"actor/{name}/state".encode(), b"\xa0")  # (read by the conversion only for the name)
        store.commit(batch)
        layout_4(store, name, memory, stable)
    commits = []
    commit = store.commit
    store.commit = lambda batch: (commits.append(batch), commit(batch))[1]  # type: ignore[method-assign]

    journal = Journal(store)
    assert len(commits) == 3  # each actor, then the layout
    assert store.get(b"meta/layout") == b"6"
    assert not [key for key, _ in store.scan(b"actor/") if b"/mem/" in key or b"/stable/" in key]
    for name, (memory, stable) in images.items():
        prefix = f"actor/{name}/".encode()
        for kind, image in ((b"memory/", memory), (b"stable-memory/", stable)):
            values = [(key[len(prefix + kind) :], v) for key, v in store.scan(prefix + kind)]
            stored = memory_image.Stored(len(image), values, name)
            assert stored.over(b"") == image
    assert journal.actor_names() == ["a", "b"]


def test_a_conversion_cut_short_goes_on_where_it_stopped():
    store = MemoryStore()
    memory = heap_like(2)
    for name in "ab":
        batch = Batch()
        batch.put(f"actor/{name}/state".encode(), b"\xa0")
        store.commit(batch)
        layout_4(store, name, memory, b"")
    commit, failed = store.commit, []

    def fail_the_second(batch):
        if len(failed) == 1:
            failed.append(batch)
            raise StoreError("the disk is full")
        if not failed:
            failed.append(None)
        commit(batch)

    store.commit = fail_the_second  # type: ignore[method-assign]
    with pytest.raises(StoreError, match="the disk is full"):
        Journal(store)
    assert store.get(b"meta/layout") == b"4"  # a converted, b not yet
    store.commit = commit  # type: ignore[method-assign]
    Journal(store)
    assert store.get(b"meta/layout") == b"6"
    for name in "ab":
        prefix = f"actor/{name}/memory/".encode()
        stored = [(key[len(prefix) :], value) for key, value in store.scan(prefix)]
        assert memory_image.Stored(len(memory), stored, name).over(b"") == memory


@pytest.mark.slow
async def test_an_actor_kept_in_layout_4_runs_on_after_the_conversion():
    store = MemoryStore()
    host = Host([spec("a")], store=store)
    await host.start()
    for _ in range(3):
        await update(host, "a", "inc")
    instance = host._actors.named("a").instance
    memory, stable = instance.memory.image(), instance.stable.image()
    await host.stop()
    layout_4(store, "a", memory, stable)

    host = Host([spec("a")], store=store)
    await host.start()
    try:
        assert store.get(b"meta/layout") == b"6"
        assert await query(host, "a", "get") == [3]
        assert await update(host, "a", "inc") == [4]
    finally:
        await host.stop()


def test_a_layout_5_store_is_read_as_it_is():
    """Layout 5 kept a chunk's patches inside its value (a count, then each page and its frame's length,
    the frames, the chunk's frame): read as they are, and the layout becomes 6."""
    store = MemoryStore()
    memory = bytearray(heap_like(2, seed=8))
    compress = zstandard.ZstdCompressor(level=1, write_checksum=True).compress
    old_chunk = compress(bytes(memory[CHUNK:]))
    memory[CHUNK + 7 * PAGE : CHUNK + 8 * PAGE] = heap_like(1, seed=9)[:PAGE]
    page = compress(bytes(memory[CHUNK + 7 * PAGE : CHUNK + 8 * PAGE]))
    batch = Batch()
    batch.put(b"meta/layout", b"5")
    batch.put(b"actor/a/state", cbor2.dumps({"memory_size": 2 * CHUNK, "stable_size": 0}))
    batch.put(b"actor/a/memory/" + chunk(0), b"\x00" + compress(bytes(memory[:CHUNK])))
    batch.put(b"actor/a/memory/" + chunk(1), bytes([1, 7]) + len(page).to_bytes(4, "little") + page + old_chunk)
    store.commit(batch)
    saved = Journal(store).load("a")
    assert store.get(b"meta/layout") == b"6"
    assert saved is not None and saved.memory.over(b"") == memory


def test_a_store_in_memory_gets_its_values_uncompressed():
    """Compressing what a MemoryStore keeps would only cost time: its values are the bytes themselves."""
    memory = bytearray(heap_like(2, seed=6))
    packer = memory_image.Packer(compress=False)
    values = dict(packer.whole(bytes(memory)))
    memory[CHUNK + 3 * PAGE] ^= 1
    values.update(packer.changed([19], runs_of(memory)))
    assert {name: value[0] for name, value in values.items() if value} == {
        chunk(0): 255,
        chunk(1): 255,
        patch(1, 3): 255,
    }
    assert len(values[patch(1, 3)] or b"") == 1 + PAGE
    assert memory_image.Stored(2 * CHUNK, values.items(), "a").over(b"") == memory  # type: ignore[arg-type]
    assert MemoryStore.in_memory


def test_a_store_in_memory_gets_a_chunk_written_whole_as_one_value_and_its_patches_go():
    """Values cost a store in memory Python steps, not bytes: a chunk a message wrote every page of is one
    value (where a chunk's few pages get patches), and the patches it had are deleted with it."""
    store = MemoryStore()
    memory = bytearray(heap_like(3, seed=7))
    packer = memory_image.Packer(compress=False)
    snapshot(store, Delta(STATE, packer.whole(bytes(memory)), {}, full=True))
    memory[CHUNK + 2 * PAGE] ^= 1
    snapshot(store, Delta(STATE, packer.changed([18, 19], runs_of(memory)), {}))
    assert set(stored_memory(store)) == {chunk(0), chunk(1), chunk(2), patch(1, 2), patch(1, 3)}
    memory[CHUNK : 2 * CHUNK] = heap_like(1, seed=8)
    written = packer.changed([*range(16, 32), 40], runs_of(memory))  # chunk 1 whole, a page of chunk 2
    assert written == {
        chunk(1): b"\xff" + bytes(memory[CHUNK : 2 * CHUNK]),
        patch(1, 2): None,
        patch(1, 3): None,
        patch(2, 8): b"\xff" + bytes(memory[40 * PAGE : 41 * PAGE]),
    }
    snapshot(store, Delta(STATE, written, {}))
    assert set(stored_memory(store)) == {chunk(0), chunk(1), chunk(2), patch(2, 8)}
    stored = memory_image.Stored(3 * CHUNK, stored_memory(store).items(), "a")
    assert stored.over(b"") == memory
    restarted = memory_image.Packer(compress=False)  # as after a restart: it knows the patches from the store
    restarted.adopt(stored)
    assert restarted.changed(range(32, 48), runs_of(memory))[patch(2, 8)] is None


def test_compaction_compresses_the_memories_again_and_they_read_back_the_same():
    """``moxzid compact`` packs every chunk and patch again at the cold level (`repack_memories`): the
    same memories read back from fewer bytes; a raw value (a store in memory's) is left as it is."""
    store = MemoryStore()
    journal = Journal(store)
    memory, stable = bytearray(heap_like(8)), heap_like(2, seed=5)
    packer = memory_image.Packer()
    snapshot(store, Delta(STATE, packer.whole(bytes(memory)), memory_image.Packer().whole(stable), full=True))
    memory[3 * CHUNK] ^= 0xFF
    snapshot(store, Delta(STATE, packer.changed([48], runs_of(memory)), {}))
    raw = memory_image.Packer(compress=False).changed([49], runs_of(memory))
    snapshot(store, Delta(STATE, raw, {}))
    values = stored_memory(store)
    stable_bytes = sum(len(value) for _, value in store.scan(b"actor/a/stable-memory/"))

    before, after = repack_memories(store)
    assert after < before == sum(map(len, values.values())) + stable_bytes
    assert stored_memory(store).keys() == values.keys() and stored_memory(store)[patch(3, 1)] == values[patch(3, 1)]
    assert all(len(value) <= len(values[name]) for name, value in stored_memory(store).items())
    saved = journal.load("a")
    assert saved is not None and saved.memory.over(b"") == memory and saved.stable.over(b"") == stable
