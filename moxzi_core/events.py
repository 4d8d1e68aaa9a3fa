"""moxzid's event stream: what happens inside the daemon, for plugins (the console, metrics) to watch.

Anything may publish (actor threads, the device's worker, the event loop) with ``Events.publish``, which
never blocks and never raises: each subscriber has its own bounded buffer, and when a subscriber falls
behind its oldest events are dropped and counted (``Subscription.dropped``), so a slow watcher never
slows an actor or the device. The stream also keeps the last ``RECENT`` events, which a new subscriber
may start from (``subscribe(replay=True)``), so a page opened late still sees the start-up lines.

Every event is a dict with ``kind`` and ``time`` (Unix seconds) and, by kind:

- ``log``: ``level`` (``INFO``...), ``logger``, ``message``, ``actor`` (the actor's name for its
  ``Debug.print`` lines, else None).
- ``message``: one handled message: ``actor``, ``method`` (``(timer)``, ``(response)``, ``(upgrade)``
  for those), ``query`` (bool), ``seconds``, ``instructions``, ``trapped`` (bool).
- ``device``: one device call: ``actor``, ``method`` (``run``, ``params``...), ``seconds``, ``ok``
  (bool: not rejected), ``changed`` (bool).
- ``train``: one training step of a run: ``actor``, ``optimizer`` (the run's first optimizer),
  ``step`` (this optimizer's steps since moxzid started, from 1), ``loss`` (the run's ``train.loss``
  register), ``seconds`` (the run's device time).
- ``checkpoint``: a copy of the device's state: ``seconds``, ``bytes``.
- ``fetch``: a ``moxzi_device_fetch`` download starting (``phase`` ``start``) or ending (``end``):
  ``actor``, ``url`` (its token redacted), ``bytes`` received so far, ``seconds`` since it started,
  ``error`` (at the end: why it failed, or None; always None at the start). A download that succeeded
  still becomes a device call, with its own ``device`` event.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections import deque

RECENT = 1000
DEFAULT_BUFFER = 10_000


class Subscription:
    """One subscriber's bounded buffer. ``take()`` from any thread; ``async wait()`` on an event loop."""

    def __init__(self, events: Events, buffer: int):
        self._events = events
        self._buffer: deque[dict] = deque(maxlen=buffer)
        self._lock = threading.Lock()
        self._waiter: tuple[asyncio.AbstractEventLoop, asyncio.Event] | None = None
        self.dropped = 0  # events lost because this subscriber fell behind

    def _put(self, event: dict) -> None:
        with self._lock:
            if len(self._buffer) == self._buffer.maxlen:
                self.dropped += 1
            self._buffer.append(event)
            waiter, self._waiter = self._waiter, None
        if waiter is not None:
            loop, ready = waiter
            try:
                loop.call_soon_threadsafe(ready.set)
            except RuntimeError:  # the subscriber's loop closed: nobody is waiting any more
                pass

    def take(self) -> list[dict]:
        """Every buffered event, oldest first (possibly none); they leave the buffer."""
        with self._lock:
            events = list(self._buffer)
            self._buffer.clear()
        return events

    async def next(self, timeout: float | None = None) -> list[dict]:
        """The buffered events, waiting up to ``timeout`` seconds for one if there are none (then [])."""
        ready = asyncio.Event()
        with self._lock:
            waiting = not self._buffer
            if waiting:
                self._waiter = (asyncio.get_running_loop(), ready)
        if waiting:
            try:
                await asyncio.wait_for(ready.wait(), timeout)
            except TimeoutError:
                pass
            with self._lock:
                self._waiter = None
        return self.take()

    def close(self) -> None:
        """Stop receiving events."""
        self._events._unsubscribe(self)


class Events:
    """The stream. Thread-safe; ``publish`` costs a lock and an append per subscriber."""

    def __init__(self) -> None:
        self._subscribers: list[Subscription] = []
        self._recent: deque[dict] = deque(maxlen=RECENT)
        self._lock = threading.Lock()

    def publish(self, kind: str, **fields) -> None:
        event = {"kind": kind, "time": time.time(), **fields}
        with self._lock:
            self._recent.append(event)
            subscribers = list(self._subscribers)
        for subscription in subscribers:
            subscription._put(event)

    def subscribe(self, buffer: int = DEFAULT_BUFFER, replay: bool = False) -> Subscription:
        """A new subscription holding at most ``buffer`` events; with ``replay`` it starts with the
        recent events (the last RECENT)."""
        subscription = Subscription(self, buffer)
        with self._lock:
            if replay:
                for event in self._recent:
                    subscription._put(event)
            self._subscribers.append(subscription)
        return subscription

    def _unsubscribe(self, subscription: Subscription) -> None:
        with self._lock:
            if subscription in self._subscribers:
                self._subscribers.remove(subscription)


class LogHandler(logging.Handler):
    """Publishes every log record it handles as a ``log`` event (``record.actor`` names an actor's
    ``Debug.print`` line)."""

    def __init__(self, events: Events):
        super().__init__()
        self._events = events

    def emit(self, record: logging.LogRecord) -> None:
        try:
            message = record.getMessage()
        except Exception:  # a malformed log call must not break the caller
            message = str(record.msg)
        self._events.publish(
            "log", level=record.levelname, logger=record.name, message=message, actor=getattr(record, "actor", None)
        )
