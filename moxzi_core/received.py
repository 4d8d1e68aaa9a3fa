"""Signed requests received, kept with moxzid's state until they expire, so none runs twice: as the IC
keeps every request id until its ``ingress_expiry``, a captured signed request resent later (after a
restart, or after what is in memory forgot it) is known. Past that expiry the request itself is refused
(``signatures.check_expiry``), so nothing need be kept longer. The IC interface keeps its management
calls here (``ic/received/``: a resent ``install_code`` reads ``done`` instead of running again), the
HTTP gateway its signed upgrade and weights requests (calls to actors need no such table: they are
keyed by their request id, moxzi_core.runtime.replays).

Each id is written to the store (``PREFIX<request id>``: its expiry and whom it counts against) before
its request runs, so a request runs at most once whatever happens to moxzid. At most ``capacity``
unexpired ids are kept, and ``per_sender`` of one sender's; one more request is refused rather than an
unexpired id forgotten.
"""

from __future__ import annotations

import heapq
import time
from collections import Counter

from moxzi_core.store import Batch, Store

# At most this many requests of a kind in one expiry window (agents ask for 5 minutes): 300 a second;
# one sender's share, so that it alone cannot have everyone's refused: 3 a second, far more than
# icp deploy's few calls per canister.
MAX_RECEIVED = 100_000
PER_SENDER = 1000


class Received:
    """The unexpired ids of ``what`` (e.g. "management calls") ``store`` holds under ``prefix``. Used on
    the event loop."""

    def __init__(
        self, store: Store, prefix: bytes, what: str, capacity: int = MAX_RECEIVED, per_sender: int = PER_SENDER
    ):
        self._store, self.prefix, self.what = store, prefix, what
        self.capacity, self.per_sender = capacity, per_sender
        self._expiries: dict[bytes, tuple[int, bytes]] = {}  # request id -> (expiry, whom it counts against)
        self._by_expiry: list[tuple[int, bytes]] = []
        self._by_sender: Counter[bytes] = Counter()
        for key, value in store.scan(prefix):
            request_id, expiry, sender = key[len(prefix) :], int.from_bytes(value[:8], "big"), value[8:]
            self._expiries[request_id] = (expiry, sender)
            self._by_expiry.append((expiry, request_id))
            self._by_sender[sender] += 1
        heapq.heapify(self._by_expiry)
        batch = Batch()
        self._forget_expired(batch)
        store.commit(batch)

    def known(self, request_id: bytes) -> bool:
        """Whether this request was received before and has not expired."""
        kept = self._expiries.get(request_id)
        return kept is not None and kept[0] >= time.time_ns()

    def receive(self, request_id: bytes, expiry_ns: int, sender: bytes) -> str | None:
        """Keep a new request's id until ``expiry_ns``, counted against ``sender``, in the store before
        its call runs; else (keeping nothing) why not: ``capacity`` unexpired ids are kept already, or
        ``per_sender`` of this sender's."""
        batch = Batch()
        self._forget_expired(batch)
        refusal = None
        if len(self._expiries) >= self.capacity:
            refusal = f"moxzid keeps the ids of {self.capacity} unexpired {self.what}, the most it may"
        elif self._by_sender[sender] >= self.per_sender:
            refusal = f"this sender has made {self.per_sender} {self.what} that have not expired, the most one may"
        else:
            batch.put(self.prefix + request_id, expiry_ns.to_bytes(8, "big") + sender)
            self._expiries[request_id] = (expiry_ns, sender)
            heapq.heappush(self._by_expiry, (expiry_ns, request_id))
            self._by_sender[sender] += 1
        self._store.commit(batch)
        return refusal

    def _forget_expired(self, batch: Batch) -> None:
        """Drop the ids past their expiry (from memory now, from the store with ``batch``)."""
        now = time.time_ns()
        while self._by_expiry and self._by_expiry[0][0] < now:
            _, request_id = heapq.heappop(self._by_expiry)
            _, sender = self._expiries.pop(request_id)
            self._by_sender[sender] -= 1
            if not self._by_sender[sender]:
                del self._by_sender[sender]
            batch.delete(self.prefix + request_id)
