"""``POST /backup``: an admin route that copies the host's state directory while it serves, answering
its progress and outcome as JSON lines; what it refuses before copying anything."""

import json

import aiohttp
import pytest
from aiohttp.test_utils import TestServer
from kit.gateway import LIMIT, post
from kit.host import spec

from moxzi_core.runtime.host import Host
from moxzi_gateway_http.admin import AdminToken
from moxzi_gateway_http.routes import build_app
from moxzi_store_lmdb import LmdbStore

TOKEN = {"Authorization": "Bearer s3cret"}


@pytest.fixture
async def host(tmp_path):
    store = LmdbStore(tmp_path / "state")
    host = Host([spec("counter", "counter")], store=store)
    await host.start()
    yield host
    await host.stop()
    store.close()


async def _session(host, state_dir):
    app = build_app(host, LIMIT, 60.0, AdminToken("s3cret", "the test's token file"), state_dir=state_dir)
    server = TestServer(app)
    await server.start_server()
    return server, aiohttp.ClientSession(str(server.make_url("")), headers=TOKEN)


@pytest.fixture
async def http(host, tmp_path):
    server, session = await _session(host, tmp_path / "state")
    async with session:
        yield session
    await server.close()


async def test_a_backup_answers_its_outcome_and_holds_the_hosts_state(http, host, tmp_path):
    assert await post(http, "/call-json/counter/inc", []) == (200, [1])
    async with http.post("/backup", json={"destination": str(tmp_path / "copy")}) as response:
        assert response.status == 200
        lines = [json.loads(line) for line in (await response.text()).splitlines()]
    assert lines[-1]["destination"] == str(tmp_path / "copy")
    assert lines[-1]["files"] == ["FORMAT", "data.mdb"]
    assert lines[-1]["device_calls"] == 0  # its moment: this host has no device
    assert all(set(line) == {"copied", "of"} for line in lines[:-1])
    assert await post(http, "/call-json/counter/inc", []) == (200, [2])  # after the moment: not in the copy
    copy = LmdbStore(tmp_path / "copy")
    copied = Host([spec("counter", "counter")], store=copy)
    await copied.start()
    try:
        outcome = await copied.call("counter", "get", b"DIDL\x00\x00", query=True)
        assert outcome.reply == b"DIDL\x00\x01}\x01"  # 1 as a nat
    finally:
        await copied.stop()
        copy.close()


@pytest.mark.parametrize(
    "body, status, said",
    [
        ({"destination": "relative/path"}, 400, "must be an absolute path"),
        ({"to": "/x"}, 400, 'must be {"destination"'),
        (["/x"], 400, 'must be {"destination"'),
        (None, 409, "is not empty"),  # None: the directory "taken"
    ],
)
async def test_a_bad_destination_is_refused_before_anything_is_copied(http, tmp_path, body, status, said):
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "mine").write_text("keep me")
    answer = await post(http, "/backup", body or {"destination": str(tmp_path / "taken")})
    assert answer[0] == status and said in answer[1]["error"]
    assert [p.name for p in (tmp_path / "taken").iterdir()] == ["mine"]


async def test_backup_needs_the_admin_token_and_a_state_directory(host, tmp_path):
    server, session = await _session(host, None)
    async with session:
        async with session.post(
            "/backup", json={"destination": str(tmp_path / "c")}, headers={"Authorization": ""}
        ) as r:
            assert r.status == 401 and "POST /backup needs moxzid's admin token" in (await r.json())["error"]
        status, answer = await post(session, "/backup", {"destination": str(tmp_path / "c")})
        assert status == 409 and "no -s DIR" in answer["error"]
    await server.close()
    assert not (tmp_path / "c").exists()
