"""Latency of a short call while another client or actor is heavy, against the same call on an idle
moxzid (a ratio; the goal is under 2x). Two scenarios, each against a moxzid subprocess:

- ``http``: a trivial query (``hostile.get``) while another client receives a large reply
  (``hostile.variants(N)``: N variants, a byte each in Candid, an object each in JSON);
- ``device``: a tiny device read from one actor while another actor trains (``--device torch:cpu``).

    python bench/hostile.py [--scenario http|device|both] [--rounds 15] [--variants 2000000]

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
from pathlib import Path

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from kit.actorbuild import build_actor  # noqa: E402  (the test actors and their build cache)


async def started(folder: Path, actors: list[str], *flags: str) -> tuple[asyncio.subprocess.Process, str]:
    """A moxzid hosting ``actors`` (test actors by name) with ``flags``, and its URL once it serves."""
    entries = []
    for name in actors:
        built = build_actor(name)
        shutil.copy(built.wasm_path, folder / f"{name}.wasm")
        shutil.copy(built.did_path, folder / f"{name}.did")
        entries.append({"name": name, "wasm": f"{name}.wasm"})
    (folder / "actors.json").write_text(json.dumps({"actors": entries}))
    log = folder / "moxzid.log"
    with log.open("w") as stderr:
        daemon = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "moxzi_core.daemon", "-m", "actors.json", "--listen", "127.0.0.1:0", *flags,
            cwd=folder, stderr=stderr)
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
        daemon, url = await started(Path(folder), ["hostile"], "--plugins", "http")
        try:
            async with aiohttp.ClientSession(url) as short, aiohttp.ClientSession(url) as big:
                async def large_reply():
                    await timed(big, "/query-json/hostile/variants", [args.variants])
                idle = await short_call_latencies(short, "/query-json/hostile/get", [], args.rounds)
                loaded = await short_call_latencies(short, "/query-json/hostile/get", [], args.rounds, large_reply)
        finally:
            daemon.terminate()
            await daemon.wait()
    return idle, loaded


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
    args = parser.parse_args()
    rows = []
    if args.scenario in ("http", "both"):
        rows.append((f"query while a {args.variants:,}-variant reply", *await http_scenario(args)))
    print(table(rows))


if __name__ == "__main__":
    asyncio.run(main())
