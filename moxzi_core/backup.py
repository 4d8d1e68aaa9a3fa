"""A backup of a state directory (``-s DIR``): the store's copy as of one moment, taken while moxzid
runs (``POST /backup``, ``moxzi backup DEST``) or not (``moxzid backup -s DIR DEST``), and beside it the
other files moxzid keeps in DIR (the threshold keys' secrets, the IC interface's keys, the admin
token), as private as they are there: the directory 0700, its files 0600. Restoring is starting moxzid
with ``-s DEST``.

The store writes its own files (``Store.backup``: LMDB's copy of the live environment, in one read
transaction, so the actors, the device's copy and its record come from the same moment), and says
what that moment is: how many device calls had run (``Backup.device_calls``), which the state a moxzid
started on the backup comes back to. The other
files are each written whole by a rename when made, so a plain copy of each is whole too.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from .store import CopyProgress, Store, StoreError, sync_directory

PRIVATE_DIRECTORY, PRIVATE_FILE = 0o700, 0o600


class BackupError(Exception):
    """The backup cannot be made; the message says why. What was written of it has been removed."""


@dataclass(frozen=True)
class Backup:
    """What a backup wrote into its destination."""

    destination: Path
    bytes: int  # the store's copy and the other files
    files: list[str]  # the names written, sorted
    seconds: float
    device_calls: int  # the moment it holds: the device's calls run by then (its record's length)


def check_destination(destination: Path) -> None:
    """Raise BackupError unless ``destination`` is an absolute path that is missing or an empty
    directory (a backup never writes over anything)."""
    if not destination.is_absolute():
        raise BackupError(f"{destination}: give the backup's destination as an absolute path")
    try:
        if destination.is_dir():
            if any(destination.iterdir()):
                raise BackupError(f"{destination} is not empty: give a new or empty directory")
        elif destination.exists() or destination.is_symlink():
            raise BackupError(f"{destination} exists and is not a directory: give a new or empty directory")
    except OSError as exc:
        raise BackupError(f"{destination} cannot be used: {exc.strerror or exc}") from exc


def back_up(store: Store, state_dir: Path, destination: Path, progress: CopyProgress | None = None) -> Backup:
    """Copy ``store`` (opened on ``state_dir``) and the other files of ``state_dir`` into
    ``destination`` (``check_destination``'s rules; made if missing). ``store`` may be in use meanwhile.
    Raises BackupError, removing what it wrote (``destination`` itself too, when it made it)."""
    check_destination(destination)
    started = time.monotonic()
    made = not destination.exists()
    try:
        destination.mkdir(mode=PRIVATE_DIRECTORY, parents=True, exist_ok=True)
        os.chmod(destination, PRIVATE_DIRECTORY)
    except OSError as exc:
        raise BackupError(f"{destination} cannot be made: {exc.strerror or exc}") from exc
    try:
        # (Imported here: the `moxzi` command uses print_progress, and starts without the runtime.)
        from .runtime.journal import system_calls_run

        copied = store.backup(destination, progress, system_calls_run)
        size = copied.bytes
        for entry in sorted(os.scandir(state_dir), key=lambda entry: entry.name):
            if entry.name not in copied.files and entry.is_file(follow_symlinks=False):
                size += _copy_private(Path(entry.path), destination / entry.name)
        sync_directory(destination)
    except (StoreError, OSError) as exc:
        _remove_contents(destination, made)
        raise BackupError(f"the backup into {destination} failed: {exc}; it was removed") from exc
    except BaseException:
        _remove_contents(destination, made)
        raise
    files = sorted(os.listdir(destination))
    assert isinstance(copied.observed, int)
    return Backup(destination, size, files, time.monotonic() - started, copied.observed)


def print_progress(copied: int, total: int) -> None:
    """A long copy's progress on stderr, on one line that each report rewrites."""
    end = "\n" if copied >= total else ""
    print(f"\rcopied {copied / 1e6:,.1f} of about {total / 1e6:,.1f} MB", end=end, file=sys.stderr, flush=True)


def _copy_private(source: Path, target: Path) -> int:
    """``source``'s bytes into the new file ``target``, 0600 from its creation, fsynced; their count."""
    with (
        open(source, "rb") as reading,
        open(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE), "wb") as writing,
    ):
        shutil.copyfileobj(reading, writing)
        writing.flush()
        os.fsync(writing.fileno())
        return writing.tell()


def _remove_contents(destination: Path, made: bool) -> None:
    if made:
        shutil.rmtree(destination, ignore_errors=True)
        return
    for entry in os.scandir(destination):
        if entry.is_dir(follow_symlinks=False):
            shutil.rmtree(entry.path, ignore_errors=True)
        else:
            os.unlink(entry.path)
