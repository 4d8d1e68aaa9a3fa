"""The console plugin against a real moxzid: /metrics (parsed by prometheus_client's parser), the
/events stream, the type trees its forms are built from, and the page itself in a headless Chromium
(Debian's, driven by Playwright): the actor list, a call through a method's form, and the letters
example training while its loss curve gains points."""

import asyncio
import gc
import http.client
import json
import re
import threading
import time
import urllib.parse
import urllib.request
import weakref
from pathlib import Path

import pytest
from kit.actorbuild import example_actor
from kit.daemon import project, running_moxzid
from kit.device import run_arg
from kit.gateway import serving
from kit.host import spec
from kit.http import request
from moxzi_console.metrics import render
from moxzi_console.routes import console_app, events_app, metrics_app, type_tree
from moxzi_console.watch import HISTORY_POINTS, LOG_LINE_CHARS, METHODS_PER_ACTOR, OPTIMIZERS_PER_ACTOR, OTHER, Watch
from prometheus_client.parser import text_string_to_metric_families
from safetensors.torch import load_file

from moxzi_core import plugins
from moxzi_core.candid import parse_did
from moxzi_core.events import Events
from moxzi_core.runtime.host import Host
from moxzi_core.runtime.journal import Journal
from moxzi_core.settings import Address, Settings
from moxzi_core.store import MemoryStore
from moxzi_gateway_http.transport import HttpTransport

ROOT = Path(__file__).resolve().parents[3]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

pytestmark = pytest.mark.usefixtures("one_torch_thread")


def console_project(folder: Path) -> Path:
    """``folder`` with the counter, the small learner and the letters example, and their manifest."""
    return project(folder, "counter", "learner", letters=example_actor("letters/letters"))


def post(url: str, route: str, args: list):
    status, answer = request(url + route, args, timeout=120)
    assert status == 200, (status, answer)
    return answer


def get(url: str, route: str) -> str:
    status, answer = request(url + route, timeout=30)
    assert status == 200, (status, answer)
    return answer


@pytest.fixture(scope="module")
def daemon(tmp_path_factory):
    folder = tmp_path_factory.mktemp("console")
    console_project(folder)
    with running_moxzid(
        "-m", "actors.json", "--device", "torch:cpu", cwd=folder, plugins="http,console,torch"
    ) as running:
        yield running
        assert running.stop() == 0


def families(url: str) -> dict:
    return {f.name: f for f in text_string_to_metric_families(get(url, "/metrics"))}


@pytest.mark.slow
def test_metrics_parse_and_count_what_happened(daemon):
    before = families(daemon.url)
    post(daemon.url, "/call-json/counter/inc", [])
    post(daemon.url, "/query-json/counter/get", [])
    (losses,) = post(daemon.url, "/call-json/learner/learn", [4])
    after = families(daemon.url)

    def sample(metrics, family, **labels):
        found = [
            s.value
            for s in metrics[family].samples
            if s.name == family + ("_total" if metrics[family].type == "counter" else "")
            and all(s.labels.get(k) == v for k, v in labels.items())
        ]
        return found[0] if found else 0

    assert (
        sample(after, "moxzi_messages", actor="counter", method="inc", type="update")
        == sample(before, "moxzi_messages", actor="counter", method="inc", type="update") + 1
    )
    assert sample(after, "moxzi_messages", actor="counter", method="get", type="query") >= 1
    assert (
        sample(after, "moxzi_training_steps", actor="learner", optimizer="adam")
        == sample(before, "moxzi_training_steps", actor="learner", optimizer="adam") + 4
    )
    assert sample(after, "moxzi_training_loss", actor="learner", optimizer="adam") == pytest.approx(losses[-1])
    assert sample(after, "moxzi_device_seconds", actor="learner", method="moxzi_device_run") > 0
    assert sample(after, "moxzi_instructions", actor="learner") > sample(before, "moxzi_instructions", actor="learner")
    assert sample(after, "moxzi_device_bytes", actor="learner") > 0
    assert sample(after, "moxzi_device_memory_bytes") == sum(s.value for s in after["moxzi_device_bytes"].samples)
    assert get(daemon.url, "/console/state")["transfers"] == {"exports": [], "fetches": []}
    assert sample(after, "moxzi_actor_memory_bytes", actor="counter", kind="heap") > 0
    assert sample(after, "moxzi_store_bytes") > 0
    assert after["moxzi_message_seconds"].type == "histogram"
    counts = [
        s.value
        for s in after["moxzi_message_seconds"].samples
        if s.name.endswith("_count") and s.labels["actor"] == "counter"
    ]
    assert counts and counts[0] >= 2


async def test_metrics_show_device_memory_and_live_exports(dev):
    """In one process: the device's total bytes, its live exports by actor, and its runs' time by op."""
    transport = HttpTransport(
        Settings(plugins.load(["http"])[0].settings, {"device": "torch:cpu", "device_listen": Address("127.0.0.1", 0)})
    )
    dev.exports.prefix = await transport.start(dev.exports)
    host = Host([], system_methods=dev.system_methods(), store=MemoryStore(), system_state=dev)
    dev.watch(host.events, {b"a": "alpha", b"b": "beta"})
    try:
        for caller in (b"a", b"b"):
            dev.request("params", caller, [{"name": "w", "shape": [4, 8], "init": {"normal": 1.0}}])
            dev.request("publish", caller, {"names": ["w"], "prefix": "", "readers": None})
        for _ in range(2):
            dev.request("export", b"a", {"names": ["w"], "prefix": "", "uses": None, "seconds": None})
            dev.request(
                "run",
                b"a",
                run_arg([{"param": "w"}, {"mul": {"a": 0, "b": 0}}, {"mean": {"x": 1, "dim": None}}], scalars=[2]),
            )
        metrics = {
            f.name: {tuple(s.labels.items()): s.value for s in f.samples}
            for f in text_string_to_metric_families(render(Watch(host.events), host))
        }
    finally:
        await transport.stop()
    assert metrics["moxzi_device_bytes"] == {(("actor", "alpha"),): 256, (("actor", "beta"),): 256}
    assert metrics["moxzi_device_memory_bytes"] == {(): 512}
    # beside the data, what keeping each name costs (budget.py)
    assert metrics["moxzi_device_counted_bytes"] == {
        (("actor", n),): dev.counted(c) for c, n in ((b"a", "alpha"), (b"b", "beta"))
    }
    assert dev.counted(b"a") > 256
    assert metrics["moxzi_device_budget_bytes"] == {
        (("scope", "actor"),): dev.budget.actor_bytes,
        (("scope", "total"),): dev.budget.total_bytes,
    }
    assert metrics["moxzi_device_exports"] == {(("actor", "alpha"),): 2}
    assert metrics["moxzi_device_fetches"] == {}
    calls = metrics["moxzi_device_op_calls"]  # a counter family's name drops its _total
    assert (calls[(("op", "mul"),)], calls[(("op", "mean"),)]) == (2, 2)
    assert metrics["moxzi_device_op_seconds"][(("op", "mul"),)] > 0


@pytest.mark.slow
def test_the_event_stream_serves_any_client(daemon):
    address = urllib.parse.urlsplit(daemon.url)
    connection = http.client.HTTPConnection(address.hostname, address.port, timeout=30)
    connection.request("GET", "/events")
    answer = connection.getresponse()
    assert answer.status == 200 and answer.getheader("Content-Type") == "text/event-stream"
    assert answer.readline() == b"event: hello\n"
    post(daemon.url, "/call-json/counter/inc", [])
    seen = []
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = answer.readline().decode()
        if line.startswith("data: "):
            seen.append(json.loads(line[6:]))
            if any(e.get("kind") == "message" and e["method"] == "inc" for e in seen):
                break
    connection.close()
    event = next(e for e in seen if e.get("kind") == "message")
    assert (event["actor"], event["query"], event["trapped"]) == ("counter", False, False)


def test_forms_are_built_from_type_trees():
    service = parse_did("""
        type Shape = variant { circle : float64; rect : record { w : nat; h : nat }; none };
        service : { f : (record { name : text; tags : vec text; data : blob; who : principal;
                                   maybe : opt opt nat; pair : record { nat; bool }; shape : Shape }) -> () }""")
    tree = type_tree(service.methods["f"].args[0])
    assert tree["t"] == "record"
    fields = {f["key"]: f["type"] for f in tree["fields"]}
    assert fields["name"]["t"] == "text" and fields["data"]["t"] == "blob" and fields["who"]["t"] == "principal"
    assert fields["tags"] == {"t": "vec", "text": "vec text", "of": {"t": "text", "text": "text"}}
    assert fields["maybe"]["t"] == "opt" and fields["maybe"]["wrap"] and not fields["maybe"]["of"]["wrap"]
    assert fields["pair"]["t"] == "tuple" and [f["key"] for f in fields["pair"]["fields"]] == ["0", "1"]
    shape = fields["shape"]
    assert shape["t"] == "variant" and shape["text"] == "Shape"
    assert {f["key"]: f["type"]["t"] for f in shape["fields"]} == {
        "none": "null",
        "rect": "record",
        "circle": "float64",
    }


def test_a_recursive_type_becomes_a_json_field_past_the_depth_limit():
    service = parse_did("type List = opt record { head : nat; tail : List }; service : { f : (List) -> () }")
    tree = type_tree(service.methods["f"].args[0], depth=2)
    fields = {f["key"]: f["type"] for f in tree["of"]["fields"]}
    assert fields["head"]["t"] == "nat" and fields["tail"] == {"t": "json", "text": "List"}


async def test_a_deleted_actors_series_are_dropped(tmp_path):
    """Each create, call and delete round leaves nothing behind in /metrics or the console's state."""
    host = Host([spec("factory", "factory")])
    await host.start()
    try:
        apps = {"/console": console_app, "/events": events_app, "/metrics": metrics_app}
        async with serving(host, apps) as (_, http):

            async def call(method, *args):
                async with http.post(f"/call-json/factory/{method}", json=list(args)) as response:
                    assert response.status == 200, await response.text()
                    return (await response.json())[0]

            async def metrics() -> str:
                async with http.get("/metrics") as response:
                    return await response.text()

            series = []  # each round's series (a line less its value)
            for _ in range(3):
                kid = await call("make", 0)
                assert await call("bump", kid) == 1
                async with http.get("/console/state") as response:
                    names = {actor["name"] for actor in (await response.json())["actors"]}
                (created,) = names - {"factory"}
                assert f'actor="{created}"' in await metrics()
                assert await call("stop", kid) == "ok" and await call("delete", kid) == "ok"
                text = await metrics()
                assert f'actor="{created}"' not in text
                series.append({line.rsplit(" ", 1)[0] for line in text.splitlines()})
            assert series[2] == series[1]  # nothing accumulates round after round
    finally:
        await host.stop()


async def test_the_page_comes_with_the_state_and_the_past_inside_it():
    """GET /console/ carries what /console/state and /console/history answer, inert in its script
    element whatever an actor prints: the page paints with data before it fetches anything."""
    host = Host([spec("counter")])
    await host.start()
    try:
        hostile = "</script><script>alert(1)</script><!-- & >"
        host.events.publish("log", level="INFO", logger="moxzi.actor", message=hostile, actor="counter")
        async with serving(host, {"/console": console_app}) as (_, http):
            async with http.get("/console/") as response:
                assert response.status == 200
                html = await response.text()
        (embedded,) = re.findall(r'<script id="first-state" type="application/json">(.*?)</script>', html)
        assert not {"<", ">", "&"} & set(embedded)
        first = json.loads(embedded)
        assert [actor["name"] for actor in first["state"]["actors"]] == ["counter"]
        assert first["state"]["actors"][0]["methods"]["inc"]["modes"] == []
        assert hostile in [line["message"] for line in first["history"]["log"]]
    finally:
        await host.stop()


@pytest.fixture
async def restoring(monkeypatch):
    """(gateway, session, release, start-up): a host serving the console while its start-up holds the
    actor ``slow`` back (its ``Journal.load`` waits for ``release``), once ``ready`` is back."""
    release, load = threading.Event(), Journal.load

    def held_back(journal, name):
        if name == "slow":
            release.wait(60)
        return load(journal, name)

    monkeypatch.setattr(Journal, "load", held_back)
    host = Host([spec("ready", "counter"), spec("slow", "counter")])
    start = asyncio.get_running_loop().create_task(host.start())
    try:
        async with serving(host, {"/console": console_app}) as (gateway, http):
            while host.actor_names() != ["ready"]:
                await asyncio.sleep(0.02)
            yield gateway, http, release, start
    finally:
        release.set()
        await start
        await host.stop()


async def test_while_moxzid_restores_the_console_state_says_what_it_restores(restoring):
    """The state and the page's embedded state list the actors back so far and say what moxzid
    restores, the line /health says too; once every actor is back, they list all and say nothing of it."""
    _, http, release, start = restoring

    async def states() -> tuple[dict, dict]:
        """What GET /console/state answers, and the state embedded in GET /console/."""
        async with http.get("/console/state") as response:
            state = await response.json()
        async with http.get("/console/") as response:
            (embedded,) = re.findall(r'<script id="first-state" [^>]*>(.*?)</script>', await response.text())
        return state, json.loads(embedded)["state"]

    async with http.get("/health") as response:
        health = await response.json()
    for state in await states():
        assert [actor["name"] for actor in state["actors"]] == ["ready"]
        assert state["starting"] == "restoring 1 of 2 actors", state["starting"]
        assert state["starting"] in health["error"], health
    release.set()
    await start
    for state in await states():
        assert [actor["name"] for actor in state["actors"]] == ["ready", "slow"]
        assert state["starting"] is None


async def test_while_moxzid_restores_the_page_says_what_it_restores(restoring):
    """In a headless Chromium: the first paint says what moxzid restores; once it is ready, the page's
    next fetch of the state (called here rather than waited for, every 2 s) takes the line away and
    shows the actors restored since."""
    async_api = pytest.importorskip("playwright.async_api")
    gateway, _, release, start = restoring
    async with async_api.async_playwright() as p:
        chromium = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True)
        try:
            page = await chromium.new_page()
            await page.goto(f"http://{gateway.address}/console/")
            line = page.locator("#starting")
            assert (await line.is_visible(), await line.inner_text()) == (True, "restoring 1 of 2 actors")
            release.set()
            await start
            await page.evaluate("refresh()")
            assert not await line.is_visible()
            rows = page.locator("#actors tbody tr")
            assert await rows.evaluate_all("rows => rows.map(r => r.dataset.actor)") == ["ready", "slow"]
        finally:
            await chromium.close()


async def test_a_host_served_with_the_console_is_freed_once_stopped():
    host = Host([spec("counter")])
    await host.start()
    async with serving(host, {"/console": console_app, "/events": events_app, "/metrics": metrics_app}):
        pass
    await host.stop()
    freed = weakref.ref(host)
    del host
    gc.collect()
    assert freed() is None


def test_the_labels_an_actor_makes_up_are_bounded():
    """An actor naming 1,500 optimizers and 1,000 methods, and printing a megabyte, adds a bounded
    amount to what the console keeps and sends."""
    watch = Watch(Events())
    for n in range(1500):
        watch.feed({"kind": "train", "actor": "a", "optimizer": f"opt{n}", "step": 1, "loss": 1.0, "seconds": 0.0})
    for n in range(1000):
        watch.feed(
            {
                "kind": "message",
                "actor": "a",
                "method": f"m{n}",
                "query": False,
                "seconds": 0.0,
                "instructions": 1,
                "trapped": False,
            }
        )
        watch.feed({"kind": "device", "actor": "a", "method": f"m{n}", "seconds": 0.0, "ok": True, "changed": False})
    for step in range(1, 5000):
        watch.feed({"kind": "train", "actor": "b", "optimizer": "adam", "step": step, "loss": 1.0, "seconds": 0.0})
    watch.feed({"kind": "log", "level": "INFO", "logger": "x", "message": "y" * (1 << 20), "actor": "a"})
    assert {o for a, o in watch.curves if a == "a"} == {f"opt{n}" for n in range(OPTIMIZERS_PER_ACTOR)} | {OTHER}
    assert watch.curves[("a", OTHER)].steps == 1500 - OPTIMIZERS_PER_ACTOR
    assert len(watch.messages) == len(watch.device) == METHODS_PER_ACTOR + 1
    assert watch.messages[("a", OTHER, False)] == 1000 - METHODS_PER_ACTOR
    assert all(len(c["points"]) <= HISTORY_POINTS for c in watch.curves_json())
    assert len(watch.log[-1]["message"]) < LOG_LINE_CHARS + 100
    assert len(json.dumps(watch.curves_json())) < 100_000
    watch.prune(["b"])
    assert {a for a, _ in watch.curves} == {"b"} and not watch.messages and not watch.device


# True when every chart in the curves' first row is at least 95% of its column's width.
CHARTS_FILL_THEIR_ROW = """() => {
  const section = document.querySelector('#curves');
  const charts = [...section.querySelectorAll('.curve canvas')].map(c => c.getBoundingClientRect());
  const row = charts.filter(c => Math.abs(c.top - charts[0].top) < 1);
  const gap = parseFloat(getComputedStyle(section).columnGap) || 0;
  const column = (section.getBoundingClientRect().width - gap * (row.length - 1)) / row.length;
  return row.length > 0 && row.every(c => c.width > 0.95 * column);
}"""


@pytest.fixture(scope="module")
def browser():
    playwright = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: scripts/install --test installs Debian's chromium")
    with playwright.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True)
        yield chromium
        chromium.close()


@pytest.mark.slow
def test_the_console_in_a_browser(daemon, browser, tmp_path):
    page = browser.new_page(viewport={"width": 1280, "height": 1100})
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(daemon.url + "/")
    page.wait_for_selector("#live.on", timeout=30_000)
    rows = page.locator("#actors tbody tr")
    manifest = ["counter", "learner", "letters"]  # added in parallel, shown in the manifest's order
    assert rows.evaluate_all("rows => rows.map(r => r.dataset.actor)") == manifest
    assert "cai" in page.locator('#actors tr[data-actor="counter"] td').nth(1).inner_text()
    forms = page.locator("#methods details.actor")
    assert forms.evaluate_all("ds => ds.map(d => [d.dataset.actor, d.open])") == [[a, False] for a in manifest]
    assert page.locator("#store").inner_text().startswith("state ")  # the store's size (in memory here)

    before = post(daemon.url, "/query-json/counter/get", [])[0]
    page.locator('details[data-actor="counter"] > summary').click()
    inc = page.locator('details[data-actor="counter"] form[data-method="inc"]')
    inc.locator("button[type=submit]").click()
    page.wait_for_function("f => f.querySelector('pre.reply.ok')", arg=inc.element_handle(), timeout=30_000)
    assert json.loads(inc.locator("pre.reply").inner_text()) == [before + 1]
    # An open actor shows its canister log (GET /logs/ACTOR, open on loopback): counter prints nothing.
    counter_log = page.locator('details[data-actor="counter"] pre.canister-log')
    assert counter_log.count() == 1 and counter_log.get_attribute("class") == "canister-log"
    assert page.request.get(daemon.url + "/logs/counter").json() == []

    page.locator('details[data-actor="letters"] > summary').click()
    learn = page.locator('details[data-actor="letters"] form[data-method="learn"]')
    learn.locator("input[type=text]").fill("1000")
    learn.locator("button[type=submit]").click()
    curve = page.locator('.curve[data-actor="letters"]')
    # Points arrive while the call still runs: the curve is live, not drawn from the reply.
    page.wait_for_function(
        "() => Number(document.querySelector('.curve[data-actor=\"letters\"]')?.dataset.points) > 0", timeout=60_000
    )
    midway = int(curve.get_attribute("data-points"))
    page.wait_for_function("f => f.querySelector('pre.reply.ok')", arg=learn.element_handle(), timeout=120_000)
    page.wait_for_function(
        "() => document.querySelector('.curve[data-actor=\"letters\"]').dataset.points === '1000'", timeout=10_000
    )
    assert midway < 1000
    reply = json.loads(learn.locator("pre.reply").inner_text())
    assert reply[0]["last"] < reply[0]["first"]
    assert curve.locator("canvas").count() == 1
    # The charts share the curves' row: each as wide as its column (the section's width, less the gaps,
    # over the curves in the row: one here alone, two once the module's earlier tests trained learner).
    assert page.evaluate(CHARTS_FILL_THEIR_ROW)
    page.set_viewport_size({"width": 1600, "height": 1100})  # and follows the window
    page.wait_for_function(
        f"() => ({CHARTS_FILL_THEIR_ROW})() && document.querySelector('#curves').getBoundingClientRect().width > 1400"
    )
    icon = page.request.get(daemon.url + "/favicon.ico")
    assert (icon.status, icon.headers["content-type"]) == (200, "image/x-icon")
    assert icon.body()[:4] == b"\0\0\1\0"  # an ICO file
    # The device table links each actor's weights: the safetensors file of GET /weights/ACTOR.
    link = page.locator('#device-table tbody tr:has(td:text-is("letters")) a.weights')
    link.wait_for(timeout=10_000)
    with urllib.request.urlopen(daemon.url + link.get_attribute("href")) as response:
        (tmp_path / "letters.safetensors").write_bytes(response.read())
    assert {name: list(t.shape) for name, t in load_file(tmp_path / "letters.safetensors").items()} == {
        "embed": [256, 16],
        "head": [256, 16],
    }
    page.locator("#log-scale").check()
    page.wait_for_function("() => document.querySelector('.curve[data-actor=\"letters\"]').dataset.points === '1000'")
    page.screenshot(path=str(tmp_path / "console.png"), full_page=True)
    assert (tmp_path / "console.png").stat().st_size > 10_000
    assert errors == []


@pytest.mark.slow
def test_the_first_paint_has_the_actors_before_any_fetch_or_stream(daemon, browser):
    page = browser.new_page()
    for route in ("**/events", "**/console/state", "**/console/history"):  # none of these answers
        page.route(route, lambda route: route.abort())
    page.goto(daemon.url + "/", wait_until="load")
    rows = page.locator("#actors tbody tr")
    assert rows.evaluate_all("rows => rows.map(r => r.dataset.actor)") == ["counter", "learner", "letters"]
    assert page.locator("#device").inner_text() == "device torch:cpu"
    assert page.locator("#methods details.actor").count() == 3
    page.close()


def test_the_console_state_counts_device_copies():
    watch = Watch(Events())
    assert (sum(watch.checkpoints.counts), watch.last_checkpoint) == (0, None)
    for seconds, size in ((0.5, 1000), (0.25, 3000)):
        watch.feed({"kind": "checkpoint", "seconds": seconds, "bytes": size})
    assert (sum(watch.checkpoints.counts), watch.last_checkpoint) == (2, {"seconds": 0.25, "bytes": 3000})
    assert watch.checkpoint_bytes == 4000
