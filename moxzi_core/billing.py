"""Cycles: what work costs (a price list, registered by a plugin) and what each actor has left (the ledger).

When moxzid charges (``--cycles N`` with N > 0), every actor starts with N cycles and pays for the work
it asks for, priced by the price list a plugin registers through ``register_billing``: the core's own
``cycles`` plugin registers ``DefaultPrices`` (the seed's rule), and a third party's registered later
replaces it. With ``--cycles 0`` nothing is charged and every actor may always pay.

In the store, one key per actor that has been charged or given cycles:

    cycles/<actor name>    CBOR [balance, spent]: cycles left (negative once a charge overdrew it)
                           and cycles spent since the actor first ran

A charge is written in the caller's batch, beside the work it pays for, and so are cycles moving between
actors (attached to calls, accepted, refunded, given to a created actor): after a crash an actor has paid
and received exactly what the work that survived did.

Device work is paid through a ``Purse``: before the device changes anything, the call reserves what it
may cost at most (the price of the device time its shapes suggest), and is refused if the actor's
balance, less what its other calls hold, is short; once done, the actual price is charged and the rest
released. Holds live in memory only: after a crash a call either was answered (and its charge
committed with the answer) or runs again and reserves again.
"""

from __future__ import annotations

import logging
import math
import threading
import weakref
from dataclasses import dataclass, field
from typing import Protocol

import cbor2

from .errors import MoxziError
from .store import Batch, Store

log = logging.getLogger("moxzid")

PREFIX = b"cycles/"
SUMMARY_EVERY = 100  # charges per actor between two summary log lines
# The most cycles an actor may hold: the IC's own bound (a balance is a nat128 there). Past it a
# balance would no longer be a number every client can read back.
MAX_BALANCE = 2**128 - 1


class PriceList(Protocol):
    """Prices work in cycles. Registered by plugins through register_billing; the last one wins."""

    def price(self, kind: str, amount: float) -> int:
        """The whole cycles ``amount`` of ``kind`` costs: ``device_ms`` (milliseconds of device time) or
        ``instructions`` (wasm instructions)."""


class DefaultPrices:
    """The seed's rule: device time costs ``device_cycles_per_ms`` cycles per millisecond; wasm
    instructions are free unless ``cycles_per_instruction`` says otherwise. A fraction of a cycle is
    charged as a whole one."""

    def __init__(self, device_cycles_per_ms: int = 100_000_000, cycles_per_instruction: float = 0.0):
        self.rates = {"device_ms": device_cycles_per_ms, "instructions": cycles_per_instruction}

    def price(self, kind: str, amount: float) -> int:
        rate = self.rates.get(kind)
        if rate is None:
            raise ValueError(f"no price for {kind!r}: the kinds of work are {', '.join(self.rates)}")
        if amount < 0:
            raise ValueError(f"{kind}: cannot price a negative amount ({amount})")
        # Rounded first, so float noise (0.07 * 100_000_000 is 7000000.000000001) is no extra cycle.
        return math.ceil(round(amount * rate, 6))


class CannotPay(MoxziError):
    """An actor's balance, less what its calls in progress hold, is short of what a call may cost."""

    status = 402


class NotCharging(MoxziError):
    """Cycles were added while moxzid does not charge (``--cycles 0``)."""

    status = 409


class TooManyCycles(MoxziError):
    """Adding the cycles would take the balance past MAX_BALANCE; nothing was added."""

    status = 400


class Ledger:
    """Every actor's cycle balance and what it spent; kept in the store (survives restarts).

    ``initial_cycles`` is ``--cycles``: an actor the ledger has not seen starts with that many. 0 means
    moxzid does not charge: ``can_pay`` is always True and ``charge`` records nothing.

    A change (``charge``, ``transfer``, ``create``) goes into a batch, beside the work or the message it
    belongs to, and reaches the store only when that batch is committed through ``commit``, which writes
    each account as the committed value plus the batch's change. So the store always holds exactly the
    changes of the batches committed, in whatever order threads commit them: after a crash an actor has
    paid for, and received, exactly what survived. ``balance`` and ``spent`` see the changes of batches
    not yet committed too (a batch dropped uncommitted stops counting once it is garbage). Every method
    may be called from any thread."""

    def __init__(self, store: Store, prices: PriceList, initial_cycles: int):
        self.store = store
        self.prices = prices
        self.initial_cycles = initial_cycles
        self.charging = initial_cycles > 0
        self._lock = threading.Lock()
        # actor -> [balance, spent], as the store holds them
        self._committed: dict[str, list[int]] = {
            key[len(PREFIX) :].decode(): list(cbor2.loads(value)) for key, value in store.scan(PREFIX)
        }
        # id(batch) -> the changes that uncommitted batch holds
        self._pending: dict[int, _Pending] = {}
        self._since_summary: dict[str, tuple[int, int]] = {}  # actor -> (charges, cycles) since last line
        self._held: dict[str, int] = {}  # actor -> cycles its calls in progress reserved (never stored)

    def can_pay(self, actor: str) -> bool:
        """Whether ``actor`` may start work: its balance is above 0 (always, when not charging)."""
        return not self.charging or self.balance(actor) > 0

    def charge(self, batch: Batch, actor: str, kind: str, amount: float) -> int:
        """Charge ``actor`` for ``amount`` of ``kind`` (see PriceList) in ``batch``; the cycles charged.
        A charge may take the balance below 0: the work is done before its price is known. Work that
        costs nothing writes nothing."""
        if not self.charging:
            return 0
        cycles = self.prices.price(kind, amount)
        if cycles == 0:  # free work (wasm instructions, by default) leaves no trace
            return 0
        with self._lock:
            before = self._view(actor)[0]
            self._change(batch, actor, -cycles, cycles)
            balance, spent = self._view(actor)
            charges, recent = self._since_summary.get(actor, (0, 0))
            charges, recent = charges + 1, recent + cycles
            summary = charges >= SUMMARY_EVERY
            self._since_summary[actor] = (0, 0) if summary else (charges, recent)
        if before > 0 >= balance:
            log.warning(
                "actor %s is out of cycles: balance %d, spent %d; work that costs cycles is "
                "refused until cycles are added",
                actor,
                balance,
                spent,
            )
        elif summary:
            log.info(
                "actor %s: %d cycles for its last %d charges; balance %d, spent %d",
                actor,
                recent,
                charges,
                balance,
                spent,
            )
        return cycles

    def transfer(self, batch: Batch, actor: str, cycles: int, burned: int = 0) -> None:
        """``actor``'s balance changes by ``cycles`` (> 0: cycles in, < 0: out), of which ``burned`` were
        destroyed (counted as spent), in ``batch``: what a message accepted, was refunded, attached to
        calls and burned. A balance never passes MAX_BALANCE (the excess is lost, as on the IC)."""
        if cycles or burned:
            with self._lock:
                self._change(batch, actor, cycles, burned)

    def create(self, batch: Batch, actor: str, cycles: int) -> None:
        """Open the account of a new actor (create_canister) with exactly ``cycles``, in ``batch``: also
        when moxzid does not charge, where cycles still move between actors (the creator's attached
        cycles would otherwise vanish)."""
        with self._lock:
            self._change(batch, actor, 0, 0).start = [min(cycles, MAX_BALANCE), 0]

    def commit(self, batch: Batch) -> None:
        """Commit ``batch`` to the store with its changes to the accounts (raises StoreError as
        ``Store.commit`` does, changing nothing). Every batch holding a change must be committed here."""
        with self._lock:
            pending = self._pending.pop(id(batch), None)
            changes = pending.changes if pending is not None and pending.batch() is batch else {}
            accounts = {}
            for actor, change in changes.items():
                balance, spent = change.start or self._committed.get(actor) or [self.initial_cycles, 0]
                accounts[actor] = [min(balance + change.balance, MAX_BALANCE), spent + change.spent]
                batch.put(_key(actor), cbor2.dumps(accounts[actor]))
            self.store.commit(batch)
            self._committed.update(accounts)

    def reserve(self, actor: str, cycles: int) -> None:
        """Hold ``cycles`` of ``actor``'s balance for work about to start; raises CannotPay (holding
        nothing) when its balance less what it already holds is short. Holds are in memory only;
        ``release`` gives them back."""
        if not self.charging or cycles <= 0:
            return
        with self._lock:
            balance, held = self._view(actor)[0], self._held.get(actor, 0)
            if balance - held < cycles:
                raise CannotPay(
                    f"actor {actor} cannot pay for this work: it may cost {cycles} cycles, and its balance is "
                    f"{balance} ({held} of them held by its calls in progress)"
                )
            self._held[actor] = held + cycles

    def release(self, actor: str, cycles: int) -> None:
        """Give back ``cycles`` a ``reserve`` held."""
        if cycles <= 0:
            return
        with self._lock:
            left = self._held.get(actor, 0) - cycles
            if left > 0:
                self._held[actor] = left
            else:
                self._held.pop(actor, None)

    def held(self, actor: str) -> int:
        """Cycles ``actor``'s calls in progress hold."""
        with self._lock:
            return self._held.get(actor, 0)

    def balance(self, actor: str) -> int:
        with self._lock:
            return self._view(actor)[0]

    def spent(self, actor: str) -> int:
        with self._lock:
            return self._view(actor)[1]

    def add(self, actor: str, cycles: int) -> int:
        """Give ``actor`` ``cycles`` more (> 0) and commit it; the new balance. Raises NotCharging when
        moxzid does not charge, TooManyCycles (adding nothing) when the balance would pass MAX_BALANCE."""
        if not self.charging:
            raise NotCharging(
                f"cannot add cycles to actor {actor!r}: moxzid does not charge cycles (start it with --cycles N)"
            )
        if isinstance(cycles, bool) or not isinstance(cycles, int) or cycles <= 0:
            raise ValueError(f"cycles added to actor {actor!r} must be a whole number > 0, got {cycles!r}")
        with self._lock:
            balance = self._view(actor)[0]
            if balance + cycles > MAX_BALANCE:
                raise TooManyCycles(
                    f"cannot add cycles to actor {actor!r}: its balance ({balance}) "
                    f"would pass the most an actor may hold, {MAX_BALANCE}"
                )
            committed = self._committed.get(actor) or [self.initial_cycles, 0]
            updated = [committed[0] + cycles, committed[1]]
            batch = Batch()
            batch.put(_key(actor), cbor2.dumps(updated))
            self.store.commit(batch)
            self._committed[actor] = updated
            balance, spent = self._view(actor)
        log.info("actor %s: %d cycles added; balance %d, spent %d", actor, cycles, balance, spent)
        return balance

    def accounts(self) -> dict[str, tuple[int, int]]:
        """Every actor the ledger has charged or given cycles: actor -> (balance, spent)."""
        with self._lock:
            actors = set(self._committed).union(*(p.changes for p in self._pending.values() if p.batch()))
            views = {actor: self._view(actor) for actor in sorted(actors)}
        return {actor: (balance, spent) for actor, (balance, spent) in views.items()}

    def _change(self, batch: Batch, actor: str, balance: int, spent: int) -> _Change:
        """Add a change to ``batch``'s (under the lock)."""
        pending = self._pending.get(id(batch))
        if pending is None or pending.batch() is not batch:  # none yet, or a dropped batch's
            # Batches dropped uncommitted are garbage: their changes go with them.
            self._pending = {key: p for key, p in self._pending.items() if p.batch() is not None}
            pending = self._pending[id(batch)] = _Pending(weakref.ref(batch))
        change = pending.changes.setdefault(actor, _Change())
        change.balance += balance
        change.spent += spent
        return change

    def _view(self, actor: str) -> list[int]:
        """[balance, spent]: committed, with the changes of batches not yet committed (under the lock)."""
        balance, spent = self._committed.get(actor) or [self.initial_cycles, 0]
        for pending in self._pending.values():
            change = pending.changes.get(actor)
            if change is not None and pending.batch() is not None:
                if change.start is not None:
                    balance, spent = change.start
                balance, spent = min(balance + change.balance, MAX_BALANCE), spent + change.spent
        return [balance, spent]


@dataclass
class _Change:
    """What one uncommitted batch changes in one account."""

    balance: int = 0
    spent: int = 0
    start: list[int] | None = None  # a new account's opening [balance, spent] (Ledger.create)


@dataclass
class _Pending:
    """The changes an uncommitted batch holds, by actor."""

    batch: weakref.ref[Batch]
    changes: dict[str, _Change] = field(default_factory=dict)


class Purse:
    """What one device call of ``actor`` spends: ``reserve`` before the work, ``settle`` after it.
    Without a ledger (or one that does not charge) it reserves and charges nothing."""

    def __init__(self, ledger: Ledger | None, actor: str):
        self.ledger, self.actor = ledger, actor
        self.held = 0

    def reserve(self, device_ms: float) -> None:
        """Hold the price of ``device_ms`` of device time (the most the call is expected to take) and
        count it in ``held``; raises CannotPay, holding nothing more, when the actor cannot pay it."""
        if self.ledger is None or not self.ledger.charging:
            return
        cycles = self.ledger.prices.price("device_ms", device_ms)
        self.ledger.reserve(self.actor, cycles)
        self.held += cycles

    def settle(self, batch: Batch, seconds: float) -> None:
        """Release what was held and charge the device time the call took into ``batch`` (see
        ``Ledger.charge``)."""
        if self.ledger is None:
            return
        self.ledger.release(self.actor, self.held)
        self.held = 0
        if seconds:
            self.ledger.charge(batch, self.actor, "device_ms", seconds * 1000)


FREE = Purse(None, "")  # a call nothing is charged for


def _key(actor: str) -> bytes:
    return PREFIX + actor.encode()
