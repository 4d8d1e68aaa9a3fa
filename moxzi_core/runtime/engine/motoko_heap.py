"""Where a Motoko actor's main memory holds nothing its runtime will read: the free space of the
incremental collector's partitions, read from the partition table that enhanced orthogonal persistence
keeps in the memory itself. A running actor's partitions get zeros when its collector frees them
(`FreedPartitions`, at the end of that message), and ``moxzid compact`` stores zeros in all of its free
space (`journal.repack_memories`).

The runtime (motoko-rts, ``gc/incremental/partitioned_heap.rs``) divides the heap into 64 MiB
partitions. Each has a static space, a dynamic space of ``dynamic_size`` bytes after it that bump
allocation fills, and free space up to the partition's end; a collection frees the partitions it
evacuated (``free``, ``dynamic_size`` 0) without clearing them, so what the heap's garbage was stays in
the memory (hundreds of MiB for the seeds' trainers) although nothing reads it again: allocation
writes an object before anything reads it, the collector walks only marked objects through mark bitmaps
that it zeroes when it assigns them, and the runtime built with ``memory_check`` fills that free space
with zeros itself. Persistence keeps this table across upgrades, so its layout is fixed (``repr(C)``)
and versioned by the fingerprint and version in front of it; anything here that does not read as that
layout, version 1, with no collection running, gives no free space at all.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from .memory import TrackedMemory

METADATA = 0x48_0000  # the persistent metadata's address (4.5 MiB)
FINGERPRINT = "MOTOKO ORTHOGONAL PERSISTENCE 64".encode("utf-32-le")
VERSION = 1  # the metadata's layout version this reads
TABLE = METADATA + 0xA8  # the collector's partition table, in its state after the metadata's header
PARTITION = 64 << 20
PER_TABLE = 128  # partitions in a table; more come in extension tables, which this leaves alone
_ENTRY = 56  # index, free, large_content, marked_size, static_size, dynamic_size, bitmap, flags
_FIELDS = 11  # after the table: extension, partitions, heap_base, allocation_index, free_partitions,
# evacuating, reclaimed, bitmap_allocation_pointer, gc_running, precomputed_heap_size, evacuated_size
END = TABLE + PER_TABLE * _ENTRY + 8 * _FIELDS  # where what this reads ends
_CHANGES = TABLE + PER_TABLE * _ENTRY + 8 * 3  # allocation_index, free_partitions, evacuating, reclaimed


def free_space(read: Callable[[int, int], bytes | None], size: int) -> list[tuple[int, int]]:
    """The byte ranges ``[start, end)`` of a memory of ``size`` bytes that its Motoko runtime holds as
    free, given ``read(at, length)``: the memory's bytes there (None: unknown). None of it when the
    memory does not hold an enhanced-persistence heap of the layout this knows, with every field
    consistent, and no collection under way."""
    if size < END:
        return []
    header, table = read(METADATA, len(FINGERPRINT) + 8), read(TABLE, END - TABLE)
    if header is None or table is None or header[: len(FINGERPRINT)] != FINGERPRINT:
        return []
    if int.from_bytes(header[len(FINGERPRINT) :], "little") != VERSION:
        return []
    raw = np.frombuffer(table, dtype=np.uint8, count=PER_TABLE * _ENTRY).reshape(PER_TABLE, _ENTRY)
    words = raw.view("<u8")
    index, marked, static, dynamic, bitmap = (words[:, k] for k in (0, 2, 3, 4, 5))
    flags = np.concatenate([raw[:, 8:16], raw[:, 48:56]], axis=1)  # free, large_content; temporary, evacuate, update
    (extension, partitions, heap_base, allocation, free_count, evacuating, _reclaimed, bitmap_pointer,
     gc_running, precomputed, evacuated) = (int(w) for w in np.frombuffer(table, "<u8", offset=PER_TABLE * _ENTRY))  # fmt: skip
    free = raw[:, 8] == 1
    consistent = (
        (index == np.arange(PER_TABLE)).all()
        and (flags[:, [0, 1, 8]] <= 1).all()  # booleans
        and not flags[:, [2, 3, 4, 5, 6, 7, 11, 12, 13, 14, 15]].any()  # padding: zero in every table seen
        and not (flags[:, 8:11].any() or marked.any() or bitmap.any())  # temporary, evacuate, update: no collection
        and (static + dynamic <= PARTITION).all()
        and not dynamic[free].any()
        and extension == 0  # (a heap past 8 GiB: not read)
        and partitions == PER_TABLE
        and heap_base == int(static[: heap_base // PARTITION + 1].sum())
        and METADATA < heap_base <= size
        and allocation < PER_TABLE
        and not free[allocation]
        and free_count == int(free.sum())
        and evacuating == bitmap_pointer == gc_running == evacuated == 0
        and precomputed + int(dynamic[allocation]) == int((static + dynamic).sum())
    )
    if not consistent:
        return []
    ranges = []
    for number in range(min(PER_TABLE, -(-size // PARTITION))):
        start = number * PARTITION + int(static[number] + dynamic[number])
        end = min((number + 1) * PARTITION, size)
        if start < end:
            ranges.append((start, end))
    return ranges


class FreedPartitions:
    """Zeros in the partitions of an actor's Motoko heap that its collector freed, written into its main
    memory as the host (`TrackedMemory.zero`) before the message that freed them commits: their pages
    are then stored as zeros (a chunk of zeros needs no value), and the actor's memory is the same
    whether it runs on or is restored. It looks only when the table's allocation partition, count of
    free partitions or bytes reclaimed changed since it last looked (a few bytes read a message), then
    zeroes the free partitions that were in use when it last looked, and in the others the pages the
    message wrote (the mark bitmaps of a collection that ran whole in one message); the first time it
    reads a table (not while a collection runs), all the free space. The rest of a partition in use is left: it was zeroed when it was freed."""

    def __init__(self) -> None:
        self._seen: bytes | None = None  # allocation_index, free_partitions, evacuating, reclaimed
        self._free: np.ndarray | None = None  # the partitions free when it last looked
        self._swept = False  # whether it has zeroed all the free space once (a look that read a table)

    def zero(self, memory: TrackedMemory) -> None:
        size = memory.size
        if size < END or (seen := memory.read(_CHANGES, 32)) == self._seen:
            return
        self._seen = seen
        entries = np.frombuffer(memory.read(TABLE, PER_TABLE * _ENTRY), dtype=np.uint8)
        before, self._free = self._free if self._swept else None, entries[8::_ENTRY] == 1
        for start, end in (ranges := free_space(memory.read, size)):
            partition = start // PARTITION
            if before is None or not before[partition]:
                if before is None or self._free[partition]:  # (an in-use one's rest: zeroed when it was freed)
                    memory.zero(start, end)
            elif self._free[partition]:
                memory.zero(start, end, written=True)
        self._swept = self._swept or bool(ranges)
        if not self._swept:
            self._seen = None  # (look again at the next message, until a table reads)
