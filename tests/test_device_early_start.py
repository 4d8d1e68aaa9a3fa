"""A device call that goes to a device thread starts as soon as the entry point that made it returns,
before its message is committed (``Turn.call``, ``DeviceCalls.start_early``), so the device works while
the actor's thread commits and settles the message; its answer waits for that commit
(``device_calls.Gate``), so the store never holds the answer to a call whose making it does not hold. A message that is not settled after
all leaves its early call unanswered, and the actor's next calls run."""

import concurrent.futures
import threading
import time
from types import SimpleNamespace

import pytest
from kit.device import learner_host
from kit.host import update

from moxzi_core.candid import FLOAT64, NAT, Vec, encode_args
from moxzi_core.device import schedule as schedule_module
from moxzi_core.runtime.delivery import Delivery
from moxzi_core.runtime.device_calls import DeviceCalls, Gate, Threaded
from moxzi_core.runtime.ic0 import OutgoingCall
from moxzi_core.runtime.journal import Journal
from moxzi_core.runtime.messages import MANAGEMENT, Outcome
from moxzi_core.runtime.turn import Turn
from moxzi_core.store import MemoryStore

pytestmark = pytest.mark.slow  # a learner on a torch device in a host

LOSSES = [Vec(FLOAT64)]


async def learn(host, steps):
    [losses] = await update(host, "learner", "learn", [NAT], [steps], rets=LOSSES)
    return losses


def handed_off(dev):
    """No call runs on the actor's thread (as on a machine with no core to spare)."""
    dev.schedule.spare = lambda: False


def batches_committed(monkeypatch, store: MemoryStore, committing=lambda kinds: None) -> list[str]:
    """What each batch ``store`` commits holds, in order: "pending" (a device call made), "answered";
    ``committing(kinds)`` runs before each commit."""
    log: list[str] = []
    tags: dict[int, list[str]] = {}
    pending, answered = Journal.pending, Journal.answered

    def tagging(kind, write):
        def tagged(batch, *args):
            tags.setdefault(id(batch), []).append(kind)
            write(batch, *args)

        return staticmethod(tagged)

    monkeypatch.setattr(Journal, "pending", tagging("pending", pending))
    monkeypatch.setattr(Journal, "answered", tagging("answered", answered))
    commit = store.commit

    def tagged_commit(batch):
        kinds = tags.pop(id(batch), [])
        committing(kinds)
        log.extend(kinds)
        commit(batch)

    store.commit = tagged_commit  # type: ignore[method-assign]
    return log


async def test_a_call_runs_before_its_message_commits_and_its_answer_commits_after(registry, monkeypatch):
    """Each message's commit waits (up to 10 s) until the device call it made has run, and 50 ms more: the
    call can only run before the commit if it started early; its answer, ready first, is committed after."""
    ran = threading.Semaphore(0)  # released as each device call returns
    ran_first: list[bool] = []

    def committing(kinds):
        if "pending" in kinds:
            ran_first.append(ran.acquire(timeout=10))
            time.sleep(0.05)  # time enough for an answer not held back to be committed first

    store = MemoryStore()
    log = batches_committed(monkeypatch, store, committing)
    async with learner_host(registry, store) as (host, dev):
        handed_off(dev)
        call = dev.call
        dev.call = lambda *args: (call(*args), ran.release())[0]  # type: ignore[method-assign]
        early = await learn(host, 6)

    calls = 2 + 6  # params, optimizer, 6 training runs, one after another
    assert ran_first == [True] * calls
    assert log == ["pending", "answered"] * calls

    async with learner_host(registry, MemoryStore()) as (host, _):  # calls as they come (on this machine)
        assert await learn(host, 6) == early  # the same numbers either way


async def test_a_call_run_on_the_actors_thread_is_answered_there_after_its_making_is_committed(registry, monkeypatch):
    """On an idle machine a short call runs on the actor's thread as its message settles
    (``Schedule.run_here``) and is answered from there at once, without a future: after the batch that
    records it pending, with the numbers a device thread gives."""
    async with learner_host(registry, MemoryStore()) as (host, dev):
        handed_off(dev)
        handed = await learn(host, 6)

    monkeypatch.setattr(schedule_module, "SHORT_SECONDS", 60.0)  # every call short, however busy the machine
    store = MemoryStore()
    log = batches_committed(monkeypatch, store)
    threads: list[str] = []
    async with learner_host(registry, store) as (host, dev):
        dev.schedule.spare = lambda: True
        call = dev.call
        dev.call = lambda *args: (threads.append(threading.current_thread().name), call(*args))[1]  # type: ignore[method-assign]
        assert await learn(host, 6) == handed

    calls = 2 + 6
    assert log == ["pending", "answered"] * calls
    assert threads[0].startswith("moxzi-device") and all(t == "actor-learner" for t in threads[1:])


async def test_a_message_not_settled_leaves_its_early_call_unanswered(registry, monkeypatch):
    """A message whose settling fails (an internal error) after its call started: the caller gets the
    error, nothing of the call is in the store, and the actor's next calls run (no device thread waits
    for the message forever)."""
    settle = Delivery.settle
    failed: list[bool] = []

    def failing(self, actor, consumed, effects, *args, **kwargs):
        if effects.started and not failed:  # the first message that started a call: learn's, with its params call
            failed.append(True)
            raise RuntimeError("a bug while settling")
        return settle(self, actor, consumed, effects, *args, **kwargs)

    monkeypatch.setattr(Delivery, "settle", failing)
    store = MemoryStore()
    async with learner_host(registry, store) as (host, dev):
        handed_off(dev)
        outcome = await host.call("learner", "learn", encode_args([NAT], [2]), query=False)
        assert outcome.reply is None and "a bug while settling" in (outcome.reject_message or "")
        saved = Journal(store).load("learner")
        assert saved is not None and saved.pending == []
        assert len(await learn(host, 2)) == 2


def test_a_call_after_one_that_waits_for_the_settle_waits_too():
    """A message's calls start in the order it made them: once one (a short call, or one on the event
    loop) is left to the settle, the calls after it are too, even those that could start early."""
    asked: list[str] = []

    def start_early(name, principal, method, data):
        asked.append(method)
        return None if method == "short" else Gate()

    turn = Turn("a", b"a", SimpleNamespace(memory_budget=None, ledger=None, start_early=start_early))
    for callback, method in enumerate(["long", "short", "long", "other"]):
        turn.call(callback, OutgoingCall(MANAGEMENT, method, reply=(0, 0), reject=(0, 0)))
    assert asked == ["long", "short"]
    assert list(turn.effects.started) == [0]
    assert [call.method for _, call in turn.effects.calls] == ["long", "short", "long", "other"]


def test_a_call_that_ends_before_start_early_returns_is_answered_once_its_gate_opens():
    """A call started early may end before the thread that started it adds its callback (that thread
    preempted meanwhile, under load): its answer then waits for the gate on a thread of its own, not on the
    thread that opens the gate as it settles, which would wait for itself (moxzid hung, every thread idle)."""

    def ended_at_once(caller, data, purse):
        future: concurrent.futures.Future = concurrent.futures.Future()
        future.set_result(Outcome(b"ran"))
        return future

    calls = DeviceCalls(Journal(MemoryStore()), {"run": Threaded(ended_at_once)}, None, None)
    gates: list[Gate | None] = []
    starting = threading.Thread(target=lambda: gates.append(calls.start_early("a", b"a", "run", b"")), daemon=True)
    starting.start()
    starting.join(10)
    assert not starting.is_alive(), "start_early waited for the gate its own thread opens"
    [gate] = gates
    assert gate is not None
    answered: list[Outcome] = []
    done = threading.Event()
    gate.open(lambda batch, outcome: (answered.append(outcome), done.set()))
    assert done.wait(10)
    assert [outcome.reply for outcome in answered] == [b"ran"]
