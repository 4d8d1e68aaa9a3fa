"""A canister's log, as the IC keeps it and ``fetch_canister_logs`` reads it: a record for every
``ic0.debug_print`` and every trap (``[TRAP]: message``) of the canister's replicated executions (not
of queries run as queries, composite queries or canister_inspect_message), each with an index that
only grows and the time of the message that made it. Only the most recent records are kept: together
at most the canister's ``log_memory_limit`` (4 KiB), each counted as the IC counts it, its content
plus ``RECORD_OVERHEAD``; a reinstall empties the log, an upgrade keeps it.

The actor's thread adds records as its entry points run (a trapped one's included: that is what the
log is for); queries read it from other threads, so both go through a lock. The store holds the log
as a value of its own beside the actor's state record, written in the batch that settles the message
that changed it (`Actor._settle`), so a message run again after a crash writes its records once."""

from __future__ import annotations

import threading
from collections import deque

RECORD_OVERHEAD = 40  # what the IC counts for a record beside its content: its index, time and content's vector
MAX_LOG_BYTES = 4096  # the most log_memory_limit may be, as on the IC
TRAP_PREFIX = b"[TRAP]: "
# The entry-point kinds (`ic0.CONTEXT_NAMES`) that run outside replicated execution: their
# prints and traps are not logged, as on the IC.
NOT_LOGGED = frozenset(("NRQ", "CQ", "CRy", "CRt", "CC", "F"))


class CanisterLog:
    def __init__(self, next_idx: int = 0, records: list | None = None):
        self._lock = threading.Lock()
        self._next = next_idx
        self._records: deque[tuple[int, int, bytes]] = deque(
            (idx, timestamp, bytes(content)) for idx, timestamp, content in records or ()
        )
        self._size = sum(RECORD_OVERHEAD + len(content) for _, _, content in self._records)
        self.changed = False  # since the store last got it (`changes`)

    @property
    def next_idx(self) -> int:
        return self._next

    @property
    def size(self) -> int:
        """Bytes the records take as the IC counts them (canister_status's log_memory_store_size)."""
        return self._size

    def add(self, timestamp: int, content: bytes, limit: int) -> None:
        """Append a record, dropping the oldest until all fit in ``limit`` bytes (a record larger
        than that alone keeps the start of its content)."""
        content = content[: max(limit - RECORD_OVERHEAD, 0)]
        with self._lock:
            self._records.append((self._next, timestamp, content))
            self._next += 1
            self._size += RECORD_OVERHEAD + len(content)
            while self._size > limit:
                self._size -= RECORD_OVERHEAD + len(self._records.popleft()[2])
            self.changed = True

    def drop_before(self, idx: int) -> None:
        """Forget the records older than record ``idx`` (a reinstall's purge); indexes go on."""
        with self._lock:
            while self._records and self._records[0][0] < idx:
                self._size -= RECORD_OVERHEAD + len(self._records.popleft()[2])
            self.changed = True

    def records(self) -> list[tuple[int, int, bytes]]:
        """(idx, timestamp ns, content) of each record kept, oldest first (any thread)."""
        with self._lock:
            return list(self._records)

    def changes(self) -> list | None:
        """The log as the store keeps it (`record`) if records came or went since the last call, else
        None (the actor's thread, as it settles)."""
        changed, self.changed = self.changed, False
        return self.record() if changed else None

    def record(self) -> list:
        """The log as the store keeps it: [next index, [[idx, timestamp, content], ...]]."""
        with self._lock:
            return [self._next, [list(entry) for entry in self._records]]

    @classmethod
    def from_record(cls, record: list) -> CanisterLog:
        next_idx, records = record
        return cls(next_idx, records)
