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

# How long a held batch waits for the message after it, at most (then this thread writes it alone). Far
# above what a message of a busy actor takes (~0.2-0.5 ms, a few ms where the machine is loaded: each
# batch written alone costs the packing and the transaction that holding saves), and about a flush
# (fsync: 1-10 ms), which every answer waits for anyway.
HELD_SECONDS = 0.005


class HeldWatch:
    """Calls each check ``add`` was given (``check(now)``: write what is held if it is due by ``now``,
    a `time.perf_counter` time; whether it still waits) every ``HELD_SECONDS / 2`` until it answers
    False, between ``start`` and ``stop``; the thread sleeps while there is none."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._watched: dict[Callable[[float], bool], int] = {}  # each check, by when it was last added
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

    def add(self, check: Callable[[float], bool]) -> None:
        """Watch ``check`` (again) from now on (any thread)."""
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
            time.sleep(HELD_SECONDS / 2)
            if self._thread is None:  # (stopped meanwhile)
                return
            now = time.perf_counter()
            done = [check for check in watched if not self._waits(check, now)]
            with self._changed:
                for check in done:
                    if self._watched.get(check) == watched[check]:  # (not added again meanwhile)
                        del self._watched[check]

    @staticmethod
    def _waits(check: Callable[[float], bool], now: float) -> bool:
        try:
            return check(now)
        except Exception:  # a bug must not end the thread: the actor's next settle writes what is held
            log.exception("writing an actor's held messages")
            return False
