"""The free space of a Motoko heap, read from the partition table enhanced orthogonal persistence keeps
in the memory (`motoko_heap.free_space`), and nothing where the table does not read as that layout;
a memory's chunks with zeros in given ranges (`memory_image.Stored.cleared`)."""

import numpy as np
import pytest

from moxzi_core.runtime.engine import memory_image, motoko_heap
from moxzi_core.runtime.engine.memory import PAGE

P = motoko_heap.PARTITION
HEAP_BASE = 5 << 20


def heap(partitions: dict[int, tuple[bool, int]], allocation: int = 1, **fields: int) -> bytearray:
    """A memory's first END bytes holding the metadata's fingerprint and version and a partition table:
    ``partitions`` by index, (free, dynamic size); partition 0's static space ends at the heap's base."""
    memory = bytearray(motoko_heap.END)
    at = motoko_heap.METADATA
    memory[at : at + len(motoko_heap.FINGERPRINT) + 8] = motoko_heap.FINGERPRINT + (1).to_bytes(8, "little")
    table = np.zeros((motoko_heap.PER_TABLE, 7), dtype="<u8")
    table[:, 0] = np.arange(motoko_heap.PER_TABLE)
    table[:, 1] = 1  # free
    table[0, 3] = HEAP_BASE
    for index, (free, dynamic) in partitions.items():
        table[index, 1], table[index, 4] = int(free), dynamic
    occupied = HEAP_BASE + sum(dynamic for index, (_, dynamic) in partitions.items() if index != allocation)
    tail = dict(
        extension=0, partitions=128, heap_base=HEAP_BASE, allocation=allocation,
        free=int(table[:, 1].sum()), evacuating=0, reclaimed=12345, bitmap_pointer=0, gc_running=0,
        precomputed=occupied, evacuated=0,
    )  # fmt: skip
    tail.update(fields)
    end = motoko_heap.TABLE + table.nbytes
    memory[motoko_heap.TABLE : end] = table.tobytes()
    memory[end : motoko_heap.END] = np.array(list(tail.values()), dtype="<u8").tobytes()
    return memory


def free_of(memory: bytearray, size: int) -> list[tuple[int, int]]:
    return motoko_heap.free_space(lambda at, length: bytes(memory[at : at + length]), size)


def runs_of(memory: bytearray):
    """``TrackedMemory.runs`` over ``memory``."""
    return lambda numbers, pages: [bytes(memory[n * pages * PAGE : (n + 1) * pages * PAGE]) for n in numbers]


def test_the_free_space_is_what_follows_each_partitions_dynamic_space():
    memory = heap({0: (True, 0), 1: (False, 3000), 2: (True, 0), 3: (False, 8 << 20)}, allocation=3)
    assert free_of(memory, 5 * P) == [
        (HEAP_BASE, P),
        (P + 3000, 2 * P),
        (2 * P, 3 * P),
        (3 * P + (8 << 20), 4 * P),
        (4 * P, 5 * P),
    ]
    assert free_of(memory, 2 * P + 4096)[-1] == (2 * P, 2 * P + 4096)  # (no further than the memory goes)


@pytest.mark.parametrize(
    "change",
    [
        {"gc_running": 1},  # a collection under way: its bitmaps and marks are in the heap
        {"evacuating": 1},
        {"bitmap_pointer": 64 << 20},
        {"precomputed": HEAP_BASE + 1},  # occupied sizes that do not add up
        {"free": 3},
        {"extension": 1 << 40},  # a second table: not read
        {"allocation": 2},  # a free partition to allocate in
    ],
)
def test_a_table_that_does_not_add_up_gives_no_free_space(change):
    partitions = {0: (True, 0), 1: (False, 3000)}
    assert free_of(heap(partitions), 2 * P) != []
    assert free_of(heap(partitions, **change), 2 * P) == []


def test_another_layout_or_version_or_an_unknown_table_gives_no_free_space():
    memory = heap({0: (True, 0), 1: (False, 3000)})
    version_at = motoko_heap.METADATA + len(motoko_heap.FINGERPRINT)
    assert free_of(memory, motoko_heap.END - 1) == []  # too small to hold it
    assert motoko_heap.free_space(lambda at, length: None, 2 * P) == []  # its chunks unknown
    for at, byte in [(motoko_heap.METADATA, 0x4E), (version_at, 2), (motoko_heap.TABLE + 56, 7)]:
        changed = bytearray(memory)
        changed[at] = byte  # the fingerprint, the version, partition 1's index
        assert free_of(changed, 2 * P) == []
    marked = bytearray(memory)
    marked[motoko_heap.TABLE + 56 + 16] = 1  # partition 1's marked size: a collection's
    assert free_of(marked, 2 * P) == []


def test_cleared_chunks_hold_zeros_in_the_ranges_and_fold_their_patches_in():
    chunks, rng = 4, np.random.default_rng(3)
    memory = bytearray(rng.integers(1, 255, chunks * memory_image.CHUNK, dtype=np.uint8).tobytes())
    packer = memory_image.Packer()
    values = packer.whole(bytes(memory))
    memory[2 * memory_image.CHUNK + 5 * PAGE] ^= 0xFF
    values.update(packer.changed([2 * 16 + 5], runs_of(memory)))
    stored = memory_image.Stored(len(memory), values.items(), "a")
    across = 2 * memory_image.CHUNK - 8  # (a read across two chunks, one of them patched)
    assert stored.read(across, 5 * PAGE + 16) == memory[across : across + 5 * PAGE + 16]
    start, end = memory_image.CHUNK + 100, 3 * memory_image.CHUNK
    cleared = stored.cleared([(start, end)])
    assert sorted(cleared) == sorted(
        [memory_image.chunk_name(1), memory_image.chunk_name(2), memory_image.patch_name(2, 5)]
    )
    assert cleared[memory_image.patch_name(2, 5)] is None
    values.update(cleared)
    after = memory_image.Stored(len(memory), [(k, v) for k, v in values.items() if v is not None], "a").over(b"")
    assert memory_image.Stored(len(memory), [], "a").read(0, 8) is None  # (a chunk the store has no value for)
    memory[start:end] = bytes(end - start)
    assert after == memory


def test_the_patches_of_a_chunk_with_no_value_get_zeros_in_the_ranges():
    memory = bytearray(memory_image.CHUNK)
    memory[PAGE : 4 * PAGE] = bytes(range(1, 256)) * (3 * PAGE // 255) + bytes(3 * PAGE % 255)
    values = memory_image.Packer().changed([1, 3], runs_of(memory))  # patches over the initial image's chunk
    assert sorted(values) == [memory_image.patch_name(0, 1), memory_image.patch_name(0, 3)]
    stored = memory_image.Stored(len(memory), values.items(), "a")
    start, end = PAGE + 100, 2 * PAGE + 8
    cleared = stored.cleared([(start, end)])
    assert list(cleared) == [memory_image.patch_name(0, 1)]  # (page 3 holds none of the range)
    values.update(cleared)
    memory[2 * PAGE : 3 * PAGE] = bytes(PAGE)  # (page 2: never written, the initial image's)
    memory[start:end] = bytes(end - start)
    assert memory_image.Stored(len(memory), values.items(), "a").over(b"") == memory


class FakeMemory:
    """The parts of `TrackedMemory` that `FreedPartitions` uses, over a bytearray: what it zeroed."""

    def __init__(self, memory: bytearray):
        self.memory, self.zeroed = memory, []

    size = property(lambda self: len(self.memory))

    def read(self, at: int, length: int) -> bytes:
        return bytes(self.memory[at : at + length])

    def zero(self, start: int, end: int, *, written: bool = False) -> None:
        self.zeroed.append((start, end, written))


def test_freed_partitions_are_zeroed_once_and_the_first_time_every_free_one():
    size = 4 * P
    memory = FakeMemory(bytearray(size))
    table = heap({0: (True, 0), 1: (False, 3000), 2: (False, 5000)})
    memory.memory[: motoko_heap.END] = table
    freed = motoko_heap.FreedPartitions()
    memory.memory[: motoko_heap.END] = heap({0: (True, 0), 1: (False, 3000), 2: (False, 5000)}, gc_running=1)
    freed.zero(memory)
    assert memory.zeroed == []  # a collection under way: nothing read
    memory.memory[: motoko_heap.END] = table
    freed.zero(memory)  # the first table read: all the free space
    assert memory.zeroed == [(start, end, False) for start, end in free_of(table, size)]
    memory.zeroed.clear()
    freed.zero(memory)
    assert memory.zeroed == []  # nothing changed in the table
    memory.memory[: motoko_heap.END] = heap({0: (True, 0), 1: (False, 3000), 2: (True, 0)}, reclaimed=99)
    freed.zero(memory)  # partition 2 freed: all of it; 0 and 3, free before: the pages written; 1 in use: none
    assert memory.zeroed == [(HEAP_BASE, P, True), (2 * P, 3 * P, False), (3 * P, 4 * P, True)]
