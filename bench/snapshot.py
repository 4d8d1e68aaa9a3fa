"""What a message costs the host as the actor's heap grows: before (the module as compiled; commit
compares the whole memory with its shadow) and after (the module marks the pages it writes in its
dirty-page map; commit copies only those), and what that marking costs a compute-heavy message.

    python bench/snapshot.py [--messages 100] [--rounds 3] [--heap-mib 200] [--loop 2000000]

The actor is tests/actors/heap.mo, called directly through Host.call (no HTTP) with the in-memory
store. Each message (`touch`) changes one array element and a counter: a few pages. "Before" is
rebuilt from today's parts: function bodies left unrewritten and `TrackedMemory` finding the changed
pages by comparing every page, as it did until the dirty-page map. Figures are medians over the
rounds, before and after taking turns; "commit" is the time `TrackedMemory.commit` itself takes per
message.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from contextlib import contextmanager

import numpy as np
import wasmtime
from moxzid import build_actor

from moxzi_core.candid import NAT, decode_args, encode_args
from moxzi_core.runtime.engine import instance as instance_module
from moxzi_core.runtime.engine import rewrite as wasm_rewrite
from moxzi_core.runtime.engine.instance import Instance, new_engine, new_store
from moxzi_core.runtime.engine.memory import TrackedMemory
from moxzi_core.runtime.host import ActorSpec, Host

WORD_BYTES = 8  # enhanced persistence: an array element takes 8 bytes


class FullCompareMemory(TrackedMemory):
    """The commit and rollback of before: the changed pages are found by comparing all of them."""

    def _take_marks(self) -> np.ndarray:
        live = self._live()
        return np.flatnonzero((live[: self._committed] != self._shadow).any(axis=1))


def _unchanged_body(reader, *_) -> bytes:
    return reader.data[reader.pos : reader.end]


@contextmanager
def before():
    """Hosts created inside run the module as compiled and commit by comparing whole memories."""
    saved = wasm_rewrite.instrument_body, instance_module.TrackedMemory
    wasm_rewrite.instrument_body, instance_module.TrackedMemory = _unchanged_body, FullCompareMemory
    try:
        yield
    finally:
        wasm_rewrite.instrument_body, instance_module.TrackedMemory = saved


@contextmanager
def timed(cls: type, method: str, times: list[float]):
    """Append the duration of every call of `cls.method` (and of subclasses' inherited one) to `times`."""
    original = getattr(cls, method)

    def timed_method(*args, **kwargs):
        started = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            times.append(time.perf_counter() - started)

    setattr(cls, method, timed_method)
    try:
        yield
    finally:
        setattr(cls, method, original)


async def call(host: Host, method: str, *nats: int) -> int:
    outcome = await host.call("heap", method, encode_args([NAT] * len(nats), list(nats)), query=False)
    assert outcome.reply is not None, outcome.reject_message
    return decode_args(outcome.reply, [NAT])[0]


async def interleaved(hosts: dict[str, Host], rounds: int, run) -> dict[str, list]:
    """`rounds` results of `await run(host)` per host, the hosts taking turns (so that both see the
    same load on a shared machine)."""
    results: dict[str, list] = {name: [] for name in hosts}
    for _ in range(rounds):
        for name, host in hosts.items():
            results[name].append(await run(host))
    return results


def touch_round(messages: int):
    """A round of `touch` messages: returns (messages/s, median ms per commit)."""

    async def run(host: Host) -> tuple[float, float]:
        commits: list[float] = []
        with timed(TrackedMemory, "commit", commits):
            started = time.perf_counter()
            for _ in range(messages):
                await call(host, "touch")
            elapsed = time.perf_counter() - started
        return messages / elapsed, statistics.median(commits) * 1e3

    return run


def churn_round(iterations: int):
    """One `churn` message: returns (seconds its code ran, instructions it used)."""

    async def run(host: Host) -> tuple[float, int]:
        invokes: list[float] = []
        with timed(Instance, "invoke", invokes):
            await call(host, "churn", iterations)
        return sum(invokes), host._actors.named("heap").instance.instructions_used()

    return run


def medians(rounds: list[tuple]) -> tuple:
    return tuple(statistics.median(column) for column in zip(*rounds))


def memory_mib(host: Host) -> float:
    return host._actors.named("heap").instance.memory.size / 2**20  # the bench looks inside the actor


async def measure(spec: ActorSpec, args) -> dict:
    """Per host ("before", "after"): touch rates with a small and a large heap, and one `churn`."""
    hosts = {"before": Host([spec]), "after": Host([spec])}
    try:
        with before():
            await hosts["before"].start()
        await hosts["after"].start()
        results = {name: {} for name in hosts}
        for name, rounds in (await interleaved(hosts, args.rounds, touch_round(args.messages))).items():
            results[name]["small"] = medians(rounds) + (memory_mib(hosts[name]),)
        for name, host in hosts.items():
            started = time.perf_counter()
            await call(host, "fill", args.heap_mib, WORD_BYTES)
            results[name]["fill_s"] = time.perf_counter() - started
        for name, rounds in (await interleaved(hosts, args.rounds, touch_round(args.messages))).items():
            results[name]["large"] = medians(rounds) + (memory_mib(hosts[name]),)
        for name, rounds in (await interleaved(hosts, args.rounds, churn_round(args.loop))).items():
            results[name]["churn"] = medians(rounds)
        return results
    finally:
        for host in hosts.values():
            await host.stop()


def store_loops(memory64: bool, iterations: int, rounds: int) -> tuple[float, float]:
    """Median seconds of a wasm loop whose every iteration stores 4 bytes at a varying address:
    (as compiled, with its writes tracked), the two taking turns."""
    address = "(i32.and (i32.mul (local.get $i) (i32.const 4)) (i32.const 65532))"
    if memory64:
        address = f"(i64.extend_i32_u {address})"
    wasm = wasmtime.wat2wasm(f"""
      (module (memory (export "memory") {"i64" if memory64 else "i32"} 1)
        (func (export "loop") (param $n i32) (local $i i32)
          (loop $next
            (i32.store {address} (local.get $i))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br_if $next (i32.lt_u (local.get $i) (local.get $n))))))""")
    engine = new_engine()
    store = new_store(engine, 2**62)
    loops = [
        wasmtime.Instance(store, wasmtime.Module(engine, candidate), []).exports(store)["loop"]
        for candidate in (wasm, wasm_rewrite.prepare(wasm).wasm)
    ]
    times: list[list[float]] = [[], []]
    for _ in range(rounds):
        for loop, seconds in zip(loops, times):
            started = time.perf_counter()
            loop(store, iterations)
            seconds.append(time.perf_counter() - started)
    return statistics.median(times[0]), statistics.median(times[1])


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=100, help="touch messages per round (default 100)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds; the median counts (default 3)")
    parser.add_argument("--heap-mib", type=int, default=200, help="the large heap's array, MiB (default 200)")
    parser.add_argument(
        "--loop",
        type=int,
        default=2_000_000,
        help="iterations of the compute-heavy message and of the wasm store loop (x10) (default 2000000)",
    )
    args = parser.parse_args()
    built = build_actor("heap")
    spec = ActorSpec("heap", built.wasm, built.did)
    results = await measure(spec, args)
    old, new = results["before"], results["after"]

    print(
        f"heap actor (enhanced persistence), `touch` messages through Host.call, {args.messages} per "
        f"round, median of {args.rounds} rounds (before and after take turns)"
    )
    print(f"{'memory':>10} {'':7}{'msgs/s':>9}{'ms/msg':>9}{'commit ms':>11}")
    for size in ("small", "large"):
        for name, (rate, commit_ms, mib) in (("before", old[size]), ("after", new[size])):
            print(f"{mib:6.0f} MiB {name:7}{rate:9.0f}{1e3 / rate:9.3f}{commit_ms:11.3f}")
        faster = new[size][0] / old[size][0]
        print(f"{'':>10} {'ratio':7}{faster:8.1f}x{faster:8.1f}x{old[size][1] / new[size][1]:10.1f}x")
    print(f"filling the heap ({args.heap_mib} MiB array): before {old['fill_s']:.2f} s, after {new['fill_s']:.2f} s")

    print(f"\ncompute-heavy message: churn({args.loop}) stores into a local array (its code alone, without commit)")
    print(f"{'':8}{'seconds':>9}{'instructions':>15}")
    for name, (seconds, instructions) in (("before", old["churn"]), ("after", new["churn"])):
        print(f"{name:8}{seconds:9.3f}{instructions:15,.0f}")
    print(f"{'ratio':8}{new['churn'][0] / old['churn'][0]:8.2f}x{new['churn'][1] / old['churn'][1]:14.2f}x")

    iterations = args.loop * 10
    print(f"\nwasm loop of {iterations:,} i32.store (4 bytes each, address varies), seconds")
    print(f"{'memory':10}{'plain':>9}{'tracked':>9}{'ratio':>8}")
    for memory64 in (False, True):
        plain, tracked = store_loops(memory64, iterations, args.rounds)
        print(f"{'memory64' if memory64 else '32-bit':10}{plain:9.3f}{tracked:9.3f}{tracked / plain:7.2f}x")


if __name__ == "__main__":
    asyncio.run(main())
