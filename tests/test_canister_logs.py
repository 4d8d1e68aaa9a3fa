"""The canister log (fetch_canister_logs) with a real compiled Motoko actor: what it records (prints
and traps of replicated executions, not of queries), its bound, its filters, who may read it
(log_visibility), that only a query from outside reaches it, what upgrades and reinstalls do to it,
and that a restart keeps it and a message run again after a stop logs once."""

import asyncio
import sys

import pytest
from aiohttp.test_utils import TestServer
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ed25519
from kit.actorbuild import build_actor

from moxzi_core.candid import NAT, TEXT, Principal, Some, decode_args, encode_args
from moxzi_core.candid.types import resolve
from moxzi_core.client import CallError, Client
from moxzi_core.runtime.canister_log import RECORD_OVERHEAD, CanisterLog
from moxzi_core.runtime.host import ActorSpec, Host, HostConfig, actor_principal
from moxzi_core.runtime.management.interface import MANAGEMENT_NAME, SERVICE
from moxzi_core.runtime.messages import Reject
from moxzi_core.signatures import Identity
from moxzi_core.store import MemoryStore
from moxzi_gateway_http.admin import AdminToken
from moxzi_gateway_http.routes import build_app

OPERATOR = bytes(range(1, 30))
ALICE = bytes(range(2, 31))
LOGGER = Principal(actor_principal("logger"))


async def started(store=None) -> Host:
    built = build_actor("logger")
    spec = ActorSpec("logger", built.wasm, built.did, controllers=(OPERATOR,))
    host = Host([spec], HostConfig(), store=store or MemoryStore())
    await host.start()
    return host


async def say(host, text, method="say"):
    return await host.call("logger", method, encode_args([TEXT], [text]), query=False)


async def logs(host, caller=OPERATOR, query=True, filter=None):
    """fetch_canister_logs as ``caller``: ([(idx, timestamp, content)], None) or (None, the reject)."""
    method = SERVICE.methods["fetch_canister_logs"]
    arg = encode_args(list(method.args), [{"canister_id": LOGGER, "filter": filter}])
    outcome = await host.call(MANAGEMENT_NAME, "fetch_canister_logs", arg, query=query, caller=caller)
    if outcome.reply is None:
        return None, outcome
    (result,) = decode_args(outcome.reply, list(method.rets))
    return [(r["idx"], r["timestamp_nanos"], r["content"]) for r in result["canister_log_records"]], outcome


async def contents(host) -> list[bytes]:
    records, outcome = await logs(host)
    assert records is not None, outcome.reject_message
    return [content for _, _, content in records]


async def manage(host, method, argument, caller=OPERATOR, *, refused=False):
    """The decoded reply of a management call that must succeed, or (``refused``) its reject."""
    types = SERVICE.methods[method]
    outcome = await host.call(
        MANAGEMENT_NAME, method, encode_args(list(types.args), [argument]), query=False, caller=caller
    )
    if refused:
        assert outcome.reply is None
        return outcome.reject_message
    assert outcome.reply is not None, outcome.reject_message
    return decode_args(outcome.reply, list(types.rets))


def settings(**given) -> dict:
    """update_settings' argument for the logger, setting ``given`` (the other settings null)."""
    fields = resolve(SERVICE.methods["update_settings"].args[0]).fields
    settings_type = resolve(next(f.type for f in fields if f.name == "settings"))
    chosen = {f.name: Some(given[f.name]) if f.name in given else None for f in settings_type.fields}
    return {"canister_id": LOGGER, "settings": chosen, "sender_canister_version": None}


async def test_prints_and_traps_are_logged_queries_are_not():
    host = await started()
    try:
        assert (await say(host, "hello")).reply is not None
        trapped = await say(host, "oops", "sayThenTrap")
        assert trapped.reply is None and "gave up after oops" in trapped.reject_message
        assert (await host.call("logger", "sayInQuery", encode_args([TEXT], ["asked"]), query=True)).reply is not None
        # Called as an update, a query method runs replicated: its print is logged.
        assert (await host.call("logger", "sayInQuery", encode_args([TEXT], ["updated"]), query=False)).reply
        records, _ = await logs(host)
        assert [content for _, _, content in records] == [
            b"installed",
            b"hello",
            b"oops",
            b"[TRAP]: gave up after oops",
            b"updated",
        ]
        assert [idx for idx, _, _ in records] == [0, 1, 2, 3, 4]
        times = [timestamp for _, timestamp, _ in records]
        assert times == sorted(times) and times[2] == times[3]  # a trap has its message's time
        # Filters: indexes and times in [start, end).
        by_idx, _ = await logs(host, filter=Some({"by_idx": {"start": 1, "end": 3}}))
        assert [idx for idx, _, _ in by_idx] == [1, 2]
        by_time, _ = await logs(host, filter=Some({"by_timestamp_nanos": {"start": times[2], "end": times[4]}}))
        assert [idx for idx, _, _ in by_time] == [2, 3]
        (status,) = await manage(host, "canister_status", {"canister_id": LOGGER})
        size = sum(RECORD_OVERHEAD + len(content) for _, _, content in records)
        assert status["memory_metrics"]["log_memory_store_size"] == size
        assert status["settings"]["log_visibility"] == {"controllers": None}
    finally:
        await host.stop()


async def test_the_log_keeps_its_most_recent_4_kib():
    host = await started()
    try:
        for n in range(40):
            assert (await say(host, f"{n:03d}" + "x" * 97)).reply is not None
        records, _ = await logs(host)
        assert sum(RECORD_OVERHEAD + len(content) for _, _, content in records) <= 4096
        assert len(records) == 4096 // (RECORD_OVERHEAD + 100)
        assert records[-1][0] == 40 and records[-1][2].startswith(b"039")  # (idx 0 is "installed")
        assert [idx for idx, _, _ in records] == list(range(41 - len(records), 41))
    finally:
        await host.stop()


def test_a_record_larger_than_the_limit_keeps_its_start():
    log = CanisterLog()
    log.add(1, b"a" * 10_000, 4096)
    ((idx, timestamp, content),) = log.records()
    assert (idx, timestamp, len(content)) == (0, 1, 4096 - RECORD_OVERHEAD) and log.size == 4096


async def test_log_visibility_decides_who_reads_it():
    host = await started()
    try:
        await say(host, "secret")
        records, refused = await logs(host, caller=ALICE)
        assert records is None and refused.reject_code == Reject.CANISTER_REJECT
        assert "do not let this caller see it" in refused.reject_message

        async def visibility(value):
            await manage(host, "update_settings", settings(log_visibility=value))
            (status,) = await manage(host, "canister_status", {"canister_id": LOGGER})
            return status["settings"]["log_visibility"]

        assert await visibility({"public": None}) == {"public": None}
        assert (await logs(host, caller=ALICE))[0] is not None
        viewers = {"allowed_viewers": [Principal(ALICE)]}
        assert await visibility(viewers) == viewers
        assert (await logs(host, caller=ALICE))[0] is not None
        assert (await logs(host, caller=bytes(range(3, 32))))[0] is None
        assert (await logs(host))[0] is not None  # controllers always may
        # Only controllers change it.
        refusal = await manage(host, "update_settings", settings(log_visibility={"public": None}), ALICE, refused=True)
        assert "only the controllers" in refusal
    finally:
        await host.stop()


async def test_only_a_query_from_outside_reaches_it():
    host = await started()
    try:
        records, refused = await logs(host, query=False)
        assert records is None and refused.reject_code == Reject.CANISTER_REJECT
        assert "only to a query from outside" in refused.reject_message
        from_actor = await host.call("logger", "fetchOwnLogs", encode_args([], []), query=False)
        assert "only to a query from outside" in decode_args(from_actor.reply, [TEXT])[0]
        method = SERVICE.methods["fetch_canister_logs"]
        bad = await host.call(MANAGEMENT_NAME, "fetch_canister_logs", encode_args([NAT], [1]), query=True)
        assert bad.reply is None and "does not decode" in bad.reject_message
        missing = Principal(actor_principal("nobody"))
        arg = encode_args(list(method.args), [{"canister_id": missing, "filter": None}])
        gone = await host.call(MANAGEMENT_NAME, "fetch_canister_logs", arg, query=True, caller=OPERATOR)
        assert gone.reject_code == Reject.DESTINATION_INVALID
    finally:
        await host.stop()


async def test_an_upgrade_keeps_the_log_a_reinstall_empties_it():
    wasm = build_actor("logger").wasm
    host = await started()
    try:
        await say(host, "before")

        async def install(mode):
            argument = {
                "mode": mode,
                "canister_id": LOGGER,
                "wasm_module": wasm,
                "arg": encode_args([], []),
                "sender_canister_version": None,
            }
            await manage(host, "install_code", argument)

        await install({"upgrade": Some({"skip_pre_upgrade": None, "wasm_memory_persistence": Some({"keep": None})})})
        # (a Motoko actor's body runs again after an upgrade: it prints once more)
        assert await contents(host) == [b"installed", b"before", b"installed"]
        await install({"reinstall": None})
        records, _ = await logs(host)
        assert [(idx, content) for idx, _, content in records] == [(3, b"installed")]  # indexes go on
        refusal = await manage(host, "update_settings", settings(log_memory_limit=8192), refused=True)
        assert "at most 4096 bytes" in refusal
    finally:
        await host.stop()


async def test_a_restart_keeps_the_log_and_a_message_run_again_logs_once():
    store = MemoryStore()
    host = await started(store)
    try:
        await say(host, "kept")
        await say(host, "kept too", "sayThenTrap")
        work = asyncio.ensure_future(
            host.call("logger", "sayThenWork", encode_args([TEXT, NAT], ["working", 50_000_000]), query=False)
        )
        for _ in range(200):  # its print is in the log as soon as it runs (before it completes)
            if b"working" in await contents(host):
                break
            await asyncio.sleep(0.01)
        assert not work.done()
    finally:
        await host.stop()  # the message is cut short, not settled: it stays in the inbox
    work.cancel()
    host = await started(store)
    try:
        for _ in range(1000):  # the message runs again from the inbox, to its end this time
            counted = await host.call("logger", "count", encode_args([], []), query=True)
            if decode_args(counted.reply, [NAT]) == [2]:
                break
            await asyncio.sleep(0.02)
        expected = [b"installed", b"kept", b"kept too", b"[TRAP]: gave up after kept too", b"working"]
        records, _ = await logs(host)
        assert [content for _, _, content in records] == expected
        assert [idx for idx, _, _ in records] == [0, 1, 2, 3, 4]
        assert (await say(host, "after")).reply is not None
        assert (await logs(host))[0][-1][0] == 5
    finally:
        await host.stop()


async def test_moxzi_logs_reads_the_http_route_by_log_visibility(tmp_path):
    """``GET /logs/ACTOR`` behind routes that need a token: a controller's signed request, or the
    token, read the log; unsigned or a stranger's signature, not until log_visibility is public; and
    `moxzi logs` prints it, `--follow` new records as they come."""
    controller = Identity(ed25519.Ed25519PrivateKey.generate())
    stranger = Identity(ed25519.Ed25519PrivateKey.generate())
    (tmp_path / "me.pem").write_bytes(
        controller.key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
    )
    built = build_actor("logger")
    spec = ActorSpec("logger", built.wasm, built.did, controllers=(controller.principal,))
    host = Host([spec], HostConfig(), store=MemoryStore())
    await host.start()
    try:
        async with TestServer(build_app(host, 1 << 20, 60.0, AdminToken("s3cret", "the test's token"))) as server:
            url = str(server.make_url("")).rstrip("/")
            await say(host, "hello")

            def read(since=0, **client):
                return [r["content"] for r in Client(url, **client).logs("logger", since)]

            assert await asyncio.to_thread(read, identity=controller) == ["installed", "hello"]
            assert await asyncio.to_thread(read, 1, token="s3cret") == ["hello"]
            for client in ({}, {"identity": stranger}):
                with pytest.raises(CallError) as refused:
                    await asyncio.to_thread(read, **client)
                assert refused.value.status == 403 and "log_visibility does not let" in str(refused.value)
            with pytest.raises(CallError) as bad:
                await asyncio.to_thread(Client(url)._request, "GET", "/logs/logger?since=%C2%B2", None, None)
            assert bad.value.status == 400
            await host.call(
                MANAGEMENT_NAME,
                "update_settings",
                encode_args(list(SERVICE.methods["update_settings"].args), [settings(log_visibility={"public": None})]),
                query=False,
                caller=controller.principal,
            )
            assert await asyncio.to_thread(read) == ["installed", "hello"]

            printed = await moxzi_logs("logger", "--url", url, "--identity", str(tmp_path / "me.pem"))
            assert [line.split("]: ", 1)[1] for line in printed.splitlines()] == ["installed", "hello"]
            assert printed.startswith("[0. 20") and printed.splitlines()[1].startswith("[1. ")
            follower = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "moxzi_core.cli",
                "logs",
                "logger",
                "--url",
                url,
                "-f",
                "--interval",
                "0.1",
                stdout=asyncio.subprocess.PIPE,
            )
            try:
                assert follower.stdout is not None
                seen = [await asyncio.wait_for(follower.stdout.readline(), 60) for _ in range(2)]
                await say(host, "later")
                seen.append(await asyncio.wait_for(follower.stdout.readline(), 60))
                assert [line.decode().split("]: ", 1)[1] for line in seen] == ["installed\n", "hello\n", "later\n"]
            finally:
                follower.kill()
                await follower.wait()
    finally:
        await host.stop()


async def moxzi_logs(*args: str) -> str:
    done = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "moxzi_core.cli", "logs", *args, stdout=asyncio.subprocess.PIPE
    )
    out, _ = await done.communicate()
    assert done.returncode == 0
    return out.decode()
