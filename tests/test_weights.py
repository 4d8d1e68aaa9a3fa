"""An actor's weights as safetensors files (moxzi_core/device/weights.py, the http plugin's /weights routes,
`moxzi weights export|import`): files the safetensors package reads, plain PyTorch computing from them
what the device computes, import into another actor giving the same file back, malformed files and
shape mismatches refused with nothing changed, and an import surviving kill -9."""

import asyncio
import io
import json
import math
import os
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from aiohttp import ClientSession
from aiohttp.test_utils import TestServer
from kit.actorbuild import build_actor, example_actor
from kit.daemon import moxzi, running_moxzid
from kit.device import LETTERS, learner_host, run_arg
from kit.held import HeldElsewhere
from kit.host import update
from safetensors.torch import load_file, save_file

from moxzi_core.candid import NAT, TEXT, Record
from moxzi_core.candid.types import FLOAT64
from moxzi_core.client import Client
from moxzi_core.device import open_device, weights, weights_file
from moxzi_core.device.weights_file import WeightsFileError, float32_values, read_layout, write
from moxzi_core.runtime.device_calls import DeviceCalls
from moxzi_core.runtime.host import ActorSpec, Host
from moxzi_core.store import MemoryStore
from moxzi_gateway_http import weights as gateway_weights
from moxzi_gateway_http.routes import build_app

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
import device_step  # noqa: E402  (the Shakespeare model in plain PyTorch)

PHRASE = b"hello moxzi, hello actors, hello tensors on a device. hello again"
LIMITS = {"max_tensors": 100, "max_name_bytes": 64, "max_dims": 8}


def layout_of(data: bytes):
    return read_layout(io.BytesIO(data), len(data), **LIMITS)


def safetensors_file(header: dict, data: bytes) -> bytes:
    text = json.dumps(header).encode()
    return len(text).to_bytes(8, "little") + text + data


def test_moxzi_writes_what_safetensors_reads_and_reads_what_it_writes(tmp_path):
    a, b = np.arange(6, dtype="<f4").reshape(2, 3), np.array([1.5], "<f4")
    out = io.BytesIO()
    write(out, [("a", "F32", (2, 3)), ("b", "F32", (1,))], {"a": a.tobytes(), "b": b.tobytes()}.get, {"k": "v"})
    (tmp_path / "m.safetensors").write_bytes(out.getvalue())
    loaded = load_file(tmp_path / "m.safetensors")
    assert loaded["a"].tolist() == a.tolist() and loaded["b"].tolist() == [1.5]

    save_file({"w": torch.ones(4, 2, dtype=torch.bfloat16), "x": torch.zeros(3)}, tmp_path / "t.safetensors")
    data = (tmp_path / "t.safetensors").read_bytes()
    found = layout_of(data)
    assert sorted((t.name, t.dtype, t.shape) for t in found.tensors) == [("w", "BF16", (4, 2)), ("x", "F32", (3,))]
    [w] = [t for t in found.tensors if t.name == "w"]
    assert bytes(float32_values(w, bytearray(data[w.begin : w.end]))) == np.ones(8, "<f4").tobytes()


@pytest.mark.parametrize(
    "data, message",
    [
        (b"\x01\x02", "starts with an 8-byte header length"),
        ((10**9).to_bytes(8, "little") + b"{}", "the header length is 1000000000 bytes"),
        (safetensors_file({"a": 1}, b""), "expected an object with dtype"),
        (b"\x03\0\0\0\0\0\0\0[1]", "not a JSON object"),
        (b"\x03\0\0\0\0\0\0\0{x}", "not JSON"),
        (
            safetensors_file({"a": {"dtype": "F33", "shape": [1], "data_offsets": [0, 4]}}, b"1234"),
            "unknown dtype 'F33'",
        ),
        (safetensors_file({"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 4]}}, b"1234"), "needs 8"),
        (
            safetensors_file(
                {
                    "a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]},
                    "b": {"dtype": "F32", "shape": [1], "data_offsets": [4, 8]},
                },
                b"12345678",
            ),
            "tensor 'b': its data (at 4) overlaps the one before",
        ),
        (
            safetensors_file({"a": {"dtype": "F32", "shape": [1], "data_offsets": [4, 8]}}, b"12345678"),
            "leaves 4 bytes",
        ),
        (safetensors_file({"a": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]}}, b"12345678"), "the file has"),
        (
            safetensors_file({"a" * 65: {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]}}, b"1234"),
            "1 to 64 bytes",
        ),
        (
            safetensors_file({"a": {"dtype": "F32", "shape": [-1], "data_offsets": [0, 4]}}, b"1234"),
            "not a list of sizes",
        ),
        (safetensors_file({"__metadata__": {"a": 1}}, b""), "__metadata__ must map names to text"),
        (safetensors_file({"a": {"dtype": "F32", "shape": [10**20], "data_offsets": [0, 4]}}, b""), "of 21 digits"),
    ],
)
def test_a_malformed_file_is_a_clear_error(data, message):
    with pytest.raises(WeightsFileError, match=message.replace("(", r"\(").replace(")", r"\)")):
        layout_of(data)


def test_an_actor_cannot_call_the_import_itself(dev):
    outcome = dev.call("moxzi_device_imported", b"\x01", b"DIDL\x00\x00")  # Candid, not a file
    assert outcome.reply is None and "the device has no method 'moxzi_device_imported'" in outcome.reject_message


def test_a_header_costlier_to_read_than_any_a_space_may_hold_is_refused_before_it_is_read(monkeypatch):
    """A 100 MiB header of empty arrays (which took a codec process 17 to 43 s to read) is refused at
    once, within the device's own limits, before the JSON parser sees it; a number of thousands of
    digits is refused as the parser meets it, before it is made an int."""
    limits = {"max_tensors": 100_000, "max_name_bytes": 256, "max_dims": 8}

    def refused(header: bytes, message: str) -> None:
        data = len(header).to_bytes(8, "little") + header
        with pytest.raises(WeightsFileError, match=message):
            read_layout(io.BytesIO(data), len(data), **limits)

    with monkeypatch.context() as patched:
        patched.setattr(weights_file, "json", SimpleNamespace(loads=_never_parsed))
        refused(b'{"a":[' + b"[]," * (33 << 20) + b"[]]}", "commas and opening brackets")
    refused(b'{"a":{"dtype":"F32","shape":[' + b"9" * 4000 + b'],"data_offsets":[0,4]}}', "a number of 4000 digits")


def _never_parsed(*args, **kwargs):
    raise AssertionError("the header was parsed")


def test_too_many_tensors_is_refused():
    header = {f"t{i}": {"dtype": "U8", "shape": [1], "data_offsets": [i, i + 1]} for i in range(101)}
    with pytest.raises(WeightsFileError, match="101 tensors; the limit is 100"):
        layout_of(safetensors_file(header, bytes(101)))


# --- letters.mo in a host of the test process -------------------------------------------------------


@pytest.fixture(scope="module")
def letters() -> ActorSpec:
    built = example_actor("letters/letters")
    return ActorSpec("letters", built.wasm, built.did)


@pytest.mark.slow
async def test_pytorch_computes_the_devices_loss_from_an_export_after_learn(registry, letters, tmp_path):
    async with learner_host(registry, MemoryStore(), actor=letters) as (host, dev):
        await update(host, "letters", "learn", [NAT], [60], rets=[Record({"first": FLOAT64, "last": FLOAT64})])
        caller = host.info("letters").principal.bytes
        inputs = [{"data": PHRASE, "elem": {"u8": None}, "shape": [1, 65]}]
        device_loss = dev.request("run", caller, run_arg(LETTERS, inputs=inputs, scalars=[9]))["scalars"][0]
        with open(tmp_path / "letters.safetensors", "wb") as out:
            assert weights.export(dev, caller, out) == 2

    tensors = load_file(tmp_path / "letters.safetensors")
    assert sorted(tensors) == ["embed", "head"] and tensors["embed"].shape == (256, 16)
    ids = torch.tensor(list(PHRASE))
    logits = F.linear(F.embedding(ids[:64], tensors["embed"]), tensors["head"])  # [64, 256]
    loss = F.cross_entropy(logits, ids[1:]).item()
    assert device_loss < 3.0  # it learnt
    assert math.isclose(loss, device_loss, rel_tol=1e-5)


@pytest.mark.slow
async def test_the_reference_gpt_gives_the_devices_evaluation_from_gpt_mos_export(registry, tmp_path):
    text = device_step.DATA.read_bytes()
    built = example_actor("shakespeare/gpt")
    gpt = ActorSpec("gpt", built.wasm, built.did)
    async with learner_host(registry, MemoryStore(), actor=gpt) as (host, dev):
        await update(host, "gpt", "load", [TEXT], [text.decode()], rets=[TEXT])
        await update(host, "gpt", "train", [NAT], [3], rets=[TEXT])
        [evaluation] = await update(host, "gpt", "evaluate", rets=[TEXT])
        with open(tmp_path / "gpt.safetensors", "wb") as out:
            weights.export(dev, host.info("gpt").principal.bytes, out)

    start = {name: t.numpy() for name, t in load_file(tmp_path / "gpt.safetensors").items()}
    cfg = device_step.Config()  # the seed's: 4 layers, 4 heads, 128 wide, block 64, batch 12, 65 characters
    model = device_step.EagerGPT(cfg, start)
    ids = np.searchsorted(np.unique(np.frombuffer(text, np.uint8)), np.frombuffer(text, np.uint8))
    n_train = len(ids) * 9 // 10

    def estimate(begin: int, end: int) -> float:  # gpt.mo's: 20 fixed batches spread over the split
        span = end - begin - cfg.block - 1
        losses = []
        with torch.no_grad():
            for k in range(20):
                starts = [begin + (k * cfg.batch + j) * span // (20 * cfg.batch) for j in range(cfg.batch)]
                seq = torch.tensor(np.stack([ids[s : s + cfg.block + 1] for s in starts]), dtype=torch.long)
                losses.append(model.loss(seq).item())
        return sum(losses) / 20

    expected = f"step 3: train loss {estimate(0, n_train):.4f}, val loss {estimate(n_train, len(ids)):.4f}"
    reported = [float(x) for x in evaluation.replace(",", "").split()[4::3]]
    computed = [float(x) for x in expected.replace(",", "").split()[4::3]]
    assert evaluation.startswith("step 3: train loss ") and len(reported) == 2
    assert reported == pytest.approx(computed, abs=2e-4), (evaluation, expected)


# --- through moxzid's routes and `moxzi weights` ------------------------------------------------------
def put(url: str, data: bytes) -> tuple[int, dict]:
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=data, method="PUT")) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


@pytest.mark.slow
def test_export_import_into_another_actor_and_export_again_is_the_same_file(letters, tmp_path):
    built = {"letters": letters, "copy": letters}
    for name, spec in built.items():
        (tmp_path / f"{name}.wasm").write_bytes(spec.wasm)
    (tmp_path / "actors.json").write_text(json.dumps({"actors": [{"name": n, "wasm": f"{n}.wasm"} for n in built]}))
    state = tmp_path / "state"
    first, second, again = (tmp_path / f"{n}.safetensors" for n in ("first", "second", "again"))
    with running_moxzid(
        "-m", "actors.json", "-s", str(state), "--device", "torch:cpu", cwd=tmp_path, plugins="http,torch,lmdb"
    ) as daemon:
        daemon.call("letters", "learn", 30)
        done = moxzi("weights", "export", "letters", "-o", str(first), "--url", daemon.url)
        assert done.returncode == 0, done.stderr
        assert f"letters -> {first} ({first.stat().st_size} bytes)" in done.stdout
        done = moxzi("weights", "import", "copy", str(first), "--url", daemon.url)
        assert done.returncode == 0, done.stderr
        assert "2 parameter(s) set" in done.stdout
        assert moxzi("weights", "export", "copy", "-o", str(second), "--url", daemon.url).returncode == 0
        principals = {a["name"]: a["principal"] for a in Client(daemon.url).actors()}
        # the same bytes, but for whose weights they are (the principal in the metadata)
        assert second.read_bytes() == first.read_bytes().replace(
            principals["letters"].encode(), principals["copy"].encode()
        )
        assert load_file(second)["embed"].equal(load_file(first)["embed"])

        # A shape that differs: refused naming the tensor, and nothing changes.
        save_file({"embed": torch.zeros(256, 16), "head": torch.zeros(3, 3)}, tmp_path / "wrong.safetensors")
        done = moxzi("weights", "import", "copy", str(tmp_path / "wrong.safetensors"), "--url", daemon.url)
        assert done.returncode == 1
        assert "tensor 'head' is [3, 3], but parameter 'head' is [256, 16]: nothing was imported" in done.stderr
        # A malformed file: a 400 that says what is wrong, before anything is stored.
        status, answer = put(f"{daemon.url}/weights/copy", (10**6).to_bytes(8, "little") + b"{}")
        assert status == 400 and "the header length is 1000000 bytes" in answer["error"]
        status, answer = put(f"{daemon.url}/weights/nobody", b"")
        assert status == 404
        assert moxzi("weights", "export", "copy", "-o", str(again), "--url", daemon.url).returncode == 0
        assert again.read_bytes() == second.read_bytes()

        # With a prefix: the names go in with it, and come out without it.
        assert moxzi("weights", "import", "copy", str(first), "--prefix", "old/", "--url", daemon.url).returncode == 0
        assert (
            moxzi("weights", "export", "copy", "-o", str(again), "--prefix", "old/", "--url", daemon.url).returncode
            == 0
        )
        assert again.read_bytes() == second.read_bytes()
        daemon.kill()  # kill -9: the imports are recorded like the actor's own device calls

    with running_moxzid(
        "-m", "actors.json", "-s", str(state), "--device", "torch:cpu", cwd=tmp_path, plugins="http,torch,lmdb"
    ) as daemon:
        assert (
            moxzi("weights", "export", "copy", "-o", str(again), "--prefix", "old/", "--url", daemon.url).returncode
            == 0
        )
        assert again.read_bytes() == second.read_bytes()
        assert moxzi("weights", "export", "copy", "-o", str(again), "--url", daemon.url).returncode == 0
        assert sorted(load_file(again)) == ["embed", "head", "old/embed", "old/head"]


def test_the_cli_says_when_moxzid_is_not_there(tmp_path):
    done = moxzi("weights", "export", "letters", "-o", str(tmp_path / "x.safetensors"), "--url", "http://127.0.0.1:9")
    assert done.returncode == 1 and "moxzid did not answer" in done.stderr
    assert not (tmp_path / "x.safetensors").exists()


@pytest.mark.slow  # a header of hostile size parsed off the loop: tens of seconds on a loaded machine
async def test_a_hostile_header_is_a_400_read_off_the_event_loop(registry, monkeypatch, tmp_path, caplog):
    """A header nested 100,000 deep is a 400, no traceback logged; a 100,001-tensor one (about a second
    to read) is read in a codec process while the gateway serves other requests, then refused."""

    many = {f"t{i}": {"dtype": "U8", "shape": [1], "data_offsets": [i, i + 1]} for i in range(100_001)}
    deep = b"[" * 100_000 + b"]" * 100_000
    held = HeldElsewhere(tmp_path, weights.layout)
    monkeypatch.setattr(gateway_weights, "layout", held)
    async with learner_host(registry, MemoryStore()) as (host, _):
        async with TestServer(build_app(host, 64 << 20, 60.0)) as server, ClientSession(server.make_url("")) as http:
            async with http.put("/weights/learner", data=len(deep).to_bytes(8, "little") + deep) as response:
                assert response.status == 400, await response.text()
                assert "the header is JSON nested too deeply" in (await response.json())["error"]
            importing = asyncio.create_task(http.put("/weights/learner", data=safetensors_file(many, bytes(100_001))))
            assert await asyncio.to_thread(held.started) not in (None, os.getpid())
            async with http.get("/actors") as response:  # served while the header is read
                assert response.status == 200
            assert not importing.done()
            held.release()
            async with await importing as response:
                assert response.status == 400 and "100001 tensors; the limit is 100000" in await response.text()
    assert not [record for record in caplog.records if record.exc_info]


async def test_weights_are_not_exported_before_the_devices_state_is_rebuilt(registry, monkeypatch):
    """While moxzid starts, an actor may be back before the device's state is (runtime/restore.py): its
    export answers 503 with Retry-After until then, not the weights of a half-rebuilt device."""
    rebuilt, rebuild = asyncio.Event(), DeviceCalls.rebuild

    async def held_back(system):
        await rebuilt.wait()
        await rebuild(system)

    monkeypatch.setattr(DeviceCalls, "rebuild", held_back)
    dev = open_device(registry, "torch:cpu")
    learner = build_actor("learner")
    host = Host(
        [ActorSpec("learner", learner.wasm, learner.did)], system_methods=dev.system_methods(), system_state=dev
    )
    starting = asyncio.create_task(host.start())
    try:
        async with TestServer(build_app(host, 1 << 20, 60.0)) as server, ClientSession(server.make_url("")) as http:
            while "learner" not in host.actor_names():  # the actor is back; the device is not
                await asyncio.sleep(0.01)
            async with http.get("/weights/learner") as response:
                assert response.status == 503 and response.headers["Retry-After"] == "1"
                assert "the device's state" in (await response.json())["error"]
            rebuilt.set()
            await starting
            async with http.get("/weights/learner") as response:
                assert response.status == 200, await response.text()
    finally:
        rebuilt.set()
        await starting
        await host.stop()
        dev.close()
