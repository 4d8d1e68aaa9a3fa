"""Group commit: what waits for committed batches to be on disk waits for one flush shared with every
other batch committed meanwhile, as databases flush their log.

A flush (an fsync) costs about as much for one batch as for many. An actor that flushed its batch
itself held its next message behind every sync, so with a state directory an actor served no more
calls with 64 clients than with one. Now ``after`` queues what a batch's durability releases (the
answers to callers outside, a keyed call's retries), and the store's flush runs on a thread of its own:
each flush covers every batch committed before it began, and releases everything queued by then; what
is queued while it runs waits for the next one, which covers it. The committing thread goes on to its
next message at once, its batch written to the OS (which survives the process being killed), and no
answer goes out before its batch is on disk (which survives a power loss too). What a flush releases
runs on the event loop, woken once for all of it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Callable

from ..store import Store, StoreError

log = logging.getLogger("moxzid")


class GroupSync:
    """Flushes ``store`` for everything queued with ``after``. When the store cannot flush, the event
    loop stops (moxzid stops, as when it cannot commit) and nothing queued is released from then on."""

    def __init__(self, store: Store):
        self._store = store
        self._loop: asyncio.AbstractEventLoop | None = None
        self._changed = threading.Condition()
        self._queued: list[Callable[[], None]] = []
        self._thread: threading.Thread | None = None  # flushing, between ``start`` and ``stop``
        self._broken = False

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        """Release on ``loop`` from now on."""
        self._loop = loop
        # A store that keeps its values in memory has nothing to flush: ``after`` releases at once.
        if self._store.in_memory or self._thread is not None:
            return
        self._thread = threading.Thread(target=self._run, name="group-sync", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Flush for what is queued, release it, and end the thread; ``after`` flushes on its caller's
        thread from then on (an actor settling the message it was running as the host stops)."""
        with self._changed:
            thread, self._thread = self._thread, None
            self._changed.notify()
        if thread is not None:
            thread.join()

    def after(self, release: Callable[[], None]) -> None:
        """Run ``release`` on the event loop once every batch committed before this call is on disk
        (``Store.flush``: on the flushing thread, or on this one where the host stopped). May be called
        from any thread once started."""
        with self._changed:
            if self._thread is not None:
                self._queued.append(release)
                self._changed.notify()
                return
        if self._store.in_memory or self._flush():
            self._on_loop([release])

    def _run(self) -> None:
        while True:
            with self._changed:
                while not self._queued and self._thread is not None:
                    self._changed.wait()
                released, self._queued = self._queued, []
                if not released and self._thread is None:
                    return
            if self._flush():  # (nothing is released once a flush failed; ``stop`` still ends the thread)
                self._on_loop(released)

    def _on_loop(self, released: list[Callable[[], None]]) -> None:
        assert self._loop is not None, "started"
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits for these any more
            self._loop.call_soon_threadsafe(_run_all, released)

    def _flush(self) -> bool:
        """Flush the store; False if it cannot, now or at an earlier flush (the loop is told to stop once)."""
        if self._broken:
            return False
        try:
            self._store.flush()
        except StoreError as error:
            self._broken = True
            log.critical("cannot write state: %s; moxzid stops", error)
            assert self._loop is not None, "started"
            self._loop.call_soon_threadsafe(self._loop.stop)
            return False
        return True


def _run_all(released: list[Callable[[], None]]) -> None:
    for release in released:
        release()
