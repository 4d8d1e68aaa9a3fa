"""An actor's memories in the store: 64 KiB chunks, compressed, none for a chunk that holds the module's
initial image or zeros; a damaged chunk found; a store of layout 4 (a value per 4 KiB page) converted."""

import numpy as np
import pytest
from kit.host import query, spec, update

from moxzi_core.runtime import memory_image
from moxzi_core.runtime.host import Host
from moxzi_core.runtime.journal import Delta, Journal
from moxzi_core.runtime.memory import PAGE
from moxzi_core.store import Batch, MemoryStore, StoreError

CHUNK = memory_image.CHUNK
STATE = {"memory_size": 8 * CHUNK, "stable_size": 2 * CHUNK}


def heap_like(chunks: int, seed: int = 0) -> bytes:
    """Bytes that compress as a heap does: small numbers among random ones."""
    rng = np.random.default_rng(seed)
    words = rng.integers(0, 1 << 16, chunks * CHUNK // 8, dtype=np.uint64)
    words[::3] = rng.integers(0, 1 << 63, len(words[::3]), dtype=np.uint64)
    return words.tobytes()


def stored_memory(store: MemoryStore) -> dict[int, bytes]:
    prefix = b"actor/a/memory/"
    return {int.from_bytes(key[len(prefix) :], "big"): value for key, value in store.scan(prefix)}


def snapshot(store: MemoryStore, delta: Delta) -> None:
    batch = Batch()
    Journal.snapshot(batch, "a", delta)
    store.commit(batch)


def runs_of(memory: bytearray):
    """``TrackedMemory.runs`` over ``memory``."""
    return lambda numbers, pages: [bytes(memory[n * pages * PAGE : (n + 1) * pages * PAGE]) for n in numbers]


def read_back(value: bytes | None, number: int, initial: bytes) -> bytes:
    chunks = {} if value is None else {number: value}
    image = memory_image.Stored((number + 1) * CHUNK, chunks, "a").over(initial)
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
    assert sorted(stored_memory(store)) == [3, 4]  # chunk 0 holds the initial image, the rest zeros
    assert all(len(value) < CHUNK for value in stored_memory(store).values())
    saved = journal.load("a")
    assert saved is not None and saved.memory.over(initial) == memory and saved.stable == stable

    memory[0] ^= 0xFF  # away from the initial image, and chunk 4 back to zeros
    memory[4 * CHUNK : 5 * CHUNK] = bytes(CHUNK)
    written = [0] + list(range(4 * 16, 5 * 16))
    snapshot(store, Delta(STATE, packer.changed(written, runs_of(memory)), {}))
    assert sorted(stored_memory(store)) == [0, 3]
    assert journal.load("a").memory.over(initial) == memory

    snapshot(store, Delta(STATE, memory_image.Packer().whole(bytes(CHUNK)), {}, full=True))  # a reinstall
    assert stored_memory(store) == {}
    assert journal.load("a").memory.over(b"") == bytes(CHUNK) + bytes(7 * CHUNK)


def test_a_few_pages_written_again_are_packed_alone_after_their_chunks_frame():
    """A chunk packed lately gets up to MAX_PATCHES changed pages as patches (compressed alone: a
    message that wrote a page of it does not compress 64 KiB again); more, and it is packed whole."""
    memory = bytearray(heap_like(8))
    packer = memory_image.Packer()
    whole = packer.whole(bytes(memory))
    frame = whole[3]
    assert frame is not None and frame[0] == 0  # no patches
    for n, page in enumerate([48, 50, 48, 51, 63], start=1):
        memory[page * PAGE] ^= 0xFF
        [(number, value)] = packer.changed([page], runs_of(memory)).items()
        assert number == 3 and value is not None
        assert read_back(value, 3, b"") == memory[3 * CHUNK : 4 * CHUNK]
        assert value[0] == [1, 2, 2, 3, 4][n - 1]  # patches: pages 48, 50, 51, 63 (48 twice)
        assert value.endswith(frame[1:])  # the chunk's frame stays; only the page was compressed
    memory[52 * PAGE] ^= 0xFF  # a fifth page: the chunk is packed whole again
    value = packer.changed([52], runs_of(memory))[3]
    assert value is not None and value[0] == 0 and read_back(value, 3, b"") == memory[3 * CHUNK : 4 * CHUNK]

    big = bytearray(heap_like(memory_image.RECENT + 8, seed=5))
    others = memory_image.Packer()
    others.whole(bytes(big))  # chunk 0 is no longer among the recent ones
    big[0] ^= 0xFF
    value = others.changed([0], runs_of(big))[0]
    assert value is not None and value[0] == 0


@pytest.mark.parametrize("damage", ["a bit", "a cut", "not a frame", "a patch's bit"])
def test_a_damaged_chunk_makes_the_saved_state_corrupt(damage):
    store = MemoryStore()
    journal = Journal(store)
    memory = bytearray(heap_like(3))
    packer = memory_image.Packer()
    snapshot(store, Delta(STATE, packer.whole(bytes(memory)), {}, full=True))
    memory[2 * CHUNK + 5] ^= 1
    snapshot(store, Delta(STATE, packer.changed([32], runs_of(memory)), {}))  # chunk 2: a patch
    key, value = list(store.scan(b"actor/a/memory/"))[2 if damage == "a patch's bit" else 1]
    damaged = {
        "a bit": value[:40] + bytes([value[40] ^ 1]) + value[41:],
        "a cut": value[:-10],
        "not a frame": b"\x00" * 100,
        "a patch's bit": value[:20] + bytes([value[20] ^ 1]) + value[21:],
    }[damage]
    batch = Batch()
    batch.put(key, damaged)
    store.commit(batch)
    with pytest.raises(StoreError, match="the saved state of actor a is corrupt: a memory chunk is damaged"):
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
    assert store.get(b"meta/layout") == b"5"
    assert not [key for key, _ in store.scan(b"actor/") if b"/mem/" in key or b"/stable/" in key]
    for name, (memory, stable) in images.items():
        prefix = f"actor/{name}/".encode()
        for kind, image in ((b"memory/", memory), (b"stable-memory/", stable)):
            chunks = {int.from_bytes(key[len(prefix + kind) :], "big"): v for key, v in store.scan(prefix + kind)}
            stored = memory_image.Stored(len(image), chunks, name)
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
    assert store.get(b"meta/layout") == b"5"
    for name in "ab":
        prefix = f"actor/{name}/memory/".encode()
        stored = {int.from_bytes(key[len(prefix) :], "big"): value for key, value in store.scan(prefix)}
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
        assert store.get(b"meta/layout") == b"5"
        assert await query(host, "a", "get") == [3]
        assert await update(host, "a", "inc") == [4]
    finally:
        await host.stop()
