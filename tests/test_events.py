"""The event stream (moxzi_core.events): bounded buffers that drop the oldest, replay, waking an event
loop from another thread; what the host and the device publish; training progress lines; what the
device shows of its memory, exports and fetches in flight."""

import asyncio
import logging
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from kit.device import plain_sgd, run_arg, training
from kit.host import spec

from moxzi_core import plugins
from moxzi_core.candid import Principal, Some, encode_args
from moxzi_core.device.transfer import redact
from moxzi_core.events import Events, LogHandler
from moxzi_core.progress import Progress
from moxzi_core.runtime.host import Host
from moxzi_core.settings import Address, Settings
from moxzi_gateway_http.transport import HttpTransport

pytestmark = pytest.mark.usefixtures("one_torch_thread")

CALLER = b"trainer\x01"
# loss = mean(w * w): each step moves w toward 0.
SQUARES = [{"param": "w"}, {"mul": {"a": 0, "b": 0}}, {"mean": {"x": 1, "dim": None}}]


def squares_run(train: bool) -> dict:
    step = training(2, "sgd") if train else None
    return run_arg(SQUARES, train=step, scalars=[2])


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
    (event,) = sub.take()
    assert (event["level"], event["logger"], event["message"], event["actor"]) == (
        "WARNING",
        "test.events",
        "hello there",
        "counter",
    )


def test_the_host_publishes_each_message_and_prints():
    events = Events()
    sub = events.subscribe()
    handler = LogHandler(events)
    logging.getLogger("moxzid").addHandler(handler)

    async def main():
        host = Host([spec("counter", "counter")], events=events)
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
    dev.request("optimizer", CALLER, plain_sgd(["w"], 0.1))
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
            progress.feed(
                {
                    "kind": "train",
                    "time": 100.0 + step,
                    "actor": "a",
                    "optimizer": optimizer,
                    "step": step,
                    "loss": 10.0 / step,
                    "seconds": 0.5,
                }
            )
    lines = [r.getMessage() for r in caplog.records]
    assert lines[0] == "a adam: step 6, loss 1.6667, 1000.0 ms/step"
    assert [line.split(":")[0] for line in lines] == ["a adam", "a sgd"] * 3
    caplog.clear()
    progress.feed({"kind": "log", "time": 200.0, "message": "x"})  # quiet when not training
    assert caplog.records == []


def test_usage_counts_optimizer_state(dev):
    dev.request("params", CALLER, [{"name": "w", "shape": [2, 3], "init": {"normal": 1.0}}])
    dev.request(
        "optimizer",
        CALLER,
        {
            "name": "adam",
            "params": ["w"],
            "lr": 0.1,
            "beta1": 0.9,
            "beta2": 0.99,
            "eps": 1e-8,
            "weight_decay": 0.0,
            "kind": Some({"adamw": None}),
        },
    )
    dev.request(
        "run",
        CALLER,
        {
            **squares_run(train=True),
            "train": training(2, "adam"),
        },
    )
    usage = dev.usage()[Principal(CALLER).to_text()]
    assert (usage["bytes"], usage["optimizer_bytes"]) == (24 + 48, 48)  # w, and its two AdamW moments


class StallingExporter:
    """Serves ``body`` at ``url`` (a long token), holding back all but its first 100 bytes until
    ``release`` is set."""

    def __init__(self, body: bytes):
        self.release = threading.Event()
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body[:100])
                self.wfile.flush()
                owner.release.wait(10)
                self.wfile.write(body[100:])

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/export/{'t' * 40}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.release.set()
        self.server.shutdown()
        self.server.server_close()


async def test_the_device_shows_live_exports_and_fetches_in_flight(dev):
    transport = HttpTransport(
        Settings(plugins.load(["http"])[0].settings, {"device": "torch:cpu", "device_listen": Address("127.0.0.1", 0)})
    )
    dev.exports.prefix = await transport.start(dev.exports)
    dev.add_transport(transport)
    events = Events()
    sub = events.subscribe()
    dev.watch(events, {CALLER: "porter"})
    try:
        dev.request("params", CALLER, [{"name": "w", "shape": [4, 8], "init": {"normal": 1.0}}])
        dev.request("publish", CALLER, {"names": ["w"], "prefix": "", "readers": None})
        url = dev.request("export", CALLER, {"names": ["w"], "prefix": "", "uses": Some(2), "seconds": None})
        [exported] = dev.transfers()["exports"]
        assert exported.pop("expires_in") == pytest.approx(600, abs=5)
        assert exported == {"actor": "porter", "url": redact(url), "tensors": 1, "bytes": 128, "uses_left": 2}
        token = url.rpartition("/")[2]
        assert token not in redact(url)

        [(_, export)] = dev.exports.live()
        body = b"".join([bytes(chunk) async for chunk in dev.exports.body(export)])
        exporter = StallingExporter(body)
        try:
            gather = dev.system_methods()["moxzi_device_fetch"].gather
            arg = encode_args(dev.types["moxzi_device_fetch"].args, [{"url": exporter.url, "prefix": "far/"}])
            fetch = asyncio.create_task(gather(CALLER, arg))
            for _ in range(100):  # until the first 100 bytes arrived
                fetches = dev.transfers()["fetches"]
                if fetches and fetches[0]["received"] >= 100:
                    break
                await asyncio.sleep(0.05)
            [flight] = dev.transfers()["fetches"]
            assert (flight["actor"], flight["url"], flight["size"], flight["received"]) == (
                "porter",
                redact(exporter.url),
                len(body),
                100,
            )
            assert "t" * 40 not in flight["url"]
            exporter.release.set()
            method, _ = await asyncio.wait_for(fetch, 10)
        finally:
            exporter.close()
        assert method == "moxzi_device_fetched"
        assert dev.transfers()["fetches"] == []
        fetched = [
            (e["phase"], e["actor"], e["url"], e["bytes"], e["error"]) for e in sub.take() if e["kind"] == "fetch"
        ]
        assert fetched == [
            ("start", "porter", redact(exporter.url), 0, None),
            ("end", "porter", redact(exporter.url), len(body), None),
        ]
    finally:
        await transport.stop()


def test_usage_names_who_may_read_each_actors_publications(dev):
    other, third = b"reader\x02", b"reader\x03"
    dev.request("params", CALLER, [{"name": n, "shape": [2], "init": {"zeros": None}} for n in ("a", "b", "c")])
    dev.request("publish", CALLER, {"names": ["a"], "prefix": "", "readers": None})  # the owner alone
    assert dev.usage()[Principal(CALLER).to_text()]["readers"] == []
    dev.request("publish", CALLER, {"names": ["b"], "prefix": "", "readers": Some({"anyone": None})})
    readers = Some({"principals": [Principal(other), Principal(third)]})
    dev.request("publish", CALLER, {"names": ["c"], "prefix": "", "readers": readers})
    usage = dev.usage()[Principal(CALLER).to_text()]
    assert usage["publications"] == 3
    assert usage["readers"] == sorted(["anyone", Principal(other).to_text(), Principal(third).to_text()])
