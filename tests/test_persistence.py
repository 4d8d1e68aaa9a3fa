"""Actors come back from their store as their last completed message left them: state, upgrades,
timers, and the messages still waiting in their inboxes. (Kill -9 of a real moxzid: test_crash.py.)"""

import asyncio
import time

import pytest
from kit.actorbuild import ACTORS_DIR, build_actor
from kit.host import NO_ARGS, eventually, query, spec, update

from moxzi_core import daemon, plugins
from moxzi_core.candid import NAT, TEXT, Vec
from moxzi_core.runtime.engine import Limits
from moxzi_core.runtime.host import Host, HostConfig, actor_principal
from moxzi_core.runtime.journal import Journal
from moxzi_core.runtime.messages import Call, FromActor, FromOutside, to_record
from moxzi_core.settings import Settings
from moxzi_core.store import Batch, MemoryStore, StoreError

VEC_NAT = Vec(NAT)
LAB = ACTORS_DIR / "lab.mo"
pytest_plugins = ["moxzi_core.testing"]  # moxzi_host: a host in the test process, its store in tmp_path
pytestmark = pytest.mark.slow  # restarts of the host on a store


async def restarted(store, *specs):
    host = Host(list(specs), store=store)
    await host.start()
    return host


@pytest.mark.parametrize("classic", [False, True], ids=["enhanced", "classic"])
async def test_state_and_upgrades_survive_a_restart(classic):
    store = MemoryStore()
    first = await restarted(store, spec("a", classic=classic))
    for _ in range(3):
        await update(first, "a", "inc")
    await first.upgrade("a", build_actor("lab_v2", classic=classic).wasm)
    assert await update(first, "a", "inc") == [13]
    await first.stop()

    second = await restarted(store, spec("a", classic=classic))
    try:
        assert await query(second, "a", "get") == [13]
        assert await query(second, "a", "version", rets=[TEXT]) == ["v2"]  # the upgraded code runs
        assert "version" in second.info("a").interface.methods
        assert await update(second, "a", "inc") == [23]
    finally:
        await second.stop()


def test_a_timer_set_before_the_restart_fires_after_it(moxzi_host):
    lab = moxzi_host.deploy(LAB)
    lab.update("tickOnce", 60)
    moxzi_host.restart()  # before the timer is due
    moxzi_host.advance(seconds=59)
    assert lab.query("getTicks") == 0
    moxzi_host.advance(seconds=1)
    assert lab.query("getTicks") == 1


async def test_recorded_messages_that_never_ran_run_at_start_up():
    store = MemoryStore()
    first = await restarted(store, spec("a"), spec("b"))
    await update(first, "a", "inc")
    await first.stop()
    # As if moxzid died right after recording two calls: one from outside, one from actor b.
    batch = Batch()
    Journal.record(batch, "a", 0, to_record(Call("inc", NO_ARGS, b"\x04", FromOutside("gone"))))
    Journal.record(batch, "a", 1, to_record(Call("inc", NO_ARGS, actor_principal("b"), FromActor("b", 99))))
    store.commit(batch)

    second = await restarted(store, spec("a"), spec("b"))
    try:
        await eventually(lambda: _is(query(second, "a", "get"), [3]))
        assert await update(second, "a", "inc") == [4]
    finally:
        await second.stop()


def test_calls_between_actors_survive_a_restart(moxzi_host):
    a, b = moxzi_host.deploy(LAB, name="a"), moxzi_host.deploy(LAB, name="b")
    assert a.update("incPeer", b.principal) == 1
    moxzi_host.restart()
    assert b.query("get") == 1
    assert a.update("incPeer", b.principal) == 2


async def test_a_store_from_another_layout_is_refused():
    store = MemoryStore()
    batch = Batch()
    batch.put(b"meta/layout", b"999")
    store.commit(batch)
    with pytest.raises(StoreError, match="layout 999"):
        Host([spec("a")], store=store)


async def _is(result, expected):
    return await result == expected


async def test_stop_cuts_a_running_message_short_and_it_runs_again_after_a_restart():
    store = MemoryStore()
    host = Host([spec("a")], HostConfig(Limits(instructions_per_message=10**15)), store=store)  # spin: hours
    await host.start()
    await update(host, "a", "inc")
    spinning = asyncio.create_task(host.call("a", "spin", NO_ARGS, query=False))
    await asyncio.sleep(0.5)
    started = time.monotonic()
    await host.stop()
    assert time.monotonic() - started < 5.0
    assert not spinning.done()  # never answered: nothing of the message was settled
    spinning.cancel()
    assert [record[:2] for _, record in Journal(store).load("a").inbox] == [["call", "spin"]]

    host = Host([spec("a")], HostConfig(Limits(instructions_per_message=10**7)), store=store)  # now it runs out of fuel
    await host.start()
    try:

        async def inbox_empty():
            return not Journal(store).load("a").inbox

        await eventually(inbox_empty)
        assert await update(host, "a", "inc") == [2]
    finally:
        await host.stop()


async def test_a_store_no_host_reads_back_gets_no_pages_state_inbox_or_pending_records():
    """moxzid without -s writes none of what only a restart reads (an actor's pages and state record,
    the messages in its inbox, its pending calls to the management canister) into its store in memory,
    the same messages running as on a store that is read back, which gets them all."""
    kept, unread = MemoryStore(), MemoryStore(read_back=False)
    answers, written = {}, {}
    for store in (kept, unread):
        keys = written[store] = set()
        commit = store.commit

        def recording(batch, commit=commit, keys=keys):
            keys.update(batch.writes)
            commit(batch)

        store.commit = recording  # type: ignore[method-assign]
        host = await restarted(store, spec("a"), spec("client", "client"))
        try:
            answers[store] = [await update(host, "a", "inc") for _ in range(3)] + [await query(host, "a", "get")]
            answers[store].append(await update(host, "client", "randWithCycles", [NAT], [0], [VEC_NAT]))
            await eventually(lambda host=host: asyncio.sleep(0, host.quiet()))  # what it keeps in memory empties
        finally:
            await host.stop()
    assert answers[unread] == answers[kept]
    assert answers[kept][:4] == [[1], [2], [3], [3]]

    def kinds(store) -> set[bytes]:
        return {key.split(b"/")[2] for key in written[store] if key.startswith(b"actor/")}

    assert {b"state", b"memory", b"inbox", b"pending"} <= kinds(kept)
    assert not {b"state", b"memory", b"inbox", b"pending"} & kinds(unread)
    assert Journal(kept).load("a") is not None
    assert [key for key, _ in kept.scan(b"actor/a/memory/")]
    assert Journal(unread).load("a") is None
    assert not [key for key, _ in unread.scan(b"actor/a/memory/")]


def test_moxzid_without_a_state_directory_keeps_a_store_no_host_reads_back():
    registry, loaded = plugins.load([])
    opened = daemon._store_opener(Settings(registry.settings), registry, loaded)()
    assert isinstance(opened, MemoryStore) and not opened.read_back
