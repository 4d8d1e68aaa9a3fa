"""Web pages cannot drive moxzid (origins.py): a Host that is not one of moxzid's names is refused on
every route (DNS rebinding), a page on another origin on every route whose authority is reaching the
port, while curl (no Origin), the console (its own origin) and pages using the IC interface (CORS) work.
In process for each route, and in a headless Chromium against a moxzid subprocess."""

import asyncio
import json
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import aiohttp
import pytest
from kit.actorbuild import build_actor
from kit.daemon import project, running_moxzid
from kit.gateway import serving
from kit.host import spec
from kit.http import request
from moxzi_console.routes import console_app, events_app, metrics_app
from moxzi_gateway_ic.routes import build_ic_app

from moxzi_core.billing import DefaultPrices, Ledger
from moxzi_core.runtime.host import Host
from moxzi_core.settings import Address
from moxzi_core.store import MemoryStore

CONSOLE_APPS = {"/console": console_app, "/events": events_app, "/metrics": metrics_app, "/api": build_ic_app}
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]

# Every route whose authority is reaching the port: (HTTP method, path, body).
AMBIENT = [
    ("POST", "/call-json/counter/inc", b"[]"),
    ("POST", "/query-json/counter/get", b"[]"),
    ("POST", "/call/counter/inc", b"()"),
    ("POST", "/query/counter/get", b"()"),
    ("POST", "/upgrade/counter", b"\0asm"),
    ("POST", "/cycles/counter", b'{"add": 1000}'),
    ("GET", "/weights/counter", None),
    ("PUT", "/weights/counter", b"\0" * 16),
    ("GET", "/actors", None),
    ("GET", "/cycles", None),
    ("GET", "/console/", None),
    ("GET", "/console/state", None),
    ("GET", "/events", None),
    ("GET", "/metrics", None),
    ("GET", "/", None),
]


@pytest.fixture
async def host():
    store = MemoryStore()
    host = Host(
        [spec("counter", "counter")], store=store, ledger=Ledger(store, DefaultPrices(device_cycles_per_ms=1), 5)
    )
    await host.start()
    yield host
    await host.stop()


async def _count(http) -> int:
    async with http.post("/query-json/counter/get", data=b"[]") as response:
        assert response.status == 200
        return (await response.json())[0]


async def _status(http, method, path, body, headers) -> tuple[int, str]:
    async with http.request(method, path, data=body, headers=headers, allow_redirects=False) as response:
        text = await response.content.read(4096)  # /events streams: its first bytes say enough
        return response.status, text.decode(errors="replace")


@pytest.mark.parametrize("origin", ["http://127.0.0.1:1", "http://evil.example", "null", "file://"])
async def test_a_page_on_another_origin_reaches_no_ambient_route(host, origin):
    async with serving(host, http_apps=CONSOLE_APPS) as (gateway, http):
        for method, path, body in AMBIENT:
            status, text = await _status(http, method, path, body, {"Origin": origin})
            assert status == 403, (path, status, text)
            assert f"a page on {origin} may not use {path}" in json.loads(text)["error"]
        assert await _count(http) == 0  # nothing ran
        assert host.ledger.balance("counter") == 5


async def test_curl_and_moxzids_own_pages_use_every_route(host):
    async with serving(host, http_apps=CONSOLE_APPS) as (gateway, http):
        own = f"http://{gateway.address}"
        for origin in (None, own, own.replace("127.0.0.1", "localhost")):
            headers = {} if origin is None else {"Origin": origin}
            if origin and "localhost" in origin:
                headers["Host"] = origin.removeprefix("http://")
            for method, path, body in AMBIENT:
                if path in ("/upgrade/counter", "/cycles/counter") or path.startswith("/weights"):
                    continue  # they change the actor (below), or need a device
                status, text = await _status(http, method, path, body, headers)
                assert status in (200, 302), (origin, path, status, text)
        status, text = await _status(http, "POST", "/upgrade/counter", build_actor("counter").wasm, {"Origin": own})
        assert (status, text) == (200, "upgraded")


async def test_a_host_that_is_not_moxzids_is_refused_on_every_route(host):
    async with serving(host, http_apps=CONSOLE_APPS) as (gateway, http):
        port = gateway.address.port
        for name in (f"evil.example:{port}", "evil.example", f"localhost.evil.example:{port}", f"10.0.0.1:{port}"):
            for method, path, body in [*AMBIENT, ("GET", "/api/v2/status", None)]:
                status, text = await _status(http, method, path, body, {"Host": name})
                assert status == 403, (name, path, status, text)
                assert f"Host {name!r} is not one of moxzid's names" in text
        for name in (f"localhost:{port}", f"127.0.0.1:{port}", f"LOCALHOST:{port}"):
            assert (await _status(http, "GET", "/actors", None, {"Host": name}))[0] == 200
        reader, writer = await asyncio.open_connection(*gateway.address)  # HTTP/1.0: no Host at all
        writer.write(b"GET /actors HTTP/1.0\r\n\r\n")
        assert (await asyncio.wait_for(reader.read(), 5)).startswith(b"HTTP/1.0 200 ")
        writer.close()
        assert await _count(http) == 0


async def test_allowed_hosts_and_origins_add_names(host):
    flags = {"allowed_hosts": ["moxzi.example", "other.example:8443"], "allowed_origins": ["http://localhost:5173"]}
    async with serving(host, **flags) as (gateway, http):
        for name, status in (("moxzi.example", 200), ("moxzi.example:7", 200), ("other.example:8443", 200)):
            assert (await _status(http, "GET", "/actors", None, {"Host": name}))[0] == status, name
        behind_tls = {"Host": "moxzi.example", "Origin": "https://moxzi.example"}  # the console behind a proxy
        assert (await _status(http, "POST", "/query-json/counter/get", b"[]", behind_tls)) == (200, "[0]")
        assert (await _status(http, "GET", "/actors", None, {"Host": "other.example:1"}))[0] == 403
        allowed = {"Origin": "http://localhost:5173"}
        assert (await _status(http, "POST", "/call-json/counter/inc", b"[]", allowed)) == (200, "[1]")
        refused = {"Origin": "http://localhost:5174"}
        assert (await _status(http, "POST", "/call-json/counter/inc", b"[]", refused))[0] == 403


async def test_the_ic_interface_answers_pages_on_any_origin(host):
    async with serving(host, http_apps={"/api": build_ic_app}) as (gateway, http):
        page = {"Origin": "http://localhost:5173"}
        preflight = {**page, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type"}
        async with http.options("/api/v3/canister/aaaaa-aa/call", headers=preflight) as response:
            assert response.status == 204
            assert response.headers["Access-Control-Allow-Origin"] == "*"
            assert "POST" in response.headers["Access-Control-Allow-Methods"]
            assert "content-type" in response.headers["Access-Control-Allow-Headers"].lower()
        async with http.get("/api/v2/status", headers=page) as response:
            assert response.status == 200 and response.headers["Access-Control-Allow-Origin"] == "*"
        async with http.post("/api/v3/canister/aaaaa-aa/call", data=b"not cbor", headers=page) as response:
            assert response.status == 400 and response.headers["Access-Control-Allow-Origin"] == "*"


async def test_a_wildcard_listen_address_answers_its_ip_addresses(host):
    async with serving(host, listen=Address("0.0.0.0", 0)) as (gateway, _):
        port = gateway.address.port
        async with aiohttp.ClientSession(f"http://127.0.0.1:{port}") as http:
            for name, status in ((f"192.0.2.7:{port}", 200), (f"[2001:db8::1]:{port}", 200), ("rebound.example", 403)):
                assert (await _status(http, "GET", "/actors", None, {"Host": name}))[0] == status, name
            assert (await _status(http, "GET", "/actors", None, {"Host": f"{socket.gethostname()}:{port}"}))[0] == 200


ATTACK = """<!doctype html><script>
// What any page can do without reading an answer: no-cors POSTs, as forms and beacons send them.
window.attack = async (target, wasm) => {
  const sent = [];
  const bodies = [["/call-json/counter/inc", "[]"], ["/call/counter/inc", "()"],
    ["/upgrade/counter", new Uint8Array(wasm)], ["/cycles/counter", '{"add": 1000000}']];
  for (const [path, body] of bodies) {
    try { await fetch(target + path, {method: "POST", mode: "no-cors", body}); sent.push(path); }
    catch (e) { sent.push(path + ": " + e); }
  }
  // What it can read: the IC interface answers any origin; the other routes none.
  const status = await fetch(target + "/api/v2/status");
  let actors;
  try { actors = (await fetch(target + "/actors")).status; } catch (e) { actors = "unreadable"; }
  return {sent, api: status.status, actors};
};
</script>"""


class _Page(BaseHTTPRequestHandler):
    def do_GET(self):
        body = ATTACK.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def attacker_page():
    """The URL of the attacking page, served from another local port."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


@pytest.fixture
def chromium():
    playwright = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: scripts/install --test installs Debian's chromium")
    with playwright.sync_playwright() as p:
        # rebound.example resolves to 127.0.0.1, as a DNS rebinding attack makes a page's own name do
        flags = [*CHROMIUM_FLAGS, "--host-resolver-rules=MAP rebound.example 127.0.0.1"]
        browser = p.chromium.launch(executable_path=CHROMIUM, args=flags, headless=True)
        yield browser
        browser.close()


def _upgrades(url: str) -> float:
    metrics = request(url + "/metrics").body
    return sum(float(line.split()[-1]) for line in metrics.splitlines() if 'method="(upgrade)"' in line)


@pytest.mark.slow
def test_pages_in_a_browser_change_nothing(tmp_path, attacker_page, chromium):
    project(tmp_path, "counter")
    wasm = list(build_actor("counter").wasm)
    with running_moxzid("-m", "actors.json", "--cycles", "1000", cwd=tmp_path, plugins="http,console,ic") as daemon:
        before = request(daemon.url + "/cycles").body
        file_page = tmp_path / "page.html"
        file_page.write_text(ATTACK)
        for url in (attacker_page, file_page.as_uri()):
            page = chromium.new_page()
            page.goto(url)
            result = page.evaluate("([target, wasm]) => window.attack(target, wasm)", [daemon.url, wasm])
            assert len(result["sent"]) == 4, result  # the browser sent each POST
            assert result["api"] == 200, result  # a CORS answer the page may read
            assert result["actors"] == "unreadable", result
            page.close()
        assert daemon.call("counter", "get", query=True) == [0]
        assert request(daemon.url + "/cycles").body == before
        assert _upgrades(daemon.url) == 0
        port = daemon.url.rsplit(":", 1)[1]
        page = chromium.new_page()
        answer = page.goto(f"http://rebound.example:{port}/console/")
        assert answer.status == 403 and "is not one of moxzid's names" in page.content()
        page.close()
        page = chromium.new_page()  # moxzid's own console still calls
        page.goto(daemon.url + "/console/")
        page.locator('details[data-actor="counter"] > summary').click()
        inc = page.locator('details[data-actor="counter"] form[data-method="inc"]')
        inc.locator("button[type=submit]").click()
        page.wait_for_function("f => f.querySelector('pre.reply.ok')", arg=inc.element_handle(), timeout=30_000)
        assert json.loads(inc.locator("pre.reply").inner_text()) == [1]
        page.close()
        assert daemon.stop() == 0
