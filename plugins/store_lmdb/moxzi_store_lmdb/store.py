"""The LMDB store: everything moxzid must not lose, in one LMDB environment in the ``-s`` directory.

The directory holds:

- ``FORMAT``: the layout of this plugin's files (``moxzi-lmdb 1``), written once, when the store is made
  (after its environment: a ``FORMAT`` without ``data.mdb`` means the data was removed);
- ``data.mdb`` and ``lock.mdb``: the LMDB environment (the keys and values in it are the core's);
- ``moxzid.lock``: ``flock``-ed by the moxzid that uses the directory, and holding its pid;
- ``data.mdb.compacting`` while ``compact`` writes the compacted copy (one left by a process that
  stopped there is removed when the store is next opened).

Everything in it is private to moxzid's user: the directory is made (or, once known to be a store,
set) mode 0700 and its files 0600, since ``data.mdb`` holds every actor's state and other plugins keep
their secrets beside it (the admin token, the IC interface's keys).

Reading a large value leaves none of its pages in this process's resident memory (see ``_copied``).

A committed batch has been written to the OS (not only to this process's memory) when ``commit``
returns, so it survives the process being killed; ``flush`` fsyncs it, so it survives a power loss too.
``backup`` copies it while in use (LMDB's copy of a live environment, in one read transaction:
``moxzi_core.backup``); a plain copy of the directory is one only while no moxzid uses it.

LMDB reuses the pages it frees but never gives them back to the OS: ``data.mdb`` stays as large as the
most it ever held. ``compact`` (``moxzid compact -s DIR``) rewrites it with only the pages in use, and
so does the store by itself while moxzid runs, once it has been idle a while with a twentieth of the file
free, and as it closes (``compact_if_wasteful``; ``idle.py``).
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import fcntl
import mmap
import os
import threading
import time
import weakref
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import lmdb
import numpy as np

from moxzi_core.store import (
    Batch,
    CopyProgress,
    Store,
    StoreCopy,
    StoreError,
    StoreView,
    copy_values_into,
    sync_directory,
)

from . import idle

FORMAT = "moxzi-lmdb 1"
FORMAT_FILE = "FORMAT"
LOCK_FILE = "moxzid.lock"
DATA_FILE = "data.mdb"
NEW_FORMAT_FILE = FORMAT_FILE + ".new"
COMPACTING_FILE = DATA_FILE + ".compacting"
# What an opener that stopped before ``FORMAT`` was in place leaves behind: a directory holding only
# these is still a new store, not someone else's directory. A new store's environment is made after
# ``FORMAT.new`` and before ``FORMAT``, so LMDB's files count as ours only beside ``FORMAT.new``.
_UNFINISHED = {LOCK_FILE, NEW_FORMAT_FILE}
_UNFINISHED_ENVIRONMENT = {DATA_FILE, "lock.mdb"}
PRIVATE_DIRECTORY, PRIVATE_FILE = 0o700, 0o600
DEFAULT_MAP_SIZE = 1 << 40  # a cap, not an allocation: data.mdb stays sparse and grows with what it holds
MAX_READERS = 1024  # read transactions open at once: one per get or scan in progress, in any thread
# A value this large (a wasm page, a fetch's part) lies on overflow pages of its own, which are
# unmapped once it is copied out (``_copied``); smaller ones share pages with the tree LMDB walks.
RELEASED_BYTES = 64 << 10
_LIBC = ctypes.CDLL(None, use_errno=True)
# Every name the store keeps in its directory: a backup copies the store through ``backup``, not these.
STORE_FILES = frozenset({FORMAT_FILE, NEW_FORMAT_FILE, LOCK_FILE, DATA_FILE, "lock.mdb", COMPACTING_FILE})
PROGRESS_SECONDS = 1.0  # how often a backup reports how far its copy is


class LmdbStore(Store):
    """The store in ``directory`` (made if missing), held by this process until ``close``.

    Opening raises StoreError, leaving the directory as it was, when another moxzid holds it, when it
    holds another format (or is a non-empty directory that is not a store at all), when its data file
    is missing or empty (a store has one from the moment its ``FORMAT`` exists), when LMDB finds it
    corrupt, or when this process may not use it. ``commit`` raises StoreError, applying nothing, when
    the disk (or ``map_size``, the most the store may hold) is full."""

    def __init__(self, directory: Path | str, map_size: int = DEFAULT_MAP_SIZE, compact_idle: bool = True):
        """``compact_idle`` False: free pages stay in ``data.mdb`` until ``compact`` is called."""
        self._directory, self._map_size = Path(directory), map_size
        self._gate, self._activity = idle.Gate(), idle.Activity()  # every use of ``_env`` passes the gate
        self._compacting = threading.Lock()  # one copy at a time: ``compact``'s or the idle thread's
        self._stop = threading.Event()
        _prepare(self._directory)
        self._lock_fd = _lock(self._directory)
        try:
            new = _check_format(self._directory)
            (self._directory / COMPACTING_FILE).unlink(missing_ok=True)  # a compaction that stopped half-way
            self._env = _open_environment(self._directory, map_size)
            if new:
                _finish_format(self._directory)
        except BaseException:
            os.close(self._lock_fd)
            raise
        self._compactor = None
        if compact_idle:
            self._compactor = threading.Thread(
                target=idle.compact_when_idle, args=(weakref.ref(self), self._stop), name="lmdb-compact", daemon=True
            )
            self._compactor.start()

    def get(self, key: bytes) -> bytes | None:
        with self._gate, self._env.begin(buffers=True) as txn:
            return _View(txn, self._directory).get(key)

    def scan(self, prefix: bytes) -> Iterator[tuple[bytes, bytes]]:
        # Read whole inside one transaction: the caller sees one committed state, and no transaction
        # outlives this call (an abandoned one would pin old pages and a reader slot).
        with self._gate, self._env.begin(buffers=True) as txn:
            return _View(txn, self._directory).scan(prefix)

    def read_into(self, keys: Sequence[bytes], into: memoryview) -> list[int]:
        # One read transaction, each value copied once, straight from the map into ``into``.
        with self._gate, self._env.begin(buffers=True) as txn:
            return _View(txn, self._directory).read_into(keys, into)

    def commit(self, batch: Batch) -> None:
        # Leaving the ``with`` by an exception aborts the transaction, and a failed commit is aborted
        # by LMDB: either way nothing of the batch is applied.
        try:
            with self._gate, self._env.begin(write=True) as txn:
                for prefix in batch.cleared_prefixes:
                    _delete_prefix(txn, prefix)
                for key, value in batch.writes.items():
                    if value is None:
                        txn.delete(key)
                    else:
                        txn.put(key, value)
            self._activity.committed()
        except lmdb.MapFullError as exc:
            raise StoreError(
                f"the disk is full: {self._directory} holds the most it may ({self._env.info()['map_size']} "
                "bytes, its map size); nothing of this batch was applied"
            ) from exc
        except lmdb.BadValsizeError as exc:
            raise StoreError(
                f"a key in this batch is not 1 to {self._env.max_key_size()} bytes long, as LMDB "
                "keys must be; nothing of this batch was applied"
            ) from exc
        except lmdb.Error as exc:
            if _out_of_space(self._directory, batch, exc):
                raise StoreError(
                    f"the disk is full: {self._directory} cannot grow ({exc}); free some "
                    "space; nothing of this batch was applied"
                ) from exc
            raise StoreError(
                f"{self._directory}: LMDB failed to commit ({exc}); nothing of this batch was applied"
            ) from exc

    def flush(self) -> None:
        try:
            with self._gate:
                self._env.sync(True)
        except lmdb.Error as exc:
            raise StoreError(
                f"{self._directory}: the committed batches could not be made durable "
                f"({exc}); they may be lost if the machine stops"
            ) from exc

    def close(self) -> None:
        self._stop.set()
        try:
            if self._compactor is not None:
                self._compactor.join()
                self.compact_if_wasteful(idle_only=False)  # what a stop right after a large batch left
        finally:
            self._env.close()
            os.close(self._lock_fd)  # releases the flock

    def compact(self) -> tuple[int, int]:
        """Rewrite ``data.mdb`` with only the pages in use, in key order (LMDB's compacting copy, as
        ``mdb_copy -c``): the copy is written and fsynced beside it, then renamed over it, so a process
        stopped at any point leaves the store whole, old or compacted. Returns the data file's bytes
        before and after. Raises StoreError, the store as it was, when the copy cannot be written (it
        needs room for what the store holds). Calls from other threads wait for the swap."""
        data = self._directory / DATA_FILE
        with self._compacting:
            before = data.stat().st_size
            self._write_copy()
            self._gate.begin_swap(None)
            try:
                self._reopen(swap_in_copy=True)
            finally:
                self._gate.end_swap()
        return before, data.stat().st_size

    def compact_if_wasteful(self, idle_only: bool = True) -> None:
        """Compact (as ``compact``) while in use, when free pages take more than ``idle.WASTED_SHARE``
        of ``data.mdb`` and ``idle.WASTED_BYTES``, and (``idle_only``) no batch was committed for
        ``idle.QUIET_SECONDS`` or more, and copies take at most ``idle.COPY_SHARE`` of the time
        (``idle.Activity.due``). The copy is made while other threads
        read and commit (not while a backup copies); it is swapped in only if none committed since it
        began, and once no call is in the environment (``idle.Gate``), else thrown away. A failure is
        logged, the store as it was."""
        if not self._activity.due(idle_only):
            return
        with self._compacting:
            began, before = time.monotonic(), self._wasted()
            if before is None:
                return
            try:
                copied = self._write_copy()
            except StoreError as exc:
                self._activity.failed()
                idle.log.warning("%s; its free pages stay until a later try", exc)
                return
            swapped = renamed = False
            if self._gate.begin_swap(idle.SWAP_WAIT_SECONDS):
                try:
                    # A commit since the copy began: only closed and opened again, which unmaps the
                    # pages the copy read (resident in this process until then).
                    swapped = self._env.info()["last_txnid"] == copied
                    self._reopen(swap_in_copy=swapped)
                    renamed = swapped
                except StoreError as exc:  # the rename failed: the environment is the old one, reopened
                    idle.log.error("%s", exc)
                finally:
                    self._gate.end_swap()
        took = time.monotonic() - began
        if swapped and not renamed:
            self._activity.failed()  # (not `copied`, whose sooner next try would undo the wait)
        else:
            self._activity.copied(took, swapped)
        if not renamed:
            with contextlib.suppress(OSError):
                (self._directory / COMPACTING_FILE).unlink(missing_ok=True)
            return
        after = (self._directory / DATA_FILE).stat().st_size
        idle.log.info(
            "%s: %.1f MB -> %.1f MB, its free pages given back (%.1f s)",
            self._directory,
            before / 1e6,
            after / 1e6,
            took,
        )

    def _wasted(self) -> int | None:
        """``data.mdb``'s size when enough of it is free pages to compact it, and the disk has room
        for the copy twice over (its writes must not fill the disk the commits meanwhile need), else
        None."""
        with self._gate:
            info, tree = self._env.info(), self._env.stat()
        used = (tree["branch_pages"] + tree["leaf_pages"] + tree["overflow_pages"] + 2) * tree["psize"]  # (+ meta)
        free = (info["last_pgno"] + 1) * tree["psize"] - used
        size = (self._directory / DATA_FILE).stat().st_size
        disk = os.statvfs(self._directory)
        room = disk.f_bavail * disk.f_frsize > 2 * used
        return size if room and free > idle.WASTED_BYTES and free > idle.WASTED_SHARE * size else None

    def _write_copy(self) -> int:
        """Write the compacted copy beside ``data.mdb``, fsynced; the id of the transaction it copied."""
        copy = self._directory / COMPACTING_FILE
        try:
            with self._gate, self._env.begin() as txn:
                # 0600 from its creation, whatever the umask: it becomes data.mdb (the store removed any older
                # copy as it opened).
                with open(os.open(copy, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, PRIVATE_FILE), "wb") as file:
                    self._env.copyfd(file.fileno(), compact=True, txn=txn)
                    os.fsync(file.fileno())
                return txn.id()
        except (OSError, lmdb.Error) as exc:
            copy.unlink(missing_ok=True)
            raise StoreError(f"{self._directory} cannot be compacted: {exc}; the store is as it was") from exc

    def _reopen(self, swap_in_copy: bool) -> None:
        """(No call in the environment) The environment closed and opened again, on the copy renamed
        over ``data.mdb`` (``swap_in_copy``) or on ``data.mdb`` as it is."""
        self._env.close()
        try:
            if swap_in_copy:
                os.replace(self._directory / COMPACTING_FILE, self._directory / DATA_FILE)
                sync_directory(self._directory)
        except OSError as exc:
            raise _unusable(self._directory, exc) from exc
        finally:
            self._env = _open_environment(self._directory, self._map_size)

    def backup(
        self,
        destination: Path,
        progress: CopyProgress | None = None,
        observe: Callable[[StoreView], object] | None = None,
    ) -> StoreCopy:
        """``data.mdb`` as of the moment its read transaction starts, compacted (LMDB's copy, as
        ``mdb_copy -c``: writers go on meanwhile; the pages they free are not reused until it ends), and
        ``FORMAT``, into ``destination``, both 0600 and fsynced. ``progress`` gets the bytes written so
        far and the pages in use now (more than the copy will take: it leaves out the free ones) about
        every ``PROGRESS_SECONDS``, from another thread; at the end, the copy's size twice. ``observe``
        reads in the copy's transaction, before it is written."""
        data = destination / DATA_FILE
        total = self.size_bytes()
        done = threading.Event()
        reporter = None
        if progress is not None:
            reporter = threading.Thread(target=_report, args=(data, total, progress, done), daemon=True)
        format_text = (FORMAT + "\n").encode()
        try:
            with (
                self._compacting,  # a compaction's copy would take the disk and time the backup needs
                self._gate,
                self._env.begin(buffers=True) as txn,
                open(os.open(data, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE), "wb") as file,
            ):
                observed = None if observe is None else observe(_View(txn, self._directory))
                try:
                    if reporter is not None:
                        reporter.start()
                    self._env.copyfd(file.fileno(), compact=True, txn=txn)
                finally:  # the reports end with the copy, before its fsync: the last is the one below
                    done.set()
                    if reporter is not None and reporter.is_alive():
                        reporter.join()
                copied = file.seek(0, os.SEEK_END)
                if progress is not None:
                    progress(copied, copied)  # the end: the total is known now
                os.fsync(file.fileno())
            with open(
                os.open(destination / FORMAT_FILE, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE), "wb"
            ) as file:
                file.write(format_text)
                os.fsync(file.fileno())
        except lmdb.Error as exc:
            raise StoreError(f"{self._directory} cannot be copied: {exc}") from exc
        return StoreCopy(STORE_FILES, copied + len(format_text), observed)

    def size_bytes(self) -> int:
        """The pages LMDB has used (free pages inside the file included)."""
        with self._gate:
            return (self._env.info()["last_pgno"] + 1) * self._env.stat()["psize"]

    @property
    def description(self) -> str:
        return f"LMDB in {self._directory} ({FORMAT}): state is kept across restarts"


def _prepare(directory: Path) -> None:
    """Make ``directory`` if missing; refuse one that holds anything but a store of ours."""
    try:
        directory.mkdir(mode=PRIVATE_DIRECTORY, parents=True, exist_ok=True)
        present = set(os.listdir(directory))
        foreign = present - _UNFINISHED - (_UNFINISHED_ENVIRONMENT if NEW_FORMAT_FILE in present else set())
    except OSError as exc:
        raise _unusable(directory, exc) from exc
    if foreign and FORMAT_FILE not in foreign:
        raise StoreError(
            f"{directory} is not empty and is not a moxzi state directory (it has no {FORMAT_FILE} "
            "file); give -s a new or empty directory; nothing was changed"
        )
    try:
        _make_private(directory)
    except OSError as exc:
        raise _unusable(directory, exc) from exc


def _make_private(directory: Path) -> None:
    """The state directory 0700 and the files in it 0600 (a store made before moxzid kept them so
    included): only moxzid's user may read any actor's state."""
    os.chmod(directory, PRIVATE_DIRECTORY)
    for entry in os.scandir(directory):
        if entry.is_file(follow_symlinks=False) and entry.stat().st_mode & 0o077:
            os.chmod(entry.path, PRIVATE_FILE)


def _lock(directory: Path) -> int:
    """Take the directory for this process: an exclusive flock on its lock file, which gets our pid."""
    path = directory / LOCK_FILE
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, PRIVATE_FILE)
    except OSError as exc:
        raise _unusable(directory, exc) from exc
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "unknown"
        os.close(fd)
        raise StoreError(
            f"{directory} is in use by another moxzid (pid {holder}); stop that one, or "
            "give this one another -s directory; nothing was changed"
        ) from None
    try:
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    except OSError as exc:
        os.close(fd)
        raise _unusable(directory, exc) from exc
    return fd


def _check_format(directory: Path) -> bool:
    """Refuse a store of another format, or ours without its data; True for a new store, which gets
    ``FORMAT.new`` now and ``FORMAT`` (``_finish_format``) once its environment exists."""
    path = directory / FORMAT_FILE
    try:
        found = path.read_bytes().decode("utf-8", "replace").strip()
    except FileNotFoundError:
        _begin_format(directory)
        return True
    except OSError as exc:
        raise _unusable(directory, exc) from exc
    if found != FORMAT:
        raise StoreError(
            f"{directory} holds a store of format {found!r}, but this moxzi-store-lmdb reads "
            f"{FORMAT!r} only: open it with the moxzi that wrote it; nothing was changed"
        )
    try:
        size = (directory / DATA_FILE).stat().st_size
    except FileNotFoundError:
        size = None
    except OSError as exc:
        raise _unusable(directory, exc) from exc
    if not size:  # LMDB would silently make a new, empty environment: every actor's state lost
        raise StoreError(
            f"{directory} is a moxzi store ({FORMAT_FILE} is there) but its {DATA_FILE} is "
            f"{'missing' if size is None else 'empty'}: its state was removed; restore the directory "
            "from a backup, or give -s a new directory to start afresh; nothing was changed"
        )
    return False


def _begin_format(directory: Path) -> None:
    try:
        descriptor = os.open(directory / NEW_FORMAT_FILE, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, PRIVATE_FILE)
        with os.fdopen(descriptor, "w") as file:
            file.write(FORMAT + "\n")
            file.flush()
            os.fsync(file.fileno())
    except OSError as exc:
        raise _unusable(directory, exc) from exc


def _finish_format(directory: Path) -> None:
    try:
        os.replace(directory / NEW_FORMAT_FILE, directory / FORMAT_FILE)
        sync_directory(directory)
    except OSError as exc:
        raise _unusable(directory, exc) from exc


def _open_environment(directory: Path, map_size: int) -> lmdb.Environment:
    try:
        # No syncing at commit: the write to the OS is what survives kill -9; ``flush`` does the fsync.
        # ``lock=True`` lets any thread read; py-lmdb serializes the writers.
        env = lmdb.open(
            str(directory),
            map_size=map_size,
            sync=False,
            metasync=False,
            lock=True,
            max_readers=MAX_READERS,
            mode=PRIVATE_FILE,
        )
    except (lmdb.CorruptedError, lmdb.InvalidError, lmdb.VersionMismatchError) as exc:
        raise _corrupt(directory, exc) from exc
    except lmdb.ReadonlyError as exc:  # LMDB's EACCES
        raise StoreError(f"{directory} cannot be used: {exc}") from exc
    except lmdb.Error as exc:
        raise StoreError(f"{directory} cannot be opened by LMDB: {exc}") from exc
    try:
        _check_pages(directory, env)
    except BaseException:
        env.close()
        raise
    return env


def _check_pages(directory: Path, env: lmdb.Environment) -> None:
    """Refuse a data file shorter than its pages (reading past its end would kill the process with
    SIGBUS) and a root page that is not one; LMDB has no checksums to find damage elsewhere."""
    needed = (env.info()["last_pgno"] + 1) * env.stat()["psize"]
    size = (directory / DATA_FILE).stat().st_size
    if size < needed:
        raise _corrupt(directory, f"data.mdb is {size} bytes, but its pages reach {needed}")
    try:
        with env.begin() as txn:
            txn.cursor().first()
    except lmdb.Error as exc:
        raise _corrupt(directory, exc) from exc


class _View:
    """Reads inside the read transaction ``txn``: one committed state."""

    def __init__(self, txn: lmdb.Transaction[memoryview], directory: Path):
        self._txn, self._directory = txn, directory

    def get(self, key: bytes) -> bytes | None:
        try:
            value = self._txn.get(key)
            return None if value is None else _copied(value)
        except (lmdb.CorruptedError, lmdb.PageNotFoundError) as exc:
            raise _corrupt(self._directory, exc) from exc

    def read_into(self, keys: Sequence[bytes], into: memoryview) -> list[int]:
        """``Store.read_into`` inside the transaction."""

        def values() -> Iterator[memoryview | None]:
            for key in keys:
                value = self._txn.get(key)
                yield value
                if value is not None:  # copied by now (``copy_values_into`` asked for the next)
                    _release(value)

        try:
            return copy_values_into(values(), into)
        except (lmdb.CorruptedError, lmdb.PageNotFoundError) as exc:
            raise _corrupt(self._directory, exc) from exc

    def scan(self, prefix: bytes) -> Iterator[tuple[bytes, bytes]]:
        """Every (key, value) under ``prefix``, read whole now (the transaction may end after)."""
        found = []
        try:
            cursor = self._txn.cursor()
            if cursor.set_range(prefix):
                for key, value in cursor.iternext():
                    if key[: len(prefix)] != prefix:  # (a memoryview has no startswith)
                        break
                    found.append((bytes(key), _copied(value)))
        except (lmdb.CorruptedError, lmdb.PageNotFoundError) as exc:
            raise _corrupt(self._directory, exc) from exc
        return iter(found)


def _report(data: Path, total: int, progress: CopyProgress, done: threading.Event) -> None:
    """``progress`` (the size of the copy so far, ``total``) every PROGRESS_SECONDS until ``done``."""
    while not done.wait(PROGRESS_SECONDS):
        with contextlib.suppress(OSError):
            progress(data.stat().st_size, total)


def _out_of_space(directory: Path, batch: Batch, exc: lmdb.Error) -> bool:
    """Whether a failed commit ran out of disk: ENOSPC, or the EIO LMDB reports for a write the disk
    cut short, when the batch no longer fits."""
    if exc.code == errno.ENOSPC:
        return True
    if exc.code != errno.EIO:
        return False
    disk = os.statvfs(directory)
    needed = sum(len(key) + len(value or b"") for key, value in batch.writes.items())
    return disk.f_bavail * disk.f_frsize < needed


def _copied(value: memoryview) -> bytes:
    """A value's bytes, copied out of LMDB's map (inside its read transaction). A large value's whole
    pages are then unmapped from this process (``MADV_DONTNEED``): the map is a shared read-only file
    mapping, so they stay in the file and the page cache, and a later read maps them again. Without
    this, every page read stays counted in the process's resident memory until the kernel needs it:
    reading back a 400 MB fetch's parts added 400 MB, each fetch again, 1.2 GB after three."""
    data = bytes(value)
    _release(value)
    return data


def _release(value: memoryview) -> None:
    """Unmap a large value's whole pages, once copied out (``_copied`` says why)."""
    if len(value) >= RELEASED_BYTES:  # whole pages within the value only: its neighbours stay mapped
        start = np.frombuffer(value, np.uint8).ctypes.data
        first = -(-start // mmap.PAGESIZE) * mmap.PAGESIZE
        end = (start + len(value)) // mmap.PAGESIZE * mmap.PAGESIZE
        _LIBC.madvise(ctypes.c_void_p(first), ctypes.c_size_t(end - first), mmap.MADV_DONTNEED)  # a hint


def _delete_prefix(txn: lmdb.Transaction, prefix: bytes) -> None:
    cursor = txn.cursor()
    present = cursor.set_range(prefix)
    while present and cursor.key()[: len(prefix)] == prefix:  # (a memoryview has no startswith)
        present = cursor.delete()  # and moves to the next key


def _corrupt(directory: Path, why) -> StoreError:
    return StoreError(
        f"{directory} is corrupt or not an LMDB store: {why}; restore it from a backup; nothing was changed"
    )


def _unusable(directory: Path, exc: OSError) -> StoreError:
    if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return StoreError(
            f"{directory} cannot be used: {exc.strerror} ({exc.filename}); give moxzid a directory it may write"
        )
    return StoreError(f"{directory} cannot be used: {exc}")
