"""kill -9 of a real moxzid (LMDB store): actors made through an actor class, their controllers and
their state come back as the last completed message left them."""

import json

import pytest
from kit.crashing import call
from kit.daemon import project, running_moxzid

pytest.importorskip("moxzi_store_lmdb")

OPERATOR = "2vxsx-fae"


@pytest.mark.slow
def test_created_actors_survive_kill_9(tmp_path):
    manifest = project(tmp_path, "factory")
    manifest.write_text(
        json.dumps({"actors": [{"name": "factory", "wasm": "factory.wasm", "controllers": [OPERATOR]}]})
    )
    flags = ("-m", "actors.json", "-s", "state")
    with running_moxzid(*flags, cwd=tmp_path, plugins="http,lmdb") as daemon:
        kid = call(daemon, "call-json/factory/make", [7])[0]
        assert call(daemon, "call-json/factory/bump", [kid]) == [8]
        daemon.process.kill()
    with running_moxzid(*flags, cwd=tmp_path, plugins="http,lmdb") as daemon:
        assert call(daemon, "call-json/factory/bump", [kid]) == [9]
        assert call(daemon, f"query-json/{kid}/get") == [9]
        status = call(daemon, "call-json/factory/status", [kid])[0]
        assert status.startswith("running code controllers=[") and "freezing=2_592_000" in status
        assert call(daemon, "call-json/factory/callerIsController") == [True]  # the gateway calls as 2vxsx-fae
        daemon.process.kill()
