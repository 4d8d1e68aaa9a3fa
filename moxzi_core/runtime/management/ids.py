"""What the management canister makes that needs no actor: raw_rand's random bytes and new canister
ids, both kept in the store so a restart carries on where the recorded answers left off."""

from __future__ import annotations

import hashlib
import secrets

from ...candid import Principal
from ...store import Batch, Store

_RAND_KEY = b"meta/raw_rand"  # how many raw_rand answers a seeded host has given
_CANISTERS_KEY = b"meta/canisters"  # the last canister id create_canister gave


class Randomness:
    """raw_rand's 32 bytes: from the OS, or, given a seed, the same sequence on every run from the same
    store (the count of answers given is written with each answer, so a restart carries on where the
    recorded answers left off; an answer is recorded like any other, so a crash replays it exactly)."""

    def __init__(self, store: Store, seed: int | None):
        self._seed = seed
        raw = store.get(_RAND_KEY)
        self._drawn = int.from_bytes(raw, "big") if raw else 0

    def draw(self, batch: Batch) -> bytes:
        if self._seed is None:
            return secrets.token_bytes(32)
        self._drawn += 1
        batch.put(_RAND_KEY, self._drawn.to_bytes(8, "big"))
        return hashlib.sha256(b"moxzi raw_rand\0%d\0%d" % (self._seed, self._drawn)).digest()


# IC tools call the IC's system canisters by their ids: the NNS canisters (the ICP ledger, the cycles
# minting canister, governance, Internet Identity ...) lie in the NNS subnet's range, ids 0 to 0xFFFFF,
# and the cycles ledger is 0x2100002. New canisters never get those ids.
FIRST_CANISTER_NUMBER = 0x100000
SYSTEM_CANISTER_IDS = frozenset({Principal.from_text("um5iw-rqaaa-aaaaq-qaaba-cai").bytes})


class CanisterIds:
    """New canister ids, shaped as the IC's (a 64-bit number and the suffix 0x01 0x01), counting up
    from past the NNS subnet's range and skipping the IC's system canisters' ids."""

    def __init__(self, store: Store):
        raw = store.get(_CANISTERS_KEY)
        self._last = max(int.from_bytes(raw, "big") if raw else 0, FIRST_CANISTER_NUMBER - 1)

    def next(self, batch: Batch, taken) -> bytes:
        while True:
            self._last += 1
            principal = self._last.to_bytes(8, "big") + b"\x01\x01"
            if principal not in taken and principal not in SYSTEM_CANISTER_IDS:
                batch.put(_CANISTERS_KEY, self._last.to_bytes(8, "big"))
                return principal
