"""Who may export and import an actor's weights: its controllers, with requests they sign
(moxzi_core.signed_http, the http plugin's controllers.py, `moxzi weights --identity`), or moxzid's
admin token. Real keys, a real Host with a torch:cpu device, the gateway's routes on a test server
that needs the token, and the Client a thread away (it is synchronous)."""

import asyncio
import contextlib
import dataclasses
import hashlib
import json
import subprocess
import time

import aiohttp
import pytest
import torch
from aiohttp.test_utils import TestServer
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519
from kit.daemon import moxzi, project, running_moxzid
from kit.device import learner_host
from kit.host import spec
from safetensors.torch import load_file, save_file

from moxzi_core import signed_http
from moxzi_core.candid import Principal
from moxzi_core.client import CallError, Client
from moxzi_core.signatures import Identity, IdentityError
from moxzi_core.store import MemoryStore
from moxzi_gateway_http.admin import AdminToken
from moxzi_gateway_http.controllers import RECEIVED
from moxzi_gateway_http.routes import build_app

LIMIT = 512 * 1024
CONTROLLER = Identity(ec.generate_private_key(ec.SECP256K1()))  # icp-cli's kind of key
OTHER_CONTROLLER = Identity(ed25519.Ed25519PrivateKey.generate())  # dfx's
STRANGER = Identity(ed25519.Ed25519PrivateKey.generate())


@contextlib.asynccontextmanager
async def guarded(registry, store=None):
    """(url, store): the learner, controlled by CONTROLLER and OTHER_CONTROLLER, on a device, behind
    routes that need the token ``s3cret``."""
    store = store or MemoryStore()
    actor = dataclasses.replace(
        spec("learner", "learner"), controllers=(CONTROLLER.principal, OTHER_CONTROLLER.principal)
    )
    async with learner_host(registry, store, actor=actor) as (host, _):
        app = build_app(host, LIMIT, 60.0, AdminToken("s3cret", "the test's token file"))
        async with TestServer(app) as server:
            yield str(server.make_url("")).rstrip("/"), store


def weights_file(path, scale: float) -> None:
    save_file({"w": torch.full((4, 3), scale), "b": torch.arange(5, dtype=torch.float32) * scale}, path)


async def export(url, tmp_path, **client) -> dict:
    out = tmp_path / "out.safetensors"
    await asyncio.to_thread(Client(url, **client).export_weights, "learner", out)
    return {name: tensor.tolist() for name, tensor in load_file(out).items()}


async def failure(call, *args) -> CallError:
    with pytest.raises(CallError) as raised:
        await asyncio.to_thread(call, *args)
    return raised.value


async def test_a_controllers_identity_imports_and_exports(registry, tmp_path):
    weights_file(tmp_path / "in.safetensors", 2.0)
    async with guarded(registry) as (url, _):
        client = Client(url, identity=CONTROLLER)
        assert await asyncio.to_thread(client.import_weights, "learner", tmp_path / "in.safetensors") == ["b", "w"]
        exported = await export(url, tmp_path, identity=OTHER_CONTROLLER)
        assert exported == {name: t.tolist() for name, t in load_file(tmp_path / "in.safetensors").items()}
        assert await export(url, tmp_path, token="s3cret") == exported  # the admin token still works


async def test_a_stranger_gets_403_and_nothing_changes(registry, tmp_path):
    weights_file(tmp_path / "first.safetensors", 1.0)
    weights_file(tmp_path / "second.safetensors", 7.0)
    async with guarded(registry) as (url, _):
        await asyncio.to_thread(Client(url, token="s3cret").import_weights, "learner", tmp_path / "first.safetensors")
        before = await export(url, tmp_path, token="s3cret")
        stranger = Client(url, identity=STRANGER)
        refused = await failure(stranger.import_weights, "learner", tmp_path / "second.safetensors")
        assert refused.status == 403
        assert f"an import into learner: {Principal(STRANGER.principal)} is not a controller of learner" in str(refused)
        assert str(Principal(CONTROLLER.principal)) in str(refused)  # the controllers it has
        refused = await failure(stranger.export_weights, "learner", tmp_path / "x.safetensors")
        assert refused.status == 403 and "the weights of learner" in str(refused)
        assert not (tmp_path / "x.safetensors").exists()
        assert await export(url, tmp_path, token="s3cret") == before
        for client in (Client(url), Client(url, token="wrong")):  # no credential, a wrong one: as before
            refused = await failure(client.export_weights, "learner", tmp_path / "x.safetensors")
            assert refused.status == 401 and "needs moxzid's admin token" in str(refused)


async def test_a_tampered_replayed_or_expired_request_is_refused(registry, tmp_path):
    weights_file(tmp_path / "signed.safetensors", 3.0)
    weights_file(tmp_path / "tampered.safetensors", 5.0)  # the same size, other bytes
    signed, tampered = ((tmp_path / f"{n}.safetensors").read_bytes() for n in ("signed", "tampered"))
    assert len(signed) == len(tampered) and signed != tampered
    digest = hashlib.sha256(signed).digest()

    async with guarded(registry) as (url, store), aiohttp.ClientSession(url) as http:
        async with http.head("/actors") as response:
            moxzid = bytes.fromhex(response.headers[signed_http.ID_HEADER])

        def header(**changes) -> dict:
            values = {"method": "PUT", "path": "/weights/learner", "query": {"prefix": ""}, **changes}
            auth = signed_http.authorization(
                values.pop("identity", CONTROLLER), **values, body_sha256=digest, body_bytes=len(signed), moxzid=moxzid
            )
            return {"Authorization": auth}

        async def put(data: bytes, headers: dict, path="/weights/learner?prefix=") -> tuple[int, str]:
            async with http.put(path, data=data, headers=headers) as response:
                return response.status, (await response.json())["error" if response.status != 200 else "imported"]

        status, error = await put(tampered, header())
        assert status == 401
        assert f"the request's signature is for a body whose sha256 is {digest.hex()}: nothing was imported" in error
        assert await export(url, tmp_path, token="s3cret") == {}  # nothing was imported

        once = header()
        assert await put(signed, once) == (200, ["b", "w"])
        status, error = await put(signed, once)  # the same signed request again
        assert status == 401 and "this signed request was let through before; sign each request anew" in error
        assert list(store.scan(RECEIVED))  # kept in the store, so a restart does not forget it

        status, error = await put(signed, header(now_ns=time.time_ns() - 10 * 60 * 10**9))
        assert status == 401 and "Invalid request expiry: the request expired" in error
        status, error = await put(signed, header(now_ns=time.time_ns() + 10 * 60 * 10**9))
        assert status == 401 and "more than 330 s ahead of moxzid's time" in error
        status, error = await put(signed, header(), path="/weights/learner?prefix=other/")  # another query
        assert status == 401 and "the signature does not verify" in error
        status, error = await put(signed, header(method="GET"))  # signed for another route
        assert status == 401 and "the signature does not verify" in error

        # A controller's key with a stranger's signature: the key's principal is the sender, and it
        # did not sign.
        mine, theirs = header()["Authorization"], header(identity=STRANGER)["Authorization"]
        forged = mine.replace(_field(mine, "sender_sig"), _field(theirs, "sender_sig"))
        status, error = await put(signed, {"Authorization": forged})
        assert status == 401 and "the signature does not verify" in error
        status, error = await put(signed, {"Authorization": "IC-Signature sender_pubkey=AAAA"})
        assert status == 401 and "the header has no sender_sig, ingress_expiry, nonce, body_sha256" in error

    async with guarded(registry, store) as (url, _), aiohttp.ClientSession(url) as http:  # a restart
        async with http.put("/weights/learner?prefix=", data=signed, headers=once) as response:
            assert response.status == 401 and "let through before" in (await response.json())["error"]


def _field(header: str, name: str) -> str:
    return next(part.split("=", 1)[1] for part in header.split(" ", 1)[1].split(", ") if part.startswith(name + "="))


def test_identities_load_from_the_pem_files_icp_cli_and_dfx_write():
    secp = ec.generate_private_key(ec.SECP256K1())
    pkcs8 = secp.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    sec1 = secp.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL, serialization.NoEncryption()
    )
    dfx = b"-----BEGIN EC PARAMETERS-----\nBgUrgQQACg==\n-----END EC PARAMETERS-----\n" + sec1
    assert Identity.from_pem(pkcs8).principal == Identity.from_pem(dfx).principal == Identity(secp).principal
    edwards = ed25519.Ed25519PrivateKey.generate()
    pem = edwards.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    assert Identity.from_pem(pem).principal == Identity(edwards).principal
    encrypted = edwards.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.BestAvailableEncryption(b"pw")
    )
    with pytest.raises(IdentityError, match="the key is encrypted"):
        Identity.from_pem(encrypted)
    with pytest.raises(IdentityError, match="not a PEM identity"):
        Identity.from_pem(b"not a key")
    p384 = ec.generate_private_key(ec.SECP384R1()).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    with pytest.raises(IdentityError, match="secp384r1: only secp256k1 and P-256"):
        Identity.from_pem(p384)


def test_the_cli_says_what_is_wrong_with_an_identity(tmp_path):
    (tmp_path / "bad.pem").write_text("hello")
    done = moxzi("weights", "export", "a", "-o", str(tmp_path / "x"), "--identity", str(tmp_path / "bad.pem"))
    assert done.returncode == 2 and f"--identity {tmp_path / 'bad.pem'}: no `BEGIN PRIVATE KEY`" in done.stderr
    done = moxzi("weights", "export", "a", "-o", "x", "--identity", "k", "--token", "t")
    assert done.returncode == 2 and "not allowed with argument" in done.stderr


@pytest.mark.slow
def test_moxzi_weights_signs_for_a_moxzid_off_loopback(tmp_path):
    """A moxzid on every interface, so its weights routes need the token: `moxzi weights import` and
    `export --identity` with the PEM of a controller the manifest names work through --url; with no
    credential, or a stranger's key, they are refused and nothing changes; --token works too."""
    key = ec.generate_private_key(ec.SECP256K1())
    (tmp_path / "me.pem").write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    stranger = ed25519.Ed25519PrivateKey.generate()
    (tmp_path / "stranger.pem").write_bytes(
        stranger.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
    )
    manifest = project(tmp_path, "learner")
    listed = json.loads(manifest.read_text())
    listed["actors"][0]["controllers"] = [str(Principal(Identity(key).principal))]
    manifest.write_text(json.dumps(listed))
    weights_file(tmp_path / "in.safetensors", 4.0)
    weights_file(tmp_path / "other.safetensors", 9.0)
    flags = ("-m", "actors.json", "-s", "state", "--device", "torch:cpu", "--listen", "0.0.0.0:0")
    with running_moxzid(*flags, cwd=tmp_path, plugins="http,torch,lmdb", serving=r"serving on http://\S+:(\d+)") as d:
        url = f"http://127.0.0.1:{d.url}"  # the group is the port: the wildcard address answers loopback
        token = (tmp_path / "state" / "admin-token").read_text().strip()

        def weights(*args: str) -> subprocess.CompletedProcess:
            return moxzi("weights", *args, "--url", url)

        out = str(tmp_path / "out.safetensors")
        done = weights("import", "learner", str(tmp_path / "in.safetensors"), "--identity", str(tmp_path / "me.pem"))
        assert done.returncode == 0 and "2 parameter(s) set" in done.stdout, done.stderr
        done = weights("import", "learner", str(tmp_path / "other.safetensors"))
        assert done.returncode == 1 and "needs moxzid's admin token" in done.stderr, done.stderr
        done = weights(
            "import", "learner", str(tmp_path / "other.safetensors"), "--identity", str(tmp_path / "stranger.pem")
        )
        assert done.returncode == 1 and "is not a controller of learner" in done.stderr, done.stderr
        done = weights("export", "learner", "-o", out, "--identity", str(tmp_path / "me.pem"))
        assert done.returncode == 0, done.stderr
        assert load_file(out)["w"].equal(torch.full((4, 3), 4.0))  # the stranger's import changed nothing
        assert weights("export", "learner", "-o", out, "--token", token).returncode == 0
        assert load_file(out)["b"].equal(load_file(tmp_path / "in.safetensors")["b"])
