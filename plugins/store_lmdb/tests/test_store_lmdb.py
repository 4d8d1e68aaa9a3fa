"""The LMDB store: the store contract (run against the in-memory store too), persistence across
reopening and SIGKILL, and the errors for a store in use, of another format, corrupt, full or
unwritable — each leaving the data as it was."""

from __future__ import annotations

import contextlib
import hashlib
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import lmdb
import pytest
from kit.daemon import moxzid
from kit.memory import resident_mib

from moxzi_core import plugins
from moxzi_core.store import Batch, MemoryStore, Store, StoreError
from moxzi_store_lmdb import LmdbStore, idle

OPENERS = {"memory": lambda directory: MemoryStore(), "lmdb": LmdbStore}


@pytest.fixture(params=sorted(OPENERS))
def store(request, tmp_path):
    opened = OPENERS[request.param](tmp_path / "state")
    yield opened
    opened.close()


def commit(store, puts=(), deletes=(), cleared=()) -> None:
    batch = Batch()
    for prefix in cleared:
        batch.clear_prefix(prefix)
    for key, value in dict(puts).items():
        batch.put(key, value)
    for key in deletes:
        batch.delete(key)
    store.commit(batch)


def contents(store) -> dict[bytes, bytes]:
    return dict(store.scan(b""))


LOCKS = {"lock.mdb", "moxzid.lock"}  # who holds the store, rewritten by each opener: not data


def files(directory: Path) -> dict[str, str]:
    """Every file under ``directory`` but the locks, with a digest of its bytes: what "untouched"
    compares."""
    return {
        path.name: hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(directory.iterdir())
        if path.is_file() and path.name not in LOCKS
    }


# --- the contract every store keeps ---------------------------------------------------------------


def test_put_get_delete(store):
    assert store.get(b"k") is None
    commit(store, {b"k": b"one", b"other": b""})
    assert store.get(b"k") == b"one"
    assert store.get(b"other") == b""
    commit(store, {b"k": b"two"})
    assert store.get(b"k") == b"two"
    commit(store, deletes=[b"k", b"never-there"])
    assert store.get(b"k") is None
    assert contents(store) == {b"other": b""}


def test_scan_is_in_key_order_and_keeps_to_its_prefix(store):
    keys = [b"a", b"a\x00", b"a\xff", b"ab", b"ab/c", b"b", b"\x00", b"\xff", b"\xff\xff"]
    commit(store, {key: b"v:" + key for key in random.Random(1).sample(keys, len(keys))})
    assert [key for key, _ in store.scan(b"")] == sorted(keys)
    assert list(store.scan(b"a")) == [(key, b"v:" + key) for key in sorted(keys) if key.startswith(b"a")]
    assert [key for key, _ in store.scan(b"ab")] == [b"ab", b"ab/c"]
    assert [key for key, _ in store.scan(b"\xff")] == [b"\xff", b"\xff\xff"]
    assert list(store.scan(b"c")) == []
    assert list(store.scan(b"ab/c/")) == []


@pytest.mark.parametrize("own", [True, False], ids=["own", "fallback"])
def test_read_into_copies_values_back_to_back_until_one_is_absent_or_does_not_fit(store, own):
    """Each store's ``read_into``, and the one a third-party store without it inherits."""
    read_into = store.read_into if own else lambda keys, into: Store.read_into(store, keys, into)
    commit(store, {b"p/0": b"abc", b"p/1": b"", b"p/2": b"defg", b"p/3": b"hi"})
    into = bytearray(8)
    assert read_into([b"p/0", b"p/1", b"p/2", b"p/3"], memoryview(into)) == [3, 0, 4]  # p/3 does not fit
    assert into[:7] == b"abcdefg"
    assert read_into([b"p/2", b"p/9", b"p/0"], memoryview(into)) == [4]  # stops at the absent p/9
    assert read_into([b"p/9"], memoryview(into)) == []


def test_cleared_prefixes_go_before_the_writes_of_the_same_batch(store):
    commit(store, {b"p/1": b"1", b"p/2": b"2", b"p": b"parent", b"q/1": b"q"})
    batch = Batch()
    batch.clear_prefix(b"p/")
    batch.put(b"p/3", b"3")
    batch.delete(b"q/1")
    store.commit(batch)
    assert contents(store) == {b"p": b"parent", b"p/3": b"3"}
    commit(store, cleared=[b""])
    assert contents(store) == {}


def test_a_batch_that_fails_applies_nothing(store):
    commit(store, {b"p/1": b"1", b"q": b"q"})
    batch = Batch()
    batch.clear_prefix(b"p/")
    batch.put(b"a", b"applied?")
    batch.put(b"b", "not bytes")
    with pytest.raises((TypeError, StoreError)):
        store.commit(batch)
    assert contents(store) == {b"p/1": b"1", b"q": b"q"}


def test_threads_reading_and_committing_at_once_see_whole_batches(store):
    """Each writer owns a prefix and replaces it with batches of 1 to 7 keys, all holding the batch's
    generation; each reader must only ever see one whole batch per writer, never going back."""
    writers, generations = 3, 150
    errors: list[str] = []
    done = threading.Event()

    def write(writer: int) -> None:
        prefix = b"w%d/" % writer
        for generation in range(1, generations + 1):
            commit(store, {prefix + b"%d" % k: b"%d" % generation for k in range(generation % 7 + 1)}, cleared=[prefix])

    def read() -> None:
        seen = [0] * writers
        while not done.is_set():
            for writer in range(writers):
                values = [value for _, value in store.scan(b"w%d/" % writer)]
                if not values:
                    continue
                generation = int(values[0])
                if values != [values[0]] * (generation % 7 + 1) or generation < seen[writer]:
                    errors.append(f"writer {writer}: saw {values} after generation {seen[writer]}")
                seen[writer] = generation
                single = store.get(b"w%d/0" % writer)
                if single is None or int(single) < generation:
                    errors.append(f"writer {writer}: got {single} after generation {generation}")

    readers = [threading.Thread(target=read) for _ in range(3)]
    writing = [threading.Thread(target=write, args=(w,)) for w in range(writers)]
    for thread in readers + writing:
        thread.start()
    for thread in writing:
        thread.join()
    done.set()
    for thread in readers:
        thread.join()
    assert errors == []
    last = b"%d" % generations
    assert contents(store) == {b"w%d/%d" % (w, k): last for w in range(writers) for k in range(generations % 7 + 1)}


# --- the LMDB store -------------------------------------------------------------------------------


def test_everything_survives_closing_and_reopening(tmp_path):
    # 4064 bytes fit one page; 4096 take an overflow page; 1 MiB takes many
    values = {b"small": b"x", b"one-page": b"p" * 4064, b"two-pages": b"q" * 4096, b"large": os.urandom(1 << 20)}
    store = LmdbStore(tmp_path / "new" / "state")  # parents made as needed
    commit(store, values)
    commit(store, deletes=[b"small"])
    store.flush()
    store.close()
    store = LmdbStore(tmp_path / "new" / "state")
    del values[b"small"]
    assert contents(store) == values
    assert str(tmp_path) in store.description
    store.close()


CHILD_COMMITTING_FOREVER = """
import os, sys
from moxzi_core.store import Batch
from moxzi_store_lmdb import LmdbStore, idle

directory, items, repeat, compacting = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "compact"
idle.WASTED_BYTES, idle.COPY_SHARE = 1 << 20, 1e9  # (a compaction after each batch)
store = LmdbStore(directory, compact_idle=False)
data = os.path.join(directory, "data.mdb")
n = int(store.get(b"count") or 0)
while True:
    n += 1
    batch = Batch()
    batch.clear_prefix(b"items/")
    for k in range(n % items + 1):
        batch.put(b"items/%03d" % k, b"%d," % n * repeat)
    batch.put(b"count", b"%d" % n)
    store.commit(batch)
    if n % 50 == 0:
        store.flush()
    print(n, os.path.getsize(data), flush=True)
    if compacting:
        store.compact_if_wasteful(idle_only=False)
        print(n, os.path.getsize(data), flush=True)
"""


def kill_committing_children(directory: Path, rng: random.Random, children: int, lines: range, *args: str) -> int:
    """Run CHILD_COMMITTING_FOREVER (``args``: items, repeat, "compact" or not) ``children`` times,
    each killed by SIGKILL a random moment after an odd number of its lines; after each, the store
    holds the last batch it reported committed, or a later one, and all of it. How many times the
    file shrank between two of a child's lines about the same batch (a compaction)."""
    items, repeat = int(args[0]), int(args[1])
    shrank = 0
    for _ in range(children):
        child = subprocess.Popen(
            [sys.executable, "-c", CHILD_COMMITTING_FOREVER, str(directory), *args], stdout=subprocess.PIPE, text=True
        )
        reported, last_size = 0, 0
        for _ in range(rng.randrange(lines.start, lines.stop) | 1):  # (odd: a compacting child's is about to)
            n, at = map(int, child.stdout.readline().split())
            shrank += reported == n and at < last_size
            reported, last_size = n, at
        threading.Event().wait(rng.random() / 50)  # land anywhere in a commit (or a compaction)
        child.send_signal(signal.SIGKILL)
        child.wait()
        child.stdout.close()

        store = LmdbStore(directory, compact_idle=False)
        count = int(store.get(b"count"))
        assert count >= reported
        value = b"%d," % count * repeat
        assert contents(store) == {
            b"count": b"%d" % count,
            **{b"items/%03d" % k: value for k in range(count % items + 1)},
        }
        assert not (directory / "data.mdb.compacting").exists()
        store.close()
    return shrank


def test_sigkill_leaves_whole_batches_and_loses_none_it_committed(tmp_path):
    """A child commits numbered batches in a loop and is killed with SIGKILL at random moments."""
    kill_committing_children(tmp_path / "state", random.Random(3), 4, range(20, 200), "20", "1000", "-")


def try_open_in_another_process(directory: Path) -> subprocess.CompletedProcess:
    code = (
        "import sys\nfrom moxzi_store_lmdb import LmdbStore\nstore = LmdbStore(sys.argv[1])\nprint(store.get(b'k'))\n"
    )
    return subprocess.run([sys.executable, "-c", code, str(directory)], capture_output=True, text=True)


def test_reading_large_values_leaves_none_of_their_pages_resident(tmp_path):
    """LMDB reads through a map of its file; a large value's pages (a fetch's parts, 4 MiB each) are
    unmapped once it is copied out, so reading 64 MiB back leaves this process's file-backed resident
    memory where it was (it grew by the 64 MiB read, each time, before)."""
    store = LmdbStore(tmp_path / "state")
    try:
        parts = {b"part/%d" % n: os.urandom(4 << 20) for n in range(16)}
        commit(store, parts)
        assert store.get(b"part/0") == parts[b"part/0"]  # whatever a first read maps once (the tree)
        before = resident_mib("RssFile")
        assert all(store.get(key) == value for key, value in parts.items())
        assert dict(store.scan(b"part/")) == parts
        into = bytearray(64 << 20)
        assert store.read_into(list(parts), memoryview(into)) == [4 << 20] * 16
        assert into == b"".join(parts.values())
        assert resident_mib("RssFile") - before < 16
    finally:
        store.close()


def test_a_second_opener_is_refused_and_touches_nothing(tmp_path):
    directory = tmp_path / "state"
    store = LmdbStore(directory)
    commit(store, {b"k": b"kept"})
    before = files(directory)

    refused = try_open_in_another_process(directory)
    assert refused.returncode != 0
    assert f"{directory} is in use by another moxzid (pid {os.getpid()})" in refused.stderr
    with pytest.raises(StoreError, match="in use by another moxzid"):
        LmdbStore(directory)  # another open in this process is refused too
    assert files(directory) == before
    assert store.get(b"k") == b"kept"

    store.close()
    reopened = try_open_in_another_process(directory)
    assert reopened.returncode == 0, reopened.stderr
    assert reopened.stdout.strip() == "b'kept'"


def test_a_store_of_another_format_is_refused_untouched(tmp_path):
    directory = tmp_path / "state"
    store = LmdbStore(directory)
    commit(store, {b"k": b"v"})
    store.close()
    (directory / "FORMAT").write_text("moxzi-lmdb 2\n")
    before = files(directory)
    with pytest.raises(StoreError, match="format 'moxzi-lmdb 2'.*reads 'moxzi-lmdb 1' only"):
        LmdbStore(directory)
    assert files(directory) == before


@pytest.mark.parametrize("loss", ["missing", "empty"])
def test_a_store_whose_data_file_is_missing_or_empty_is_refused_untouched(tmp_path, loss):
    directory = tmp_path / "state"
    store = LmdbStore(directory)
    commit(store, {b"k": b"v"})
    store.close()
    if loss == "missing":
        (directory / "data.mdb").unlink()
    else:
        os.truncate(directory / "data.mdb", 0)
    before = sorted(os.listdir(directory)), files(directory)
    with pytest.raises(
        StoreError,
        match=f"{directory} is a moxzi store \\(FORMAT is there\\) but its data.mdb "
        f"is {loss}: its state was removed; restore the directory from a backup",
    ):
        LmdbStore(directory)
    assert (sorted(os.listdir(directory)), files(directory)) == before


def test_an_opener_stopped_before_format_leaves_a_new_store(tmp_path):
    directory = tmp_path / "state"
    store = LmdbStore(directory)
    commit(store, {b"k": b"v"})
    store.close()
    # as if the first opener had stopped between making the environment and putting FORMAT in place
    (directory / "FORMAT").rename(directory / "FORMAT.new")
    store = LmdbStore(directory)
    assert store.get(b"k") == b"v"
    store.close()
    assert (directory / "FORMAT").read_text() == "moxzi-lmdb 1\n" and not (directory / "FORMAT.new").exists()


@pytest.mark.parametrize("foreign", ["notes.txt", "data.mdb"])
def test_a_directory_that_is_not_a_store_is_refused_untouched(tmp_path, foreign):
    directory = tmp_path / "somewhere"
    directory.mkdir()
    if foreign == "data.mdb":  # someone else's LMDB environment
        with lmdb.open(str(directory)) as env, env.begin(write=True) as txn:
            txn.put(b"theirs", b"1")
    else:
        (directory / foreign).write_text("mine")
    before = sorted(os.listdir(directory)), files(directory)
    with pytest.raises(StoreError, match="is not empty and is not a moxzi state directory"):
        LmdbStore(directory)
    assert (sorted(os.listdir(directory)), files(directory)) == before  # no lock file either


def overwrite_meta_pages(data: Path) -> None:
    with open(data, "r+b") as file:
        file.write(random.Random(5).randbytes(8192))


def truncate_to_half(data: Path) -> None:
    os.truncate(data, data.stat().st_size // 2)


@pytest.mark.parametrize("damage", [overwrite_meta_pages, truncate_to_half])
def test_a_corrupt_data_file_is_refused_untouched(tmp_path, damage):
    directory = tmp_path / "state"
    store = LmdbStore(directory)
    for round_ in range(4):
        commit(store, {b"k%04d" % i: os.urandom(3000) for i in range(round_ * 100, round_ * 100 + 100)})
    store.close()
    damaged = tmp_path / "damaged"
    shutil.copytree(directory, damaged)
    damage(damaged / "data.mdb")
    before = files(damaged)
    with pytest.raises(StoreError, match=f"{damaged} is corrupt or not an LMDB store"):
        LmdbStore(damaged)
    assert files(damaged) == before


def test_a_full_map_refuses_the_batch_and_keeps_the_rest(tmp_path):
    directory = tmp_path / "state"
    store = LmdbStore(directory, map_size=1 << 20)
    commit(store, {b"before": b"1"})
    with pytest.raises(StoreError, match="^the disk is full"):
        commit(store, {b"big%d" % i: os.urandom(4000) for i in range(400)}, cleared=[b""])
    assert contents(store) == {b"before": b"1"}
    commit(store, {b"after": b"2"})  # still usable for what fits
    store.close()
    store = LmdbStore(directory, map_size=1 << 20)
    assert contents(store) == {b"before": b"1", b"after": b"2"}
    store.close()


@contextlib.contextmanager
def tmpfs(mount_point: Path, options: str):
    """A small file system of its own at ``mount_point`` (root only; skips the test where mounting is
    not allowed)."""
    mount_point.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(mount_point)], capture_output=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode().strip()}")
    try:
        yield mount_point
    finally:
        # lazily: a store a failed test left open would keep the mount busy and hide the failure
        subprocess.run(["umount", "--lazy", str(mount_point)], check=True)


def test_a_full_disk_refuses_the_batch_and_keeps_the_rest(tmp_path):
    with tmpfs(tmp_path / "disk", "size=2m") as disk:
        store = LmdbStore(disk / "state")
        commit(store, {b"before": b"1"})
        with pytest.raises(StoreError, match="^the disk is full"):
            commit(store, {b"big%d" % i: os.urandom(4000) for i in range(1000)})
        assert contents(store) == {b"before": b"1"}
        store.close()
        store = LmdbStore(disk / "state")
        assert contents(store) == {b"before": b"1"}
        store.close()


def test_a_directory_it_may_not_write_is_refused(tmp_path):
    if os.geteuid() == 0:  # root may write anywhere on a writable file system
        context = tmpfs(tmp_path / "readonly", "ro,size=1m")
    else:
        (tmp_path / "readonly").mkdir(mode=0o500)
        context = contextlib.nullcontext(tmp_path / "readonly")
    with context as directory:
        with pytest.raises(StoreError, match=f"{directory} cannot be used: (Permission denied|Read-only)"):
            LmdbStore(directory)
        assert os.listdir(directory) == []


# --- compaction ----------------------------------------------------------------------------------


def waste(store: LmdbStore) -> dict[bytes, bytes]:
    """Commit 20 MB, then delete all but 10 values of 64 KiB (the rest free pages): what it keeps."""
    values = {b"k%03d" % n: os.urandom(64 << 10) for n in range(300)}
    commit(store, values)
    commit(store, deletes=list(values)[10:])
    return dict(list(values.items())[:10])


def a_store_that_freed_most_of_its_pages(directory: Path) -> dict[bytes, bytes]:
    """A store that held 20 MB and now holds 10 values of 64 KiB (closed without compacting itself): what
    it keeps."""
    store = LmdbStore(directory, compact_idle=False)
    kept = waste(store)
    store.close()
    return kept


def goes_on_compacted(store: LmdbStore, kept: dict[bytes, bytes]) -> None:
    """``store``, just compacted, holds ``kept``, takes a batch, and closes leaving only its own files,
    which a new opener reads whole."""
    directory = store._directory
    assert contents(store) == kept  # read through the store reopened on the compacted file
    commit(store, {b"new": b"value"})
    store.close()
    assert sorted(os.listdir(directory)) == ["FORMAT", "data.mdb", "lock.mdb", "moxzid.lock"]
    reopened = LmdbStore(directory)
    assert contents(reopened) == {**kept, b"new": b"value"}
    reopened.close()


def test_compact_gives_the_freed_pages_back_and_keeps_every_value(tmp_path):
    directory = tmp_path / "state"
    kept = a_store_that_freed_most_of_its_pages(directory)
    store = LmdbStore(directory, compact_idle=False)
    size = (directory / "data.mdb").stat().st_size
    assert size > 20e6  # LMDB reuses freed pages, but keeps the file

    before, after = store.compact()
    assert before == size and after == (directory / "data.mdb").stat().st_size < 1.5e6
    goes_on_compacted(store, kept)


def test_a_compaction_stopped_half_way_leaves_the_store_as_it_was(tmp_path):
    """The copy is written beside data.mdb and renamed over it: one that never got there is only a
    file to remove, which the next opener does."""
    directory = tmp_path / "state"
    kept = a_store_that_freed_most_of_its_pages(directory)
    (directory / "data.mdb.compacting").write_bytes(b"half a copy")
    store = LmdbStore(directory)
    assert contents(store) == kept
    assert not (directory / "data.mdb.compacting").exists()
    store.close()


@pytest.mark.slow  # runs moxzid compact twice
def test_moxzid_compact_refuses_while_a_moxzid_holds_the_directory(tmp_path):
    directory = tmp_path / "state"
    kept = a_store_that_freed_most_of_its_pages(directory)
    held = LmdbStore(directory, compact_idle=False)
    before = files(directory)
    refused = moxzid("compact", "-s", str(directory))
    assert refused.returncode == 1
    assert f"{directory} is in use by another moxzid (pid {os.getpid()})" in refused.stderr
    assert files(directory) == before
    held.close()

    done = moxzid("compact", "-s", str(directory))
    assert done.returncode == 0, done.stderr
    assert re.fullmatch(rf"{directory}: 2\d\.\d MB -> 0\.\d MB\n", done.stdout), done.stdout
    store = LmdbStore(directory)
    assert contents(store) == kept
    store.close()


# --- compaction while in use (moxzi_store_lmdb.idle) ---------------------------------------------


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
    goes_on_compacted(store, kept)


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
    monkeypatch.setattr(idle, "COPY_SHARE", 1e9)  # (the next copy may follow at once)
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
    monkeypatch.delattr(store, "_write_copy")
    store.compact_if_wasteful(idle_only=False)  # (now nothing commits meanwhile)
    assert size(directory) < 2e6
    assert contents(store) == {**kept, b"late": b"value"}
    store.close()


def test_copies_take_at_most_a_share_of_the_time(tmp_path):
    """An actor that frees pages and idles, again and again, does not make the store rewrite itself
    each time: the next copy waits 1/COPY_SHARE of the last one's time."""
    directory = tmp_path / "state"
    store = LmdbStore(directory, compact_idle=False)
    waste(store)
    store.compact_if_wasteful(idle_only=False)
    assert size(directory) < 2e6
    kept = waste(store)
    store.compact_if_wasteful(idle_only=False)
    assert size(directory) > 20e6
    assert contents(store) == kept
    store.close()


@pytest.mark.slow  # starts 8 Python processes that commit and compact, killing each at a random point
def test_sigkill_during_compaction_leaves_the_store_whole(tmp_path):
    """A child commits numbered batches, each rewriting up to 3 MB, and compacts after each; killed at
    random moments (mostly inside a compaction: its copy, fsync, rename or reopen)."""
    shrank = kill_committing_children(tmp_path / "state", random.Random(5), 8, range(8, 60), "5", "100000", "compact")
    assert shrank > 10  # the children did compact, again and again


@pytest.mark.parametrize(
    "args, error",
    [
        ((), "compact: give -s DIR, the state directory to compact"),
        (("-s", "missing"), "compact: missing is not a directory"),
    ],
)
def test_moxzid_compact_needs_a_state_directory(tmp_path, args, error):
    refused = moxzid("compact", *args, cwd=tmp_path)
    assert refused.returncode == 2
    assert f"moxzid: error: {error}" in refused.stderr
    assert os.listdir(tmp_path) == []


def test_the_plugin_registers_the_store_as_lmdb(tmp_path):
    registry, loaded = plugins.load(["lmdb"])
    assert loaded["lmdb"].distribution == "moxzi-store-lmdb"
    store = registry.stores["lmdb"](tmp_path / "state")
    assert isinstance(store, LmdbStore)
    store.close()


def _modes(directory: Path) -> dict[str, int]:
    return {"": directory.stat().st_mode & 0o777} | {p.name: p.stat().st_mode & 0o777 for p in directory.iterdir()}


def test_the_state_directory_and_its_files_are_private(tmp_path):
    """No other local user reads an actor's state: the directory 0700, its files 0600, for a new store
    and for one made before moxzid kept them so (the admin token and IC keys beside it included)."""
    os.umask(old := os.umask(0o022))  # as a login shell's: files 0644 unless made private
    try:
        new = LmdbStore(tmp_path / "new")
        new.close()
        assert set(_modes(tmp_path / "new")) >= {"", "data.mdb", "lock.mdb", "FORMAT", "moxzid.lock"}
        assert _modes(tmp_path / "new") == {"": 0o700} | {name: 0o600 for name in _modes(tmp_path / "new") if name}
        old_store = tmp_path / "old"
        shutil.copytree(tmp_path / "new", old_store)
        (old_store / "ic-keys.cbor").write_bytes(b"kept beside the store")
        os.chmod(old_store, 0o755)
        for path in old_store.iterdir():
            os.chmod(path, 0o644)
        LmdbStore(old_store).close()
        assert _modes(old_store) == {"": 0o700} | {name: 0o600 for name in _modes(old_store) if name}
    finally:
        os.umask(old)


def test_the_compacted_data_file_is_private_whatever_the_umask(tmp_path):
    """The copy ``compact`` writes becomes data.mdb: it is 0600 from its creation, as the running
    store leaves it, not the umask's mode until the next start."""
    directory = tmp_path / "state"
    kept = a_store_that_freed_most_of_its_pages(directory)
    old = os.umask(0)
    try:
        store = LmdbStore(directory)
        store.compact()
        assert _modes(directory) == {"": 0o700} | {name: 0o600 for name in _modes(directory) if name}
        assert contents(store) == kept
        store.close()
    finally:
        os.umask(old)
