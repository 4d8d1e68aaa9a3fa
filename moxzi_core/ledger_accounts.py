"""Cycles-ledger accounts: cycles a principal holds outside any actor, as the IC's cycles ledger
(``um5iw-rqaaa-aaaaq-qaaba-cai``) holds them, for creating canisters with.

Only the admin funds an account (``credit``, the http plugin's ``POST /cycles-ledger/PRINCIPAL``), and
only while moxzid charges cycles: nothing else puts cycles in, so creating a canister from an account
(``spend``, the ic plugin's cycles ledger) moves cycles the admin gave, never makes them.

In the store, one key per account ever funded:

    cycles-ledger/<owner principal's bytes><32-byte subaccount>    CBOR balance

An account is an ICRC-1 one: an owner and a subaccount, the default one being 32 zero bytes.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

import cbor2

from .billing import MAX_BALANCE, NotCharging, TooManyCycles
from .errors import MoxziError
from .store import Batch, Store

PREFIX = b"cycles-ledger/"
SUBACCOUNT_BYTES = 32
DEFAULT_SUBACCOUNT = bytes(SUBACCOUNT_BYTES)

T = TypeVar("T")


class InsufficientFunds(MoxziError):
    """An account holds less than a spending asks for; nothing was taken."""

    status = 402

    def __init__(self, message: str, balance: int):
        super().__init__(message)
        self.balance = balance


def account_key(owner: bytes, subaccount: bytes | None) -> bytes:
    """The store key of the account (``owner``, ``subaccount``; None: the default one). Raises
    ValueError for a subaccount that is not 32 bytes, as ICRC-1 requires."""
    subaccount = DEFAULT_SUBACCOUNT if subaccount is None else bytes(subaccount)
    if len(subaccount) != SUBACCOUNT_BYTES:
        raise ValueError(f"a subaccount is {SUBACCOUNT_BYTES} bytes, not {len(subaccount)}")
    return PREFIX + bytes(owner) + subaccount


class LedgerAccounts:
    """Every cycles-ledger account's balance, kept in ``store`` (survives restarts). ``charging`` is
    whether moxzid charges cycles: only then may an account be funded. Every method may be called
    from any thread."""

    def __init__(self, store: Store, charging: bool):
        self.store, self.charging = store, charging
        self._lock = threading.Lock()
        self._balances = {key: cbor2.loads(value) for key, value in store.scan(PREFIX)}

    def balance(self, owner: bytes, subaccount: bytes | None = None) -> int:
        with self._lock:
            return self._balances.get(account_key(owner, subaccount), 0)

    def credit(self, owner: bytes, subaccount: bytes | None, cycles: int) -> int:
        """Add ``cycles`` (> 0) to the account and commit it; the new balance. Raises NotCharging while
        moxzid does not charge, ValueError for a bad amount or subaccount, TooManyCycles (adding
        nothing) past MAX_BALANCE."""
        if not self.charging:
            raise NotCharging(
                "cannot fund a cycles-ledger account: moxzid does not charge cycles (start it with --cycles N), "
                "so a creation takes what it asks for from nowhere"
            )
        if isinstance(cycles, bool) or not isinstance(cycles, int) or cycles <= 0:
            raise ValueError(f"cycles added to a cycles-ledger account must be a whole number > 0, got {cycles!r}")
        key = account_key(owner, subaccount)
        with self._lock:
            balance = self._balances.get(key, 0)
            if balance + cycles > MAX_BALANCE:
                raise TooManyCycles(
                    f"cannot add {cycles} cycles: the account's balance ({balance}) would pass the most it "
                    f"may hold, {MAX_BALANCE}"
                )
            self._write(key, balance + cycles, Batch(), self.store.commit)
            return balance + cycles

    def spend(self, owner: bytes, subaccount: bytes | None, cycles: int, commit: Callable[[Batch], T]) -> T:
        """Take ``cycles`` from the account in a batch that ``commit`` fills with the work they pay for
        and commits; what ``commit`` returns. Raises InsufficientFunds (with the balance) when the
        account holds less, taking nothing; if ``commit`` raises, nothing is taken either. Spendings
        of one account take turns, so two cannot both spend the same cycles."""
        key = account_key(owner, subaccount)
        with self._lock:
            balance = self._balances.get(key, 0)
            if balance < cycles:
                raise InsufficientFunds(f"the account holds {balance} cycles, short of {cycles}", balance)
            return self._write(key, balance - cycles, Batch(), commit)

    def _write(self, key: bytes, balance: int, batch: Batch, commit: Callable[[Batch], T]) -> T:
        """Put ``balance`` into ``batch``, ``commit`` it, and only then count it (under the lock)."""
        batch.put(key, cbor2.dumps(balance))
        result = commit(batch)
        self._balances[key] = balance
        return result
