"""The management calls received over the IC interface, kept with moxzid's state until they expire, so
none runs twice: as the IC keeps every request id until its ``ingress_expiry``, a captured signed
``install_code`` or ``update_settings`` resent later (after a restart, or after the in-memory
statuses forgot it) is known, and its status reads ``done`` instead of it running again. Past that
expiry the envelope itself is refused (requests.py), so nothing need be kept longer.

Each id is written to the store (``ic/received/<request id>``: its expiry) before its call runs, so
a call runs at most once whatever happens to moxzid. At most MAX_RECEIVED unexpired ids are kept; one
more management call is refused (SYS_TRANSIENT) rather than an unexpired id forgotten. Calls to
actors need no such table: they are keyed by their request id (moxzi_core.runtime.replays).
"""

from __future__ import annotations

import heapq
import time

from moxzi_core.store import Batch, Store

PREFIX = b"ic/received/"
# At most this many management calls in one expiry window (agents ask for 5 minutes): 300 a second.
MAX_RECEIVED = 100_000


class Received:
    """The unexpired management request ids ``store`` holds. Used on the event loop."""

    def __init__(self, store: Store, capacity: int = MAX_RECEIVED):
        self._store, self.capacity = store, capacity
        self._expiries: dict[bytes, int] = {}
        self._by_expiry: list[tuple[int, bytes]] = []
        for key, value in store.scan(PREFIX):
            request_id, expiry = key[len(PREFIX) :], int.from_bytes(value, "big")
            self._expiries[request_id] = expiry
            self._by_expiry.append((expiry, request_id))
        heapq.heapify(self._by_expiry)
        batch = Batch()
        self._forget_expired(batch)
        store.commit(batch)

    def known(self, request_id: bytes) -> bool:
        """Whether this request was received before and has not expired."""
        expiry = self._expiries.get(request_id)
        return expiry is not None and expiry >= time.time_ns()

    def receive(self, request_id: bytes, expiry_ns: int) -> bool:
        """Keep a new request's id until ``expiry_ns``, in the store before its call runs; False, keeping
        nothing, when ``capacity`` unexpired ids are kept already."""
        batch = Batch()
        self._forget_expired(batch)
        if len(self._expiries) >= self.capacity:
            self._store.commit(batch)
            return False
        batch.put(PREFIX + request_id, expiry_ns.to_bytes(8, "big"))
        self._store.commit(batch)
        self._expiries[request_id] = expiry_ns
        heapq.heappush(self._by_expiry, (expiry_ns, request_id))
        return True

    def _forget_expired(self, batch: Batch) -> None:
        """Drop the ids past their expiry (from memory now, from the store with ``batch``)."""
        now = time.time_ns()
        while self._by_expiry and self._by_expiry[0][0] < now:
            _, request_id = heapq.heappop(self._by_expiry)
            del self._expiries[request_id]
            batch.delete(PREFIX + request_id)
