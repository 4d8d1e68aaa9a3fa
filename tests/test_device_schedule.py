"""Sharing the device between actors (moxzi_core/device/schedule.py): a short call of one actor runs
while another's long program is under way, an actor's own calls keep their order, a run that reads
another actor's publication keeps the device, interleaved training gives the same numbers as training
alone, and a call past its time limit is stopped with nothing changed (but not when the record is
re-run), also in moxzid (tests/actors/grinder.mo) across a kill, where interleaved training is
rebuilt exactly. Programs are long by their size, never by a clock."""

import asyncio
import concurrent.futures
import threading
import time

import numpy as np
import pytest
from kit.daemon import project, running_moxzid
from kit.device import read, run_arg, snapshot, training

from moxzi_core import device
from moxzi_core.candid import Principal, Some, decode_args, encode_args
from moxzi_core.device import schedule as schedule_module
from moxzi_core.device.interface import builtin_payloads
from moxzi_core.device.schedule import Schedule, checkpoint

pytestmark = pytest.mark.usefixtures("one_torch_thread")

A, B = b"actor-a\x01", b"actor-b\x01"
CHAIN = 4000  # ops of a long program: some tens of milliseconds at the very least, on any machine


def chain(ops: int, train: bool, probe: bool = False, add: dict | None = None) -> dict:
    """A run of about ``ops`` ops alternating matmul by parameter ``w`` and rms_norm on a [16, 32]
    input, then its mean (the loss when ``train``) stored as ``total``. ``probe``: a probe op first and
    one last; ``add``: a source of shape [16, 32] added to the chain's end."""
    program: list[dict] = [{"param": "w"}, {"input": 0}]
    if add is not None:
        program.append(add)
    if probe:
        program.append({"probe": 1})
    while len(program) < ops:
        prev = len(program) - 1
        program.append({"matmul": {"a": prev, "b": 0}} if len(program) % 2 else {"rms_norm": prev})
    if add is not None:
        program.append({"add": {"a": len(program) - 1, "b": 2}})
    if probe:
        program.append({"probe": len(program) - 1})
    program.append({"mean": {"x": len(program) - 1, "dim": None}})
    loss = len(program) - 1
    program.append({"store": {"x": loss, "name": "total"}})
    x = np.random.default_rng(1).standard_normal((16, 32)).astype("<f4")
    return run_arg(
        program,
        inputs=[{"data": x.tobytes(), "elem": {"f32": None}, "shape": [16, 32]}],
        train=training(loss, "sgd") if train else None,
        scalars=[loss],
    )


def setup(dev, caller):
    w = np.random.default_rng(2).standard_normal((32, 32)).astype("<f4") / 6
    dev.request("params", caller, [{"name": "w", "shape": [32, 32], "init": {"values": w.tobytes()}}])
    sgd = {"name": "sgd", "params": ["w"], "lr": 0.01, "beta1": 0.9, "beta2": 0.0, "eps": 0.0, "weight_decay": 0.0}
    dev.request("optimizer", caller, sgd | {"kind": Some({"sgd": None})})


@pytest.fixture
def probed(registry):
    """A torch:cpu device with a `probe` op (x unchanged) whose kernel sets ``started`` and appends
    what ``watch()`` gives to ``ran`` (in the order the probes ran): ``probed.started``, ``.ran``,
    ``.watch``."""

    def kernel(p, x):
        d.ran.append(d.watch())
        d.started.set()
        return x

    probe = device.Op("probe", builtin_payloads()["relu"], lambda p, c: c.float("x", c.reg(p)), {"torch": kernel})
    d = device.Device(registry.backends["torch"]("torch:cpu"), dict(registry.ops) | {"probe": probe})
    d.started, d.ran, d.watch = threading.Event(), [], lambda: None
    yield d
    d.close()


async def under_way(dev, caller, run) -> asyncio.Future:
    """``caller``'s run, once its probe op ran."""
    task = asyncio.ensure_future(call(dev, caller, "run", run))
    started = asyncio.ensure_future(asyncio.to_thread(dev.started.wait, 60))
    await asyncio.wait([task, started], return_when=asyncio.FIRST_COMPLETED)
    assert dev.started.is_set(), f"the run ended before its probe ran: {await task}"
    return task


async def call(dev, caller, method, value):
    """A system-method call as an actor makes it: the decoded result, or the reject's message."""
    name = f"moxzi_device_{method}"
    ftype = dev.types[name]
    outcome = await dev.system_methods()[name](caller, encode_args(ftype.args, [value]))
    if outcome.reply is None:
        return outcome.reject_message
    results = decode_args(outcome.reply, ftype.rets)
    return results[0] if results else None


def read_w() -> dict:
    return run_arg([{"param": "w"}], tensors=[0])


async def test_a_short_call_completes_while_another_actors_long_program_runs(probed):
    setup(probed, A)
    setup(probed, B)
    long = await under_way(probed, A, chain(CHAIN, train=True, probe=True))
    short = await call(probed, B, "run", read_w())
    assert len(short["tensors"][0]) == 32 * 32 * 4
    assert not long.done()  # B's read did not wait for A's program to end
    result = await long
    assert isinstance(result, dict) and len(result["scalars"]) == 1


async def test_a_short_call_does_not_wait_behind_many_calls_another_actor_sent_at_once(probed):
    setup(probed, A)
    setup(probed, B)
    first = await under_way(probed, A, chain(400, train=False, probe=True))
    rest = [asyncio.ensure_future(call(probed, A, "run", chain(400, train=False))) for _ in range(20)]
    await call(probed, B, "run", read_w())
    assert not rest[-1].done()  # A's calls queue behind each other, not in front of B's
    assert all(isinstance(r, dict) for r in await asyncio.gather(first, *rest))


async def test_a_run_reading_another_actors_publication_keeps_the_device(probed):
    """B replacing the publication A's run reads waits for that run: recorded in the order calls end,
    A's run must have read what was there before B's call."""
    setup(probed, A)
    setup(probed, B)
    probed.request("params", B, [{"name": "p", "shape": [16, 32], "init": {"ones": None}}])
    publish = {"names": ["p"], "prefix": "pub/", "readers": Some({"anyone": None})}
    await call(probed, B, "publish", publish)
    shared = {"shared": {"owner": Principal(B), "name": "pub/p"}}
    probed.watch = lambda: probed.publications[(B, "pub/p")]
    long = await under_way(probed, A, chain(CHAIN, train=False, probe=True, add=shared))
    assert await call(probed, B, "publish", publish) is None
    assert isinstance(await long, dict)
    at_start, at_end = probed.ran
    assert at_start is at_end  # B's publish did not run while A's run was under way
    assert probed.publications[(B, "pub/p")] is not at_start  # it ran after


async def test_an_actors_calls_keep_their_order(dev):
    setup(dev, A)
    sets = [
        {"name": "w", "shape": [32, 32], "init": {"values": np.full(32 * 32, k, "<f4").tobytes()}} for k in range(8)
    ]
    await asyncio.gather(*(call(dev, A, "params", [s]) for s in sets), call(dev, B, "run", read_w()))
    assert read(dev, A, {"param": "w"})[0][0, 0] == 7


def test_a_short_call_runs_on_its_callers_thread_only_when_the_device_and_a_core_are_free(monkeypatch):
    schedule = Schedule()
    spare = [True]
    schedule.spare = lambda: spare[0]
    ran_on: list[int] = []
    foretold: list[bool] = []  # what would_run_here said before each run_here

    def call():
        ran_on.append(threading.get_ident())
        return "ran"

    def here_or_submitted():  # as DeviceCalls.start: here if it may, else on a device thread
        foretold.append(schedule.would_run_here(A))
        ran = schedule.run_here(A, call)
        return ran if ran is not schedule_module.NOT_HERE else schedule.submit(A, call).result()

    try:
        assert here_or_submitted() == "ran"  # not known to be short yet: a device thread
        assert here_or_submitted() == "ran"  # its last call was short: here
        schedule.submit(A, call).result()  # submitted: a device thread
        with schedule.turn():  # the device is taken: not here
            assert schedule.run_here(A, call) is schedule_module.NOT_HERE
        spare[0] = False  # the machine's cores are all busy: a device thread
        here_or_submitted()
        spare[0] = True
        here_or_submitted()
        monkeypatch.setattr(schedule_module, "SHORT_SECONDS", 0.0)
        here_or_submitted()  # short, but measured long now
        here_or_submitted()
    finally:
        schedule.close()
    here = [thread == threading.get_ident() for thread in ran_on]
    assert here == [False, True, False, False, True, True, False]
    assert foretold == [False, True, False, True, True, False]  # where it may run here


def test_a_call_submitted_while_one_runs_on_its_callers_thread_runs_after_it_on_a_device_thread():
    schedule = Schedule()
    schedule.spare = lambda: True
    order: list[str] = []
    try:
        schedule.submit(A, lambda: None).result()  # known short from now on
        submitted: list = []

        def first():
            submitted.append(schedule.submit(A, lambda: order.append("second")))
            time.sleep(0.05)  # the second waits for it, though no device thread runs the first
            order.append("first")

        schedule.run_here(A, first)
        submitted[0].result(5)
    finally:
        schedule.close()
    assert order == ["first", "second"]


def test_a_submitted_call_is_under_way_at_its_first_checkpoint_when_it_waits_in_line_or_ends():
    """``Submitted.underway``, which a thread that started the call early waits for before its own
    Python (``Gate.let_run``): not while the call holds the device before its backend's first step."""
    schedule = Schedule()
    holding, go, stepped, finish = (threading.Event() for _ in range(4))

    def first_call():
        with schedule.turn():
            holding.set()
            go.wait(5)
            checkpoint()
            stepped.set()
            finish.wait(5)

    def in_line():
        with schedule.turn():
            pass

    try:
        first = schedule.submit(A, first_call)
        assert holding.wait(5) and not first.underway.is_set()
        go.set()
        assert stepped.wait(5) and first.underway.is_set()
        second = schedule.submit(B, in_line)  # A holds the device: B's call waits in line for it
        assert second.underway.wait(5) and not second.done()
        finish.set()
        second.result(5)
        last = schedule.submit(A, lambda: None)  # no turn, no checkpoint: under way once it ends
        last.result(5)
        assert last.underway.is_set()
    finally:
        finish.set()
        schedule.close()


def test_a_core_is_spare_while_fewer_other_threads_are_runnable_than_cores(monkeypatch):
    runnable = [0]
    monkeypatch.setattr(schedule_module, "_runnable_others", lambda: runnable[0])
    monkeypatch.setattr(schedule_module, "LOAD_SECONDS", 0.0)  # counted at every call
    spare = schedule_module.Spare(cores=2)
    assert [spare() for _ in range(3)] == [False, True, True], "none known at first; then an idle machine"
    assert all(spare() for _ in range(10))
    runnable[0] = 6
    assert [spare() for _ in range(3)] == [True, False, False], "averaged: one count is not the load"
    runnable[0] = 1
    assert [spare() for _ in range(12)][-1], "one other thread beside: a core to spare"
    monkeypatch.setattr(schedule_module, "LOAD_SECONDS", 60.0)
    runnable[0] = 6
    assert all(spare() for _ in range(5)), "counted at most once a LOAD_SECONDS"
    assert 0 <= schedule_module._runnable_others() < 10_000  # this machine's own count


async def test_interleaved_training_gives_the_numbers_of_training_alone(registry):
    """Two actors training at once, stepping aside for each other at every op, end with the bytes each
    gets training alone."""

    async def train(dev, caller, steps=3):
        for _ in range(steps):
            await call(dev, caller, "run", chain(200, train=True))

    alone = device.open_device(registry, "torch:cpu")
    together = device.open_device(registry, "torch:cpu")
    together.schedule.slice_seconds = 0  # step aside at every checkpoint someone waits at
    for d in (alone, together):
        setup(d, A)
        setup(d, B)
    await train(alone, A)
    await train(alone, B)
    await asyncio.gather(train(together, A), train(together, B))
    for caller in (A, B):
        assert read(alone, caller, {"param": "w"})[0].tobytes() == read(together, caller, {"param": "w"})[0].tobytes()
        assert read(alone, caller, {"load": "total"})[0] == read(together, caller, {"load": "total"})[0]
    alone.close()
    together.close()


async def test_a_call_past_its_time_limit_is_stopped_and_changes_nothing(registry):
    dev = device.open_device(registry, "torch:cpu")
    setup(dev, A)
    setup(dev, B)
    assert isinstance(await call(dev, A, "run", chain(10, train=True)), dict)  # optimizer state, `total`
    dev.limits = device.DeviceLimits(call_seconds=0.001)
    before = snapshot(dev)
    for train in (True, False):
        rejected = await call(dev, A, "run", chain(CHAIN, train=train))
        assert rejected.startswith("moxzi_device_run: stopped after ")
        assert "a call may take 0.001 s (--device-call-secs), and nothing was changed" in rejected
        assert snapshot(dev) == before  # parameters, optimizer state, stored tensors
    dev.limits = device.DeviceLimits()  # the default limit: B's read must not be stopped on a busy machine
    assert len((await call(dev, B, "run", read_w()))["tensors"]) == 1  # the device serves on
    dev.limits = device.DeviceLimits(call_seconds=0.001)
    with dev.replay():  # re-running the record: the run did not stop the first time
        assert isinstance(dev.request("run", A, chain(CHAIN, train=True)), dict)
    assert snapshot(dev) != before
    dev.close()


@pytest.mark.slow
def test_moxzid_stops_a_call_past_its_limit_and_serves_on(tmp_path):
    """A training step of 18,000 ops of [64, 512] x [512, 512] (seconds on any CPU) under
    --device-call-secs 1 is rejected with the weights and the optimizer as they were (also after a kill
    and the record's re-run), and other actors are served."""
    manifest = project(tmp_path, "grinder", "learner")
    flags = ["-m", str(manifest), "-s", str(tmp_path / "state"), "--device", "torch:cpu", "--device-call-secs", "1"]
    with running_moxzid(*flags, cwd=tmp_path, plugins="http,lmdb,torch") as moxzid:
        moxzid.call("grinder", "setup", 512, 64)
        moxzid.call("grinder", "train", 2, 1)  # a short step: the optimizer has moments
        before = moxzid.call("grinder", "fingerprint")
        message = moxzid.reject("grinder", "train", 9000, 1)
        assert "moxzi_device_run: stopped after" in message and "a call may take 1 s" in message, message
        assert moxzid.call("grinder", "fingerprint") == before
        assert len(moxzid.call("learner", "learn", 2)[0]) == 2  # another actor trains meanwhile
        moxzid.call("grinder", "train", 2, 1)
        trained = moxzid.call("grinder", "fingerprint")
        assert trained != before
        moxzid.kill()
    with running_moxzid(*flags, cwd=tmp_path, plugins="http,lmdb,torch") as moxzid:
        # the record re-ran the calls that changed the device, and not the one stopped
        assert moxzid.call("grinder", "fingerprint") == trained


@pytest.mark.slow
def test_moxzid_rebuilds_interleaved_training_exactly_after_a_kill(tmp_path):
    """Two actors training at once (the learner's steps taking turns inside the grinder's) are recorded
    in the order their calls ended; a kill and the record's re-run give back the same weights."""
    manifest = project(tmp_path, "grinder", "learner")
    flags = ["-m", str(manifest), "-s", str(tmp_path / "state"), "--device", "torch:cpu"]
    with running_moxzid(*flags, cwd=tmp_path, plugins="http,lmdb,torch") as moxzid:
        moxzid.call("grinder", "setup", 128, 32)
        with concurrent.futures.ThreadPoolExecutor(2) as both:
            grinding = both.submit(moxzid.call, "grinder", "train", 40, 8)
            learning = both.submit(moxzid.call, "learner", "learn", 40)
            assert len(grinding.result()[0]) == 8 and len(learning.result()[0]) == 40
        weights = moxzid.call("grinder", "fingerprint"), moxzid.call("learner", "weights")
        moxzid.kill()
    with running_moxzid(*flags, cwd=tmp_path, plugins="http,lmdb,torch") as moxzid:
        assert (moxzid.call("grinder", "fingerprint"), moxzid.call("learner", "weights")) == weights


def test_a_training_runs_checkpoints_do_not_grow_with_the_runs_before_it(dev, monkeypatch):
    """The backward pass takes a checkpoint at each computed result's gradient: the 20th step of the
    same program takes as many as the 2nd (hooks left on the parameters would add one per step)."""
    from moxzi_device_torch import backend

    counted = []
    monkeypatch.setattr(backend, "checkpoint", lambda: counted.append(1))
    setup(dev, A)
    per_step = []
    for _ in range(20):
        counted.clear()
        assert isinstance(dev.request("run", A, chain(10, train=True)), dict)
        per_step.append(len(counted))
    assert per_step[1] == per_step[-1] > 10  # an op each, and the results' gradients
