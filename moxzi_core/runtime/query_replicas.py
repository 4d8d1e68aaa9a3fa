"""Query replicas: more instances of an actor's module that answer its queries from its last committed
state, beside the message its own thread is running and beside each other.

A replica catches up just before each query it runs (`Instance.follow`): the pages of both memories the
actor committed since the replica's last query, and the pages that query wrote, are copied from the
actor's committed state (the shadows its memories keep anyway),
and the globals set to the committed ones. So a query costs what it and the commits since wrote, not
the size of the heap, and never sees a message that has not completed. The actor's commits and a
catching-up hold the same lock, so a replica sees whole messages only.

Replicas are made on demand, one per query running at once (the host bounds how many queries run at
once, and a composite query's calls, each of which runs on a replica of its callee, how deep they go),
and kept; an upgrade drops them, as the code they run is gone. Each is a copy of the actor's memories,
so together they hold at most ``max_bytes`` (the memory an actor may grow to, ``--actor-memory-mb``), and
always one: a large actor gets fewer replicas and its queries take turns on them (a replica over the
``max_bytes``, as the actor grew, is dropped when its query ends). A query that may not wait for a turn
indefinitely (a composite query's call, whose caller holds replicas itself) gives up (`NoReplica`).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TypeVar

import numpy as np

from .engine import Instance

T = TypeVar("T")


class NoReplica(Exception):
    """No replica of the actor came free in the time the query may wait, or none can: every one is held
    by the calling thread itself (a composite query whose calls came back to this actor)."""


class _Replica:
    def __init__(self, instance: Instance, generation: int):
        self.instance = instance
        self.generation = generation
        self.holder: int | None = None  # the thread running a query on it (threading.get_ident)
        self.memory_pages: set[int] | None = None  # committed since it last caught up (None: all)
        self.stable_pages: set[int] | None = None


class Replicas:
    """An actor's query replicas. ``committing`` is held around each commit of the actor's instance and
    each change of instance; ``run`` may be called from any thread once there is one."""

    def __init__(self, make: Callable[[], Instance], certified_data: Callable[[], bytes], max_bytes: int):
        """``make()`` is a fresh replica of the module the actor runs (`replace` names its instance);
        ``certified_data()`` is the actor's certified data as its last commit left it; the replicas hold
        at most ``max_bytes``, or one replica."""
        self.committing = threading.RLock()
        self._returned = threading.Condition(self.committing)  # a replica went idle, or was dropped
        self._certified_data = certified_data
        self._max_bytes = max_bytes
        self._source: Instance | None = None
        self._make = make
        self._generation = 0
        self._idle: list[_Replica] = []
        self._all: list[_Replica] = []
        # How many times the actor's committed state changed (commits, changes of instance), for what
        # else reads it from another thread (`turn.Held.write_late`)
        self.changes = 0

    def committed(self, memory_pages: list[int], stable_pages: list[int]) -> None:
        """The actor committed these pages (call holding ``committing``)."""
        self.changes += 1
        for replica in self._all:
            if replica.memory_pages is not None and replica.stable_pages is not None:  # (set together)
                replica.memory_pages.update(memory_pages)
                replica.stable_pages.update(stable_pages)

    def replace(self, source: Instance | None) -> None:
        """The actor now runs ``source`` (its first code, an upgrade, a reinstall; None: its code was
        uninstalled; call holding ``committing``): drop every replica."""
        self.changes += 1
        self._source = source
        self._generation += 1
        self._idle, self._all = [], []
        self._returned.notify_all()

    def run(self, query: Callable[[Instance, bytes], T], wait: float | None = None) -> T:
        """``query(instance, certified_data)`` on a replica holding the actor's last committed state, with
        the certified data that state set (read together, so a data certificate matches the state).
        When every replica ``max_bytes`` allows is busy it waits for one: at most ``wait`` seconds (None:
        as long as it takes), and not at all when the calling thread holds them all; then it raises
        NoReplica."""
        with self.committing:
            if self._source is None:  # (uninstalled since the query found it had code)
                raise NoReplica("the actor has no code")
            replica = self._take(wait)
            replica.holder = threading.get_ident()
            memory_pages, stable_pages = replica.memory_pages, replica.stable_pages
            assert self._source is not None, "queries run once the actor has code"
            replica.instance.follow(self._source, _array(memory_pages), _array(stable_pages))
            replica.memory_pages, replica.stable_pages = set(), set()
            certified_data = self._certified_data()
        try:
            return query(replica.instance, certified_data)
        finally:
            with self.committing:
                replica.holder = None
                if replica.generation == self._generation:
                    if len(self._all) > self._fitting():
                        self._all.remove(replica)
                    else:
                        self._idle.append(replica)
                    self._returned.notify()

    def _take(self, wait: float | None) -> _Replica:
        """An idle replica, a new one if it fits in ``max_bytes``, or the first one another query gives back
        within ``wait`` seconds (call holding ``committing``)."""
        deadline = None if wait is None else time.monotonic() + wait
        while True:
            while self._idle and len(self._all) > self._fitting():  # the actor grew past them
                self._all.remove(self._idle.pop())
            if self._idle:
                return self._idle.pop()
            if len(self._all) < self._fitting():  # instantiating takes milliseconds, once per replica
                replica = _Replica(self._make(), self._generation)
                self._all.append(replica)
                return replica
            me = threading.get_ident()
            if deadline is not None and all(replica.holder == me for replica in self._all):
                raise NoReplica("each replica the actor's memory limit allows is held by this call graph")
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                raise NoReplica(f"no replica came free in {wait}s")
            self._returned.wait(left)

    def _fitting(self) -> int:
        """How many replicas of the actor's memories, as large as they are now, fit in ``max_bytes``."""
        assert self._source is not None, "queries run once the actor has code"
        size = self._source.memory.committed_size + self._source.stable.committed_size
        return max(1, self._max_bytes // max(size, 1))


def _array(pages: set[int] | None) -> np.ndarray | None:
    return None if pages is None else np.fromiter(pages, dtype=np.int64, count=len(pages))
