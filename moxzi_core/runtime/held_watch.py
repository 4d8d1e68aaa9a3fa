"""The bound on how long an actor's held messages wait for the message after them (`turn.Held`): one
thread for all of a host's actors that writes a held batch once it was held `HELD_SECONDS`, while the
next message still runs (one that runs long: up to its instruction limit, seconds), so a cheap call
queued before a long one is answered after its own batch, not after the long one.

A batch is held only while the actor runs its next message (or is about to), and the actor's committed
state does not change until that message commits: the thread writes what the held messages left, read
under the lock the actor's commits hold (`Replicas.committing`), as a query replica reads it.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

log = logging.getLogger("moxzid")

# How long a held batch waits for the message after it, at most (then this thread writes it alone).
# Above what a busy actor's held batch waits for its next settle (at 64 clients on a loaded 2-core
# machine: 0.13 ms in the median, 4.3 ms at the 99th percentile, so 0.6% are written alone; at 2 ms,
# 5%: each costs the packing and the transaction holding saves), and of the order of the flush every
# answer waits for anyway (1.0 ms in the median, 8 ms at the 99th percentile there).
HELD_SECONDS = 0.005


class HeldWatch:
    """Calls each check ``add`` was given (``check(now)``: write what is held if it is due by ``now``, a
    `time.perf_counter` time; when it is due, or None once nothing waits) when it is due, until it
    answers None, between ``start`` and ``stop``; the thread sleeps while there is none."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._watched: dict[Callable[[float], float | None], int] = {}  # each check, by when it was last added
        self._added = 0
        self._idle = False  # the thread waits for a check
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="held-watch", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Call no check any more, once one running now has returned: a stopping host writes nothing late."""
        with self._changed:
            thread, self._thread = self._thread, None
            self._changed.notify()
        if thread is not None:
            thread.join()

    def add(self, check: Callable[[float], float | None]) -> None:
        """Watch ``check`` (again) from now on (any thread). It is due `HELD_SECONDS` from now, no sooner
        than any watched before it: the thread, sleeping until the first of those, wakes in time."""
        with self._changed:
            self._added += 1
            self._watched[check] = self._added
            if self._idle:
                self._changed.notify()

    def _run(self) -> None:
        while True:
            with self._changed:
                while self._thread is not None and not self._watched:
                    self._idle = True
                    self._changed.wait()
                self._idle = False
                if self._thread is None:
                    return
                watched = dict(self._watched)
            now = time.perf_counter()
            due = {check: self._due(check, now) for check in watched}
            with self._changed:
                for check, when in due.items():
                    if when is None and self._watched.get(check) == watched[check]:  # (not added again meanwhile)
                        del self._watched[check]
            waiting = [when for when in due.values() if when is not None]
            if waiting:  # (one a settle took wakes the thread early once, at most; ``stop`` wakes it)
                with self._changed:
                    if self._thread is not None:
                        self._changed.wait(max(min(waiting) - time.perf_counter(), 0))

    @staticmethod
    def _due(check: Callable[[float], float | None], now: float) -> float | None:
        try:
            return check(now)
        except Exception:  # a bug must not end the thread: the actor's next settle writes what is held
            log.exception("writing an actor's held messages")
            return None
