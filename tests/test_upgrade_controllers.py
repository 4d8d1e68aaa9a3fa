"""Who may upgrade an actor through `POST /upgrade/ACTOR`: its controllers, with requests they sign
(moxzi_core.signed_http, the http plugin's controllers.py, `moxzi upgrade --identity`), or moxzid's
admin token. Real keys, a real Host running lab.mo, the gateway's routes on a test server that needs
the token, and the Client a thread away (it is synchronous)."""

import asyncio
import contextlib
import dataclasses
import hashlib
import json

import aiohttp
import pytest
from aiohttp.test_utils import TestServer
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519
from kit.actorbuild import build_actor
from kit.daemon import moxzi, project, running_moxzid
from kit.host import spec

from moxzi_core import signed_http
from moxzi_core.candid import Principal
from moxzi_core.client import CallError, Client
from moxzi_core.runtime.host import Host
from moxzi_core.signatures import Identity
from moxzi_gateway_http.admin import AdminToken
from moxzi_gateway_http.routes import build_app

LIMIT = 8 * 1024 * 1024
CONTROLLER = Identity(ec.generate_private_key(ec.SECP256K1()))  # icp-cli's kind of key
STRANGER = Identity(ed25519.Ed25519PrivateKey.generate())


@contextlib.asynccontextmanager
async def guarded():
    """(url, host): lab, controlled by CONTROLLER, behind routes that need the token ``s3cret``."""
    actor = dataclasses.replace(spec("lab", "lab"), controllers=(CONTROLLER.principal,))
    host = Host([actor])
    await host.start()
    try:
        app = build_app(host, LIMIT, 60.0, AdminToken("s3cret", "the test's token file"))
        async with TestServer(app) as server:
            yield str(server.make_url("")).rstrip("/"), host
    finally:
        await host.stop()


def module_hash(host) -> bytes:
    return host.info("lab").module_hash


async def upgrade(url, wasm: bytes, **client) -> str:
    return await asyncio.to_thread(Client(url, **client).upgrade, "lab", wasm)


async def refusal(url, wasm: bytes, **client) -> CallError:
    with pytest.raises(CallError) as raised:
        await upgrade(url, wasm, **client)
    return raised.value


async def test_a_controller_upgrades_a_stranger_gets_403_and_the_token_still_works():
    v1, v2 = build_actor("lab").wasm, build_actor("lab_v2").wasm
    async with guarded() as (url, host):
        refused = await refusal(url, v2, identity=STRANGER)
        assert refused.status == 403
        assert f"upgrade of lab: {Principal(STRANGER.principal)} is not a controller of lab" in str(refused)
        for client in ({}, {"token": "wrong"}):  # no credential, a wrong one
            refused = await refusal(url, v2, **client)
            assert refused.status == 401 and "needs moxzid's admin token" in str(refused)
        assert module_hash(host) == hashlib.sha256(v1).digest()  # the code is unchanged
        assert await upgrade(url, v2, identity=CONTROLLER) == "upgraded"
        assert module_hash(host) == hashlib.sha256(v2).digest()
        assert await upgrade(url, v1, token="s3cret") == "upgraded"
        assert module_hash(host) == hashlib.sha256(v1).digest()


async def test_a_tampered_replayed_or_re_aimed_upgrade_is_refused():
    """Re-aimed: at another route, or at another moxzid where the same key controls an actor of the same
    name (the finding: a request signed for one moxzid installed code on a second)."""
    v1, v2 = build_actor("lab").wasm, build_actor("lab_v2").wasm
    digest = hashlib.sha256(v2).digest()

    async with guarded() as (url, host), guarded() as (other_url, other_host), aiohttp.ClientSession() as http:
        moxzid = await moxzid_id(http, url)
        assert moxzid != await moxzid_id(http, other_url)  # each moxzid has its own

        def header(path="/upgrade/lab", **changes) -> dict:
            values = {"identity": CONTROLLER, "method": "POST", "path": path, "query": {}, **changes}
            signed = signed_http.authorization(**values, body_sha256=digest, body_bytes=len(v2), moxzid=moxzid)
            return {"Authorization": signed}

        async def post(data: bytes, headers: dict, path="/upgrade/lab", at=url) -> tuple[int, str]:
            async with http.post(at + path, data=data, headers=headers) as response:
                return response.status, await response.text()

        tampered = v1 + bytes(len(v2) - len(v1)) if len(v1) < len(v2) else v1[: len(v2)]
        status, error = await post(tampered, header())  # the signed size, other bytes
        assert status == 401 and f"the signed one {digest.hex()}: nothing was upgraded" in error
        status, error = await post(v1, header())  # another size
        assert status == 401 and "signature" in error
        status, error = await post(v2, header(method="PUT"))  # signed for another method
        assert status == 401
        assert module_hash(host) == hashlib.sha256(v1).digest()
        once = header()
        status, error = await post(v2, once, at=other_url)  # signed for the first moxzid
        assert status == 401 and f"signed for the moxzid whose id is {moxzid.hex()}" in error
        assert module_hash(other_host) == hashlib.sha256(v1).digest()
        assert await post(v2, once) == (200, "upgraded")
        status, error = await post(v2, once)  # the same signed request again
        assert status == 401 and "this signed request was let through before" in error


async def moxzid_id(http: aiohttp.ClientSession, url: str) -> bytes:
    """The id moxzid at ``url`` says it has, which a request signed for it names."""
    async with http.head(url + "/actors") as response:
        return bytes.fromhex(response.headers[signed_http.ID_HEADER])


@pytest.mark.slow
def test_moxzi_upgrade_signs_for_a_moxzid_off_loopback(tmp_path):
    """`moxzi upgrade --identity` with the PEM of a controller the manifest names upgrades a moxzid on
    every interface (so the token is needed otherwise); a stranger's key and no credential are refused
    with the code unchanged; --token works."""
    key = ec.generate_private_key(ec.SECP256K1())
    pem = serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    (tmp_path / "me.pem").write_bytes(key.private_bytes(*pem))
    (tmp_path / "stranger.pem").write_bytes(ed25519.Ed25519PrivateKey.generate().private_bytes(*pem))
    manifest = project(tmp_path, "lab")
    listed = json.loads(manifest.read_text())
    listed["actors"][0]["controllers"] = [str(Principal(Identity(key).principal))]
    manifest.write_text(json.dumps(listed))
    (tmp_path / "v2.wasm").write_bytes(build_actor("lab_v2").wasm)
    (tmp_path / "v1.wasm").write_bytes(build_actor("lab").wasm)
    flags = ("-m", "actors.json", "-s", "state", "--listen", "0.0.0.0:0")
    with running_moxzid(*flags, cwd=tmp_path, plugins="http,lmdb", serving=r"serving on http://\S+:(\d+)") as d:
        url = f"http://127.0.0.1:{d.url}"  # the group is the port: the wildcard address answers loopback
        token = (tmp_path / "state" / "admin-token").read_text().strip()

        def upgrade(*args: str):
            return moxzi("upgrade", "lab", *args, "--url", url)

        done = upgrade(str(tmp_path / "v2.wasm"), "--identity", str(tmp_path / "stranger.pem"))
        assert done.returncode == 1 and "is not a controller of lab" in done.stderr, done.stderr
        done = upgrade(str(tmp_path / "v2.wasm"))
        assert done.returncode == 1 and "needs moxzid's admin token" in done.stderr, done.stderr
        assert moxzi("query", "lab", "version", "--url", url).returncode != 0  # still v1: no such method
        done = upgrade(str(tmp_path / "v2.wasm"), "--identity", str(tmp_path / "me.pem"))
        assert done.returncode == 0 and "lab: upgraded" in done.stdout, done.stderr
        assert '"v2"' in moxzi("query", "lab", "version", "--url", url).stdout
        done = upgrade(str(tmp_path / "v1.wasm"), "--token", token)
        assert done.returncode == 0, done.stderr
        done = upgrade(str(tmp_path / "missing.wasm"), "--token", token)
        assert done.returncode == 2 and "no such file" in done.stderr
