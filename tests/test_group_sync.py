"""Group commit (moxzi_core/runtime/group_sync.py): calls that settle while the store flushes share the
next flush, the actor runs on meanwhile, no answer goes out before its batch is on disk, and with kill -9
in the middle of many concurrent calls none answered is lost or run twice; the calls that arrive in
one turn of the event loop are recorded in one transaction, and an actor that finds its next call queued
as one settles writes them in one batch (`turn.Held`), unless that next call runs long (`HeldWatch`)."""

import asyncio
import json
import logging
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest
from kit.daemon import project, running_moxzid
from kit.host import eventually, query, spec

from moxzi_core.candid import NAT, decode_args, encode_args
from moxzi_core.runtime.delivery import Delivery
from moxzi_core.runtime.group_sync import GroupSync
from moxzi_core.runtime.host import Host
from moxzi_core.runtime.turn import SETTLE_TOGETHER
from moxzi_core.store import MemoryStore, StoreError

CALLS = 20


class HeldDisk(MemoryStore):
    """A store on a disk whose flush waits until the test lets it through (``open``), counting them."""

    in_memory = False

    def __init__(self) -> None:
        super().__init__()
        self.through = threading.Event()
        self.flushes = 0

    def flush(self) -> None:
        self.through.wait()
        self.flushes += 1


async def test_calls_settled_during_a_flush_share_the_next_and_wait_for_it():
    store = HeldDisk()
    host = Host([spec("lab")], store=store)
    await host.start()
    try:
        calls = [asyncio.create_task(host.call("lab", "inc", encode_args([], []), query=False)) for _ in range(CALLS)]

        # The actor runs every call while the first flush is held, rather than wait for it after each...
        async def all_ran() -> bool:
            return await query(host, "lab", "get") == [CALLS]

        await eventually(all_ran)
        await asyncio.sleep(0.1)
        # ...and answers none before the flush that covers its batch is through.
        assert not any(call.done() for call in calls)
        store.through.set()
        answers = await asyncio.wait_for(asyncio.gather(*calls), 30)
        assert sorted(decode_args(a.reply, [NAT])[0] for a in answers) == list(range(1, CALLS + 1))
        # The first flush held the first call's batch; one more covers the other 19.
        assert store.flushes <= 3, store.flushes
    finally:
        store.through.set()
        await host.stop()


def test_a_store_that_cannot_flush_stops_the_loop_and_releases_nothing(caplog):
    class BrokenDisk(MemoryStore):
        in_memory = False

        def flush(self) -> None:
            raise StoreError("the disk is gone")

    loop = asyncio.new_event_loop()
    synced, released = GroupSync(BrokenDisk()), []
    synced.start(loop)
    try:
        synced.after(lambda: released.append(1))
        with caplog.at_level(logging.CRITICAL, "moxzid"):
            loop.run_forever()  # until the failed flush stops it
        synced.after(lambda: released.append(2))  # nothing is released after a failed flush either
        loop.run_until_complete(asyncio.sleep(0.1))
    finally:
        synced.stop()
        loop.close()
    assert released == []
    assert "cannot write state: the disk is gone; moxzid stops" in caplog.text


def keyed_inc(url: str, key: str) -> int:
    request = urllib.request.Request(url + "/call-json/lab/inc", data=b"[]", headers={"Idempotency-Key": key})
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())[0]


@pytest.mark.slow
def test_no_answered_call_is_lost_or_run_twice_when_moxzid_is_killed_among_many(tmp_path):
    project(tmp_path, "lab")
    flags = ("-m", "actors.json", "-s", "state", "--plugins", "http,lmdb")
    answered: dict[str, int] = {}  # key -> the count its call answered
    tried: list[str] = []
    lock = threading.Lock()

    def client(url: str, index: int, stop: threading.Event) -> None:
        n = 0
        while not stop.is_set():
            key = f"client{index}-{n}"
            with lock:
                tried.append(key)
            try:
                value = keyed_inc(url, key)
            except (urllib.error.URLError, ConnectionError, OSError):
                return  # moxzid was killed under this call: its key is retried after the restart
            with lock:
                answered[key] = value
            n += 1

    with running_moxzid(*flags, cwd=tmp_path) as moxzid:
        stop = threading.Event()
        with ThreadPoolExecutor(32) as pool:
            for index in range(32):
                pool.submit(client, moxzid.url, index, stop)
            time.sleep(2)
            moxzid.kill()  # among calls committed, flushing, answered and not yet recorded
            stop.set()
    assert len(answered) > 32, "the kill came before calls were answered"
    with running_moxzid(*flags, cwd=tmp_path) as moxzid:
        # Every key again: an answered call gives its answer again without running, one killed after it
        # was recorded gives the outcome of its run at start-up, and one never recorded runs now.
        again = {key: keyed_inc(moxzid.url, key) for key in tried}
        assert {key: again[key] for key in answered} == answered
        assert sorted(again.values()) == list(range(1, len(tried) + 1))  # each call counted once
        assert moxzid.call("lab", "get", query=True) == [len(tried)]
        assert "Traceback" not in (tmp_path / "moxzid.log").read_text()


class CountingDisk(MemoryStore):
    """A store on a disk that counts the transactions that write inbox records, and those that consume
    them (settle messages)."""

    in_memory = False

    def __init__(self) -> None:
        super().__init__()
        self.recording = self.settling = 0
        self.settled_without_state = 0  # batches that consumed several messages but wrote no state record

    def commit(self, batch) -> None:
        if any(b"/inbox/" in key and value is not None for key, value in batch.writes.items()):
            self.recording += 1
        consumed = sum(b"/inbox/" in key and value is None for key, value in batch.writes.items())
        self.settling += consumed > 0
        self.settled_without_state += consumed > 1 and not any(key.endswith(b"/state") for key in batch.writes)
        super().commit(batch)


async def calls_at_once(host: Host) -> list:
    """The answers to CALLS calls of ``inc``, made at once."""
    calls = (host.call("lab", "inc", encode_args([], []), query=False) for _ in range(CALLS))
    return await asyncio.wait_for(asyncio.gather(*calls), 30)


async def count_after_restart(store: MemoryStore) -> list:
    """What ``lab`` counts in a host started again on ``store``."""
    restarted = Host([spec("lab")], store=store)
    await restarted.start()
    try:
        return await query(restarted, "lab", "get")
    finally:
        await restarted.stop()


async def test_calls_arriving_in_one_turn_are_recorded_in_one_transaction():
    store = CountingDisk()
    host = Host([spec("lab")], store=store)
    await host.start()
    try:
        answers = await calls_at_once(host)
        assert sorted(decode_args(a.reply, [NAT])[0] for a in answers) == list(range(1, CALLS + 1))
        assert store.recording == 1
        # The actor found the next call queued as each settled: up to SETTLE_TOGETHER calls a batch
        assert store.settling <= -(-CALLS // SETTLE_TOGETHER) + 1, store.settling
    finally:
        await host.stop()
    assert await count_after_restart(store) == [CALLS]  # what those batches wrote is the whole state


async def test_a_held_call_is_answered_while_the_next_message_runs_long():
    """A call held for the next message's batch is written alone once that message runs past
    `HELD_SECONDS` (`HeldWatch`), and answered then, not after it: here the next one loops until its
    instruction limit (seconds) or the host's stop, and the call is answered while it runs."""
    store = CountingDisk()
    host = Host([spec("lab")], store=store)
    await host.start()
    try:
        inc = asyncio.create_task(host.call("lab", "inc", encode_args([], []), query=False))
        spin = asyncio.create_task(host.call("lab", "spin", encode_args([], []), query=False))
        answer = await asyncio.wait_for(inc, 10)  # (recorded with spin, so held when it settles)
        assert decode_args(answer.reply, [NAT]) == [1]
        assert not spin.done()
    finally:
        await host.stop()  # (cuts spin short: it stays in the inbox)
    assert await count_after_restart(store) == [1]  # what answered the call was written


async def test_a_failed_settle_still_writes_and_answers_the_messages_held_before_it(monkeypatch):
    """An internal error settling the message that would write the held ones: they are written by
    themselves (`Actor._fail`) and answered, the failed call gets the error, and none waits forever."""
    settle, failed = Delivery.settle, []

    def failing(self, actor, consumed, effects, delta, *, hold=False):
        if not hold and actor.name in self._held and not failed:  # (a batch of held messages is open)
            failed.append(consumed)
            raise RuntimeError("a bug while settling")
        return settle(self, actor, consumed, effects, delta, hold=hold)

    monkeypatch.setattr(Delivery, "settle", failing)
    store = CountingDisk()
    host = Host([spec("lab")], store=store)
    await host.start()
    try:
        answers = await calls_at_once(host)
        rejected = [a for a in answers if a.reply is None]
        assert failed and len(rejected) == 1 and "a bug while settling" in (rejected[0].reject_message or "")
        assert len({decode_args(a.reply, [NAT])[0] for a in answers if a.reply is not None}) == CALLS - 1
        ran = await query(host, "lab", "get")
        assert store.settled_without_state == 0  # (the held ones wrote their pages before the error's batch)
    finally:
        await host.stop()
    assert await count_after_restart(store) == ran  # the store holds what the actor held
