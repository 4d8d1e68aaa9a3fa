"""The device's state comes back with the actors: every call that changed it is recorded with its answer
and re-run at start-up, so training that goes on after a restart computes exactly what an uninterrupted
run computes (torch:cpu)."""

import pytest

from moxzi_core import plugins
from moxzi_core.candid import FLOAT64, NAT, Vec
from moxzi_core.device import open_device
from moxzi_core.runtime.host import Host
from moxzi_core.runtime.journal import Journal
from moxzi_core.store import MemoryStore
from test_runtime import spec, update

LOSSES = [Vec(FLOAT64)]


@pytest.fixture(scope="module")
def registry():
    return plugins.load(["torch"])[0]


async def started(registry, store):
    device = open_device(registry, "torch:cpu")
    host = Host([spec("learner", "learner")], system_methods=device.system_methods(), store=store)
    await host.start()
    return host, device


async def stopped(host, device):
    await host.stop()
    device.close()


async def learn(host, steps):
    [losses] = await update(host, "learner", "learn", [NAT], [steps], rets=LOSSES)
    return losses


async def test_training_after_a_restart_matches_an_uninterrupted_run(registry):
    host, device = await started(registry, MemoryStore())
    uninterrupted = await learn(host, 4)
    uninterrupted = await learn(host, 4)
    await stopped(host, device)

    store = MemoryStore()
    host, device = await started(registry, store)
    await learn(host, 4)
    await stopped(host, device)
    assert len(Journal(store).system_calls()) == 2 + 4  # params, optimizer, 4 training runs

    host, device = await started(registry, store)  # a new, empty device: rebuilt from the record
    try:
        assert await learn(host, 4) == uninterrupted  # bit for bit, the first 4 from the record
        assert uninterrupted[-1] < uninterrupted[0]
    finally:
        await stopped(host, device)


async def test_reads_are_not_recorded(registry):
    store = MemoryStore()
    host, device = await started(registry, store)
    try:
        await learn(host, 1)
        before = len(Journal(store).system_calls())
        device.request("list", b"\x04")  # a call that changes nothing
        assert len(Journal(store).system_calls()) == before
    finally:
        await stopped(host, device)
