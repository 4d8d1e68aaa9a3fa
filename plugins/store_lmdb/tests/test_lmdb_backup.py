"""A backup of a state directory (moxzi_core.backup over the LMDB store's copy): one moment of a store
being written meanwhile, the files beside it, private; refusals that leave nothing behind; and
`moxzid backup -s DIR DEST` offline."""

from __future__ import annotations

import os
import stat
import threading
import time
from pathlib import Path

import pytest
from kit.daemon import moxzid

from moxzi_core.backup import BackupError, back_up
from moxzi_core.store import Batch, MemoryStore
from moxzi_store_lmdb import LmdbStore

KEYS_FILE = "threshold-keys.cbor"  # one of the files other parts keep beside the store


def _state(tmp_path: Path) -> LmdbStore:
    store = LmdbStore(tmp_path / "state")
    (tmp_path / "state" / KEYS_FILE).write_bytes(b"secret")
    os.chmod(tmp_path / "state" / KEYS_FILE, 0o600)
    return store


def test_a_backup_taken_while_batches_commit_holds_one_moment(tmp_path):
    store = _state(tmp_path)
    filler = Batch()
    for n in range(2000):  # enough for the copy to take a while
        filler.put(b"fill/%d" % n, os.urandom(2000))
    store.commit(filler)
    stop, committed = threading.Event(), []

    def write() -> None:  # every batch writes both keys with the same count: a torn copy differs
        n = 0
        while not stop.is_set():
            n += 1
            batch = Batch()
            batch.put(b"a", b"%d" % n)
            batch.put(b"big/%d" % (n % 50), os.urandom(50_000))
            batch.put(b"z", b"%d" % n)
            store.commit(batch)
            committed.append(n)

    writer = threading.Thread(target=write)
    writer.start()
    reports = []
    try:
        while len(committed) < 20:
            time.sleep(0.001)
        before = committed[-1]
        done = back_up(store, tmp_path / "state", tmp_path / "backup", lambda *report: reports.append(report))
        after = committed[-1]
        (tmp_path / "observed").mkdir()
        observed = store.backup(tmp_path / "observed", None, lambda view: view.get(b"a")).observed
    finally:
        stop.set()
        writer.join()
    store.close()

    assert done.files == ["FORMAT", "data.mdb", KEYS_FILE]  # no lock, no LMDB lock file
    assert stat.S_IMODE((tmp_path / "backup").stat().st_mode) == 0o700
    for name in done.files:
        assert stat.S_IMODE((tmp_path / "backup" / name).stat().st_mode) == 0o600
    assert (tmp_path / "backup" / KEYS_FILE).read_bytes() == b"secret"
    assert reports[-1][0] == reports[-1][1] == (tmp_path / "backup" / "data.mdb").stat().st_size
    copy = LmdbStore(tmp_path / "backup")
    try:
        moment = copy.get(b"a")
        assert moment is not None and copy.get(b"z") == moment
        assert before <= int(moment) <= after
        assert len(list(copy.scan(b"fill/"))) == 2000
    finally:
        copy.close()
    assert done.device_calls == 0  # (no device here)
    copy = LmdbStore(tmp_path / "observed")
    try:  # what the observer read is what the copy holds: the same moment
        assert observed is not None and copy.get(b"a") == observed
    finally:
        copy.close()


def test_a_destination_that_is_not_empty_or_a_store_in_memory_is_refused(tmp_path):
    store = _state(tmp_path)
    taken = tmp_path / "taken"
    taken.mkdir()
    (taken / "mine").write_text("keep me")
    with pytest.raises(BackupError, match="is not empty"):
        back_up(store, tmp_path / "state", taken, None)
    assert os.listdir(taken) == ["mine"]
    with pytest.raises(BackupError, match="absolute"):
        back_up(store, tmp_path / "state", Path("relative"), None)
    store.close()
    with pytest.raises(BackupError, match="cannot be backed up; it was removed"):
        back_up(MemoryStore(), tmp_path / "state", tmp_path / "new", None)
    assert not (tmp_path / "new").exists()


def test_moxzid_backup_copies_a_state_directory_no_moxzid_uses(tmp_path):
    store = _state(tmp_path)
    batch = Batch()
    batch.put(b"k", b"v")
    store.commit(batch)
    store.close()
    done = moxzid("--plugins", "lmdb", "backup", "-s", "state", "copy", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "state -> " in done.stdout
    copy = LmdbStore(tmp_path / "copy")
    assert copy.get(b"k") == b"v"
    copy.close()
    again = moxzid("--plugins", "lmdb", "backup", "-s", "state", "copy", cwd=tmp_path)
    assert again.returncode == 1 and "is not empty" in again.stderr


def test_moxzid_backup_refuses_a_directory_a_moxzid_uses_and_says_what_would_work(tmp_path):
    store = _state(tmp_path)
    try:
        refused = moxzid("--plugins", "lmdb", "backup", "-s", "state", "copy", cwd=tmp_path)
    finally:
        store.close()
    assert refused.returncode == 1
    assert "is in use by another moxzid" in refused.stderr and "moxzi backup DEST" in refused.stderr
    assert not (tmp_path / "copy").exists()
