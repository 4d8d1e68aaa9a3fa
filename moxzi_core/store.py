"""What a state store must provide, and the store that keeps everything in memory.

moxzid keeps everything it must not lose (modules, actor snapshots, inboxes, pending calls) as keys and
values in one store; the layout is the core's business (`runtime/journal.py`). A store plugin provides
only atomic batches of writes, reads, prefix scans, and a flush that makes committed batches survive
a power loss. Batches committed (without a flush) must survive the process being killed.
"""

from __future__ import annotations

import os
import threading
from abc import ABC, abstractmethod
from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

# What a long copy reports as it goes: (bytes copied so far, about how many it will copy in all).
CopyProgress = Callable[[int, int], None]


def sync_directory(directory: Path) -> None:
    """Make the names in ``directory`` durable (a rename, a file made there): a store's, a backup's."""
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class StoreError(Exception):
    """The store cannot be used: incompatible, corrupt, full, or in use by another moxzid. The message
    says which, and what to do; nothing in the store was changed."""


@dataclass
class Batch:
    """Writes that take effect together or not at all. ``None`` as a value deletes the key."""

    # A memoryview value is a view of the caller's bytes, which must not change until the batch is committed.
    writes: dict[bytes, bytes | memoryview | None] = field(default_factory=dict)
    cleared_prefixes: list[bytes] = field(default_factory=list)  # applied before ``writes``

    def put(self, key: bytes, value: bytes | memoryview) -> None:
        self.writes[key] = value

    def delete(self, key: bytes) -> None:
        self.writes[key] = None

    def clear_prefix(self, prefix: bytes) -> None:
        """Delete every key that starts with ``prefix`` (before this batch's own writes)."""
        self.cleared_prefixes.append(prefix)
        for key in [k for k in self.writes if k.startswith(prefix)]:
            del self.writes[key]


class StoreView(Protocol):
    """Reads of one committed state of a store (what ``Store.backup`` copies)."""

    def get(self, key: bytes) -> bytes | None: ...

    def scan(self, prefix: bytes) -> Iterator[tuple[bytes, bytes]]: ...


@dataclass(frozen=True)
class StoreCopy:
    """What ``Store.backup`` wrote."""

    files: frozenset[str]  # the names in the store's directory that are the store's (copied or not)
    bytes: int  # how many it wrote
    observed: object = None  # what ``observe`` read of the copy's moment


def copy_values_into(values: Iterable[bytes | memoryview | None], into: memoryview) -> list[int]:
    """``Store.read_into``'s copying, for every store: ``values`` copied back to back into ``into`` up to
    the first that is None or no longer fits (which is taken from ``values`` but not copied); their
    lengths."""
    sizes, at = [], 0
    for value in values:
        if value is None or at + len(value) > len(into):
            break
        into[at : at + len(value)] = value
        at += len(value)
        sizes.append(len(value))
    return sizes


class Store(ABC):
    """A transactional key-value store. Its methods may be called from any thread."""

    # Whether the values are kept in this process's memory (and gone at exit): the core does not
    # compress what it writes to such a store, which would only cost time.
    in_memory = False
    # Whether a later host may read back what the store holds (moxzid started again on the same -s
    # directory, a test's second host on the same store). Where none does, the core writes none of
    # what only a restart reads: an actor's memory pages and its state record after each message, the
    # messages in its inbox and its pending system calls.
    read_back = True

    @abstractmethod
    def get(self, key: bytes) -> bytes | None:
        """The committed value of ``key``, or None."""

    @abstractmethod
    def scan(self, prefix: bytes) -> Iterator[tuple[bytes, bytes]]:
        """Every committed (key, value) whose key starts with ``prefix``, in key order."""

    @abstractmethod
    def commit(self, batch: Batch) -> None:
        """Apply ``batch`` atomically. Raises StoreError (nothing applied) if it cannot."""

    @abstractmethod
    def flush(self) -> None:
        """Make every committed batch durable on disk (fsync)."""

    @abstractmethod
    def close(self) -> None:
        """Release the store; no call may follow."""

    @property
    @abstractmethod
    def description(self) -> str:
        """Where the data lives, for the start-up log."""

    def size_bytes(self) -> int | None:
        """About how many bytes the store takes (for /metrics), or None when it cannot tell."""
        return None

    def read_into(self, keys: Sequence[bytes], into: memoryview) -> list[int]:
        """Copy the committed values of ``keys``, in order, back to back into ``into`` (writable
        bytes), stopping at the first key that is absent or whose value no longer fits: the lengths of
        the values copied. For values that no commit changes meanwhile (an attachment's parts: the
        read of a recorded fetch), in as few reads and copies as the store can: this one, for stores
        that do not override it, gets each key on its own."""
        return copy_values_into(map(self.get, keys), into)

    def compact(self) -> tuple[int, int]:
        """Give the space freed inside the store back to the OS (``moxzid compact``): the bytes it
        took before and after. Raises StoreError when it cannot, the store as it was; a store that
        gives its space back as it goes has nothing to do."""
        raise StoreError(f"{self.description}: this store cannot be compacted")

    def backup(
        self,
        destination: Path,
        progress: CopyProgress | None = None,
        observe: Callable[[StoreView], object] | None = None,
    ) -> StoreCopy:
        """Write a copy of everything committed, as of one moment, into the directory ``destination``
        (made, empty and private, by the caller: ``moxzi_core.backup``), while the store stays in use:
        a store opened on ``destination`` holds what this one held at that moment. Calls ``progress``
        now and then on a long copy, and ``observe`` with a view of that moment (its answer is the
        copy's ``observed``), so the caller can say what the copy holds. Raises StoreError when it
        cannot (``destination`` then holds no store)."""
        raise StoreError(f"{self.description}: this store cannot be backed up")


class MemoryStore(Store):
    """Keeps everything in an in-memory table: gone at exit. For runs without ``-s``, and tests.

    Its keys are sorted only for a scan or a cleared prefix, which are rare (start-up, snapshots,
    installs): a message's batch adds and drops inbox and pending keys, and keeping a sorted list in
    step cost each a move of the whole list (~9 µs with gpt.mo's 48,000 keys of memory, about six a
    device call)."""

    in_memory = True

    def __init__(self, read_back: bool = True) -> None:
        """``read_back`` False: no host reads this store after the one that writes it (moxzid without
        -s), so that host writes none of what only a restart reads into it (``Store.read_back``)."""
        self.read_back = read_back
        self._values: dict[bytes, bytes] = {}
        self._sorted: list[bytes] | None = []  # the keys in order; None: to sort again
        self._lock = threading.Lock()

    def _keys(self) -> list[bytes]:
        """(Under the lock) The keys in order."""
        if self._sorted is None:
            self._sorted = sorted(self._values)
        return self._sorted

    def get(self, key: bytes) -> bytes | None:
        return self._values.get(key)

    def scan(self, prefix: bytes) -> Iterator[tuple[bytes, bytes]]:
        with self._lock:
            keys = self._keys()
            found = []
            for key in keys[bisect_left(keys, prefix) :]:
                if not key.startswith(prefix):
                    break
                found.append((key, self._values[key]))
        return iter(found)

    def commit(self, batch: Batch) -> None:
        for value in batch.writes.values():  # refuse a bad batch before changing anything
            if value is not None and not isinstance(value, (bytes, bytearray, memoryview)):
                raise StoreError(f"a store value must be bytes, not {type(value).__name__}")
        with self._lock:
            for prefix in batch.cleared_prefixes:
                keys = self._keys()
                start = end = bisect_left(keys, prefix)
                while end < len(keys) and keys[end].startswith(prefix):
                    del self._values[keys[end]]
                    end += 1
                del keys[start:end]
            for key, value in batch.writes.items():
                if value is None:
                    if self._values.pop(key, None) is not None:
                        self._sorted = None
                else:
                    if key not in self._values:
                        self._sorted = None
                    self._values[key] = bytes(value)

    def flush(self) -> None:
        pass  # nothing outlives the process anyway

    def close(self) -> None:
        self._values.clear()
        self._sorted = []

    @property
    def description(self) -> str:
        return "in memory: state is lost when moxzid exits (use -s DIR to keep it)"

    def read_into(self, keys: Sequence[bytes], into: memoryview) -> list[int]:
        with self._lock:  # one committed state, as a scan reads
            return super().read_into(keys, into)

    def size_bytes(self) -> int:
        with self._lock:
            return sum(len(k) + len(v) for k, v in self._values.items())
