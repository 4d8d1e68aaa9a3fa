"""Latency of a short call while another client or actor is heavy, against the same call on an idle
moxzid (a ratio; the goal is under 2x). Two scenarios, each against a moxzid subprocess:

- ``http``: a trivial query (``other.get``) while another client receives a large reply
  (``hostile.variants(N)``: N variants, a byte each in Candid, an object each in JSON);
- ``device``: a tiny device read (``reader.weights``, 8 KiB) from one actor while another actor trains
  (``trainer.train``: ``--layers`` square layers of ``--width``, each step one device call of
  2 x layers + 3 ops), on ``--device torch:cpu`` with one torch thread. Actors take turns on the device
  a 2 ms slice at a time (docs/device.md): the read waits for about a slice, not for the step in
  progress (the table shows a step's time: without the turns a read would wait for the rest of the
  step in progress, half a step on average). A second row times the read while another process keeps
  a core busy: what any CPU-bound neighbour costs on this machine, the floor for the training row.
  Idle and loaded reads alternate in rounds (a training run spans each round's loaded reads), so
  both see the same machine; the reads are spread over the steps' phases.

    python bench/hostile.py [--scenario http|device|both] [--rounds 15] [--variants 2000000]
                            [--reads 80] [--layers 60] [--width 256]

A round of ``http`` times one short call idle and one loaded; a round of ``device`` times ``--reads``
/ ``--rounds`` reads each way. The table shows the medians, their ratio loaded/idle and the loaded
90th percentile.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import aiohttp
from moxzid import serving


async def timed(session: aiohttp.ClientSession, path: str, body: list) -> float:
    started = time.perf_counter()
    async with session.post(path, json=body) as response:
        text = await response.text()
        assert response.status == 200, text
    return time.perf_counter() - started


async def short_call_latencies(session, path, body, rounds: int, heavy) -> tuple[list[float], list[float]]:
    """``rounds`` timings of the short call alone and as many while ``heavy()`` runs, taken in turns so
    that the shared machine's load weighs on both alike."""
    idle, loaded = [], []
    for _ in range(rounds):
        await asyncio.sleep(0.3)  # as long as before a loaded timing: the last heavy call's aftermath settles
        idle.append(await timed(session, path, body))
        load = asyncio.create_task(heavy())
        await asyncio.sleep(0.3)  # the heavy call is under way
        loaded.append(await timed(session, path, body))
        await load
    return idle, loaded


async def http_scenario(args) -> tuple[list[float], list[float]]:
    # The short query goes to another actor: an actor runs one message at a time, and this measures the
    # gateway, not the big reply's actor.
    with tempfile.TemporaryDirectory() as folder, serving(Path(folder), hostile="hostile", other="hostile") as daemon:
        async with aiohttp.ClientSession(daemon.url) as short:

            async def large_reply():  # on a thread: reading it must not slow this loop's timing
                await asyncio.to_thread(read_large_reply, daemon.url, args.variants)

            return await short_call_latencies(short, "/query-json/other/get", [], args.rounds, large_reply)


async def device_scenario(args) -> tuple[list[float], list[float], list[float], float]:
    """``reader`` (a learner) reads a parameter ``--reads`` times idle, as many times while another
    process keeps a core busy (what any CPU-bound neighbour costs: the machine's floor) and as many
    while ``trainer`` (a grinder) trains, in ``--rounds`` alternating rounds (so all three see the same
    machine); the three lists of latencies and the trainer's seconds per step."""
    with (
        tempfile.TemporaryDirectory() as folder,
        serving(
            Path(folder),
            "--device",
            "torch:cpu",
            "--device-threads",
            "1",  # the trainer takes one core, not all
            plugins="http,torch",
            trainer="grinder",
            reader="learner",
        ) as daemon,
    ):
        async with aiohttp.ClientSession(daemon.url) as short, aiohttp.ClientSession(daemon.url) as trainer:
            await timed(short, "/call-json/reader/learn", [1])  # its parameters exist
            await timed(trainer, "/call-json/trainer/setup", [args.width, 64])
            step = await timed(trainer, "/call-json/trainer/train", [args.layers, 3]) / 3
            path, per_round = "/call-json/reader/weights", max(1, args.reads // args.rounds)
            idle, busy, loaded = [], [], []
            for _ in range(args.rounds):
                idle += await spread_reads(short, path, per_round)
                burner = subprocess.Popen([sys.executable, "-c", BURN])
                try:
                    busy += await spread_reads(short, path, per_round)
                finally:
                    burner.kill()
                    burner.wait()
                training = asyncio.create_task(timed(trainer, "/call-json/trainer/train", [args.layers, 10**6]))
                await asyncio.sleep(2 * step)  # the training is under way
                loaded += await spread_reads(short, path, per_round)
                if training.done():
                    raise SystemExit(f"the training ended during the reads: {training.result()}")
                await timed(short, "/call-json/trainer/stop", [])
                await training
    return idle, busy, loaded, step


# A process keeping one core busy for at most a minute (it is killed once a round's reads are done).
BURN = "import time\nend = time.monotonic() + 60\nwhile time.monotonic() < end:\n    pass"


async def spread_reads(session, path: str, reads: int) -> list[float]:
    """``reads`` timings of the read, each after a pause of 0 to 20 ms (so that, while steps run, the
    reads land at every point of a step rather than in step with it)."""
    pauses = random.Random(7)
    times = []
    for _ in range(reads):
        await asyncio.sleep(pauses.uniform(0, 0.02))
        times.append(await timed(session, path, []))
    return times


def read_large_reply(url: str, variants: int) -> None:
    call = urllib.request.Request(f"{url}/query-json/hostile/variants", data=json.dumps([variants]).encode())
    with urllib.request.urlopen(call, timeout=600) as response:
        while response.read(1 << 20):
            pass


def table(rows: list[tuple[str, list[float], list[float]]]) -> str:
    lines = [f"{'scenario':<44} {'n':>4} {'idle ms':>9} {'loaded ms':>10} {'ratio':>7} {'loaded p90':>11}"]
    for name, idle, loaded in rows:
        a, b = statistics.median(idle) * 1e3, statistics.median(loaded) * 1e3
        p90 = statistics.quantiles(loaded, n=10)[-1] * 1e3
        lines.append(f"{name:<44} {len(loaded):>4} {a:>9.2f} {b:>10.2f} {b / a:>6.2f}x {p90:>8.2f} ms")
    return "\n".join(lines)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", choices=("http", "device", "both"), default="both")
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--variants", type=int, default=2_000_000)
    parser.add_argument("--reads", type=int, default=80, help="device reads timed idle, and as many loaded")
    parser.add_argument("--layers", type=int, default=60, help="layers of the trainer's model")
    parser.add_argument("--width", type=int, default=256, help="width of the trainer's layers")
    args = parser.parse_args()
    rows = []
    if args.scenario in ("http", "both"):
        rows.append((f"query while a {args.variants:,}-variant reply", *await http_scenario(args)))
    if args.scenario in ("device", "both"):
        idle, busy, loaded, step = await device_scenario(args)
        rows.append(("device read while a process burns a core", idle, busy))
        rows.append((f"device read while a {step * 1e3:.0f} ms/step model trains", idle, loaded))
    print(table(rows))


if __name__ == "__main__":
    asyncio.run(main())
