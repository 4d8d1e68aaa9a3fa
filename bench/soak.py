"""A bounded soak: moxzid with -s is SIGKILLed and restarted over and over while an honest client
counts acknowledged updates and hostile clients and a hostile actor do their worst (stalled
connections, broken gzip, deeply nested JSON, numbers no reply could carry, memory grown then trapped).
It ends by checking that no acknowledged update was lost and that moxzid's memory is back near what it
holds (under the actors' budget).

    python bench/soak.py [--seconds 60] [--kill-every 6] [--actor-memory-mb 256]

Exit status 1 if an acknowledged update was lost, a hostile request was not refused as it should be, or
moxzid's resident memory passed the two actors' budgets and 512 MiB for itself.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gzip
import sys
import tempfile
import time
from pathlib import Path

import aiohttp
from moxzid import memory_mib, serving


async def honest(url: str, acked: list[int], stop: asyncio.Event) -> None:
    """Increments the counter one call after another; ``acked[0]`` counts the 200s."""
    async with aiohttp.ClientSession(url) as session:
        while not stop.is_set():
            with contextlib.suppress(aiohttp.ClientError, asyncio.TimeoutError):
                async with session.post("/call-json/counter/inc", json=[]) as response:
                    if response.status == 200:
                        acked[0] += 1


# (what, path, body bytes, headers, the statuses that count as refused)
HOSTILE_REQUESTS = [
    ("nested JSON", "/call-json/counter/inc", b"[" * 100_000 + b"]" * 100_000, {}, {400}),
    ("broken gzip", "/call-json/counter/inc", b"not gzip", {"Content-Encoding": "gzip"}, {400}),
    ("gzip bomb", "/call-json/counter/inc", gzip.compress(b" " * (64 << 20)), {"Content-Encoding": "gzip"}, {400, 413}),
    ("a nat no reply could carry", "/call-json/hostile/keep", b"[" + b"9" * 4000 + b"]", {}, {400}),
    ("cycles past the most", "/cycles/hostile", b'{"add": ' + b"9" * 4000 + b"}", {}, {400, 409}),
    ("memory grown then trapped", "/call-json/hostile/growThenTrap", b"[200]", {}, {500}),
]


async def hostile(url: str, address: tuple[str, int], tally: dict[str, list[int]], stop: asyncio.Event) -> None:
    """Sends each hostile request in turn, holding stalled connections open meanwhile."""
    stalled = []
    with contextlib.suppress(OSError):
        for _ in range(50):
            stalled.append(await asyncio.open_connection(*address))
    try:
        async with aiohttp.ClientSession(url) as session:
            while not stop.is_set():
                for what, path, body, headers, refused in HOSTILE_REQUESTS:
                    with contextlib.suppress(aiohttp.ClientError, asyncio.TimeoutError):
                        async with session.post(path, data=body, headers=headers) as response:
                            tally.setdefault(what, [0, 0])[response.status not in refused] += 1
    finally:
        for _, writer in stalled:
            writer.close()


ACTORS = {"counter": "counter", "hostile": "hostile"}  # name: the test actor it runs
PLUGINS = "http,lmdb,cycles"


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--kill-every", type=float, default=6)
    parser.add_argument("--actor-memory-mb", type=int, default=256)
    args = parser.parse_args()
    flags = (
        "-s",
        "state",
        "--cycles",
        "1000",
        "--actor-memory-mb",
        str(args.actor_memory_mb),
        "--http-idle-secs",
        "2",
    )
    acked, kills, tally, peak = [0], 0, {}, 0
    deadline = time.monotonic() + args.seconds
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        while time.monotonic() < deadline:
            with serving(folder, *flags, plugins=PLUGINS, **ACTORS) as daemon:
                host, port = daemon.url.removeprefix("http://").rsplit(":", 1)
                stop = asyncio.Event()
                clients = [
                    asyncio.create_task(honest(daemon.url, acked, stop)),
                    asyncio.create_task(hostile(daemon.url, (host, int(port)), tally, stop)),
                ]
                await asyncio.sleep(min(args.kill_every, max(0.0, deadline - time.monotonic())))
                peak = max(peak, memory_mib(daemon))  # under attack, memory grown and trapped included
                daemon.kill()
                kills += 1
                stop.set()
                await asyncio.gather(*clients)
        with serving(folder, *flags, plugins=PLUGINS, **ACTORS) as daemon:
            async with aiohttp.ClientSession(daemon.url) as session:
                async with session.post("/query-json/counter/get", json=[]) as response:
                    count = (await response.json())[0]
                await asyncio.sleep(1)
                rss = memory_mib(daemon)
    lost = acked[0] - count if count < acked[0] else 0
    print(f"{'SIGKILLs':<32} {kills:>10}")
    print(f"{'updates acknowledged':<32} {acked[0]:>10}")
    print(f"{'counter after the last restart':<32} {count:>10}  (at most one more per kill: in flight)")
    print(f"{'acknowledged updates lost':<32} {lost:>10}")
    for what, (refused, not_refused) in tally.items():
        print(f"{what:<32} {refused:>10} refused, {not_refused} not")
    print(
        f"{'moxzid resident MiB before kills':<32} {peak:>10.0f}  (the most; actor budget {args.actor_memory_mb} MiB each)"
    )
    print(f"{'moxzid resident MiB at the end':<32} {rss:>10.0f}")
    bad = (
        lost
        or count > acked[0] + kills
        or any(not_refused for _, not_refused in tally.values())
        or peak > 2 * args.actor_memory_mb + 512
    )  # two actors' budgets and the daemon itself
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
