"""A Motoko heap's free space holds zeros in the store: the partitions its collector frees get zeros at
the end of that message (`motoko_heap.FreedPartitions`), and ``moxzid compact`` stores zeros in all of
it (`journal.repack_memories`, `motoko_heap.free_space`) for a directory written without them. The
actor answers as it would have, and its memory differs only in those zeros, where nothing has written
since."""

from __future__ import annotations

import numpy as np
import pytest
from kit.host import query, spec, update

from moxzi_core.candid import NAT, NAT64
from moxzi_core.runtime.engine import motoko_heap
from moxzi_core.runtime.host import Host
from moxzi_core.runtime.journal import Journal, repack_memories
from moxzi_store_lmdb import LmdbStore

pytestmark = pytest.mark.slow  # restarts of a host on a store, 192 MiB of heap each

LITTER = (NAT, NAT), (32, 50)  # 32 MiB of arrays a call, one in 50 kept


async def littered(store, calls: int) -> list:
    """Actor a (tests/actors/litter.mo) on ``store``, ``calls`` litter calls: the digest before and after
    them and their answers."""
    host = Host([spec("a", "litter")], store=store)
    await host.start()
    try:
        answers = [await query(host, "a", "digest", rets=[NAT64])]
        for _ in range(calls):
            answers.append(await update(host, "a", "litter", *LITTER))
        return answers + [await query(host, "a", "digest", rets=[NAT64])]
    finally:
        await host.stop()


def stored(store) -> tuple[np.ndarray, list[tuple[int, int]]]:
    """Actor a's memory as the store holds it, and its heap's free space."""
    memory = Journal(store).load("a").memory
    return np.frombuffer(memory.over(b""), dtype=np.uint8), motoko_heap.free_space(memory.read, memory.size)


def within(size: int, ranges: list[tuple[int, int]], *, whole_pages: bool = False) -> np.ndarray:
    inside = np.zeros(size, dtype=bool)
    for start, end in ranges:
        inside[-(-start // 4096) * 4096 if whole_pages else start : end] = True
    return inside


def differ_only_in_zeros(memory: np.ndarray, other: np.ndarray, free: list[tuple[int, int]]) -> bool:
    """Whether ``memory`` differs from ``other`` only in ``free``, holding zeros there."""
    differ = np.flatnonzero(memory != other)
    return bool(within(len(memory), free)[differ].all() and not memory[differ].any())


@pytest.fixture
def no_zeros_as_freed(monkeypatch):
    """A moxzid that did not zero freed partitions, as before."""
    monkeypatch.setattr(motoko_heap.FreedPartitions, "zero", lambda self, memory: None)


async def test_an_actor_restarted_from_a_compacted_heap_goes_on_the_same(tmp_path, no_zeros_as_freed):
    runs = []
    for compacted in (True, False):
        store = LmdbStore(tmp_path / str(compacted))
        await littered(store, 3)  # the collector frees the partitions it evacuated
        before, free = stored(store)
        assert sum(int(np.count_nonzero(before[start:end])) for start, end in free) > 10 << 20  # its garbage
        if compacted:
            repack_memories(store)
            after, _ = stored(store)
            assert not after[within(len(after), free)].any()
            assert differ_only_in_zeros(after, before, free)
        runs.append((await littered(store, 3), stored(store)[0], free))
        store.close()
    (answers, memory, zeroed), (kept_answers, kept_memory, _) = runs
    assert answers == kept_answers
    assert differ_only_in_zeros(memory, kept_memory, zeroed)  # only what compaction zeroed, unwritten since


async def test_partitions_the_collector_frees_are_stored_as_zeros(tmp_path, monkeypatch):
    zeroed = LmdbStore(tmp_path / "zeroed")
    answers = await littered(zeroed, 6)
    memory, free = stored(zeroed)
    assert sum(end - start for start, end in free) > 100 << 20
    assert not memory[within(len(memory), free, whole_pages=True)].any()
    small = sum(len(value) for _, value in zeroed.scan(b"actor/a/memory/"))
    zeroed.close()

    monkeypatch.setattr(motoko_heap.FreedPartitions, "zero", lambda self, memory: None)
    kept = LmdbStore(tmp_path / "kept")
    assert await littered(kept, 6) == answers
    kept_memory, _ = stored(kept)
    assert sum(len(value) for _, value in kept.scan(b"actor/a/memory/")) > 2 * small
    kept.close()
    # Where they differ, the zeroed memory holds the zeros it was given when a partition was freed and
    # nothing wrote since: its free space, and the holes a reused partition's objects leave (a blob
    # allocated large and shrunk, say), which the kept memory fills with its older garbage.
    differ = np.flatnonzero(memory != kept_memory)
    assert len(differ) > 10 << 20 and not memory[differ].any()
