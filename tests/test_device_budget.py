"""The device's budgets: the bytes each actor, and all actors together, may hold (parameters, optimizer
state, stored tensors, publications, and a run's peak), checked before a call changes anything; and the
cycles a device call may cost, reserved before it runs and settled after it."""

import asyncio
import contextlib
import io
import random
import time

import pytest
from kit.crashing import call_in_background, kill_by
from kit.daemon import project, running_moxzid
from kit.device import learner_host, read, run_arg, snapshot, training
from kit.http import request

from moxzi_core.billing import DefaultPrices, Ledger, Purse
from moxzi_core.candid import FLOAT64, NAT, Principal, Some, Vec, encode_args
from moxzi_core.device import DeviceBudget, DeviceError, DeviceLimits, open_device
from moxzi_core.device.budget import (
    ENTRY_BYTES,
    TENSOR_BYTES,
    entry_bytes,
    export_record_bytes,
    optimizer_bytes,
    publication_bytes,
)
from moxzi_core.device.ops import Meta
from moxzi_core.device.transfer import Export, Exports
from moxzi_core.store import MemoryStore

pytestmark = pytest.mark.usefixtures("one_torch_thread")

A, B = b"actor-a\x01", b"actor-b\x01"
KB = 1024


def opened(registry, actor_kb, total_kb):
    return open_device(registry, "torch:cpu", budget=DeviceBudget(actor_kb * KB, total_kb * KB))


def params(d, caller, **shapes):
    d.request("params", caller, [{"name": n, "shape": s, "init": {"ones": None}} for n, s in shapes.items()])


def optimizer(d, caller, name, names, kind="adamw", beta1=0.9):
    spec = {"name": name, "params": names, "lr": 0.1, "beta1": beta1, "beta2": 0.99, "eps": 1e-8}
    d.request("optimizer", caller, {**spec, "weight_decay": 0.0, "kind": Some({kind: None})})


def rejected(d, caller, method, *args) -> str:
    with pytest.raises(DeviceError) as e:
        d.request(method, caller, *args)
    return str(e.value)


def counted(d, caller) -> int:
    return d.holdings.by_caller.get(caller, 0)


def held(name, *shape) -> int:
    """What a float32 parameter or stored tensor ``name`` of ``shape`` counts (budget.entry_bytes)."""
    return entry_bytes(name, Meta(shape))


def adamw(name, **shapes) -> int:
    """What an AdamW optimizer ``name`` over parameters of these shapes counts (budget.optimizer_bytes)."""
    return optimizer_bytes(name, "adamw", {}, [(p, Meta(tuple(s))) for p, s in shapes.items()])


def test_an_actor_past_its_budget_is_refused_and_nothing_changes(registry):
    d = opened(registry, 32, 1024)
    params(d, A, w=[1024])  # 4 KiB
    optimizer(d, A, "adam", ["w"])  # AdamW's two moments, counted from the start: 8 KiB
    now = held("w", 1024) + adamw("adam", w=[1024])
    assert counted(d, A) == now == d.usage()[d.name_of(A)]["counted"]
    fits = (32 * KB - now - held("v", 0)) // 4  # the most floats a parameter v may have
    before, listed = snapshot(d), d.request("list", A)
    more = held("v", fits + 1)
    assert rejected(d, A, "params", [{"name": "v", "shape": [fits + 1], "init": {"ones": None}}]) == (
        f"moxzi_device_params: the actor would hold {now + more} bytes on the device ({now} now and {more} more "
        "after it); its budget is 32768 (--device-actor-mb): delete what it no longer needs (it holds, in bytes: "
        f"parameters {held('w', 1024)}, optimizers {adamw('adam', w=[1024])})"
    )
    assert snapshot(d) == before and d.request("list", A) == listed and counted(d, A) == now
    params(d, A, v=[fits])
    assert 32 * KB - 4 < counted(d, A) <= 32 * KB
    params(d, A, w=[1024])  # replacing with the same shape adds nothing
    d.close()


def test_publications_count_against_their_publisher_and_stored_tensors_against_their_owner(registry):
    d = opened(registry, 16, 1024)
    params(d, A, w=[1024])
    d.request("publish", A, {"names": ["w"], "prefix": "pub/", "readers": Some({"anyone": None})})
    copy = publication_bytes("pub/w", Meta((1024,)), "anyone")
    assert counted(d, A) == held("w", 1024) + copy  # the parameter and its copy
    twice = run_arg([{"shared": {"owner": Principal(A), "name": "pub/w"}}, {"scale": {"x": 0, "by": 2.0}}])
    twice["program"].append({"store": {"x": 1, "name": "twice"}})
    d.request("run", B, twice)  # B reads A's publication: only what B stores counts against B
    assert (counted(d, A), counted(d, B)) == (held("w", 1024) + copy, held("twice", 1024))
    d.request("run", B, twice)  # storing again under the same name replaces it
    assert counted(d, B) == held("twice", 1024)
    d.close()


def test_the_total_budget_refuses_an_actor_while_others_hold_bytes_and_deleting_gives_them_back(registry):
    d = opened(registry, 64, 48)
    params(d, A, big=[10 * KB])  # 40 KiB
    params(d, B, small=[KB])  # 4 KiB: 44 of 48 KiB in all
    now, b = held("big", 10 * KB) + held("small", KB), held("small", KB)
    assert rejected(d, B, "params", [{"name": "more", "shape": [2 * KB], "init": {"zeros": None}}]) == (
        f"moxzi_device_params: the device would hold {now + held('more', 2 * KB)} bytes for all actors ({now} now, "
        f"this actor {b}); its budget is 49152 (--device-total-mb) (it holds, in bytes: parameters {b})"
    )
    # Meanwhile A is served: it reads, replaces in place, and gives bytes back.
    assert read(d, A, {"param": "big"})[0].sum() == 10 * KB
    params(d, A, big=[10 * KB])
    d.request("delete", A, [{"kind": {"param": None}, "name": "big"}])
    assert (counted(d, A), d.holdings.total) == (0, b)
    params(d, B, more=[2 * KB])  # now it fits
    assert counted(d, B) == b + held("more", 2 * KB)
    d.close()


def test_a_run_whose_peak_would_pass_the_budget_is_refused_before_it_runs(registry):
    d = opened(registry, 64, 1024)
    params(d, A, w=[64, 64])  # 16 KiB
    optimizer(d, A, "sgd", ["w"], kind="sgd", beta1=0.0)  # no momentum: no state
    square = [{"param": "w"}, {"mul": {"a": 0, "b": 0}}, {"mean": {"x": 1, "dim": None}}]
    train = training(2, "sgd")
    before, weights = snapshot(d), read(d, A, {"param": "w"})[0]
    # w's gradient (16 KiB), w * w and the mean (16 KiB + 4 bytes) with theirs, beside the 16 KiB held
    now, sgd = held("w", 64, 64), optimizer_bytes("sgd", "sgd", {}, [("w", Meta((64, 64)))])
    assert rejected(d, A, "run", run_arg(square, train=train)) == (
        f"moxzi_device_run: the actor would hold {now + sgd + 49160} bytes on the device ({now + sgd} now and "
        "49160 more while it runs); its budget is 65536 (--device-actor-mb): delete what it no longer needs "
        f"(it holds, in bytes: parameters {now}, optimizers {sgd})"
    )
    assert snapshot(d) == before and (read(d, A, {"param": "w"})[0] == weights).all()
    assert d.usage()[d.name_of(A)]["steps"] == {}
    d.request("run", A, run_arg(square, tensors=[2]))  # without training it fits: 16 KiB more
    assert counted(d, A) == now + sgd  # what a run holds while it runs is given back after it
    d.close()


def test_what_an_actor_holds_stays_its_fresh_count_through_runs_that_skip_counting(registry):
    # A run that stores nothing (and keeps nothing) leaves the count as it was, uncounted; every other
    # call counts afresh. After each, what the holdings say is what counting from the space gives.
    d = opened(registry, 1024, 1024)
    params(d, A, w=[256])
    optimizer(d, A, "adam", ["w"])
    square = [{"param": "w"}, {"mul": {"a": 0, "b": 0}}, {"mean": {"x": 1, "dim": None}}]
    stored = [*square, {"store": {"x": 1, "name": "sq"}}]
    calls = [
        ("run", run_arg(square, train=training(2, "adam"))),
        ("run", run_arg(stored, scalars=[2])),  # 1 KiB more
        ("run", run_arg(square, train=training(2, "adam"), scalars=[2])),
        ("params", [{"name": "w", "shape": [512], "init": {"ones": None}}]),  # w and its moments double
        ("run", run_arg(square, tensors=[1])),
        ("delete", [{"kind": {"stored": None}, "name": "sq"}]),
        ("run", run_arg(square, train=training(2, "adam"))),
    ]
    seen = []
    for method, arg in calls:
        d.request(method, A, arg)
        assert counted(d, A) == d.counted(A), method
        seen.append(counted(d, A))
    small, big, sq = held("w", 256) + adamw("adam", w=[256]), held("w", 512) + adamw("adam", w=[512]), held("sq", 256)
    assert seen == [small, small + sq, small + sq, big + sq, big + sq, big, big]
    d.close()


def test_optimizer_state_is_counted_at_its_most_and_follows_its_parameters(registry):
    d = opened(registry, 1024, 1024)
    params(d, A, w=[256])  # 1 KiB
    optimizer(d, A, "adam", ["w"])
    optimizer(d, A, "momentum", ["w"], kind="sgd", beta1=0.9)

    def momentum(*shape):
        return optimizer_bytes("momentum", "sgd", {"beta1": 0.9}, [("w", Meta(shape))] if shape else [])

    assert counted(d, A) == held("w", 256) + adamw("adam", w=[256]) + momentum(256)
    params(d, A, w=[512])  # a bigger w: both optimizers' state grows with it
    assert counted(d, A) == held("w", 512) + adamw("adam", w=[512]) + momentum(512)
    d.request("delete", A, [{"kind": {"param": None}, "name": "w"}])  # optimizers keep no state for it
    assert counted(d, A) == adamw("adam") + momentum()
    d.close()


def test_what_each_actor_holds_is_counted_from_the_device_after_a_restore(registry):
    d = opened(registry, 1024, 1024)
    params(d, A, w=[256])
    optimizer(d, A, "adam", ["w"])
    d.request("publish", A, {"names": ["w"], "prefix": "p/", "readers": None})
    copy = snapshot(d)
    again = opened(registry, 1, 1024)  # a smaller budget: what is held comes back all the same
    again.restore(io.BytesIO(copy))
    now = held("w", 256) + adamw("adam", w=[256]) + publication_bytes("p/w", Meta((256,)), None)
    assert again.holdings.by_caller == d.holdings.by_caller == {A: now}
    assert again.holdings.total == now
    assert rejected(again, A, "params", [{"name": "v", "shape": [1], "init": {"ones": None}}]).startswith(
        f"moxzi_device_params: the actor would hold {now + held('v', 1)} bytes"
    )
    again.request("delete", A, [{"kind": {"publication": None}, "name": "p/w"}])  # freeing always works
    d.close()
    again.close()


# --- cycles -----------------------------------------------------------------------------------------
LOSSES = [Vec(FLOAT64)]


@contextlib.asynccontextmanager
async def paying_learner(registry, store, cycles, budget=DeviceBudget()):
    """(host, device, ledger): kit.device's learner host, every actor starting with ``cycles``."""
    ledger = Ledger(store, DefaultPrices(), cycles)
    async with learner_host(registry, store, ledger=ledger, budget=budget) as (host, device):
        yield host, device, ledger


async def learn(host, steps):
    return await host.call("learner", "learn", encode_args([NAT], [steps]), query=False)


def test_a_device_call_reserves_its_price_before_it_runs(registry):
    d = opened(registry, 1 << 20, 1 << 20)
    ledger = Ledger(MemoryStore(), DefaultPrices(device_cycles_per_ms=1000), 1000)
    make = d.types["moxzi_device_params"]
    big = encode_args(make.args, [[{"name": "w", "shape": [4_000_000], "init": {"ones": None}}]])
    # 4,000,000 elements: 2 ms expected at most, 2,000 cycles, and the actor has 1,000
    outcome = d.call("moxzi_device_params", A, big, Purse(ledger, "a"))
    assert outcome.reject_message == (
        "moxzi_device_params: actor a cannot pay for this work: it may cost 2000 cycles, and its balance is "
        "1000 (0 of them held by its calls in progress)"
    )
    assert d.request("list", A) == [] and (ledger.balance("a"), ledger.held("a")) == (1000, 0)
    purse = Purse(ledger, "a")
    small = encode_args(make.args, [[{"name": "w", "shape": [1_000_000], "init": {"ones": None}}]])
    assert d.call("moxzi_device_params", A, small, purse).reply is not None
    assert (purse.held, ledger.held("a")) == (500, 500)  # held until the host settles the call
    d.close()


def test_a_call_stopped_after_it_was_admitted_is_billed_for_its_time_and_a_refused_one_is_not(registry):
    d = open_device(registry, "torch:cpu", limits=DeviceLimits(call_seconds=0.001), budget=DeviceBudget(1 << 20))
    params(d, A, w=[64])
    run_type = d.types["moxzi_device_run"]
    chain = [{"param": "w"}] + [{"scale": {"x": i, "by": 1.0}} for i in range(4000)]
    ledger = Ledger(MemoryStore(), DefaultPrices(device_cycles_per_ms=1000), 10**9)
    stopped = d.call(
        "moxzi_device_run", A, encode_args(run_type.args, [run_arg(chain, tensors=[4000])]), Purse(ledger, "a")
    )
    assert "a call may take 0.001 s (--device-call-secs), and nothing was changed" in stopped.reject_message
    assert stopped.seconds >= 0.001  # the device time it used is charged (Purse.settle), as for any call
    make = d.types["moxzi_device_params"]
    big = encode_args(make.args, [[{"name": "v", "shape": [1 << 20], "init": {"ones": None}}]])  # 4 MiB
    refused = d.call("moxzi_device_params", A, big, Purse(ledger, "a"))
    assert "(--device-actor-mb)" in refused.reject_message and refused.seconds == 0.0  # never ran
    d.close()


async def test_an_actor_too_poor_for_a_call_is_refused_before_the_device_does_anything(registry):
    async with paying_learner(registry, MemoryStore(), 1000) as (host, device, ledger):
        outcome = await learn(host, 1)  # its params call may cost 204,800
        assert "actor learner cannot pay for this work: it may cost 204800 cycles" in outcome.reject_message
        assert device.request("list", host.info("learner").principal.bytes) == []
        assert (ledger.balance("learner"), ledger.spent("learner"), ledger.held("learner")) == (1000, 0, 0)


async def test_an_ordinary_program_is_charged_its_device_time_and_holds_nothing_after(registry):
    async with paying_learner(registry, MemoryStore(), 10**15) as (host, device, ledger):
        events = host.events.subscribe()
        assert (await learn(host, 3)).reply is not None
        calls = [e for e in events.take() if e["kind"] == "device"]
        assert [e["method"] for e in calls] == ["moxzi_device_params", "moxzi_device_optimizer"] + [
            "moxzi_device_run"
        ] * 3
        prices = DefaultPrices()
        assert ledger.spent("learner") == sum(prices.price("device_ms", e["seconds"] * 1000) for e in calls)
        assert ledger.held("learner") == 0


@pytest.mark.slow
async def test_a_restart_recounts_from_the_record_whatever_the_budget_now(registry):
    store = MemoryStore()
    async with paying_learner(registry, store, 10**15) as (host, device, _):
        assert (await learn(host, 2)).reply is not None
        held = dict(device.holdings.by_caller)
    # 2 x 8 KiB of parameters and 32 KiB of AdamW moments were admitted once: re-run, they come back
    # even under a budget they no longer fit, and the next run is refused.
    async with paying_learner(registry, store, 10**15, DeviceBudget(KB, 1 << 30)) as (host, device, ledger):
        assert device.holdings.by_caller == held
        assert held[host.info("learner").principal.bytes] > 48 * KB  # the data, and the names beside it
        outcome = await learn(host, 1)
        assert "moxzi_device_run: the actor would hold" in outcome.reject_message
        assert "its budget is 1024 (--device-actor-mb)" in outcome.reject_message
        assert ledger.held("learner") == 0


@pytest.mark.slow
def test_killed_during_device_calls_each_call_is_paid_exactly_once(tmp_path):
    """With a flat fee per device call, what the actor spent after kill -9s and restarts must be the fee
    times the calls it made: none paid twice (re-run after a kill), none lost."""
    pytest.importorskip("moxzi_store_lmdb")
    steps, fee, cycles = 1000, 1_000_000, 10**12  # fee: tests/thirdparty/moxzi_flat_fee
    project(tmp_path, "learner")
    flags = ("-m", "actors.json", "-s", "state", "--device", "torch:cpu", "--cycles", str(cycles))
    options = {"cwd": tmp_path, "plugins": "http,torch,lmdb,cycles,flatfee", "third_party": True}

    def progress(daemon) -> int:
        status, answer = request(f"{daemon.url}/query-json/learner/progress", [])
        assert status == 200, answer
        return len(answer[0])

    rng, seen = random.Random(5), []
    with running_moxzid(*flags, **options) as daemon:
        call_in_background(daemon, "call-json/learner/learn", [steps])
        kill_by(daemon, rng.uniform(0.5, 1.0), progress, steps // 2)
    for _ in range(2):
        with running_moxzid(*flags, **options) as daemon:
            seen.append(progress(daemon))
            kill_by(daemon, rng.uniform(0.2, 0.5), progress, (seen[-1] + steps) // 2)
    with running_moxzid(*flags, **options) as daemon:
        deadline = time.monotonic() + 240
        while progress(daemon) < steps:
            assert time.monotonic() < deadline, "training did not finish"
            time.sleep(0.1)
        status, accounts = request(f"{daemon.url}/cycles")
        assert status == 200
        spent = fee * (2 + steps)  # params, optimizer, one run per step
        assert accounts["learner"] == {"balance": cycles - spent, "spent": spent}, accounts
        assert daemon.stop() == 0
    assert seen[0] < steps, f"the first kill did not interrupt training: {seen}"


async def test_what_a_call_under_way_may_add_counts_against_the_others_while_it_stands_aside(registry):
    d = open_device(registry, "torch:cpu", budget=DeviceBudget(1 << 30, 100 << 20))
    params(d, A, w=[1024, 1024])  # 4 MiB
    run_type = d.types["moxzi_device_run"]
    chain = [{"param": "w"}] + [{"linear": {"x": i, "w": 0, "b": None}} for i in range(20)]  # 80 MiB more
    long = encode_args(run_type.args, [run_arg(chain, tensors=[20])])
    methods = d.system_methods()
    try:
        running = asyncio.create_task(methods["moxzi_device_run"](A, long))
        for _ in range(1000):  # until A's run was admitted (it then takes turns with B's calls)
            if d.holdings.running.get(A):
                break
            await asyncio.sleep(0.01)
        more = encode_args(
            d.types["moxzi_device_params"].args, [[{"name": "v", "shape": [5 << 20], "init": {"zeros": None}}]]
        )
        refused = await methods["moxzi_device_params"](B, more)  # 20 MiB: 4 + 80 + 20 > 100
        assert "the device would hold" in refused.reject_message and "(--device-total-mb)" in refused.reject_message
        assert (await running).reply is not None
        assert (await methods["moxzi_device_params"](B, more)).reply is not None  # A's run gave its bytes back
        assert d.holdings.total == held("w", 1024, 1024) + held("v", 5 << 20) and d.holdings.running == {}
    finally:
        d.close()


# --- what the device keeps besides tensors' data -----------------------------------------------------
def test_names_and_optimizers_over_empty_parameters_count_and_are_refused_past_the_budget(registry):
    # Finding 1 of issue 37: zero-element parameters with long names and optimizers over all of them
    # held memory the budget never saw.
    d = opened(registry, 1024, 1 << 20)
    names = [f"p{i:04d}".ljust(250, "x") for i in range(200)]
    d.request("params", A, [{"name": n, "shape": [0], "init": {"zeros": None}} for n in names])
    with_params = counted(d, A)
    assert with_params >= 200 * (250 + ENTRY_BYTES + TENSOR_BYTES)
    optimizer(d, A, "first", names, kind="sgd", beta1=0.0)  # no state: its list of names still counts
    assert counted(d, A) - with_params >= 200 * (250 + ENTRY_BYTES)
    before = snapshot(d)
    made = 1
    while True:
        try:
            optimizer(d, A, f"more{made}", names, kind="sgd", beta1=0.0)
        except DeviceError as refused:
            message = str(refused)
            break
        made += 1
        assert made < 20, "optimizers over named parameters are never refused"
    assert "its budget is 1048576 (--device-actor-mb)" in message
    assert "(it holds, in bytes: parameters " in message and ", optimizers " in message
    assert counted(d, A) <= 1024 * KB and counted(d, A) == d.counted(A)
    assert len(d.spaces[A].optimizers) == made  # the refused one left nothing behind
    d.request("delete", A, [{"kind": {"optimizer": None}, "name": "first"}])
    assert snapshot(d) != before and counted(d, A) == d.counted(A)
    d.close()


def test_the_entries_limit_counts_optimizers_and_the_parameters_they_are_over(registry):
    d = open_device(registry, "torch:cpu", limits=DeviceLimits(max_entries=10))
    params(d, A, a=[1], b=[1], c=[1])  # 3 entries
    optimizer(d, A, "one", ["a", "b", "c"])  # 4 more: 7
    assert rejected(d, A, "optimizer", _sgd("two", ["a", "b", "c"])) == (
        "moxzi_device_optimizer: the space would hold 11 entries; the limit is 10 (--device-actor-entries)"
    )
    d.request("optimizer", A, _sgd("two", ["a", "b"]))  # 10: exactly the limit
    assert sorted(d.spaces[A].optimizers) == ["one", "two"]
    d.close()


def test_a_runs_integer_inputs_count_as_the_backend_holds_them(registry):
    # Finding 7 of issue 37: torch holds integer inputs as int64, 8 bytes an element whatever the dtype
    d = opened(registry, 64, 1024)
    ids = {"data": bytes(16 * KB), "elem": {"u8": None}, "shape": [16 * KB]}  # 16 KiB sent, 128 KiB held
    message = rejected(d, A, "run", run_arg([{"input": 0}], inputs=[ids], tensors=[0]))
    assert f"and {16 * KB * 8} more while it runs" in message and "(--device-actor-mb)" in message
    d.close()


def test_usage_names_a_few_optimizers_and_counts_the_rest(registry):
    d = opened(registry, 1024, 1024)
    params(d, A, w=[1])
    for i in range(20):
        d.request("optimizer", A, _sgd(f"o{i:02d}", ["w"]))
    usage = d.usage()[d.name_of(A)]
    assert usage["optimizers"] == [f"o{i:02d}" for i in range(8)] and usage["optimizer_count"] == 20
    d.close()


def _sgd(name, names):
    spec = {"name": name, "params": names, "lr": 0.1, "beta1": 0.0, "beta2": 0.0, "eps": 1e-8, "weight_decay": 0.0}
    return {**spec, "kind": Some({"sgd": None})}


def test_readers_a_publication_names_count_and_steps_go_with_their_optimizer(registry):
    d = opened(registry, 1024, 1024)
    params(d, A, w=[1])
    readers = [Principal(bytes([i]) * 29) for i in range(100)]
    d.request("publish", A, {"names": ["w"], "prefix": "p/", "readers": Some({"principals": readers})})
    assert counted(d, A) == held("w", 1) + held("p/w", 1) + 100 * (ENTRY_BYTES + 29)
    usage = d.usage()[d.name_of(A)]
    assert (len(usage["readers"]), usage["reader_count"]) == (8, 100)
    square = [{"param": "w"}, {"mul": {"a": 0, "b": 0}}, {"mean": {"x": 1, "dim": None}}]
    for name in ("a", "b"):  # an optimizer's steps are kept with it, and go when it is deleted
        d.request("optimizer", A, _sgd(name, ["w"]))
        d.request("run", A, run_arg(square, train=training(2, name)))
        assert d.usage()[d.name_of(A)]["steps"] == {name: 1}
        d.request("delete", A, [{"kind": {"optimizer": None}, "name": name}])
    assert d.usage()[d.name_of(A)]["steps"] == {}
    d.close()


def test_a_live_export_counts_the_tensors_it_holds_against_its_exporter(registry):
    """An export holds its publications' tensors: while they are its publications' they count once, and
    once a publication is replaced or deleted its old tensor counts as the export's until the export
    stops serving; a replacement past the budget is refused naming what holds the bytes."""
    d = opened(registry, 15, 1024)
    d.exports.prefix = "http://exports.test/export"  # (as a transport sets it; nothing downloads here)
    params(d, A, w=[1024])
    publish = {"names": ["w"], "prefix": "p/", "readers": None}
    d.request("publish", A, publish)
    url = d.request("export", A, {"names": ["w"], "prefix": "p/", "uses": None, "seconds": None})
    record = export_record_bytes(["w"])
    now = held("w", 1024) + held("p/w", 1024) + record
    assert counted(d, A) == now == d.counted(A)
    old = TENSOR_BYTES + 4 * 1024  # the publication's tensor, which the export keeps if it is replaced
    before, listed = snapshot(d), d.request("list", A)
    assert rejected(d, A, "publish", publish) == (
        f"moxzi_device_publish: the actor would hold {now + old} bytes on the device ({now} now and {old} more "
        "after it); its budget is 15360 (--device-actor-mb): delete what it no longer needs (it holds, in bytes: "
        f"parameters {held('w', 1024)}, publications {held('p/w', 1024)}, exports {record})"
    )
    assert snapshot(d) == before and d.request("list", A) == listed and counted(d, A) == now
    d.request("delete", A, [{"kind": {"publication": None}, "name": "p/w"}])  # the export keeps its tensor
    assert counted(d, A) == held("w", 1024) + record + old
    assert isinstance(d.exports.take(url.rsplit("/", 1)[1]), Export)  # its one download: it serves no more
    params(d, A, v=[1])  # the next call counts it gone
    assert counted(d, A) == held("w", 1024) + held("v", 1) == d.counted(A)
    d.close()


def test_exports_that_stopped_serving_are_remembered_a_few_per_owner():
    exports = Exports(bytes, max_per_actor=2)
    exports.prefix = "http://exports.test/export"
    tokens = []
    for _ in range(3):
        tokens.append(exports.offer(A, [], 1, 60).rsplit("/", 1)[1])
        assert isinstance(exports.take(tokens[-1]), Export)  # used up
    assert [exports.take(t) for t in tokens] == [
        (404, "there is no export with this token"),  # forgotten: the owner's oldest beyond two
        (410, "the export is used up: it allowed 1 download"),
        (410, "the export is used up: it allowed 1 download"),
    ]
    assert exports.retired() == {A} and exports.retired() == set()
    token = exports.offer(B, [], 1, 1).rsplit("/", 1)[1]
    assert exports.retired() == set()
    time.sleep(1.05)
    assert exports.retired() == {B} and exports.take(token) == (410, "the export expired")
