"""Signed requests received, kept with moxzid's state until they expire, so none runs twice: as the IC
keeps every request id until its ``ingress_expiry``, a captured signed request resent later (after a
restart, or after what is in memory forgot it) is known. Past that expiry the request itself is refused
(``signatures.check_expiry``), so nothing need be kept longer. The IC interface keeps its management
calls here (``ic/received/``: a resent ``install_code`` reads ``done`` instead of running again), the
HTTP gateway its signed upgrade and weights requests (calls to actors need no such table: they are
keyed by their request id, moxzi_core.runtime.replays).

Each id is written to the store (``PREFIX<request id>``: its expiry and whom it counts against, its
*key*: a sender, an actor) before its request runs, so a request runs at most once whatever happens to
moxzid. At most ``per_key`` unexpired ids of one key are kept. The table holds at most ``capacity``
entries, and is shared fairly: once it is full, a key holding less than its share (the capacity over
the keys holding ids) is still let in, making room by forgetting the oldest ids of the key that holds
the most. An id forgotten so is not let through again all the same: that key's requests expiring no
later than the last id it lost are refused until then (``FORGOTTEN<key>``: that expiry, an entry of
the table too). So a flood from one key, or a few, delays only those keys' own requests; another's
still run, each once.
"""

from __future__ import annotations

import heapq
import time
from collections import defaultdict

from moxzi_core.store import Batch, Store


class NotReceived(Exception):
    """Why a request's id is not kept (``Received.receive``): its call must not run."""


# At most this many requests of a kind in one expiry window (agents ask for 5 minutes): 300 a second;
# one key's share, so that it alone cannot fill it: 3 a second, far more than icp deploy's few calls per
# canister.
MAX_RECEIVED = 100_000
PER_KEY = 1000


class Received:
    """The unexpired ids of ``what`` (e.g. "management calls") ``store`` holds under ``prefix``, each
    counted against a key, which messages call ``key_name`` (e.g. "sender"). Used on the event loop."""

    def __init__(
        self,
        store: Store,
        prefix: bytes,
        what: str,
        key_name: str = "sender",
        capacity: int = MAX_RECEIVED,
        per_key: int = PER_KEY,
    ):
        self._store, self.prefix, self.what, self.key_name = store, prefix, what, key_name
        self._forgotten_prefix = prefix.rstrip(b"/") + b"-forgotten/"
        self.capacity, self.per_key = capacity, per_key
        self._expiries: dict[bytes, tuple[int, bytes]] = {}  # request id -> (expiry, its key)
        self._by_expiry: list[tuple[int, bytes]] = []
        self._of_key: defaultdict[bytes, dict[bytes, int]] = defaultdict(dict)  # key -> {id: expiry}, oldest first
        self._keys_holding: defaultdict[int, set[bytes]] = defaultdict(set)  # the keys holding n ids, by n
        self._forgotten: dict[bytes, int] = {}  # key -> its requests expiring no later are refused
        self._forgotten_by_expiry: list[tuple[int, bytes]] = []
        for key, value in store.scan(prefix):
            self._keep(key[len(prefix) :], int.from_bytes(value[:8], "big"), value[8:])
        for key, value in store.scan(self._forgotten_prefix):
            self._mark(key[len(self._forgotten_prefix) :], int.from_bytes(value, "big"))
        batch = Batch()
        self._forget_expired(batch)
        store.commit(batch)

    def known(self, request_id: bytes) -> bool:
        """Whether this request was received before and has not expired."""
        kept = self._expiries.get(request_id)
        return kept is not None and kept[0] >= time.time_ns()

    def receive(self, request_id: bytes, expiry_ns: int, key: bytes) -> None:
        """Keep a new request's id until ``expiry_ns``, counted against ``key``, in the store before its
        call runs; else (keeping nothing) raise NotReceived saying why not: ``key`` has ``per_key``
        unexpired ids, or its share of a full table, or lost ids expiring no earlier to others' (see the
        module docstring)."""
        batch = Batch()
        self._forget_expired(batch)
        refusal = self._refusal(expiry_ns, key, batch)
        if refusal is None:
            batch.put(self.prefix + request_id, expiry_ns.to_bytes(8, "big") + key)
            self._keep(request_id, expiry_ns, key)
        self._store.commit(batch)
        if refusal is not None:
            raise NotReceived(refusal)

    def _refusal(self, expiry_ns: int, key: bytes, batch: Batch) -> str | None:
        """None if there is room for one more id of ``key`` (made with ``batch``), else why not."""
        forgotten = self._forgotten.get(key, -1)
        if expiry_ns <= forgotten:
            return (
                f"moxzid's table of {self.what} was full, and some of this {self.key_name}'s, which held the "
                f"most, were forgotten to make room for others': its requests expiring no later than {forgotten} "
                "ns are refused"
            )
        held = len(self._of_key.get(key, ()))
        if held >= self.per_key:
            return f"this {self.key_name} has made {self.per_key} {self.what} that have not expired, the most one may"
        if self._entries() < self.capacity:
            return None
        share = self.capacity // (len(self._of_key) + (held == 0))
        heaviest = max(self._keys_holding)
        if held < share and heaviest > held + 1:
            self._make_room(batch)
            if self._entries() < self.capacity:
                return None
        return (
            f"moxzid keeps the ids of {self.capacity} unexpired {self.what}, the most it may, and this "
            f"{self.key_name} holds its share of them ({held})"
        )

    def _make_room(self, batch: Batch) -> None:
        """Forget the oldest ids of the key holding the most, two where that key has lost none before
        (its mark takes an entry), marking what it lost."""
        key = next(iter(self._keys_holding[max(self._keys_holding)]))
        lost = -1
        for _ in range(1 if key in self._forgotten else 2):
            request_id, expiry = next(iter(self._of_key[key].items()))
            self._drop(request_id)
            batch.delete(self.prefix + request_id)
            lost = max(lost, expiry)
        self._mark(key, max(self._forgotten.get(key, -1), lost))
        batch.put(self._forgotten_prefix + key, self._forgotten[key].to_bytes(8, "big"))

    def _entries(self) -> int:
        return len(self._expiries) + len(self._forgotten)

    def _keep(self, request_id: bytes, expiry_ns: int, key: bytes) -> None:
        self._expiries[request_id] = (expiry_ns, key)
        heapq.heappush(self._by_expiry, (expiry_ns, request_id))
        ids = self._of_key[key]
        self._count(key, len(ids), len(ids) + 1)
        ids[request_id] = expiry_ns

    def _drop(self, request_id: bytes) -> None:
        """Forget an id (from memory; its heap entry is skipped once it comes up)."""
        _, key = self._expiries.pop(request_id)
        ids = self._of_key[key]
        del ids[request_id]
        self._count(key, len(ids) + 1, len(ids))
        if not ids:
            del self._of_key[key]

    def _count(self, key: bytes, was: int, now: int) -> None:
        """``key``, which held ``was`` ids, holds ``now``."""
        if was:
            self._keys_holding[was].discard(key)
            if not self._keys_holding[was]:
                del self._keys_holding[was]
        if now:
            self._keys_holding[now].add(key)

    def _mark(self, key: bytes, expiry: int) -> None:
        self._forgotten[key] = expiry
        heapq.heappush(self._forgotten_by_expiry, (expiry, key))

    def _forget_expired(self, batch: Batch) -> None:
        """Drop the ids and marks past their expiry (from memory now, from the store with ``batch``)."""
        now = time.time_ns()
        while self._by_expiry and self._by_expiry[0][0] < now:
            expiry, request_id = heapq.heappop(self._by_expiry)
            if self._expiries.get(request_id, (None,))[0] == expiry:
                self._drop(request_id)
                batch.delete(self.prefix + request_id)
        while self._forgotten_by_expiry and self._forgotten_by_expiry[0][0] < now:
            expiry, key = heapq.heappop(self._forgotten_by_expiry)
            if self._forgotten.get(key) == expiry:
                del self._forgotten[key]
                batch.delete(self._forgotten_prefix + key)
