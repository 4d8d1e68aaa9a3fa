"""Cycles: what work costs (a price list, registered by a plugin) and what each actor has left (the ledger).

When moxzid charges (``--cycles N`` with N > 0), every actor starts with N cycles and pays for the work
it asks for, priced by the price list a plugin registers through ``register_billing``: the core's own
``cycles`` plugin registers ``DefaultPrices`` (the seed's rule), and a third party's registered later
replaces it. With ``--cycles 0`` nothing is charged and every actor may always pay.

In the store, one key per actor that has been charged or given cycles:

    cycles/<actor name>    CBOR [balance, spent]: cycles left (negative once a charge overdrew it)
                           and cycles spent since the actor first ran

A charge is written in the caller's batch, beside the work it pays for, so after a crash an actor has
paid exactly for the work that survived.
"""

from __future__ import annotations

import logging
import math
import threading
import weakref
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


def choose_prices(registry, settings) -> PriceList:
    """The price list moxzid charges by: the last one the loaded plugins registered (``registry.billing``
    maps a name to a factory ``factory(settings) -> PriceList``), or DefaultPrices for ``settings`` when
    none is loaded. moxzi's own plugins load first, then the others in ``--plugins`` order, else in the
    order of their names."""
    if not registry.billing:
        return DefaultPrices(settings.device_cycles_per_ms)
    factory = list(registry.billing.values())[-1]
    return factory(settings)


class NotCharging(MoxziError):
    """Cycles were added while moxzid does not charge (``--cycles 0``)."""

    status = 409


class TooManyCycles(MoxziError):
    """Adding the cycles would take the balance past MAX_BALANCE; nothing was added."""

    status = 400


class Ledger:
    """Every actor's cycle balance and what it spent; kept in the store (survives restarts).

    ``initial_cycles`` is ``--cycles``: an actor the ledger has not seen starts with that many. 0 means
    moxzid does not charge: ``can_pay`` is always True and ``charge`` records nothing. Every method may
    be called from any thread."""

    def __init__(self, store: Store, prices: PriceList, initial_cycles: int):
        self.store = store
        self.prices = prices
        self.initial_cycles = initial_cycles
        self.charging = initial_cycles > 0
        self._lock = threading.Lock()
        # actor -> [balance, spent]; the store's values, plus charges in batches not yet committed
        self._accounts: dict[str, list[int]] = {
            key[len(PREFIX) :].decode(): list(cbor2.loads(value)) for key, value in store.scan(PREFIX)
        }
        self._since_summary: dict[str, tuple[int, int]] = {}  # actor -> (charges, cycles) since last line
        # actor -> the batches its charges went into, while their callers hold them (maybe uncommitted)
        self._charged_batches: dict[str, list[weakref.ref[Batch]]] = {}

    def can_pay(self, actor: str) -> bool:
        """Whether ``actor`` may start work: its balance is above 0 (always, when not charging)."""
        return not self.charging or self.balance(actor) > 0

    def charge(self, batch: Batch, actor: str, kind: str, amount: float) -> int:
        """Charge ``actor`` for ``amount`` of ``kind`` (see PriceList); the cycles charged. The new
        balance goes into ``batch``, which the caller commits with the work paid for; batches for one
        actor must be committed in the order their charges were made. A charge may take the balance
        below 0: the work is done before its price is known. Work that costs nothing writes nothing."""
        if not self.charging:
            return 0
        cycles = self.prices.price(kind, amount)
        if cycles == 0:  # free work (wasm instructions, by default) leaves no trace
            return 0
        with self._lock:
            account = self._account(actor)
            before = account[0]
            account[0] -= cycles
            account[1] += cycles
            batch.put(_key(actor), cbor2.dumps(account))
            batches = [ref for ref in self._charged_batches.get(actor, ()) if ref() is not None and ref() is not batch]
            self._charged_batches[actor] = [*batches, weakref.ref(batch)]
            balance, spent = account
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

    def balance(self, actor: str) -> int:
        with self._lock:
            return self._accounts.get(actor, (self.initial_cycles, 0))[0]

    def spent(self, actor: str) -> int:
        with self._lock:
            return self._accounts.get(actor, (self.initial_cycles, 0))[1]

    def add(self, actor: str, cycles: int) -> int:
        """Give ``actor`` ``cycles`` more (> 0) and commit it; the new balance. Raises NotCharging when
        moxzid does not charge, TooManyCycles (adding nothing) when the balance would pass MAX_BALANCE."""
        if not self.charging:
            raise NotCharging(
                f"cannot add cycles to actor {actor!r}: moxzid does not charge cycles (start it with --cycles N)"
            )
        if isinstance(cycles, bool) or not isinstance(cycles, int) or cycles <= 0:
            raise ValueError(f"cycles added to actor {actor!r} must be a whole number > 0, got {cycles!r}")
        key = _key(actor)
        with self._lock:
            account = self._account(actor)
            if account[0] + cycles > MAX_BALANCE:
                raise TooManyCycles(
                    f"cannot add cycles to actor {actor!r}: its balance ({account[0]}) "
                    f"would pass the most an actor may hold, {MAX_BALANCE}"
                )
            updated = [account[0] + cycles, account[1]]
            batch = Batch()
            batch.put(key, cbor2.dumps(updated))
            self.store.commit(batch)
            account[:] = updated
            # A charge's batch committed after this one would write the balance from before the
            # cycles came: add them to its value too (harmless if it was committed already).
            for ref in self._charged_batches.get(actor, ()):
                charged = ref()
                if charged is not None and (written := charged.writes.get(key)) is not None:
                    balance, spent = cbor2.loads(written)
                    charged.put(key, cbor2.dumps([balance + cycles, spent]))
        log.info("actor %s: %d cycles added; balance %d, spent %d", actor, cycles, *updated)
        return updated[0]

    def accounts(self) -> dict[str, tuple[int, int]]:
        """Every actor the ledger has charged or given cycles: actor -> (balance, spent)."""
        with self._lock:
            return {actor: (balance, spent) for actor, (balance, spent) in sorted(self._accounts.items())}

    def _account(self, actor: str) -> list[int]:
        return self._accounts.setdefault(actor, [self.initial_cycles, 0])


def _key(actor: str) -> bytes:
    return PREFIX + actor.encode()
