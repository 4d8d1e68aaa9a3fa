"""Updates per second with a state directory (``-s``, the LMDB store) against in memory: the counter's
``inc`` through ``/call-json`` from many concurrent clients, as issue 41's durable-updates row measures it.

    python bench/durable_calls.py [--clients 8 64] [--seconds 5] [--rounds 3] [--reference DIR]

Each cell is one moxzid (a fresh state directory for ``-s``) and ``--rounds`` rounds of ``--seconds``
each, every client (an aiohttp session of its own) calling ``inc`` one call after another; the cells
take turns round by round; the table shows the median rate and ``-s`` over in memory, and moxzid's CPU
time per call (all its threads, user and system), which the machine's other work moves much less than
the rates: where other work takes most of the cores, the rate follows the CPU time moxzid gets. With ``--reference DIR`` (a checkout of another
moxzi, e.g. ``git archive main | tar -x -C DIR``), each cell runs that code's moxzid too, in the same
run, for a before/after. The clients share the machine's cores with moxzid, and on a shared machine
the rates move from run to run: compare the rows of one run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import tempfile
import time
from pathlib import Path

import aiohttp
from moxzid import build_actor, code_of, cpu_seconds, serving

# (moxzid flags, plugins) of each store
STORES = {"in memory": ((), "http"), "-s": (("-s", "state"), "http,lmdb")}


async def one_round(url: str, clients: int, seconds: float) -> tuple[float, int]:
    """Calls per second when ``clients`` callers (an aiohttp session each) call ``inc`` one call after
    another for ``seconds``, and how many were answered."""
    sessions = [aiohttp.ClientSession(url) for _ in range(clients)]

    async def caller(session: aiohttp.ClientSession, until: float) -> int:
        made = 0
        while time.perf_counter() < until:
            async with session.post("/call-json/counter/inc", data=b"[]") as response:
                assert response.status == 200, await response.text()
                await response.read()
            made += 1
        return made

    try:
        started = time.perf_counter()
        made = sum(await asyncio.gather(*(caller(s, started + seconds) for s in sessions)))
        return made / (time.perf_counter() - started), made
    finally:
        for session in sessions:
            await session.close()


async def count(url: str) -> int:
    async with aiohttp.ClientSession(url) as session:
        async with session.post("/query-json/counter/get", data=b"[]") as response:
            return (await response.json())[0]


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, nargs="+", default=[8, 64], help="concurrent clients (8 64)")
    parser.add_argument("--seconds", type=float, default=5, help="seconds per round (default 5)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per cell; the median counts (default 3)")
    parser.add_argument("--reference", type=Path, help="a checkout whose moxzid runs beside this one's")
    args = parser.parse_args()
    counter = build_actor("counter")
    codes = {"this": None} if args.reference is None else {"reference": args.reference.resolve(), "this": None}
    results: dict[tuple[str, int, str], float] = {}
    cpu_per_call: dict[tuple[str, int, str], float] = {}  # moxzid's CPU µs per call
    for clients in args.clients:
        # Every cell's moxzid runs at once (idle but for its turn), and the rounds take turns, so that
        # what else the machine runs meanwhile falls on every cell alike.
        with contextlib.ExitStack() as running:
            daemons = {}
            for code, checkout in codes.items():
                for store, (flags, plugins) in STORES.items():
                    folder = Path(running.enter_context(tempfile.TemporaryDirectory()))
                    with code_of(checkout):
                        daemons[code, store] = running.enter_context(
                            serving(folder, *flags, plugins=plugins, counter=counter)
                        )
            rates: dict[tuple[str, str], list[float]] = {cell: [] for cell in daemons}
            cpu: dict[tuple[str, str], list[float]] = {cell: [] for cell in daemons}
            answered = dict.fromkeys(daemons, 0)
            for _ in range(args.rounds):
                for cell, daemon in daemons.items():
                    used = cpu_seconds(daemon.process.pid)
                    rate, made = await one_round(daemon.url, clients, args.seconds)
                    cpu[cell].append((cpu_seconds(daemon.process.pid) - used) / made * 1e6)
                    rates[cell].append(rate)
                    answered[cell] += made
            for (code, store), daemon in daemons.items():
                assert await count(daemon.url) == answered[code, store], "the counter missed or doubled calls"
                results[code, clients, store] = statistics.median(rates[code, store])
                cpu_per_call[code, clients, store] = statistics.median(cpu[code, store])
    print(
        f"counter inc through /call-json, calls/s, median of {args.rounds} rounds of {args.seconds:g} s "
        f"(shared machine: {os.cpu_count()} cores, clients included)"
    )
    print(f"{'':20}{'calls/s':^31}{'moxzid CPU µs/call':^31}")
    print(f"{'code':12}{'clients':>8}" + f"{'in memory':>11}{'-s':>9}{'-s/memory':>11}" * 2)
    for clients in args.clients:
        for code in codes:
            memory, durable = results[code, clients, "in memory"], results[code, clients, "-s"]
            used, used_durable = cpu_per_call[code, clients, "in memory"], cpu_per_call[code, clients, "-s"]
            print(
                f"{code:12}{clients:8}{memory:11.0f}{durable:9.0f}{durable / memory:11.2f}"
                f"{used:11.0f}{used_durable:9.0f}{used_durable / used:11.2f}"
            )


if __name__ == "__main__":
    asyncio.run(main())
