"""Query replicas: more instances of an actor's module that answer its queries from its last committed
state, beside the message its own thread is running and beside each other.

A replica catches up just before each query it runs (`Instance.follow`): the pages of both memories the
actor committed since the replica's last query, and the pages that query wrote, are copied from the
actor's committed state (the shadows its memories keep anyway),
and the globals set to the committed ones. So a query costs what it and the commits since wrote, not
the size of the heap, and never sees a message that has not completed. The actor's commits and a
catching-up hold the same lock, so a replica sees whole messages only.

Replicas are made on demand, one per query running at once (the host bounds how many run at once), and
kept; an upgrade drops them, as the code they run is gone. Each is a copy of the actor's memories, so
together they hold at most ``budget`` bytes (the actor's memory budget, ``--actor-memory-mb``), and
always one: a large actor gets fewer replicas and its queries take turns on them (a replica over the
budget, as the actor grew, is dropped when its query ends).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

import numpy as np

from .instance import Instance

T = TypeVar("T")


class _Replica:
    def __init__(self, instance: Instance, generation: int):
        self.instance = instance
        self.generation = generation
        self.memory_pages: set[int] | None = None  # committed since it last caught up (None: all)
        self.stable_pages: set[int] | None = None


class Replicas:
    """An actor's query replicas. ``committing`` is held around each commit of the actor's instance and
    each change of instance; ``run`` may be called from any thread once there is one."""

    def __init__(self, make: Callable[[], Instance], certified_data: Callable[[], bytes], budget: int):
        """``make()`` is a fresh replica of the module the actor runs (`replace` names its instance);
        ``certified_data()`` is the actor's certified data as its last commit left it; the replicas hold
        at most ``budget`` bytes, or one replica."""
        self.committing = threading.RLock()
        self._returned = threading.Condition(self.committing)  # a replica went idle, or was dropped
        self._certified_data = certified_data
        self._budget = budget
        self._source: Instance | None = None
        self._make = make
        self._generation = 0
        self._idle: list[_Replica] = []
        self._all: list[_Replica] = []

    def committed(self, memory_pages: list[int], stable_pages: list[int]) -> None:
        """The actor committed these pages (call holding ``committing``)."""
        for replica in self._all:
            if replica.memory_pages is not None and replica.stable_pages is not None:  # (set together)
                replica.memory_pages.update(memory_pages)
                replica.stable_pages.update(stable_pages)

    def replace(self, source: Instance) -> None:
        """The actor now runs ``source`` (its first code, an upgrade, a reinstall; call holding
        ``committing``): drop every replica."""
        self._source = source
        self._generation += 1
        self._idle, self._all = [], []
        self._returned.notify_all()

    def run(self, query: Callable[[Instance, bytes], T]) -> T:
        """``query(instance, certified_data)`` on a replica holding the actor's last committed state, with
        the certified data that state set (read together, so a data certificate matches the state)."""
        with self.committing:
            replica = self._take()
            memory_pages, stable_pages = replica.memory_pages, replica.stable_pages
            assert self._source is not None, "queries run once the actor has code"
            replica.instance.follow(self._source, _array(memory_pages), _array(stable_pages))
            replica.memory_pages, replica.stable_pages = set(), set()
            certified_data = self._certified_data()
        try:
            return query(replica.instance, certified_data)
        finally:
            with self.committing:
                if replica.generation == self._generation:
                    if len(self._all) > self._fitting():
                        self._all.remove(replica)
                    else:
                        self._idle.append(replica)
                    self._returned.notify()

    def _take(self) -> _Replica:
        """An idle replica, a new one if it fits the budget, or the first one another query gives back
        (call holding ``committing``)."""
        while True:
            while self._idle and len(self._all) > self._fitting():  # the actor grew past them
                self._all.remove(self._idle.pop())
            if self._idle:
                return self._idle.pop()
            if len(self._all) < self._fitting():  # instantiating takes milliseconds, once per replica
                replica = _Replica(self._make(), self._generation)
                self._all.append(replica)
                return replica
            self._returned.wait()

    def _fitting(self) -> int:
        """How many replicas of the actor's memories, as large as they are now, fit in the budget."""
        assert self._source is not None, "queries run once the actor has code"
        size = self._source.memory.committed_size + self._source.stable.committed_size
        return max(1, self._budget // max(size, 1))


def _array(pages: set[int] | None) -> np.ndarray | None:
    return None if pages is None else np.fromiter(pages, dtype=np.int64, count=len(pages))
