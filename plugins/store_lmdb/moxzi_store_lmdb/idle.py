"""Giving ``data.mdb``'s free pages back while moxzid runs: the store's calls pass a ``Gate``, which
lets the environment be swapped for its compacted copy only between them, and ``compact_when_idle``
(a thread of each ``LmdbStore``) does that once the store has been quiet a while.

LMDB copies on write and reuses the pages it frees, but never gives them back to the OS: a message
that rewrote a heap (seed 003's gpt.mo ``load``: ~48 MB of compressed chunks) leaves that much free
in the file for good. The compaction copies the store (LMDB's compacting copy, in a read transaction:
readers and writers go on meanwhile), fsyncs the copy, and swaps it in only if no batch was committed
since the copy's transaction began; otherwise the copy is thrown away and tried again after a longer
quiet spell (``LmdbStore.compact_if_wasteful``).
"""

from __future__ import annotations

import logging
import threading
import time
import weakref
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .store import LmdbStore

log = logging.getLogger("moxzid")

CHECK_SECONDS = 1.0  # how often the thread looks at the store
QUIET_SECONDS = 2.0  # no commit for this long: the store is idle (doubling after each copy a commit spoilt)
MOST_QUIET_SECONDS = 64.0
RETRY_SECONDS = 600.0  # after a copy that failed (no room on the disk, say)
# The most of the time copies may take: an actor that frees pages and idles, again and again, cannot
# make the store rewrite itself more often (the next copy waits 1/COPY_SHARE of the last one's time).
COPY_SHARE = 0.01
# Worth a compaction: free pages over this share of the file and this many bytes. A copy rewrites the
# whole file while idle, and the next commits grow it again by about two batches' pages: seed 003's
# gpt.mo, compacted to 116 MB, held 134 MB after 300 more steps (18 MB free) and, compacted again,
# 127 MB after 300 more (12 MB free: under 10% of it).
WASTED_SHARE = 0.05
WASTED_BYTES = 8 << 20
SWAP_WAIT_SECONDS = 0.5  # the longest the swap waits for the store's calls in progress to end


class Gate:
    """Any number of the store's calls in the environment at once (``with gate:``), or the swap alone
    (``begin_swap`` .. ``end_swap``). A swap stops new calls from entering and waits for those in
    progress to end; when they go on for longer than its timeout (a scan of many values) it gives up and
    lets the waiting calls in: they wait ``SWAP_WAIT_SECONDS`` at most, and then only while the store
    is idle."""

    def __init__(self) -> None:
        # Calls take the bare lock (its C ``with``: ~0.5 us a call less than the condition's).
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._calls = 0
        self._shut = False  # a swap waits for the calls in progress, or runs

    def __enter__(self) -> None:
        with self._lock:
            while self._shut:
                self._changed.wait()
            self._calls += 1

    def __exit__(self, *exc_info) -> None:
        with self._lock:
            self._calls -= 1
            if self._shut and not self._calls:  # the swap waits for this
                self._changed.notify_all()

    def begin_swap(self, timeout: float | None) -> bool:
        """Whether the calls in progress ended within ``timeout`` seconds (None: however long they
        take); if so, none enters until ``end_swap``."""
        with self._changed:
            self._shut = True
            if self._changed.wait_for(lambda: not self._calls, timeout):
                return True
            self._shut = False
            self._changed.notify_all()
            return False

    def end_swap(self) -> None:
        with self._changed:
            self._shut = False
            self._changed.notify_all()


class Activity:
    """When the store last committed a batch, and how long it must stay quiet to be compacted."""

    def __init__(self) -> None:
        self.last_commit: float | None = None
        self.quiet_needed = QUIET_SECONDS
        self.not_before = 0.0

    def committed(self) -> None:
        self.last_commit = time.monotonic()

    def due(self, idle_only: bool) -> bool:
        """Whether to compact now: this process committed (one that only reads, as ``moxzid backup
        -s`` does, leaves the file as it found it), no copy failed in the last ``RETRY_SECONDS``, and
        (``idle_only``) no commit came for ``quiet_needed`` seconds."""
        now = time.monotonic()
        if self.last_commit is None or now < self.not_before:
            return False
        return not idle_only or now - self.last_commit >= self.quiet_needed

    def copied(self, seconds: float, swapped: bool) -> None:
        """After a copy that took ``seconds``: the next waits ``seconds / COPY_SHARE``, and, when a
        commit during the copy kept it from being swapped in, for a quiet spell twice as long."""
        self.not_before = time.monotonic() + seconds / COPY_SHARE
        self.quiet_needed = QUIET_SECONDS if swapped else min(self.quiet_needed * 2, MOST_QUIET_SECONDS)

    def failed(self) -> None:
        self.not_before = time.monotonic() + RETRY_SECONDS


def compact_when_idle(store: weakref.ref[LmdbStore], stop: threading.Event) -> None:
    """(The store's thread) Compact the store whenever it is idle and wasteful, until ``stop`` is set
    or the store is gone, or a failure ``compact_if_wasteful`` does not expect (its directory gone, say)
    ends the thread: the store goes on, compacted only as it closes."""
    while not stop.wait(CHECK_SECONDS):
        held = store()
        if held is None:
            return
        try:
            held.compact_if_wasteful()
        except Exception:
            log.exception("the store's compaction while idle failed; it stops until moxzid does")
            return
        del held
