"""Billing: the default price list, the ledger of cycles (in memory, and in LMDB across a reopen), a third
party's price list replacing the default, and moxzid charging device time, seen and topped up over HTTP."""

import logging

import cbor2
import pytest
from kit.daemon import project, running_moxzid
from kit.http import request as http

from moxzi_core import billing, plugins
from moxzi_core.billing import MAX_BALANCE, DefaultPrices, Ledger, NotCharging, TooManyCycles
from moxzi_core.billing_settings import choose_prices
from moxzi_core.registry import Registry
from moxzi_core.settings import Settings
from moxzi_core.store import Batch, MemoryStore

PRICES = DefaultPrices(device_cycles_per_ms=1000)

SETTINGS = Settings(plugins.load([])[0].settings)


def ledger(initial=10_000, store=None, prices=PRICES) -> Ledger:
    return Ledger(store or MemoryStore(), prices, initial)


def charged(ledger: Ledger, actor: str, ms: float) -> int:
    """Charge ``ms`` of device time and commit it, as the host does with the work paid for."""
    batch = Batch()
    cycles = ledger.charge(batch, actor, "device_ms", ms)
    ledger.commit(batch)
    return cycles


# --- prices --------------------------------------------------------------------------------------
def test_device_time_costs_cycles_per_ms_rounded_up_to_whole_cycles():
    assert DefaultPrices().price("device_ms", 1.5) == 150_000_000  # the seed's default: 1e8 per ms
    assert DefaultPrices().price("device_ms", 0.07) == 7_000_000  # float noise is no extra cycle
    assert PRICES.price("device_ms", 0.25) == 250
    assert PRICES.price("device_ms", 0.0001) == 1  # a tenth of a cycle is a whole one
    assert PRICES.price("device_ms", 0) == 0
    assert DefaultPrices(7).price("device_ms", 0.5) == 4  # 3.5


def test_instructions_are_free_unless_priced():
    assert DefaultPrices().price("instructions", 5_000_000_000) == 0
    assert DefaultPrices(cycles_per_instruction=0.4).price("instructions", 1001) == 401  # 400.4


def test_unknown_work_and_negative_amounts_are_refused():
    with pytest.raises(ValueError, match="no price for 'disk_mb': the kinds of work are device_ms, instructions"):
        PRICES.price("disk_mb", 1)
    with pytest.raises(ValueError, match="device_ms: cannot price a negative amount"):
        PRICES.price("device_ms", -1)


# --- the ledger ----------------------------------------------------------------------------------
def test_an_actor_starts_with_the_initial_cycles_and_pays_for_device_time():
    cycles = ledger(10_000)
    assert cycles.charging
    assert (cycles.balance("a"), cycles.spent("a"), cycles.accounts()) == (10_000, 0, {})
    batch = Batch()
    assert cycles.charge(batch, "a", "device_ms", 2.5) == 2500
    assert cycles.balance("a") == 7500  # the view changes at once; the store with the caller's batch
    assert cycles.store.get(b"cycles/a") is None
    cycles.commit(batch)
    assert cbor2.loads(cycles.store.get(b"cycles/a")) == [7500, 2500]
    charged(cycles, "a", 0.0005)
    assert cycles.accounts() == {"a": (7499, 2501)}
    assert cycles.balance("b") == 10_000  # every actor has its own account


def test_free_work_writes_nothing():
    cycles = ledger()
    batch = Batch()
    assert cycles.charge(batch, "a", "instructions", 1_000_000) == 0
    assert batch.writes == {} and cycles.accounts() == {}


def test_can_pay_is_false_at_and_below_zero():
    cycles = ledger(1000)
    charged(cycles, "a", 0.999)
    assert cycles.balance("a") == 1 and cycles.can_pay("a")
    charged(cycles, "a", 0.001)
    assert cycles.balance("a") == 0 and not cycles.can_pay("a")
    charged(cycles, "a", 5)  # work already done is charged in full: the balance goes below zero
    assert cycles.balance("a") == -5000 and not cycles.can_pay("a")
    assert cycles.can_pay("b")


def test_adding_cycles_commits_and_lets_the_actor_pay_again():
    cycles = ledger(1000)
    charged(cycles, "a", 3)
    assert cycles.add("a", 2500) == 500
    assert cycles.can_pay("a") and cycles.spent("a") == 3000
    assert cbor2.loads(cycles.store.get(b"cycles/a")) == [500, 3000]  # committed without a caller
    assert cycles.add("new", 1) == 1001
    for bad in (0, -5, 1.5, True, "10"):
        with pytest.raises(ValueError, match="cycles added to actor 'a' must be a whole number > 0"):
            cycles.add("a", bad)


def test_a_balance_never_passes_the_most_an_actor_may_hold():
    cycles = ledger(1000)
    assert cycles.add("a", MAX_BALANCE - 1000) == MAX_BALANCE
    for more in (1, 10**4000):
        with pytest.raises(
            TooManyCycles,
            match="cannot add cycles to actor 'a': its balance "
            f"\\({MAX_BALANCE}\\) would pass the most an actor may hold",
        ):
            cycles.add("a", more)
    assert cbor2.loads(cycles.store.get(b"cycles/a")) == [MAX_BALANCE, 0]  # nothing committed


def test_cycles_added_while_a_charge_waits_to_be_committed_are_not_lost():
    cycles = ledger(1000)
    batch = Batch()
    cycles.charge(batch, "a", "device_ms", 0.1)  # the host has not committed this yet
    cycles.add("a", 500)
    cycles.commit(batch)  # committed after the add, it must still hold the added cycles
    assert cbor2.loads(cycles.store.get(b"cycles/a")) == [1400, 100]
    assert Ledger(cycles.store, PRICES, 1000).accounts() == {"a": (1400, 100)}


def test_the_store_holds_exactly_the_changes_of_the_batches_committed_in_any_order():
    cycles = ledger(1000)
    first, second = Batch(), Batch()
    cycles.transfer(first, "a", -300)  # an actor's message attaching 300 to a call ...
    cycles.transfer(second, "a", 50)  # ... and, on another thread, a deposit to it
    assert cycles.balance("a") == 750  # the view sees both at once
    cycles.commit(second)  # committed first: the store has the deposit only
    assert cbor2.loads(cycles.store.get(b"cycles/a")) == [1050, 0]
    assert Ledger(cycles.store, PRICES, 1000).balance("a") == 1050  # a crash now keeps just that
    cycles.commit(first)
    assert cbor2.loads(cycles.store.get(b"cycles/a")) == [750, 0]


def test_a_batch_dropped_uncommitted_takes_its_changes_with_it():
    cycles = ledger(1000)
    batch = Batch()
    cycles.transfer(batch, "a", 400, burned=100)
    assert (cycles.balance("a"), cycles.spent("a")) == (1400, 100)
    del batch  # a message that never settled (the host stopped)
    assert (cycles.balance("a"), cycles.spent("a"), cycles.accounts()) == (1000, 0, {})


def test_a_created_actor_starts_with_exactly_what_it_was_given():
    cycles = ledger(1000)
    batch = Batch()
    cycles.create(batch, "kid", 70)
    cycles.transfer(batch, "kid", 5)
    assert cycles.balance("kid") == 75
    cycles.commit(batch)
    assert cbor2.loads(cycles.store.get(b"cycles/kid")) == [75, 0]
    # Also when moxzid does not charge: cycles still move between actors, and the creator's attached ones
    # are the kid's (not lost).
    not_charging, batch = ledger(0), Batch()
    not_charging.create(batch, "kid", 70)
    not_charging.commit(batch)
    assert not_charging.accounts() == {"kid": (70, 0)}


def test_with_no_initial_cycles_nothing_is_charged():
    cycles = ledger(0)
    assert not cycles.charging
    batch = Batch()
    assert cycles.charge(batch, "a", "device_ms", 1e9) == 0
    assert batch.writes == {} and cycles.accounts() == {}
    assert cycles.can_pay("a") and cycles.balance("a") == 0
    with pytest.raises(NotCharging, match="cannot add cycles to actor 'a': moxzid does not charge cycles"):
        cycles.add("a", 100)
    assert NotCharging.status == 409


@pytest.fixture(params=["memory", "lmdb"])
def reopen(request, tmp_path):
    """``reopen(store=None) -> Store``: the same data opened anew (an LMDB store closed and reopened)."""
    if request.param == "memory":
        kept = MemoryStore()
        yield lambda store=None: kept
        return
    lmdb = pytest.importorskip("moxzi_store_lmdb")
    opened = []

    def reopen(store=None):
        if store is not None:
            store.close()
        opened.append(lmdb.LmdbStore(tmp_path / "state"))
        return opened[-1]

    yield reopen
    opened[-1].close()


def test_balances_survive_a_reopen(reopen):
    store = reopen()
    cycles = Ledger(store, PRICES, 10_000)
    charged(cycles, "a", 1)
    charged(cycles, "b", 2)
    cycles.add("b", 50)
    for _ in range(2):  # a second time with other initial cycles: a known actor keeps its balance
        store = reopen(store)
        again = Ledger(store, PRICES, 99)
        assert again.accounts() == {"a": (9000, 1000), "b": (8050, 2000)}
        assert again.balance("c") == 99
    charged(again, "a", 1)
    store = reopen(store)
    assert Ledger(store, PRICES, 10_000).accounts()["a"] == (8000, 2000)


def test_log_lines_summarize_and_say_when_an_actor_runs_out(caplog):
    cycles = ledger(billing.SUMMARY_EVERY * 1000 + 500)
    with caplog.at_level(logging.INFO, logger="moxzid"):
        for _ in range(billing.SUMMARY_EVERY - 1):
            charged(cycles, "a", 1)
        assert caplog.messages == []  # not a line per charge
        charged(cycles, "a", 1)
        assert caplog.messages == [
            f"actor a: {billing.SUMMARY_EVERY * 1000} cycles for its last "
            f"{billing.SUMMARY_EVERY} charges; balance 500, spent {billing.SUMMARY_EVERY * 1000}"
        ]
        caplog.clear()
        charged(cycles, "a", 1)
        charged(cycles, "a", 1)  # already out: said once
        assert caplog.messages == [
            f"actor a is out of cycles: balance -500, spent {billing.SUMMARY_EVERY * 1000 + 1000}; "
            "work that costs cycles is refused until cycles are added"
        ]
        caplog.clear()
        cycles.add("a", 3000)
        assert caplog.messages == [
            f"actor a: 3000 cycles added; balance 1500, spent {billing.SUMMARY_EVERY * 1000 + 2000}"
        ]


# --- choosing the price list -----------------------------------------------------------------------
def test_without_a_billing_plugin_the_default_prices_apply():
    prices = choose_prices(Registry(), SETTINGS.replace(device_cycles_per_ms=42))
    assert isinstance(prices, DefaultPrices) and prices.price("device_ms", 2) == 84


def test_the_last_registered_price_list_wins():
    registry = Registry(
        billing={
            "first": lambda config: DefaultPrices(1),
            "second": lambda config: DefaultPrices(config.device_cycles_per_ms * 3),
        }
    )
    assert choose_prices(registry, SETTINGS.replace(device_cycles_per_ms=5)).price("device_ms", 1) == 15


def test_the_core_registers_its_default_through_the_plugin_hook():
    registry, loaded = plugins.load(["cycles"])
    assert registry.provided_by[("billing", "default")] == "cycles"
    assert loaded["cycles"].distribution == "moxzi"
    assert choose_prices(registry, SETTINGS.replace(device_cycles_per_ms=7)).price("device_ms", 3) == 21


def test_a_third_party_price_list_replaces_the_default(third_party_plugins):
    config = SETTINGS.replace(device_cycles_per_ms=1000)
    for selected in (["cycles", "flatfee"], None):  # named, and every installed plugin
        registry, loaded = plugins.load(selected)
        assert loaded["flatfee"].distribution == "moxzi-flat-fee"
        assert set(registry.billing) == {"default", "flat-fee"}
        prices = choose_prices(registry, config)
        assert type(prices).__name__ == "FlatFee"
        assert [prices.price("device_ms", ms) for ms in (0.01, 250)] == [1_000_000, 1_000_000]
        cycles = Ledger(MemoryStore(), prices, 5_000_000)
        charged(cycles, "a", 3)
        assert cycles.accounts() == {"a": (4_000_000, 1_000_000)}


# --- moxzid ---------------------------------------------------------------------------------------
@pytest.mark.slow
def test_moxzid_charges_device_time_refuses_an_actor_out_of_cycles_and_takes_more(tmp_path):
    pytest.importorskip("moxzi_device_torch")
    project(tmp_path, "learner")
    with running_moxzid(
        "-m", "actors.json", "--device", "torch:cpu", "--plugins", "http,torch,cycles", "--cycles", "1", cwd=tmp_path
    ) as daemon:
        status, answer = http(f"{daemon.url}/call-json/learner/learn", [1])
        # The first device call (params) may cost more than the 1 cycle: refused before the device ran it.
        assert status == 422, answer
        assert (
            "moxzi_device_params: actor learner cannot pay for this work: it may cost 204800 cycles, and its "
            in (answer["reject_message"])
        ), answer
        status, accounts = http(f"{daemon.url}/cycles")
        assert status == 200 and accounts["learner"] == {"balance": 1, "spent": 0}, accounts

        status, account = http(f"{daemon.url}/cycles/learner", {"add": 10**12})
        assert status == 200 and account == {
            "balance": accounts["learner"]["balance"] + 10**12,
            "spent": accounts["learner"]["spent"],
        }
        status, losses = http(f"{daemon.url}/call-json/learner/learn", [2])
        assert status == 200 and len(losses[0]) == 2, losses
        status, after = http(f"{daemon.url}/cycles")
        assert after["learner"]["spent"] > account["spent"]  # params, optimizer, two training runs
        assert after["learner"]["balance"] == 1 + 10**12 - after["learner"]["spent"]

        assert http(f"{daemon.url}/cycles/nobody", {"add": 5})[0] == 404
        for bad in ({"add": 0}, {"add": "5"}, {"add": 5, "more": 1}, [5], 5):
            status, answer = http(f"{daemon.url}/cycles/learner", bad)
            assert status == 400 and 'the body must be {"add": N}' in answer["error"], answer
        status, answer = http(f"{daemon.url}/cycles/learner", {"add": 10**4000})
        assert status == 400 and "would pass the most an actor may hold" in answer["error"], answer
        assert daemon.stop() == 0
    log = daemon.log.read_text()
    assert "charging cycles: each actor starts with 1; device time costs 100000000 cycles/ms" in log
    assert "actor learner: 1000000000000 cycles added" in log


@pytest.mark.slow
def test_balances_survive_a_moxzid_restart(tmp_path):
    pytest.importorskip("moxzi_device_torch")
    pytest.importorskip("moxzi_store_lmdb")
    project(tmp_path, "learner")
    flags = (
        "-m",
        "actors.json",
        "-s",
        "state",
        "--device",
        "torch:cpu",
        "--plugins",
        "http,torch,lmdb,cycles",
        "--cycles",
        "1000000000000",
    )
    with running_moxzid(*flags, cwd=tmp_path) as daemon:
        assert http(f"{daemon.url}/call-json/learner/learn", [2])[0] == 200
        before = http(f"{daemon.url}/cycles")[1]
        assert before["learner"]["spent"] > 0
        daemon.process.kill()  # (a stop might copy the device instead of leaving the record to re-run)
    with running_moxzid(*flags, cwd=tmp_path) as daemon:  # re-running the device record charges nothing
        assert http(f"{daemon.url}/cycles")[1] == before


@pytest.mark.slow
def test_moxzid_without_cycles_charges_nothing(tmp_path):
    pytest.importorskip("moxzi_device_torch")
    project(tmp_path, "learner")
    with running_moxzid(
        "-m", "actors.json", "--device", "torch:cpu", "--plugins", "http,torch,cycles", cwd=tmp_path
    ) as daemon:
        assert http(f"{daemon.url}/call-json/learner/learn", [1])[0] == 200
        assert http(f"{daemon.url}/cycles")[1] == {"learner": {"balance": 0, "spent": 0}}
        status, answer = http(f"{daemon.url}/cycles/learner", {"add": 5})
        assert status == 409 and "moxzid does not charge cycles" in answer["error"]
    assert "not charging cycles" in daemon.log.read_text()


@pytest.mark.slow
def test_moxzid_charges_by_a_third_party_price_list(tmp_path):
    pytest.importorskip("moxzi_device_torch")
    project(tmp_path, "learner")
    with running_moxzid(
        "-m",
        "actors.json",
        "--device",
        "torch:cpu",
        "--cycles",
        "1000000000000",
        cwd=tmp_path,
        plugins="http,torch,cycles,flatfee",
        third_party=True,
    ) as daemon:
        assert http(f"{daemon.url}/call-json/learner/learn", [2])[0] == 200
        # params, optimizer, two training runs: a flat fee each, however long they took
        assert http(f"{daemon.url}/cycles")[1] == {"learner": {"balance": 10**12 - 4_000_000, "spent": 4_000_000}}
    assert "device time costs 1000000 cycles/ms" in daemon.log.read_text()
