"""The device's state comes back with the actors: every call that changed it is recorded with its answer
and re-run at start-up, so training that goes on after a restart computes exactly what an uninterrupted
run computes (torch:cpu)."""

import asyncio
import io
import time

import numpy as np
import pytest
from kit.device import learner_host
from kit.host import eventually, query, spec, update

from moxzi_core.candid import FLOAT64, NAT, Vec
from moxzi_core.device import DeviceError, open_device
from moxzi_core.runtime.attachments import Attachment
from moxzi_core.runtime.device_calls import CheckpointPolicy
from moxzi_core.runtime.host import Host, HostConfig
from moxzi_core.runtime.journal import Journal
from moxzi_core.store import Batch, MemoryStore, StoreError

pytestmark = pytest.mark.slow  # restarts of the device from its record

LOSSES = [Vec(FLOAT64)]


async def learn(host, steps):
    [losses] = await update(host, "learner", "learn", [NAT], [steps], rets=LOSSES)
    return losses


async def test_training_after_a_restart_matches_an_uninterrupted_run(registry):
    async with learner_host(registry, MemoryStore()) as (host, _):
        uninterrupted = await learn(host, 4)
        uninterrupted = await learn(host, 4)

    store = MemoryStore()
    async with learner_host(registry, store) as (host, _):
        await learn(host, 4)
    assert len(Journal(store).system_calls()) == 2 + 4  # params, optimizer, 4 training runs

    async with learner_host(registry, store) as (host, _):  # a new, empty device: rebuilt from the record
        assert await learn(host, 4) == uninterrupted  # bit for bit, the first 4 from the record
        assert uninterrupted[-1] < uninterrupted[0]


async def test_a_call_that_ends_after_the_host_stopped_is_not_answered_and_runs_again(registry):
    """The device's thread answers an actor's device call; one that ends once the host has stopped
    writes nothing (the store is closed next), so it is still pending and runs after the restart."""
    async with learner_host(registry, MemoryStore()) as (host, _):
        uninterrupted = await learn(host, 8)

    store, late, stopped = MemoryStore(), [], []
    commit = store.commit

    def committing(batch):
        if stopped:
            late.append(batch)
        commit(batch)

    store.commit = committing  # type: ignore[method-assign]
    async with learner_host(registry, store) as (host, dev):
        stop = host.stop
        host.stop = lambda: _then(stop, stopped)  # type: ignore[method-assign]
        watched = host.events.subscribe()
        learning = asyncio.ensure_future(learn(host, 8))
        seen = 0
        while seen < 3:
            await asyncio.sleep(0.002)
            seen += sum(e["kind"] == "device" for e in watched.take())
        call = dev.call
        dev.call = lambda *args: (time.sleep(0.5), call(*args))[1]  # the next call ends after the stop
        await asyncio.sleep(0.1)
    learning.cancel()
    assert stopped and late == []

    async with learner_host(registry, store) as (host, _):
        await eventually(lambda: _has(host, 8))
        [losses] = await query(host, "learner", "progress", rets=LOSSES)
        assert losses == uninterrupted


async def test_calls_ending_on_several_threads_are_committed_in_the_records_order(registry, monkeypatch):
    """Two actors' device calls end on their own threads at once; one answer is slow to commit (between
    its place in the record and its batch): the other's waits, so the record never has a gap."""
    places: dict[int, int] = {}  # id(batch) -> the place of the call it records
    committed: list[int] = []
    record, answered = Journal.system_call, Journal.answered

    def recording(batch, seq, *rest):
        places[id(batch)] = seq
        record(batch, seq, *rest)

    def answering(batch, name, callback):
        if places.get(id(batch), 1) % 2 == 0:
            time.sleep(0.02)  # a slow answer: the next call ends meanwhile
        answered(batch, name, callback)

    monkeypatch.setattr(Journal, "system_call", staticmethod(recording))
    monkeypatch.setattr(Journal, "answered", staticmethod(answering))
    store = MemoryStore()
    commit = store.commit

    def committing(batch):
        if id(batch) in places:
            committed.append(places.pop(id(batch)))
        commit(batch)

    store.commit = committing  # type: ignore[method-assign]
    dev = open_device(registry, "torch:cpu")
    host = Host(
        [spec("one", "learner"), spec("two", "learner")],
        HostConfig(checkpoint=CheckpointPolicy()),
        system_methods=dev.system_methods(),
        store=store,
        system_state=dev,
    )
    await host.start()
    try:
        await asyncio.gather(*(update(host, name, "learn", [NAT], [12], rets=LOSSES) for name in ("one", "two")))
    finally:
        await host.stop()
        dev.close()
    assert committed == list(range(2 * (2 + 12)))  # params, optimizer and 12 runs each, in order


async def _then(stop, stopped: list) -> None:
    await stop()
    stopped.append(True)


async def _has(host, count: int) -> bool:
    [losses] = await query(host, "learner", "progress", rets=LOSSES)
    return len(losses) >= count


async def test_reads_are_not_recorded(registry):
    store = MemoryStore()
    async with learner_host(registry, store) as (host, device):
        await learn(host, 1)
        before = len(Journal(store).system_calls())
        device.request("list", b"\x04")  # a call that changes nothing
        assert len(Journal(store).system_calls()) == before


@pytest.mark.parametrize(
    "policy",
    [
        CheckpointPolicy(seconds=1e-9, megabytes=1e9, spacing=0),  # by device time: after every call
        CheckpointPolicy(seconds=0, megabytes=1e-6, spacing=0),  # by size only: after every call
    ],
    ids=["by-time", "by-size"],
)
async def test_copies_of_the_device_replace_the_record(registry, policy):
    async with learner_host(registry, MemoryStore()) as (host, _):
        uninterrupted = await learn(host, 3) + await learn(host, 3)

    store = MemoryStore()
    async with learner_host(registry, store, checkpoint=policy) as (host, _):
        first = await learn(host, 3)
    copy = Journal(store).system_checkpoint()
    assert copy is not None
    assert copy[0] >= 4 and len(Journal(store).system_calls()) <= 1  # the record before the copy went

    async with learner_host(registry, store, checkpoint=policy) as (host, _):
        assert first + await learn(host, 3) == uninterrupted


async def test_a_stop_copies_a_record_that_would_take_long_to_run_again(registry):
    """As the host stops, the device is copied when re-running what was recorded since the last copy
    would take the next start-up ``at_stop`` seconds or more (0 here): that start-up re-runs nothing."""
    async with learner_host(registry, MemoryStore()) as (host, _):
        uninterrupted = await learn(host, 3) + await learn(host, 3)

    store = MemoryStore()
    at_stop = CheckpointPolicy(seconds=0, megabytes=1e9, at_stop=0)
    async with learner_host(registry, store, checkpoint=at_stop) as (host, _):
        first = await learn(host, 3)
        assert len(Journal(store).system_calls()) == 5 and Journal(store).system_checkpoint() is None
    assert Journal(store).system_checkpoint()[0] == 5 and Journal(store).system_calls() == []

    async with learner_host(registry, store, checkpoint=at_stop) as (host, _):
        assert first + await learn(host, 3) == uninterrupted


async def test_a_long_record_is_copied_right_after_start_up(registry):
    store = MemoryStore()
    never = CheckpointPolicy(seconds=0, megabytes=1e9, at_stop=float("inf"))
    async with learner_host(registry, store, checkpoint=never) as (host, _):
        await learn(host, 3)
    assert Journal(store).system_checkpoint() is None

    async with learner_host(registry, store, checkpoint=CheckpointPolicy(seconds=0, megabytes=1e-6)):
        assert Journal(store).system_checkpoint()[0] == 5  # params, optimizer, 3 runs: copied at start
        assert Journal(store).system_calls() == []


async def test_without_a_policy_nothing_is_recorded_nor_copied(registry):
    """moxzid without -s: nothing outlives the process, so keeping a record would only cost memory."""
    store = MemoryStore()
    async with learner_host(registry, store, checkpoint=None) as (host, _):
        losses = await learn(host, 3)
        assert losses[-1] < losses[0]
        assert Journal(store).system_calls() == [] and Journal(store).system_checkpoint() is None


async def test_a_damaged_copy_stops_start_up_with_a_clear_error(registry):
    store, every_call = MemoryStore(), CheckpointPolicy(seconds=0, megabytes=1e-6, spacing=0)
    async with learner_host(registry, store, checkpoint=every_call) as (host, _):
        await learn(host, 2)
    key, part = next(store.scan(b"system/parts/"))
    batch = Batch()
    at = len(part) // 2
    batch.put(key, part[:at] + bytes([part[at] ^ 1]) + part[at + 1 :])  # one bit
    store.commit(batch)
    with pytest.raises((StoreError, DeviceError), match="damaged"):  # the store's digest, or the snapshot's own form
        async with learner_host(registry, store):
            pass


def test_an_attachment_reads_back_in_parts_and_a_changed_bit_is_caught():
    store, data = MemoryStore(), np.random.default_rng(0).bytes(9 << 20)  # three batches of parts
    journal = Journal(store)
    kept = Attachment(len(data), lambda: io.BytesIO(data))
    journal.put_attachment(kept)
    batch = Batch()
    Journal.system_call(batch, 0, b"\x01", "m", kept)
    store.commit(batch)
    [(_, (_, _, recorded))] = journal.system_calls()
    assert recorded.size == len(data) and recorded.open().read() == data
    key, part = list(store.scan(b"system/parts/"))[1]
    batch = Batch()
    batch.put(key, part[:5] + bytes([part[5] ^ 1]) + part[6:])
    store.commit(batch)
    with pytest.raises(StoreError, match="its bytes do not match their sha256"):
        recorded.open().read()


async def test_the_seed_decides_the_starting_weights_and_a_store_keeps_its_seed(registry):
    async with learner_host(registry, MemoryStore(), seed=0) as (host, _):
        zero = await learn(host, 2)
    async with learner_host(registry, MemoryStore(), seed=7) as (host, _):
        uninterrupted = await learn(host, 2) + await learn(host, 2)
    assert uninterrupted[:2] != zero  # the learner's parameters start #normal

    store = MemoryStore()
    async with learner_host(registry, store, seed=7) as (host, _):
        await learn(host, 2)
    with pytest.raises(
        StoreError,
        match="recorded on a device with seed 7, and this moxzid's has seed 0 "
        r"\(start it with the same --device-seed\)",
    ):
        async with learner_host(registry, store):
            pass
    async with learner_host(registry, store, seed=7) as (host, _):
        assert await learn(host, 2) == uninterrupted[2:]  # rebuilt on a device with the same seed


@pytest.mark.parametrize("seed", [-1, 2**64])
def test_a_seed_out_of_range_is_refused(registry, seed):
    with pytest.raises(DeviceError, match=f"device seed {seed}: must be from 0 to 2\\*\\*64 - 1"):
        open_device(registry, "torch:cpu", seed=seed)


async def test_a_created_actor_trains_and_carries_on_after_a_restart(registry):
    """An actor made at run time (Host.create_canister, as the IC interface's cycles ledger makes one
    for icp deploy) and installed through install_code uses the device as the manifest's do, and its
    training after a restart computes what an uninterrupted run computes."""
    from kit.actorbuild import build_actor

    from moxzi_core.candid import encode_args
    from moxzi_core.runtime.management.interface import MANAGEMENT_NAME, SERVICE

    owner = bytes(range(1, 30))
    install_types = list(SERVICE.methods["install_code"].args)

    async def created(host) -> str:
        canister = host.create_canister(owner, {})
        install = {
            "mode": {"install": None},
            "canister_id": canister,
            "wasm_module": build_actor("learner").wasm,
            "arg": encode_args([], []),
            "sender_canister_version": None,
        }
        outcome = await host.call(
            MANAGEMENT_NAME, "install_code", encode_args(install_types, [install]), query=False, caller=owner
        )
        assert outcome.reply is not None, outcome.reject_message
        return canister.to_text()

    async def learn_as(host, name, steps):
        [losses] = await update(host, name, "learn", [NAT], [steps], rets=LOSSES)
        return losses

    async with learner_host(registry, MemoryStore()) as (host, _):
        name = await created(host)
        uninterrupted = await learn_as(host, name, 2) + await learn_as(host, name, 2)
    store = MemoryStore()
    async with learner_host(registry, store) as (host, _):
        assert await created(host) == name  # the same id from a fresh store: the same device seed
        first = await learn_as(host, name, 2)
    async with learner_host(registry, store) as (host, _):
        assert first + await learn_as(host, name, 2) == uninterrupted
        assert uninterrupted[-1] < uninterrupted[0]
