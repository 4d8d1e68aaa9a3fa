"""Stable memory, whose ``ic0.stable64_*`` functions run in wasm (`engine.stable`): the IC's bounds, trap
messages and growth limit, a charge by the byte, transactions (commit, rollback, query replicas), and a
Motoko actor's stable memory through traps, queries, upgrades, restarts and kill -9, in both
persistence modes."""

import asyncio
import struct
import threading
import time

import numpy as np
import pytest
import wasmtime
from kit.actorbuild import build_actor
from kit.crashing import call, uninterrupted_and_crashed
from kit.daemon import project, running_moxzid
from kit.host import spec, started, update

from moxzi_core.candid import NAT, NAT64, decode_args, encode_args
from moxzi_core.runtime.engine.instance import Instance, Limits, UnsupportedModule, new_engine
from moxzi_core.runtime.engine.memory import PAGE, StableMemory
from moxzi_core.runtime.engine.rewrite import prepare
from moxzi_core.runtime.host import Host
from moxzi_core.runtime.messages import Reject
from moxzi_core.runtime.query_replicas import NoReplica, Replicas
from moxzi_core.store import MemoryStore

MODES = pytest.mark.parametrize("memory64", [False, True], ids=["32-bit", "memory64"])
PERSISTENCE = pytest.mark.parametrize("classic", [False, True], ids=["enhanced", "classic"])
STABLE_PAGE = 65536
NOTHING = np.array([], dtype=np.int64)  # no page committed since
REFUSED = (1 << 64) - 1  # stable64_grow's -1
OUT_OF_STABLE, OUT_OF_HEAP = "stable memory out of bounds", "heap out of bounds"


def wat_actor(memory64: bool) -> bytes:
    """A module calling the stable functions with the arguments at bytes 0, 8, 16 of its memory (2 wasm
    pages), and growing its memory (``grow_heap``); a result goes to byte 24."""
    a = "i64" if memory64 else "i32"

    def at(address: str) -> str:
        return address if memory64 else f"(i32.wrap_i64 {address})"

    grow_heap = f"(memory.grow {at('(call $arg (i64.const 0))')})"  # -1 or the old size, as an i64
    if not memory64:
        grow_heap = f"(i64.extend_i32_s {grow_heap})"
    return wasmtime.wat2wasm(f"""
    (module
      (import "ic0" "stable64_size" (func $size (result i64)))
      (import "ic0" "stable64_grow" (func $grow (param i64) (result i64)))
      (import "ic0" "stable64_read" (func $read (param i64 i64 i64)))
      (import "ic0" "stable64_write" (func $write (param i64 i64 i64)))
      (memory (export "memory") {a} 2)
      (func $arg (param $n i64) (result i64) (i64.load {at("(i64.mul (local.get $n) (i64.const 8))")}))
      (func (export "size") (i64.store {at("(i64.const 24)")} (call $size)))
      (func (export "grow") (i64.store {at("(i64.const 24)")} (call $grow (call $arg (i64.const 0)))))
      (func (export "read") (call $read (call $arg (i64.const 0)) (call $arg (i64.const 1)) (call $arg (i64.const 2))))
      (func (export "write") (call $write (call $arg (i64.const 0)) (call $arg (i64.const 1)) (call $arg (i64.const 2))))
      (func (export "grow_heap") (i64.store {at("(i64.const 24)")} {grow_heap})))
    """)


class Actor:
    """An `Instance` of `wat_actor`, run as the host runs one: each call a message of its own."""

    def __init__(self, memory64: bool, limits: Limits = Limits(), *, replica: bool = False):
        engine = new_engine()
        prepared = prepare(wat_actor(memory64), limits.memory_pages)
        module = wasmtime.Module(engine, prepared.wasm)
        self.instance = Instance(engine, module, prepared, b"\x01", limits, print, replica=replica)
        self.results: list[int] = []  # of the last message's calls

    def call(self, export: str, *args: int, keep: bool = True) -> str | None:
        """Run ``export`` with ``args`` as a message; see `message`."""
        return self.message([(export, args)], keep=keep)

    def message(self, calls, *, keep: bool = True, growth: int | None = None) -> str | None:
        """Run each (export, args) of ``calls`` in one message that may grow the memories by ``growth``
        bytes (`Instance.begin`), then commit (``keep``, not in a replica) or roll back. Returns the
        trap, if any."""
        self.instance.begin(growth)
        trap, self.results = None, []
        for export, args in calls:
            self.instance.write(0, b"".join(struct.pack("<Q", arg % (1 << 64)) for arg in args))
            if (trap := self.instance.invoke(None, export, fuel=10**9)) is not None:
                break
            self.results.append(self.result())
        if trap is None and keep and not self.instance.replica:
            self.instance.commit()
        else:
            self.instance.rollback()
        return trap

    def result(self) -> int:
        return struct.unpack("<Q", self.instance.read(24, 8))[0]

    def grow(self, pages: int) -> int:
        assert self.call("grow", pages) is None
        return self.result()

    def write(self, offset: int, data: bytes) -> str | None:
        self.instance.write(4096, data)
        return self.call("write", offset, 4096, len(data))

    def read(self, offset: int, size: int) -> bytes:
        assert self.call("read", 4096, offset, size) is None
        return self.instance.read(4096, size)


@MODES
def test_reads_and_writes_check_bounds_as_the_ic_does(memory64):
    actor = Actor(memory64)
    heap = actor.instance.memory.size
    assert actor.call("read", 0, 0, 0) is None  # nothing, at the end of an empty stable memory
    assert actor.call("read", 0, 0, 1) == OUT_OF_STABLE
    assert actor.grow(1) == 0
    assert actor.write(STABLE_PAGE - 8, b"last 8 b") is None
    assert actor.read(STABLE_PAGE - 8, 8) == b"last 8 b"
    assert actor.write(STABLE_PAGE - 7, b"8 bytes!") == OUT_OF_STABLE
    assert actor.call("read", 0, STABLE_PAGE + 1, 0) == OUT_OF_STABLE  # offset + size > size, even for 0 bytes
    assert actor.call("write", STABLE_PAGE, 0, 0) is None
    assert actor.call("read", 0, -1, 2) == OUT_OF_STABLE  # offset + size overflows
    assert actor.call("read", heap - 4, 0, 8) == OUT_OF_HEAP
    assert actor.call("write", 0, heap - 4, 8) == OUT_OF_HEAP
    assert actor.call("write", 0, -1, 2) == OUT_OF_HEAP  # src + size overflows
    assert actor.call("read", heap, STABLE_PAGE, 1) == OUT_OF_STABLE  # stable memory is checked first
    assert actor.call("read", heap, 0, 0) is None
    assert actor.read(0, 8) == bytes(8)  # the trapped writes left nothing


@MODES
def test_growth_answers_minus_one_past_the_limit(memory64):
    actor = Actor(memory64, Limits(stable_memory_pages=3))
    assert actor.grow(2) == 0
    assert actor.grow(2) == REFUSED
    assert actor.grow(1) == 2
    assert actor.grow(0) == 3
    assert actor.grow(1) == REFUSED
    assert actor.grow(-1) == REFUSED  # 2**64 - 1 pages
    assert actor.call("size") is None and actor.result() == 3
    assert actor.instance.stable.size == 3 * STABLE_PAGE


@MODES
def test_the_main_and_the_stable_memory_share_what_a_message_may_grow_by(memory64):
    """--total-memory-mb while a message runs (`memory_budget`): the growth `Instance.begin` allows is
    one allowance for both memories, each growth past what is left answering -1."""
    actor = Actor(memory64)
    growths = [("grow_heap", [2]), ("grow", [2]), ("grow", [1]), ("grow_heap", [1]), ("grow", [1]), ("grow_heap", [0])]
    assert actor.message(growths, growth=3 * STABLE_PAGE) is None
    assert actor.results == [2, REFUSED, 0, REFUSED, REFUSED, 4]  # heap 2 -> 4 pages, stable 0 -> 1
    assert actor.message([("grow_heap", [1])], growth=0) is None and actor.results == [REFUSED]
    assert actor.message([("grow", [1])], growth=STABLE_PAGE - 1) is None and actor.results == [REFUSED]
    assert actor.message([("grow_heap", [3]), ("grow", [5])]) is None  # None: the limits alone
    assert actor.results == [4, 1]
    assert actor.instance.memory.size == 7 * STABLE_PAGE and actor.instance.stable.size == 6 * STABLE_PAGE


@MODES
def test_the_extent_counts_up_to_the_last_page_a_committed_message_wrote(memory64):
    """What --total-memory-mb counts (`TrackedMemory.extent`): stable pages grown but never written,
    or written by a message rolled back, are not counted; the write kept is, page by page."""
    actor = Actor(memory64)
    heap = actor.instance.memory.extent
    assert actor.instance.stable.extent == 0 and actor.grow(4) == 0  # 4 pages of 64 KiB, unwritten
    assert actor.instance.extent() == heap
    far = 3 * STABLE_PAGE + 5  # in the 4 KiB page 48
    assert actor.message([("write", [far, 4096, 4])], keep=False) is None
    assert actor.instance.extent() == heap and actor.read(far, 4) == bytes(4)
    actor.instance.begin()  # the message `Actor.write` runs, looked at before it commits
    actor.instance.write(0, struct.pack("<QQQ", far, 4096, 4) + bytes(4096 - 24) + b"kept")
    assert actor.instance.invoke(None, "write", fuel=10**9) is None
    assert actor.instance.extent(committing=True) == heap + 49 * PAGE and actor.instance.extent() == heap
    actor.instance.commit()
    assert actor.instance.stable.extent == 49 * PAGE and actor.read(far, 4) == b"kept"


@MODES
def test_a_rollback_puts_back_the_bytes_and_the_size(memory64):
    actor = Actor(memory64)
    actor.grow(1)
    assert actor.write(100, b"kept") is None
    before = actor.instance.stable.image()
    actor.instance.write(4096, b"gone")
    grow_and_write = [("grow", [2]), ("write", [100, 4096, 4]), ("write", [2 * STABLE_PAGE + 5, 4096, 4])]
    assert actor.message(grow_and_write, keep=False) is None
    assert actor.instance.stable.size == STABLE_PAGE
    assert actor.read(100, 4) == b"kept" and actor.instance.stable.image() == before
    assert actor.grow(2) == 1  # pages a rolled-back growth added come back zeroed
    assert actor.read(2 * STABLE_PAGE, 60_000) == bytes(60_000)


@MODES
def test_commits_report_the_pages_written_in_either_memory(memory64):
    actor = Actor(memory64)
    actor.grow(4)
    actor.instance.begin()
    actor.instance.write(4096 * 5, b"x" * 5000)
    actor.instance.write(0, struct.pack("<QQQ", 3 * PAGE - 1, 4096 * 5, 5000))  # write: offset, src, size
    assert actor.instance.invoke(None, "write", fuel=10**9) is None
    memory_pages, stable_pages = actor.instance.commit()
    assert stable_pages == [2, 3, 4]
    actor.instance.begin()
    actor.instance.write(0, struct.pack("<QQQ", 9 * PAGE + 10, 3 * PAGE - 1, 5000))  # read: dst, offset, size
    assert actor.instance.invoke(None, "read", fuel=10**9) is None
    memory_pages, stable_pages = actor.instance.commit()
    assert {9, 10} <= set(memory_pages) and stable_pages == []
    assert actor.instance.read(9 * PAGE + 10, 5000) == b"x" * 5000


def test_copies_are_charged_by_the_byte():
    actor = Actor(True)
    actor.grow(32)
    used = {}
    large = 1 << 16
    for size in (8, large):
        actor.instance.begin()
        actor.instance.write(0, struct.pack("<QQQ", 0, 0, size))
        assert actor.instance.invoke(None, "write", fuel=10**9) is None
        used[size] = actor.instance.instructions_used()
        actor.instance.commit()
    assert used[8] < 300  # a small copy costs a call
    assert large <= used[large] < large * 1.1  # a large one about an instruction a byte
    actor.instance.begin()
    actor.instance.write(0, struct.pack("<QQQ", 0, 0, large))
    assert "instruction limit" in actor.instance.invoke(None, "write", fuel=large // 2)
    actor.instance.rollback()


def test_a_replica_follows_only_what_is_committed():
    source, replica = Actor(False), Actor(False, replica=True)
    source.grow(2)
    source.write(10, b"one")
    replica.instance.follow(source.instance, None, None)
    assert replica.read(10, 3) == b"one"
    source.instance.begin()  # a message running: not seen
    source.instance.write(4096, b"two")
    source.instance.write(0, struct.pack("<QQQ", 10, 4096, 3))
    assert source.instance.invoke(None, "write", fuel=10**9) is None
    assert replica.write(70_000, b"a query's write") is None and replica.grow(1) == 2
    replica.instance.follow(source.instance, NOTHING, NOTHING)
    assert replica.instance.stable.size == 2 * STABLE_PAGE and replica.read(10, 3) == b"one"
    assert replica.read(70_000, 15) == bytes(15)
    changed = source.instance.commit()[1]
    assert changed == [0]
    replica.instance.follow(source.instance, NOTHING, np.array(changed, dtype=np.int64))
    assert replica.read(10, 3) == b"two"


def test_a_query_that_may_not_wait_long_for_a_replica_gives_up():
    source = Actor(False)
    replicas = Replicas(lambda: Actor(False, replica=True).instance, lambda: b"", max_bytes=1)  # one replica
    with replicas.committing:
        replicas.replace(source.instance)
    held, done = threading.Event(), threading.Event()

    def hold(instance, certified_data):
        held.set()
        done.wait(10)

    other = threading.Thread(target=replicas.run, args=(hold,))
    other.start()
    held.wait(10)
    with pytest.raises(NoReplica, match="no replica came free"):
        replicas.run(lambda instance, certified_data: None, wait=0.05)
    threading.Timer(0.1, done.set).start()
    assert replicas.run(lambda instance, certified_data: "its turn", wait=10) == "its turn"  # given back
    other.join()

    def call_back(instance, certified_data):  # a composite query whose call came back at its own actor
        started = time.monotonic()
        with pytest.raises(NoReplica, match="held by this call graph"):
            replicas.run(lambda instance, certified_data: None, wait=30)
        return time.monotonic() - started

    assert replicas.run(call_back) < 10  # nobody else would give the replica back: no wait (a wait takes 30 s)


def test_a_stable_function_of_another_type_is_refused():
    wasm = wasmtime.wat2wasm(
        '(module (import "ic0" "stable64_read" (func (param i32 i64 i64))) (memory (export "memory") 1))'
    )
    prepared = prepare(wasm)
    engine = new_engine()
    with pytest.raises(UnsupportedModule, match=r"ic0.stable64_read as \(i32, i64, i64\) -> \(\)"):
        Instance(engine, wasmtime.Module(engine, prepared.wasm), prepared, b"\x01", Limits(), print)


# --- a Motoko actor ---------------------------------------------------------------------------------
async def ask(host, method, types=(), values=(), rets=(NAT64,), *, query=False):
    outcome = await host.call("s", method, encode_args(list(types), list(values)), query=query)
    assert outcome.reply is not None, outcome.reject_message
    return decode_args(outcome.reply, list(rets))


@PERSISTENCE
async def test_queries_see_committed_stable_memory_and_a_trap_leaves_none(classic):
    host = await started(spec("s", "stable", classic=classic))
    try:
        await ask(host, "put", [NAT64, NAT64], [800, 42], rets=[])
        assert await ask(host, "get", [NAT64], [800], query=True) == [42]
        pages = (await ask(host, "size", query=True))[0]
        trapped = await host.call("s", "putThenTrap", encode_args([NAT64, NAT64], [800, 7]), query=False)
        assert trapped.reject_code == Reject.CANISTER_ERROR and "deliberate trap" in trapped.reject_message
        assert await ask(host, "putInQuery", [NAT64, NAT64], [800, 9], query=True) == [9]
        assert await ask(host, "get", [NAT64], [800], query=True) == [42]
        assert await ask(host, "size", query=True) == [pages]
        assert await ask(host, "get", [NAT64], [800]) == [42]  # the actor's own instance too
    finally:
        await host.stop()


@PERSISTENCE
async def test_every_page_a_message_changes_in_stable_memory_is_reported(monkeypatch, classic):
    reports: list[tuple[set[int], set[int]]] = []  # (reported, changed) of each stable memory commit
    original = StableMemory.commit

    def checked_commit(self: StableMemory) -> list[int]:
        before, after = self.image(), self.read(0, self.size)
        reported = original(self)
        old = np.frombuffer(before, dtype=np.uint8).reshape(-1, PAGE)
        new = np.frombuffer(after, dtype=np.uint8).reshape(-1, PAGE)
        changed = set(np.flatnonzero((new[: len(old)] != old).any(axis=1)).tolist())
        changed |= set((len(old) + np.flatnonzero(new[len(old) :].any(axis=1))).tolist())  # grown: zero before
        reports.append((set(reported), changed))
        return reported

    monkeypatch.setattr(StableMemory, "commit", checked_commit)
    host = await started(spec("s", "stable", classic=classic))
    try:
        await update(host, "s", "writes", [NAT], [50_000], rets=[])
        for offset in (0, 4096 * 7 + 4092, 999_992):
            await ask(host, "put", [NAT64, NAT64], [offset, offset + 1], rets=[])
        await update(host, "s", "run", [NAT], [3], rets=[])
        while (await ask(host, "status", rets=[NAT, NAT64], query=True))[0] < 3:
            await asyncio.sleep(0.02)
    finally:
        await host.stop()
    assert sum(bool(changed) for _, changed in reports) >= 7
    for reported, changed in reports:
        assert changed <= reported


@PERSISTENCE
async def test_region_growth_past_the_limit_fails_as_on_the_ic(classic):
    # Motoko's regions take stable memory in blocks of 128 pages, after a first page of metadata.
    host = await started(spec("s", "stable", classic=classic), limits=Limits(stable_memory_pages=300))
    try:
        assert await ask(host, "grow", [NAT64], [16]) == [0]
        assert await ask(host, "grow", [NAT64], [1000]) == [REFUSED]
        assert await ask(host, "size", query=True) == [16]
        await ask(host, "put", [NAT64, NAT64], [8, 5], rets=[])
        assert await ask(host, "get", [NAT64], [8], query=True) == [5]
    finally:
        await host.stop()


@pytest.mark.slow  # a moxzid
def test_moxzid_grows_stable_memory_only_to_actor_stable_mb(tmp_path):
    # 9 MiB (144 pages) holds a region's first block (1 page of metadata, then 128), not a second.
    project(tmp_path, "stable")
    with running_moxzid("-m", "actors.json", "--actor-stable-mb", "9", cwd=tmp_path) as daemon:
        assert daemon.call("stable", "grow", 1) == [0]
        assert daemon.call("stable", "grow", 127) == [1]
        assert daemon.call("stable", "grow", 1) == [REFUSED]
        assert daemon.call("stable", "size", query=True) == [128]
        daemon.stop()


@pytest.mark.slow  # restarts of the host on a store
@PERSISTENCE
async def test_stable_memory_survives_upgrades_and_restarts(classic):
    store = MemoryStore()
    built = build_actor("stable", classic=classic)
    host = Host([spec("s", "stable", classic=classic)], store=store)
    await host.start()
    try:
        await ask(host, "put", [NAT64, NAT64], [999_992, 1234], rets=[])
        await update(host, "s", "writes", [NAT], [20_000], rets=[])
        await host.upgrade("s", built.wasm)
        assert await ask(host, "get", [NAT64], [999_992], query=True) == [1234]
        assert await ask(host, "reads", [NAT], [20_000]) == [sum(range(20_000))]
    finally:
        await host.stop()
    host = Host([spec("s", "stable", classic=classic)], store=store)
    await host.start()
    try:
        assert await ask(host, "get", [NAT64], [999_992], query=True) == [1234]
        assert await ask(host, "reads", [NAT], [20_000]) == [sum(range(20_000))]
    finally:
        await host.stop()


# --- kill -9 ----------------------------------------------------------------------------------------
STEPS = 300  # of the workload, each writing 4096 places


def finished(daemon, seconds=120):
    deadline = time.monotonic() + seconds
    while (now := call_status(daemon))[0] < STEPS:
        assert time.monotonic() < deadline, f"stuck at {now}"
        time.sleep(0.05)
    return now


def call_status(daemon):
    return call(daemon, "query-json/stable/status")


@pytest.mark.slow  # kill -9 runs of moxzid
def test_kill_9_during_stable_writes_ends_as_an_uninterrupted_run(tmp_path):
    pytest.importorskip("moxzi_store_lmdb")
    expected, result, steps_seen, _ = uninterrupted_and_crashed(
        tmp_path,
        ("-m", "actors.json", "-s", "state", "--plugins", "http,lmdb"),
        lambda folder: project(folder, "stable"),
        lambda daemon: call(daemon, "call-json/stable/run", [STEPS]),
        lambda daemon: call_status(daemon)[0],
        finished,
        seed=11,
        first_kill=(0.05, 0.3),
        later_kills=(0.05, 0.4),
        restarts=3,
        total=STEPS,
    )
    assert result == expected
    assert steps_seen == sorted(steps_seen) and steps_seen[-1] < STEPS
