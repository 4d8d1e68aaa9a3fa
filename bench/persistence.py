"""What keeping state costs: update calls per second through the host with state in memory and in LMDB
(-s), and how long a restart takes with a long inbox to re-run.

    python3 bench/persistence.py [--calls 2000] [--rounds 5] [--backlog 5000]

Prints medians of several rounds, side by side, with ratios.
"""

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from moxzid import build_actor

from moxzi_core.candid import NAT, encode_args
from moxzi_core.runtime.host import ActorSpec, Host
from moxzi_core.runtime.journal import Journal
from moxzi_core.runtime.messages import Call, to_record
from moxzi_core.store import Batch, MemoryStore
from moxzi_store_lmdb import LmdbStore

NO_ARGS = encode_args([], [])


async def calls_per_second(store, spec: ActorSpec, calls: int) -> float:
    host = Host([spec], store=store)
    await host.start()
    try:
        started = time.perf_counter()
        for _ in range(calls):
            outcome = await host.call(spec.name, "inc", NO_ARGS, query=False)
            assert outcome.reply is not None, outcome.reject_message
        return calls / (time.perf_counter() - started)
    finally:
        await host.stop()


async def restart_seconds(directory: Path, spec: ActorSpec, backlog: int) -> float:
    """Install the actor, leave ``backlog`` recorded-but-not-run calls in its inbox (as a crash would),
    then time a start-up until the last of them has run."""
    store = LmdbStore(directory)
    host = Host([spec], store=store)
    await host.start()
    await host.stop()
    batch = Batch()
    for seq in range(backlog):
        Journal.record(batch, spec.name, seq, to_record(Call("inc", NO_ARGS, b"\x04", ["ingress", "gone"])))
    store.commit(batch)
    store.close()

    started = time.perf_counter()
    store = LmdbStore(directory)
    host = Host([spec], store=store)
    await host.start()
    while (await host.call(spec.name, "get", NO_ARGS, query=True)).reply != encode_args([NAT], [backlog]):
        await asyncio.sleep(0.005)
    seconds = time.perf_counter() - started
    await host.stop()
    store.close()
    return seconds


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--backlog", type=int, default=5000)
    args = parser.parse_args()
    built = build_actor("counter")
    spec = ActorSpec("counter", built.wasm, built.did)

    memory, lmdb, restarts = [], [], []
    for round_ in range(args.rounds):
        memory.append(await calls_per_second(MemoryStore(), spec, args.calls))
        with tempfile.TemporaryDirectory() as scratch:
            store = LmdbStore(Path(scratch) / "state")
            lmdb.append(await calls_per_second(store, spec, args.calls))
            store.close()
        with tempfile.TemporaryDirectory() as scratch:
            restarts.append(await restart_seconds(Path(scratch) / "state", spec, args.backlog))
        print(f"round {round_ + 1}/{args.rounds} done", file=sys.stderr)

    m, l, r = statistics.median(memory), statistics.median(lmdb), statistics.median(restarts)
    print(f"{'what':<44} {'median':>12}")
    print(f"{'update calls/s, state in memory':<44} {m:>12.0f}")
    print(f"{'update calls/s, -s (LMDB, flushed per answer)':<44} {l:>12.0f}")
    print(f"{'ratio -s / memory':<44} {l / m:>12.2f}")
    print(f"{f'restart with {args.backlog} recorded calls, s':<44} {r:>12.2f}")
    print(f"{'re-run calls/s at restart':<44} {args.backlog / r:>12.0f}")


if __name__ == "__main__":
    asyncio.run(main())
