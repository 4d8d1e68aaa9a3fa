"""Keyed calls from outside run once: a call made with a key (the HTTP gateway's ``Idempotency-Key``
header, the IC interface's request id) that is retried with the same key gets the first run's outcome,
or waits for the first run to end, instead of running again.

Exact across a crash: the outcome is written in the batch that completes the call (``Delivery.settle``),
so the store holds both the call's effects and its outcome, or neither, and then the call is still in
its actor's inbox (its origin names the key): it runs again at start-up, and a retry waits for it. A
call refused as transient (SYS_TRANSIENT: it did not run) keeps no outcome, so a retry runs it.

Bounded: an outcome is kept ``REPLAY_SECONDS`` after its call ended, and at most ``MAX_KEYS`` of them
and ``MAX_REPLY_BYTES`` of their replies; past either, the oldest go first, and a retry of a key gone
runs as a new call. The keys are the sha256 of the caller and the key, so any key fits.
"""

from __future__ import annotations

import asyncio
import hashlib
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field

import cbor2

from .. import errors
from ..store import Batch, Store
from .messages import Outcome, Reject

PREFIX = b"replay/"
REPLAY_SECONDS = 24 * 3600
MAX_KEYS = 100_000
MAX_REPLY_BYTES = 64 << 20


@dataclass
class _Running:
    fingerprint: bytes
    waiters: list[asyncio.Future] = field(default_factory=list)


@dataclass
class _Kept:
    fingerprint: bytes
    ended_ns: int
    size: int


class Replays:
    """The keyed calls running and the outcomes kept. ``claim`` is called on the event loop ``loop``;
    ``record`` and ``settled`` on any thread."""

    def __init__(self, store: Store, loop: asyncio.AbstractEventLoop):
        """Read the outcomes ``store`` keeps (dropping those expired)."""
        self._store, self._loop = store, loop
        self._lock = threading.Lock()
        self._running: dict[bytes, _Running] = {}
        self._kept: OrderedDict[bytes, _Kept] = OrderedDict()  # oldest first
        self._kept_bytes = 0
        found = []
        for key, value in store.scan(PREFIX):
            fingerprint, ended_ns, reply, _, _ = cbor2.loads(value)
            found.append((ended_ns, key[len(PREFIX) :], fingerprint, len(reply or b"")))
        batch = Batch()
        for ended_ns, key, fingerprint, size in sorted(found):
            self._kept[key] = _Kept(fingerprint, ended_ns, size)
            self._kept_bytes += size
        self._prune(batch, time.time_ns())
        store.commit(batch)

    @staticmethod
    def key(caller: bytes, key: bytes) -> bytes:
        """The store's key for ``key`` from ``caller``."""
        return hashlib.sha256(len(caller).to_bytes(1, "big") + caller + key).digest()

    @staticmethod
    def fingerprint(actor: str, method: str, arg: bytes) -> bytes:
        """What a retry must repeat to be the same call."""
        return hashlib.sha256(cbor2.dumps([actor, method, arg])).digest()

    def claim(self, key: bytes, fingerprint: bytes) -> Outcome | asyncio.Future | None:
        """None when the call is new (the caller runs it, its origin naming ``key``); else the first
        run's outcome, or a future of it while that runs. Raises errors.KeyReused for another call's key."""
        with self._lock:
            running = self._running.get(key)
            kept = self._kept.get(key)
            if running is None and kept is not None and kept.ended_ns < time.time_ns() - REPLAY_SECONDS * 10**9:
                kept = None
            known = running or kept
            if known is not None and known.fingerprint != fingerprint:
                raise errors.KeyReused(
                    "this key was used for another call (another actor, method or arguments); a new call "
                    "needs a new key"
                )
            if running is not None:
                waiter = self._loop.create_future()
                running.waiters.append(waiter)
                return waiter
            if kept is not None:
                value = self._store.get(PREFIX + key)
                if value is not None:
                    _, _, reply, code, message = cbor2.loads(value)
                    return Outcome(reply, code, message)
            self._running[key] = _Running(fingerprint)
            return None

    def release(self, key: bytes) -> None:
        """The new call ``key`` that ``claim`` let run was refused before it ran (its actor's queue is
        full): forget it, so a retry with the key runs it. Called on the event loop, in the same step as
        ``claim``, so no retry waits for it yet."""
        with self._lock:
            running = self._running.pop(key)
        assert not running.waiters, "released in the step that claimed it"

    def resume(self, key: bytes, fingerprint: bytes) -> None:
        """(At start-up) a keyed call is in an inbox, to run again: retries wait for it."""
        with self._lock:
            self._running[key] = _Running(fingerprint)

    def record(self, batch: Batch, key: bytes, outcome: Outcome) -> None:
        """Write the outcome of the keyed call ``key`` into ``batch``, the one completing the call; call
        ``settled`` once it is on disk."""
        if outcome.reject_code == Reject.SYS_TRANSIENT:
            return
        with self._lock:
            running = self._running.get(key)
            if running is None:
                return
            now = time.time_ns()
            batch.put(
                PREFIX + key,
                cbor2.dumps([running.fingerprint, now, outcome.reply, outcome.reject_code, outcome.reject_message]),
            )
            replaced = self._kept.pop(key, None)  # (kept past its time, then run again)
            self._kept_bytes -= replaced.size if replaced else 0
            self._kept[key] = _Kept(running.fingerprint, now, len(outcome.reply or b""))
            self._kept_bytes += len(outcome.reply or b"")
            self._prune(batch, now)

    def settled(self, key: bytes, outcome: Outcome) -> None:
        """The keyed call ``key`` ended with ``outcome`` (recorded and on disk): answer the retries that
        wait for it."""
        with self._lock:
            running = self._running.pop(key, None)
        for waiter in running.waiters if running else []:
            self._loop.call_soon_threadsafe(_settle, waiter, outcome)

    def _prune(self, batch: Batch, now: int) -> None:
        expired = now - REPLAY_SECONDS * 10**9
        while self._kept:
            key, oldest = next(iter(self._kept.items()))
            if len(self._kept) <= MAX_KEYS and self._kept_bytes <= MAX_REPLY_BYTES and oldest.ended_ns >= expired:
                return
            del self._kept[key]
            self._kept_bytes -= oldest.size
            batch.delete(PREFIX + key)


def _settle(future: asyncio.Future, outcome: Outcome) -> None:
    if not future.done():
        future.set_result(outcome)
