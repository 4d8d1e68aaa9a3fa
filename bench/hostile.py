"""Latency of a short call while another client or actor is heavy, against the same call on an idle
moxzid (a ratio; the goal is under 2x). Two scenarios, each against a moxzid subprocess:

- ``http``: a trivial query (``other.get``) while another client receives a large reply
  (``hostile.variants(N)``: N variants, a byte each in Candid, an object each in JSON);
- ``device``: a tiny device read from one actor while another actor trains (``--device torch:cpu``),
  one device call a step. The device's policy is one call at a time, in arrival order: with a trainer
  that awaits each step, a short call from another actor waits for about the step in progress.

    python bench/hostile.py [--scenario http|device|both] [--rounds 15] [--variants 2000000] [--steps 50]

Each round times one short call; the table shows the median and the ratio loaded/idle.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import shutil
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from kit.actorbuild import build_actor  # noqa: E402  (the test actors and their build cache)


async def started(folder: Path, actors: dict[str, str], *flags: str) -> tuple[asyncio.subprocess.Process, str]:
    """A moxzid hosting ``actors`` (name -> the test actor it runs) with ``flags``, and its URL once it
    serves."""
    entries = []
    for name, actor in actors.items():
        built = build_actor(actor)
        shutil.copy(built.wasm_path, folder / f"{name}.wasm")
        shutil.copy(built.did_path, folder / f"{name}.did")
        entries.append({"name": name, "wasm": f"{name}.wasm"})
    (folder / "actors.json").write_text(json.dumps({"actors": entries}))
    log = folder / "moxzid.log"
    with log.open("w") as stderr:
        daemon = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "moxzi_core.daemon",
            "-m",
            "actors.json",
            "--listen",
            "127.0.0.1:0",
            *flags,
            cwd=folder,
            stderr=stderr,
        )
    deadline = time.monotonic() + 120
    while not (serving := re.search(r"serving on (http://\S+)", log.read_text())):
        if daemon.returncode is not None or time.monotonic() > deadline:
            raise SystemExit(f"moxzid did not start:\n{log.read_text()}")
        await asyncio.sleep(0.05)
    return daemon, serving.group(1)


async def timed(session: aiohttp.ClientSession, path: str, body: list) -> float:
    started = time.perf_counter()
    async with session.post(path, json=body) as response:
        text = await response.text()
        assert response.status == 200, text
    return time.perf_counter() - started


async def short_call_latencies(session, path, body, rounds: int, heavy=None) -> list[float]:
    """``rounds`` timings of the short call, each while ``heavy()`` (if given) runs."""
    times = []
    for _ in range(rounds):
        if heavy is None:
            times.append(await timed(session, path, body))
            continue
        load = asyncio.create_task(heavy())
        await asyncio.sleep(0.3)  # the heavy call is under way
        times.append(await timed(session, path, body))
        await load
    return times


async def http_scenario(args) -> tuple[list[float], list[float]]:
    with tempfile.TemporaryDirectory() as folder:
        # The short query goes to another actor: an actor runs one message at a time, and this measures
        # the gateway, not the big reply's actor.
        daemon, url = await started(Path(folder), {"hostile": "hostile", "other": "hostile"}, "--plugins", "http")
        try:
            async with aiohttp.ClientSession(url) as short:

                async def large_reply():  # on a thread: reading it must not slow this loop's timing
                    await asyncio.to_thread(read_large_reply, url, args.variants)

                idle = await short_call_latencies(short, "/query-json/other/get", [], args.rounds)
                loaded = await short_call_latencies(short, "/query-json/other/get", [], args.rounds, large_reply)
        finally:
            daemon.terminate()
            await daemon.wait()
    return idle, loaded


async def device_scenario(args) -> tuple[list[float], list[float]]:
    """Two learner actors on one torch:cpu device: ``reader`` reads a parameter (one tiny device call)
    while ``trainer`` runs ``--steps`` training steps (one device call each, each awaited)."""
    with tempfile.TemporaryDirectory() as folder:
        daemon, url = await started(
            Path(folder),
            {"trainer": "learner", "reader": "learner"},
            "--plugins",
            "http,torch",
            "--device",
            "torch:cpu",
        )
        try:
            async with aiohttp.ClientSession(url) as short, aiohttp.ClientSession(url) as trainer:
                await timed(short, "/call-json/reader/learn", [1])  # its parameters exist

                async def training():
                    await timed(trainer, "/call-json/trainer/learn", [args.steps])

                path = "/call-json/reader/weights"
                idle = await short_call_latencies(short, path, [], args.rounds)
                loaded = await short_call_latencies(short, path, [], args.rounds, training)
        finally:
            daemon.terminate()
            await daemon.wait()
    return idle, loaded


def read_large_reply(url: str, variants: int) -> None:
    call = urllib.request.Request(f"{url}/query-json/hostile/variants", data=json.dumps([variants]).encode())
    with urllib.request.urlopen(call, timeout=600) as response:
        while response.read(1 << 20):
            pass


def table(rows: list[tuple[str, list[float], list[float]]]) -> str:
    lines = [f"{'scenario':<34} {'idle ms':>9} {'loaded ms':>10} {'ratio':>7}"]
    for name, idle, loaded in rows:
        a, b = statistics.median(idle) * 1e3, statistics.median(loaded) * 1e3
        lines.append(f"{name:<34} {a:>9.2f} {b:>10.2f} {b / a:>6.1f}x")
    return "\n".join(lines)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", choices=("http", "device", "both"), default="both")
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--variants", type=int, default=2_000_000)
    parser.add_argument("--steps", type=int, default=50, help="training steps running during each read")
    args = parser.parse_args()
    rows = []
    if args.scenario in ("http", "both"):
        rows.append((f"query while a {args.variants:,}-variant reply", *await http_scenario(args)))
    if args.scenario in ("device", "both"):
        rows.append((f"device read while {args.steps} steps train", *await device_scenario(args)))
    print(table(rows))


if __name__ == "__main__":
    asyncio.run(main())
