"""Start-up (moxzi_core.runtime.restore): moxzid opens its port at once, answers 503 with Retry-After and
what it restores while the actors come back, serves the plain queries of those back already, and
everything once all are back.

Restoration is held back deterministically: moxzid runs with `Journal.load` wrapped (in the test's
child process only) so that the actor ``slow`` is read only once the test creates a file."""

import json
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import cbor2
import pytest
from kit.daemon import moxzid_env, project, running_moxzid
from kit.host import spec
from kit.http import request

from moxzi_core import errors
from moxzi_core.candid import encode_args
from moxzi_core.runtime import modules
from moxzi_core.runtime.host import Host

# moxzid, with the actor `slow` read back only once the file named by the first argument exists.
HELD_BACK = """
import sys, time
from pathlib import Path
from moxzi_core import daemon
from moxzi_core.runtime.journal import Journal

release, load = Path(sys.argv[1]), Journal.load

def held_back(journal, name):
    while name == "slow" and not release.exists():
        time.sleep(0.02)
    return load(journal, name)

Journal.load = held_back
daemon.main(sys.argv[2:])
"""
FLAGS = ("-m", "actors.json", "-s", "state")
PLUGINS = "http,ic,lmdb"


def _until(check, what: str, seconds: float = 60):
    deadline = time.monotonic() + seconds
    while not (found := check()):
        assert time.monotonic() < deadline, f"no {what} within {seconds} s"
        time.sleep(0.05)
    return found


def _status(url: str) -> str:
    with urllib.request.urlopen(f"{url}/api/v2/status", timeout=10) as answer:
        return cbor2.loads(answer.read())["replica_health_status"]


@pytest.mark.slow
def test_moxzid_serves_while_it_restores_and_answers_503_for_what_is_not_back(tmp_path):
    pytest.importorskip("moxzi_store_lmdb")
    project(tmp_path, ready="counter", slow="counter")
    with running_moxzid(*FLAGS, cwd=tmp_path, plugins=PLUGINS) as daemon:  # the state to restore
        for actor in ("ready", "slow"):
            assert request(f"{daemon.url}/call-json/{actor}/inc", []) == (200, [1])
        assert daemon.stop() == 0

    release, log = tmp_path / "release", tmp_path / "held.log"
    with log.open("w") as stderr:
        process = subprocess.Popen(
            [sys.executable, "-c", HELD_BACK, str(release), *FLAGS, "--plugins", PLUGINS, "--listen", "127.0.0.1:0"],
            cwd=tmp_path,
            stderr=stderr,
            env=moxzid_env(),
        )
    try:
        url = _until(lambda: _serving(log, process), "serving line")
        # The port is open before the actors are read: moxzid answers 503, saying what it restores.
        health = request(f"{url}/health")
        assert health.status == 503 and health.body["status"] == "starting", health
        assert "moxzid is starting: restoring " in health.body["error"], health
        assert _status(url) == "starting"
        # `ready` is back: its plain queries are served; its update calls wait for every actor.
        _until(lambda: request(f"{url}/query-json/ready/get", []).status == 200, "ready's query")
        assert request(f"{url}/query-json/ready/get", []) == (200, [1])
        update = request(f"{url}/call-json/ready/inc", [])
        assert update.status == 503 and "ready.inc answers once it is back" in update.body["error"], update
        # `slow` is not: every route to it answers 503 with Retry-After.
        for route in ("query-json/slow/get", "call-json/slow/inc", "logs/slow"):
            status, headers, answer = _with_headers(f"{url}/{route}", [] if "json" in route else None)
            assert status == 503 and headers["Retry-After"] == "1", (route, status, headers)
            assert "restoring 1 of 2 actors" in answer["error"], (route, answer)
        assert "actors ready in" not in log.read_text()

        release.touch()
        _until(lambda: request(f"{url}/health").status == 200, "ready health")
        assert request(f"{url}/health") == (200, {"status": "ready"})
        assert _status(url) == "healthy"
        for actor in ("ready", "slow"):  # nothing was lost, and nothing refused ran
            assert request(f"{url}/call-json/{actor}/inc", []) == (200, [2])
    finally:
        process.kill()
        process.wait()
    assert "Traceback" not in log.read_text()


def _serving(log: Path, process: subprocess.Popen) -> str | None:
    assert process.poll() is None, f"moxzid exited {process.returncode}:\n{log.read_text()}"
    for line in log.read_text().splitlines():
        if "serving on http://" in line:
            return line.split("serving on ")[1].split()[0]
    return None


def _with_headers(url: str, body) -> tuple[int, dict, dict]:
    """(status, headers, decoded JSON) of a GET, or of a POST of ``body`` as JSON."""
    data = None if body is None else json.dumps(body).encode()
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=data), timeout=30) as answer:
            return answer.status, dict(answer.headers), json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), json.loads(error.read())


async def test_restored_actors_that_share_a_module_prepare_it_once(tmp_path, monkeypatch):
    LmdbStore = pytest.importorskip("moxzi_store_lmdb").LmdbStore
    """Restored side by side, actors running one module wait for the first to prepare it (preparing
    holds the GIL: each preparing it too would cost the others as much again), and a request for an
    actor before start-up restored it answers Restoring."""
    specs = [spec(f"counter{i}", "counter") for i in range(4)]
    store = LmdbStore(tmp_path / "state")
    host = Host(specs, store=store)
    with pytest.raises(errors.Restoring, match="restoring 4 of 4 actors"):
        await host.call("counter0", "get", encode_args([], []), query=True)
    await host.start()
    await host.stop()
    store.close()

    prepared = []
    prepare = modules.prepared_for
    monkeypatch.setattr(modules, "prepared_for", lambda *args: prepared.append(args[1]) or prepare(*args))
    store = LmdbStore(tmp_path / "state")
    host = Host(specs, store=store)
    try:
        await host.start()
        assert host.starting() is None
        assert len(prepared) == 1, prepared
        for actor in specs:
            assert (await host.call(actor.name, "inc", encode_args([], []), query=False)).reply is not None
    finally:
        await host.stop()
        store.close()
