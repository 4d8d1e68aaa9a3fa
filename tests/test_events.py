"""The event stream (moxzi_core.events): bounded buffers that drop the oldest, replay, waking an event
loop from another thread; what the host and the device publish; training progress lines."""

import asyncio
import logging
import threading

import pytest

from moxzi_core.candid import Some, encode_args
from moxzi_core.events import Events, LogHandler
from moxzi_core.progress import Progress
from moxzi_core.runtime.host import ActorSpec, Host

pytestmark = pytest.mark.usefixtures("one_torch_thread")

CALLER = b"trainer\x01"
# loss = mean(w * w): each step moves w toward 0.
SQUARES = [{"param": "w"}, {"mul": {"a": 0, "b": 0}}, {"mean": {"x": 1, "dim": None}}]


def squares_run(train: bool) -> dict:
    step = Some({"loss": 2, "optimizer": "sgd", "clip": None, "lr": None, "also": None}) if train else None
    return {"inputs": [], "program": SQUARES, "train": step, "scalars": [2], "tensors": [], "split": None}


def test_a_full_buffer_drops_the_oldest_and_counts_them():
    events = Events()
    sub = events.subscribe(buffer=3)
    for n in range(5):
        events.publish("log", n=n)
    assert [e["n"] for e in sub.take()] == [2, 3, 4]
    assert sub.dropped == 2
    assert sub.take() == []
    sub.close()
    events.publish("log", n=9)
    assert sub.take() == []


def test_replay_starts_with_recent_events():
    events = Events()
    events.publish("log", n=1)
    assert [e["n"] for e in events.subscribe(replay=True).take()] == [1]
    assert events.subscribe().take() == []


def test_next_wakes_on_an_event_from_another_thread():
    events = Events()

    async def main():
        sub = events.subscribe()
        assert await sub.next(timeout=0.01) == []
        threading.Timer(0.05, events.publish, ("train",), {"loss": 1.5}).start()
        got = await sub.next(timeout=10)
        assert [e["loss"] for e in got] == [1.5]

    asyncio.run(main())


def test_log_records_become_events_naming_the_actor_of_a_print():
    events = Events()
    sub = events.subscribe()
    logger = logging.getLogger("test.events")
    handler = LogHandler(events)
    logger.addHandler(handler)
    try:
        logger.warning("hello %s", "there", extra={"actor": "counter"})
    finally:
        logger.removeHandler(handler)
    event, = sub.take()
    assert (event["level"], event["logger"], event["message"], event["actor"]) == \
        ("WARNING", "test.events", "hello there", "counter")


def test_the_host_publishes_each_message_and_prints(actor_build):
    built = actor_build("counter")
    events = Events()
    sub = events.subscribe()
    handler = LogHandler(events)
    logging.getLogger("moxzid").addHandler(handler)

    async def main():
        host = Host([ActorSpec("counter", built.wasm, built.did)], events=events)
        await host.start()
        try:
            await host.call("counter", "inc", encode_args([], []), query=False)
            await host.call("counter", "get", encode_args([], []), query=True)
        finally:
            await host.stop()

    try:
        asyncio.run(main())
    finally:
        logging.getLogger("moxzid").removeHandler(handler)
    got = sub.take()
    messages = [(e["actor"], e["method"], e["query"], e["trapped"]) for e in got if e["kind"] == "message"]
    assert messages == [("counter", "inc", False, False), ("counter", "get", True, False)]
    assert all(e["instructions"] > 0 and e["seconds"] > 0 for e in got if e["kind"] == "message")


def test_each_training_step_publishes_its_loss(dev):
    events = Events()
    sub = events.subscribe()
    dev.watch(events, {CALLER: "squares"})
    dev.request("params", CALLER, [{"name": "w", "shape": [2, 3], "init": {"normal": 1.0}}])
    dev.request("optimizer", CALLER, {"name": "sgd", "params": ["w"], "lr": 0.1, "beta1": 0.0, "beta2": 0.0,
                                      "eps": 0.0, "weight_decay": 0.0, "kind": Some({"sgd": None})})
    losses = [dev.request("run", CALLER, squares_run(train=True))["scalars"][0] for _ in range(3)]
    dev.request("run", CALLER, squares_run(train=False))  # not a training step
    got = [e for e in sub.take() if e["kind"] == "train"]
    assert [(e["actor"], e["optimizer"], e["step"]) for e in got] == [("squares", "sgd", n) for n in (1, 2, 3)]
    assert [e["loss"] for e in got] == pytest.approx(losses)
    assert losses[2] < losses[0]
    usage = dev.usage()["squares"]
    assert (usage["steps"], usage["params"], usage["optimizers"], usage["bytes"]) == ({"sgd": 3}, 1, ["sgd"], 24)


def test_progress_logs_at_most_every_few_seconds_per_optimizer(caplog):
    progress = Progress(every_seconds=5)
    caplog.set_level(logging.INFO, "moxzid.train")
    for step in range(1, 21):  # a step every second, two optimizers
        for optimizer in ("adam", "sgd"):
            progress.feed({"kind": "train", "time": 100.0 + step, "actor": "a", "optimizer": optimizer,
                           "step": step, "loss": 10.0 / step, "seconds": 0.5})
    lines = [r.getMessage() for r in caplog.records]
    assert lines[0] == "a adam: step 6, loss 1.6667, 1000.0 ms/step"
    assert [line.split(":")[0] for line in lines] == ["a adam", "a sgd"] * 3
    caplog.clear()
    progress.feed({"kind": "log", "time": 200.0, "message": "x"})  # quiet when not training
    assert caplog.records == []
