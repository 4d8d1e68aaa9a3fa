"""``moxzid compact`` stores zeros where a Motoko heap's collector has freed partitions
(`journal.repack_memories`, `motoko_heap.free_space`): an actor restarted from the compacted store
answers as one restarted from the store as it was, and its memory differs only there, where nothing
has written since."""

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


def memory_of(store) -> np.ndarray:
    saved = Journal(store).load("a")
    return np.frombuffer(saved.memory.over(b""), dtype=np.uint8)


async def test_an_actor_restarted_from_a_compacted_heap_goes_on_the_same(tmp_path):
    runs = []
    for compacted in (True, False):
        directory = tmp_path / ("compacted" if compacted else "kept")
        store = LmdbStore(directory)
        await littered(store, 3)  # the collector frees the partitions it evacuated
        saved = Journal(store).load("a")
        free = motoko_heap.free_space(saved.memory.read, saved.memory.size)
        before = memory_of(store)
        garbage = sum(int(np.count_nonzero(before[start:end])) for start, end in free)
        assert garbage > 10 << 20  # what the collector left there
        if compacted:
            repack_memories(store)
            after = memory_of(store)
            assert not any(after[start:end].any() for start, end in free)
            outside = np.ones(len(after), dtype=bool)
            for start, end in free:
                outside[start:end] = False
            assert np.array_equal(after[outside], before[outside])
        store.close()
        store = LmdbStore(directory)
        runs.append((await littered(store, 3), memory_of(store), free))
        store.close()
    (answers, memory, zeroed), (kept_answers, kept_memory, _) = runs
    assert answers == kept_answers
    differ = np.flatnonzero(memory != kept_memory)
    inside = np.zeros(len(memory), dtype=bool)
    for start, end in zeroed:
        inside[start:end] = True
    assert inside[differ].all() and not memory[differ].any()  # only free space compaction zeroed, unwritten since
