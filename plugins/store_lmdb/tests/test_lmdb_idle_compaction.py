"""The LMDB store gives ``data.mdb``'s free pages back while in use (moxzi_store_lmdb.idle): once idle,
while other threads read, as it closes, never swapping out a batch committed during its copy, and whole
after a SIGKILL at any point of it."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from moxzi_core.store import Batch
from moxzi_store_lmdb import LmdbStore, idle


def commit(store: LmdbStore, puts=(), deletes=()) -> None:
    batch = Batch()
    for key, value in dict(puts).items():
        batch.put(key, value)
    for key in deletes:
        batch.delete(key)
    store.commit(batch)


def contents(store: LmdbStore) -> dict[bytes, bytes]:
    return dict(store.scan(b""))


def waste(store: LmdbStore) -> dict[bytes, bytes]:
    """Commit 24 MB, then delete all but 10 values of 64 KiB (the rest free pages): what it keeps."""
    values = {b"k%03d" % n: os.urandom(64 << 10) for n in range(360)}
    commit(store, values)
    commit(store, deletes=list(values)[10:])
    return dict(list(values.items())[:10])


def size(directory: Path) -> int:
    return (directory / "data.mdb").stat().st_size


@pytest.fixture
def quick(monkeypatch):
    monkeypatch.setattr(idle, "CHECK_SECONDS", 0.05)
    monkeypatch.setattr(idle, "QUIET_SECONDS", 0.3)


def test_an_idle_store_gives_its_free_pages_back_while_threads_read(tmp_path, quick):
    directory = tmp_path / "state"
    store = LmdbStore(directory)
    kept = waste(store)
    assert size(directory) > 20e6
    done, errors, reads = threading.Event(), [], [0]

    def read() -> None:
        while not done.is_set():
            try:
                assert {key: store.get(key) for key in kept} == kept
                reads[0] += 1
            except Exception as exc:  # (reported below: a read must never fail across the swap)
                errors.append(exc)

    readers = [threading.Thread(target=read) for _ in range(2)]
    for thread in readers:
        thread.start()
    deadline = time.monotonic() + 10
    while size(directory) > 2e6 and time.monotonic() < deadline:
        time.sleep(0.05)
    done.set()
    for thread in readers:
        thread.join()
    assert errors == [] and reads[0] > 0
    assert size(directory) < 2e6
    assert contents(store) == kept
    commit(store, {b"new": b"value"})
    store.close()
    assert sorted(os.listdir(directory)) == ["FORMAT", "data.mdb", "lock.mdb", "moxzid.lock"]
    reopened = LmdbStore(directory)
    assert contents(reopened) == {**kept, b"new": b"value"}
    reopened.close()


def test_a_store_closed_right_after_freeing_pages_gives_them_back(tmp_path):
    directory = tmp_path / "state"
    store = LmdbStore(directory)
    kept = waste(store)
    store.close()  # long before the idle thread would have
    assert size(directory) < 2e6
    reopened = LmdbStore(directory)
    assert contents(reopened) == kept
    reopened.close()


def test_a_batch_committed_during_the_copy_keeps_the_file_it_went_to(tmp_path, monkeypatch):
    directory = tmp_path / "state"
    store = LmdbStore(directory, compact_idle=False)
    kept = waste(store)
    before = size(directory)
    copy = store._write_copy

    def copy_then_commit() -> int:
        copied = copy()
        commit(store, {b"late": b"value"})
        return copied

    monkeypatch.setattr(store, "_write_copy", copy_then_commit)
    store.compact_if_wasteful(idle_only=False)
    assert size(directory) >= before and not (directory / "data.mdb.compacting").exists()
    assert contents(store) == {**kept, b"late": b"value"}
    monkeypatch.undo()
    store.compact_if_wasteful(idle_only=False)  # (now nothing commits meanwhile)
    assert size(directory) < 2e6
    assert contents(store) == {**kept, b"late": b"value"}
    store.close()


CHILD_COMPACTING_AFTER_EACH_BATCH = """
import os, sys
from moxzi_core.store import Batch
from moxzi_store_lmdb import LmdbStore, idle

idle.WASTED_BYTES = 1 << 20
store = LmdbStore(sys.argv[1], compact_idle=False)
data = os.path.join(sys.argv[1], "data.mdb")
n = int(store.get(b"count") or 0)
while True:
    n += 1
    batch = Batch()
    batch.clear_prefix(b"items/")
    for k in range(n % 5 + 1):
        batch.put(b"items/%d" % k, b"%d," % n * 100_000)
    batch.put(b"count", b"%d" % n)
    store.commit(batch)
    before = os.path.getsize(data)
    print(n, before, flush=True)
    store.compact_if_wasteful(idle_only=False)
    print(n, os.path.getsize(data), flush=True)
"""


@pytest.mark.slow  # starts 6 Python processes that commit and compact, killing each at a random point
def test_sigkill_during_compaction_leaves_the_store_whole(tmp_path):
    """A child commits numbered batches, each rewriting up to 3 MB, and compacts after each; killed at
    random moments (mostly inside a compaction: its copy, fsync, rename or reopen), the store then holds
    the last batch it reported committed, or a later one, and all of it."""
    directory = tmp_path / "state"
    rng = random.Random(5)
    shrank = 0
    for _ in range(6):
        child = subprocess.Popen(
            [sys.executable, "-c", CHILD_COMPACTING_AFTER_EACH_BATCH, str(directory)],
            stdout=subprocess.PIPE,
            text=True,
        )
        reported, last_size = 0, None
        for _ in range(rng.randrange(4, 30)):
            n, at = map(int, child.stdout.readline().split())
            shrank += reported == n and at < last_size
            reported, last_size = n, at
        threading.Event().wait(rng.random() / 100)
        child.send_signal(signal.SIGKILL)
        child.wait()
        child.stdout.close()

        store = LmdbStore(directory, compact_idle=False)
        count = int(store.get(b"count"))
        assert count >= reported
        value = b"%d," % count * 100_000
        assert contents(store) == {b"count": b"%d" % count, **{b"items/%d" % k: value for k in range(count % 5 + 1)}}
        assert not (directory / "data.mdb.compacting").exists()
        store.close()
    assert shrank > 10  # the children did compact, again and again


def test_a_store_only_read_is_left_as_it_was_found(tmp_path, quick):
    """A process that commits nothing (``moxzid backup -s``) does not rewrite the store it reads."""
    directory = tmp_path / "state"
    wasteful = LmdbStore(directory, compact_idle=False)
    kept = waste(wasteful)
    wasteful.close()
    before = size(directory)
    store = LmdbStore(directory)
    time.sleep(idle.QUIET_SECONDS + 3 * idle.CHECK_SECONDS)
    assert contents(store) == kept
    store.close()
    assert size(directory) == before
