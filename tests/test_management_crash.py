"""kill -9 of a real moxzid (LMDB store): actors made through an actor class, their controllers and
their state come back as the last completed message left them; so does a chunk store."""

import hashlib
import json

import pytest
from kit.actorbuild import build_actor
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


@pytest.mark.slow
def test_the_chunk_store_survives_kill_9(tmp_path):
    """Chunks uploaded over the IC interface (ic-py, a secp256k1 identity) are kept with the actor's
    state: after kill -9 they are listed and put together into the module they came from."""
    from ic.agent import Agent
    from ic.client import Client
    from ic.identity import Identity

    from moxzi_core.candid import Principal, encode_args
    from moxzi_core.runtime.management.interface import SERVICE

    def management(agent, method, value, target="aaaaa-aa"):
        arg = encode_args(list(SERVICE.methods[method].args), [value])
        return agent.update_raw("aaaaa-aa", method, arg, effective_canister_id=target)

    wasm = build_actor("counter").wasm
    half = len(wasm) // 2
    identity = Identity()  # one key across both runs: the controller
    manifest = tmp_path / "actors.json"
    manifest.write_text('{"actors": []}')
    flags = ("-m", "actors.json", "-s", "state")
    with running_moxzid(*flags, cwd=tmp_path, plugins="http,ic,lmdb") as daemon:
        agent = Agent(identity, Client(url=daemon.url))
        created = management(agent, "create_canister", {"settings": None, "sender_canister_version": None})
        # ic-py decodes a record without its type: fields by their ids (canister_id is the one field)
        (canister_id,) = created[0]["value"].values()
        canister = canister_id.to_str()
        for chunk in (wasm[:half], wasm[half:]):
            management(agent, "upload_chunk", {"canister_id": Principal.from_text(canister), "chunk": chunk}, canister)
        daemon.process.kill()
    with running_moxzid(*flags, cwd=tmp_path, plugins="http,ic,lmdb") as daemon:
        agent = Agent(identity, Client(url=daemon.url))
        target = Principal.from_text(canister)
        stored = management(agent, "stored_chunks", {"canister_id": target}, canister)[0]["value"]
        digests = [hashlib.sha256(chunk).digest() for chunk in (wasm[:half], wasm[half:])]
        assert len(stored) == 2
        install = {
            "mode": {"install": None},
            "target_canister": target,
            "store_canister": None,
            "chunk_hashes_list": [{"hash": digest} for digest in digests],
            "wasm_module_hash": hashlib.sha256(wasm).digest(),
            "arg": encode_args([], []),
            "sender_canister_version": None,
        }
        management(agent, "install_chunked_code", install, canister)
        assert call(daemon, f"call-json/{canister}/inc") == [1]
        daemon.process.kill()
