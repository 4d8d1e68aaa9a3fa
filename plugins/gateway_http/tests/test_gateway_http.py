"""The HTTP gateway with the real host and compiled actors: in process on a free port for each route and
error, and once end to end through a moxzid subprocess, as the seeds' curl commands use it."""

import asyncio
import json
import socket

import aiohttp
import pytest
from aiohttp.test_utils import TestServer
from kit.actorbuild import build_actor
from kit.daemon import project, running_moxzid
from kit.gateway import LIMIT, post, serving
from kit.host import spec
from kit.http import request

from moxzi_core import plugins
from moxzi_core.candid import Principal
from moxzi_core.runtime.host import Host, actor_principal
from moxzi_core.settings import Address, Settings, SettingsError
from moxzi_gateway_http.admin import AdminToken
from moxzi_gateway_http.routes import build_app
from moxzi_gateway_http.server import HttpGateway


@pytest.fixture
async def host():
    host = Host([spec("lab", "lab"), spec("counter", "counter")])
    await host.start()
    yield host
    await host.stop()


@pytest.fixture
async def http(host):
    """An aiohttp session whose base URL is a gateway serving ``host`` on a free port."""
    async with serving(host) as (_, session):
        yield session


async def test_update_then_query(http):
    assert await post(http, "/call-json/counter/inc", []) == (200, [1])
    assert await post(http, "/call-json/counter/inc", []) == (200, [2])
    assert await post(http, "/query-json/counter/get", []) == (200, [2])
    assert await post(http, "/call-json/counter/get", []) == (200, [2])


async def test_query_method_on_call_route_leaves_no_trace(http):
    assert await post(http, "/call-json/lab/incInQuery", []) == (200, [1])
    assert await post(http, "/query-json/lab/get", []) == (200, [0])


async def test_arguments_and_results_in_json(http):
    status, reply = await post(http, "/query-json/lab/echo", ["héllo", 5, 0.5, True, "AQL/", None])
    assert status == 200
    assert reply == [{"text": "héllo", "n": 5, "f": 0.5, "flag": True, "items": "AQL/", "o": None}]


async def test_concurrent_updates_each_run_once(http):
    replies = await asyncio.gather(*(post(http, "/call-json/counter/inc", []) for _ in range(20)))
    assert sorted(reply[0] for _, reply in replies) == list(range(1, 21))


@pytest.mark.parametrize(
    "path, body, status, message",
    [
        ("/query-json/counter/inc", [], 400, "counter.inc is an update method"),
        ("/call-json/lab/say", "[1,", 400, "lab.say: the body is not JSON"),
        ("/call-json/lab/say", {"text": "hi"}, 400, 'must be a JSON array of the arguments, got {"text": "hi"}'),
        ("/call-json/lab/say", [42], 400, "lab.say: arguments do not match its type: argument 0: expected text"),
        ("/call-json/lab/say", ["a", "b"], 400, "expected 1 arguments (text), got 2"),
        ("/call-json/nobody/inc", [], 404, "no actor named 'nobody'"),
        ("/call-json/counter/dec", [], 404, "actor counter has no method 'dec'"),
        ("/call-json/counter/icn", [], 404, "actor counter has no method 'icn'; did you mean 'inc'?"),
        ("/call/countr/inc", "()", 404, "no actor named 'countr'; did you mean 'counter'?"),
        ("/upgrade/nobody", b"\0asm", 404, "no actor named 'nobody'"),
        ("/cycles/conter", {"add": 5}, 404, "no actor named 'conter'; did you mean 'counter'?"),
        ("/call-json/counter", [], 404, "POST /call-json/counter: Not Found"),
        ("/call-json/counter/inc", "x" * (LIMIT + 1), 413, f"Maximum request body size {LIMIT} exceeded"),
        ("/call-json/lab/say", "[" * 100_000 + "]" * 100_000, 400, "lab.say: the body is JSON nested too deeply"),
        # a number the actor could keep but no reply carrying it could be decoded: refused before it runs
        ("/call-json/lab/tickOnce", [10**4000], 400, "argument 0: expected nat of at most 7167 bits"),
        ("/cycles/lab", '{"add": ' + "[" * 100_000 + "]" * 100_000 + "}", 400, "nested too deeply"),
    ],
)
async def test_client_errors(http, path, body, status, message):
    answer = await post(http, path, body)
    assert answer[0] == status and message in answer[1]["error"], answer
    assert await post(http, "/call-json/counter/inc", []) == (200, [1])  # still serving, state intact


@pytest.mark.parametrize("path", ["/call-json/lab/say", "/cycles/lab", "/upgrade/lab"])
@pytest.mark.parametrize("encoding", ["gzip", "deflate"])
async def test_a_body_that_cannot_be_decoded_is_a_400(http, path, encoding):
    async with http.post(path, data=b"not compressed", headers={"Content-Encoding": encoding}) as response:
        assert response.status == 400
        assert (
            f"cannot be read: 400, message:\n  Can not decode content-encoding: {encoding}"
            in (await response.json())["error"]
        )
    assert await post(http, "/call-json/counter/inc", []) == (200, [1])


async def test_stalled_connections_are_closed_and_others_are_served(host):
    async with serving(host, http_idle_secs=1, http_body_secs=1) as (gateway, http):
        silent = await asyncio.open_connection(*gateway.address)
        slow_headers = await asyncio.open_connection(*gateway.address)
        slow_headers[1].write(b"POST /call-json/counter/inc HTTP/1.1\r\nHost: localhost\r\n")
        slow_body = await asyncio.open_connection(*gateway.address)
        slow_body[1].write(b"POST /call-json/counter/inc HTTP/1.1\r\nHost: localhost\r\nContent-Length: 10\r\n\r\n[")
        assert await post(http, "/call-json/counter/inc", []) == (200, [1])  # served meanwhile
        for reader, _ in (silent, slow_headers):
            assert await asyncio.wait_for(reader.read(), 5) == b""  # closed without an answer
        answer = await asyncio.wait_for(slow_body[0].read(), 5)
        assert answer.startswith(b"HTTP/1.1 408 ") and b"Connection: close" in answer
        assert b"counter.inc: the body did not arrive within 1 s (--http-body-secs)" in answer
        for _, writer in (silent, slow_headers, slow_body):
            writer.close()
        assert await post(http, "/call-json/counter/inc", []) == (200, [2])


async def test_connections_past_the_cap_are_answered_503(host):
    async with serving(host, http_max_connections=3) as (gateway, http):
        held = [await asyncio.open_connection(*gateway.address) for _ in range(2)]
        assert await post(http, "/call-json/counter/inc", []) == (200, [1])  # the third connection
        reader, writer = await asyncio.open_connection(*gateway.address)
        answer = await asyncio.wait_for(reader.read(), 5)
        assert answer.startswith(b"HTTP/1.1 503 ") and b"holds 3 HTTP connections, the most it may" in answer
        writer.close()
        assert await post(http, "/call-json/counter/inc", []) == (200, [2])  # its own connection stays
        for _, held_writer in held:
            held_writer.close()
            await held_writer.wait_closed()
        await asyncio.sleep(0.2)  # the server sees them go
        async with aiohttp.ClientSession(f"http://{gateway.address}") as another:
            assert await post(another, "/query-json/counter/get", []) == (200, [2])


async def test_wrong_http_method(http):
    async with http.get("/call-json/counter/inc") as response:
        assert response.status == 405
        assert "Method Not Allowed" in (await response.json())["error"]


async def test_a_trap_is_a_500_before_an_await_and_after_it(http):
    """The same kind of failure, the same status: where in the method the actor traps does not matter."""
    counter = str(Principal(actor_principal("counter")))
    for method, args in (("incThenTrap", []), ("incAwaitThenTrap", [counter])):
        status, error = await post(http, f"/call-json/lab/{method}", args)
        assert (status, error["reject_code"]) == (500, 5), (method, error)


async def test_trap_is_a_500_with_the_reject(http):
    status, error = await post(http, "/call-json/lab/incThenTrap", [])
    assert status == 500
    assert error["reject_code"] == 5 and "deliberate trap" in error["reject_message"]
    assert error["error"].startswith("lab.incThenTrap rejected (5 CANISTER_ERROR): ")
    assert await post(http, "/query-json/lab/get", []) == (200, [0])  # the trapped change did not stay


async def test_upgrade_keeps_state(http):
    await post(http, "/call-json/lab/inc", [])
    assert await post(http, "/upgrade/lab", build_actor("lab_v2").wasm) == (200, "upgraded")
    assert await post(http, "/query-json/lab/version", []) == (200, ["v2"])
    assert await post(http, "/call-json/lab/inc", []) == (200, [11])


@pytest.mark.parametrize("wasm", [build_actor("lab_incompatible").wasm, b"not wasm"], ids=["incompatible", "junk"])
async def test_refused_upgrade_is_a_409_and_changes_nothing(http, wasm):
    await post(http, "/call-json/lab/inc", [])
    status, error = await post(http, "/upgrade/lab", wasm)
    assert status == 409 and error["error"]
    assert await post(http, "/call-json/lab/inc", []) == (200, [2])


async def test_actors_lists_names_principals_modes_and_types(http, host):
    async with http.get("/actors") as response:
        assert response.status == 200
        actors = await response.json()
    assert [a["name"] for a in actors] == host.actor_names()
    counter = next(a for a in actors if a["name"] == "counter")
    assert counter["principal"] == host.info("counter").principal.to_text()
    assert counter["mode"] == "enhanced"
    assert counter["methods"] == {
        "get": {"args": [], "results": ["nat"], "modes": ["query"]},
        "inc": {"args": [], "results": ["nat"], "modes": []},
    }
    lab = next(a for a in actors if a["name"] == "lab")
    assert lab["methods"]["say"] == {"args": ["text"], "results": [], "modes": []}


async def test_an_unexpected_failure_is_a_500_and_the_gateway_keeps_serving(http, host, monkeypatch):
    async def broken(*args, **kwargs):
        raise RuntimeError("the host fell over")

    monkeypatch.setattr(host, "call", broken)
    status, error = await post(http, "/call-json/counter/inc", [])
    assert status == 500 and error["error"] == "internal error: RuntimeError: the host fell over"
    monkeypatch.undo()
    assert await post(http, "/call-json/counter/inc", []) == (200, [1])


def curl(url: str, data: bytes | None = None) -> tuple[int, str]:
    """(status, body text) of a request, as `curl -d` or `curl --data-binary` would send it."""
    status, answer = request(url, data=data, timeout=30)
    return status, answer if isinstance(answer, str) else json.dumps(answer)


@pytest.mark.slow
def test_end_to_end_through_moxzid(tmp_path):
    project(tmp_path, "counter")
    with running_moxzid("-m", "actors.json", "--max-message-bytes", "300000", cwd=tmp_path) as daemon:
        url = daemon.url
        steps = [
            ("/call-json/counter/inc", b"[]", 200, "[1]"),
            ("/query-json/counter/get", b"[]", 200, "[1]"),
            ("/upgrade/counter", (tmp_path / "counter.wasm").read_bytes(), 200, "upgraded"),
            ("/query-json/counter/get", b"[]", 200, "[1]"),
            ("/call-json/counter/inc", b"[1,", 400, "the body is not JSON"),
            ("/call-json/counter/inc", b'["one"]', 400, "expected 0 arguments (), got 1"),
            ("/call-json/nobody/inc", b"[]", 404, "no actor named 'nobody'"),
            ("/call-json/counter/dec", b"[]", 404, "has no method 'dec'"),
            ("/call-json/counter/inc", b"[" + b"0," * 150_000 + b"0]", 413, "Maximum request body size"),
            ("/query-json/counter/inc", b"[]", 400, "is an update method"),
            ("/call-json/counter/inc", b"[]", 200, "[2]"),
        ]
        for path, body, status, answer in steps:
            got_status, text = curl(url + path, body)
            assert got_status == status, (path, text)
            assert (text if status == 200 else json.loads(text)["error"]).count(answer) == 1, (path, text)
            assert daemon.process.poll() is None, daemon.log.read_text()
        assert daemon.stop() == 0


def test_the_admin_token_is_needed_off_loopback_and_kept_in_the_state_directory(tmp_path):
    assert AdminToken.for_listening("127.0.0.1", tmp_path).allows(None)
    assert AdminToken.for_listening("::1", None).allows(None)
    admin = AdminToken.for_listening("0.0.0.0", tmp_path)
    path = tmp_path / "admin-token"
    assert path.stat().st_mode & 0o077 == 0 and admin.where == str(path)
    assert AdminToken.for_listening("192.0.2.7", tmp_path).token == admin.token == path.read_text().strip()
    assert admin.allows(f"Bearer {admin.token}")
    assert not admin.allows(None) and not admin.allows(f"Bearer {admin.token}x") and not admin.allows(admin.token)
    assert AdminToken.for_listening("example.org", None).token not in (None, admin.token)


def test_an_admin_token_never_reads_as_a_flag():
    # `moxzi upgrade --token TOKEN` took a token starting with "-" for an option (1 in 64 of base64url ones)
    tokens = [AdminToken.for_listening("example.org", None).token or "" for _ in range(300)]
    assert all(token and not token.startswith("-") for token in tokens)


@pytest.fixture
async def guarded(host):
    """A session on ``host``'s routes where the admin routes need the token ``s3cret``."""
    app = build_app(host, LIMIT, 60.0, AdminToken("s3cret", "the test's token file"))
    async with TestServer(app) as server, aiohttp.ClientSession(str(server.make_url(""))) as session:
        yield session


@pytest.mark.parametrize(
    "path, body",
    [
        ("/upgrade/lab", b"\0asm"),
        ("/cycles/counter", {"add": 5}),
        ("/cycles-ledger/2vxsx-fae", {"add": 5}),
        ("/clock", {"advance_ns": 5}),
    ],
)
async def test_admin_routes_refuse_a_request_without_the_token(guarded, path, body):
    status, answer = await post(guarded, path, body)
    assert status == 401
    assert "needs moxzid's admin token" in answer["error"] and "the test's token file" in answer["error"]
    async with guarded.post(path, data=b"\0asm", headers={"Authorization": "Bearer wrong"}) as response:
        assert response.status == 401
    assert await post(guarded, "/call-json/counter/inc", []) == (200, [1])  # the other routes stay open


@pytest.mark.parametrize("method, what", [("GET", "the weights of counter"), ("PUT", "an import into counter")])
async def test_the_weights_routes_need_the_token_too(guarded, method, what):
    async with guarded.request(method, "/weights/counter", data=b"") as response:
        assert response.status == 401
        assert f"{what} needs moxzid's admin token" in (await response.json())["error"]
    headers = {"Authorization": "Bearer s3cret"}
    async with guarded.request(method, "/weights/counter", data=b"", headers=headers) as response:
        assert response.status == 404  # let through: this host has no device
        assert "no tensor device" in (await response.json())["error"]


async def test_the_admin_token_lets_an_upgrade_through(guarded):
    wasm = build_actor("lab").wasm
    async with guarded.post("/upgrade/lab", data=wasm, headers={"Authorization": "Bearer s3cret"}) as response:
        assert (response.status, await response.text()) == (200, "upgraded")


def test_the_listen_address_is_checked_before_moxzid_loads_anything():
    """HttpGateway.check, which moxzid calls before the device and the actors: a taken port and an
    address this machine does not have are settings errors; port 0 and a free port pass."""
    declared = plugins.load(["http"])[0].settings

    def check(host: str, port: int) -> None:
        HttpGateway.check(Settings(declared, {"listen": Address(host, port)}))

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(
            SettingsError, match=rf"--listen 127.0.0.1:{port}: the port is in use .*; pass --listen HOST:PORT"
        ):
            check("127.0.0.1", port)
        check("127.0.0.1", 0)
    check("127.0.0.1", port)  # free again
    with pytest.raises(SettingsError, match="--listen 192.0.2.1:7000: cannot bind: .*or port 0 to have one picked"):
        check("192.0.2.1", 7000)  # TEST-NET-1: no interface here has it
