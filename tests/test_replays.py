"""Keyed calls run once: the HTTP gateway's ``Idempotency-Key`` (a retry gets the first run's answer,
also after kill -9) and the IC interface's request ids across a restart (moxzi_core/runtime/replays.py)."""

import asyncio
import contextlib
import json
import random
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import cbor2
import pytest
from kit.daemon import project, running_moxzid
from kit.gateway import post, serving
from kit.host import spec, started
from moxzi_gateway_ic import build_ic_app

from moxzi_core.candid import NAT, Principal, encode_args
from moxzi_core.errors import KeyReused
from moxzi_core.runtime import replays
from moxzi_core.runtime.host import Host, actor_principal
from moxzi_core.store import MemoryStore


@pytest.fixture
async def host():
    host = await started(spec("lab", "lab"))
    yield host
    await host.stop()


async def keyed(http, path, body, key):
    async with http.post(path, data=json.dumps(body), headers={"Idempotency-Key": key}) as response:
        return response.status, json.loads(await response.text())


async def test_a_retry_with_the_same_key_gets_the_first_answer_and_runs_nothing(host):
    async with serving(host) as (_, http):
        assert await keyed(http, "/call-json/lab/inc", [], "order-1") == (200, [1])
        assert await keyed(http, "/call-json/lab/inc", [], "order-1") == (200, [1])  # replayed
        assert await keyed(http, "/call-json/lab/inc", [], "order-2") == (200, [2])  # a new key runs
        # Retries that arrive while the first run is under way wait for it; queries are served meanwhile,
        # from the state before it.
        loop = [asyncio.create_task(keyed(http, "/call-json/lab/incThenLoop", [50_000_000], "loop")) for _ in range(3)]
        assert await keyed(http, "/query-json/lab/get", [], "ignored") == (200, [2])
        assert await asyncio.gather(*loop) == [(200, [3])] * 3
        # Keys are the caller's: without one, a call always runs.
        async with http.post("/call-json/lab/inc", data="[]") as response:
            assert json.loads(await response.text()) == [4]


async def test_a_key_used_for_another_call_is_a_409_and_a_malformed_key_a_400(host):
    async with serving(host) as (_, http):
        assert await keyed(http, "/call-json/lab/incThenLoop", [1], "k") == (200, [1])
        status, answer = await keyed(http, "/call-json/lab/incThenLoop", [2], "k")  # other arguments
        assert status == 409 and "this key was used for another call" in answer["error"]
        assert (await keyed(http, "/call-json/lab/inc", [], "k"))[0] == 409  # another method
        for bad in ("", "x" * 256, "has space", "é"):
            headers = {"Idempotency-Key": bad.encode().decode("latin-1")}
            async with http.post("/call-json/lab/inc", data="[]", headers=headers) as response:
                answer = json.loads(await response.text())
                assert response.status == 400 and "Idempotency-Key must be 1 to 255" in answer["error"], bad
        assert await keyed(http, "/query-json/lab/get", [], "k") == (200, [1])  # queries leave no trace


async def test_a_rejected_call_is_replayed_and_the_outcomes_kept_are_bounded(host, monkeypatch):
    monkeypatch.setattr(replays, "MAX_KEYS", 2)
    async with serving(host) as (_, http):
        first = await keyed(http, "/call-json/lab/incThenTrap", [], "trap")
        assert first[0] == 500 and await keyed(http, "/call-json/lab/incThenTrap", [], "trap") == first
        for key in ("a", "b"):  # two more outcomes: "trap", the oldest, goes
            await keyed(http, "/call-json/lab/inc", [], key)
        assert await keyed(http, "/call-json/lab/inc", [], "a") == (200, [1])  # still kept
        assert (await keyed(http, "/call-json/lab/incThenTrap", [], "trap"))[0] == 500  # ran again ("a" goes)
    outcome = await host.call("lab", "inc", encode_args([], []), query=False, key=b"b")
    assert outcome.reply == encode_args([NAT], [2])  # the same key from Python: the host keeps them
    with pytest.raises(KeyReused):
        await host.call("lab", "incThenLoop", encode_args([NAT], [5]), query=False, key=b"b")


def post_keyed(url: str, path: str, body, key: str, timeout: float = 120):
    call = urllib.request.Request(url + path, data=json.dumps(body).encode(), headers={"Idempotency-Key": key})
    with urllib.request.urlopen(call, timeout=timeout) as response:
        return json.loads(response.read())


@pytest.mark.slow
def test_a_keyed_call_runs_once_across_kill_9(tmp_path):
    project(tmp_path, "lab")
    flags = ("-m", "actors.json", "-s", "state", "--plugins", "http,lmdb")
    with running_moxzid(*flags, cwd=tmp_path) as moxzid:
        assert post_keyed(moxzid.url, "/call-json/lab/inc", [], "answered") == [1]
        moxzid.kill()  # after the answer: the retry must not run it again
    with running_moxzid(*flags, cwd=tmp_path) as moxzid:
        assert post_keyed(moxzid.url, "/call-json/lab/inc", [], "answered") == [1]
        # A long call (about 3 s here) killed while it runs: it runs again at start-up, and the retry
        # gets that run's answer instead of running a second time. On a fast machine the kill may come
        # just after the answer; then the retry gets the answer kept, and the count says it ran once.
        with ThreadPoolExecutor(1) as pool:
            first = pool.submit(post_keyed, moxzid.url, "/call-json/lab/incThenLoop", [200_000_000], "running")
            time.sleep(0.5)
            moxzid.kill()
            with contextlib.suppress(OSError):  # the connection dies with the daemon
                assert first.result() == [2]
    with running_moxzid(*flags, cwd=tmp_path) as moxzid:
        assert post_keyed(moxzid.url, "/call-json/lab/incThenLoop", [200_000_000], "running") == [2]
        assert moxzid.call("lab", "get", query=True) == [2]


async def test_an_ic_request_resent_after_a_restart_runs_once():
    store = MemoryStore()  # what a restart keeps
    lab = spec("lab", "lab")
    fields = {
        "request_type": "call",
        "sender": b"\x04",  # anonymous
        "ingress_expiry": time.time_ns() + 4 * 60 * 10**9,
        "canister_id": actor_principal("lab"),
        "method_name": "inc",
        "arg": encode_args([], []),
        "nonce": random.randbytes(16),
    }
    request = cbor2.dumps(cbor2.CBORTag(55799, {"content": fields}))
    path = f"/api/v4/canister/{Principal(actor_principal('lab'))}/call"
    for run in range(2):  # the second run is moxzid after a restart: its request statuses are gone
        host = Host([lab], store=store)
        await host.start()
        try:
            async with serving(host, {"/api": build_ic_app}) as (_, http):
                async with http.post(path, data=request, headers={"content-type": "application/cbor"}) as response:
                    assert response.status == 200 and cbor2.loads(await response.read())["status"] == "replied"
                assert await post(http, "/query-json/lab/get", []) == (200, [1]), run
        finally:
            await host.stop()
