"""Calls per second to a counter actor: directly through Host.call, and through HTTP to a moxzid
subprocess (the http gateway), updates (``inc``) and queries (``get``); then the latency of a query
and of a composite query (``getVia``, which also awaits a second counter's ``get``) while the counter
is idle and while it runs a long update (``busy``).

    python bench/calls.py [--calls 2000] [--clients 4] [--rounds 5] [--latency 200]

Each round makes ``--calls`` calls spread over ``--clients`` concurrent callers (each its own aiohttp
session on the HTTP side); the table shows the median rate over the rounds and the HTTP/direct ratio.
The HTTP figures include JSON and Candid conversion, HTTP and the client itself, which shares the
machine's cores with moxzid. Latency: ``--latency`` queries of each kind one after another, idle, then
as many while ``busy`` updates run back to back (each a few hundred ms of wasm); medians and their ratio.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import aiohttp
from moxzid import serving

from moxzi_core.build import BuildResult, build
from moxzi_core.candid import NAT, PRINCIPAL, Principal, encode_args
from moxzi_core.runtime.host import ActorSpec, Host, actor_principal

# The example counter, with an update that keeps the actor's thread busy and a composite query that
# adds a peer's count to its own.
COUNTER = """import Principal "mo:core/Principal";
persistent actor {
  var count : Nat = 0;
  public func inc() : async Nat { count += 1; count };
  public query func get() : async Nat { count };
  public func busy(rounds : Nat) : async () { var i = 0; while (i < rounds) { i += 1 } };
  public composite query func getVia(peer : Principal) : async Nat {
    let other : actor { get : shared query () -> async Nat } = actor (Principal.toText(peer));
    count + (await other.get())
  };
};
"""
NO_ARGS = encode_args([], [])
BUSY_ROUNDS = 20_000_000
PEER = "peer"  # the second counter, which getVia calls
VIA_ARGS = [Principal(actor_principal(PEER))]


# (kind, HTTP route, counter method)
CALLS = (("update", "call-json", "inc"), ("query", "query-json", "get"))


async def rate(args, call_once) -> float:
    """Calls per second when ``args.clients`` callers each make their share of ``args.calls`` one
    after another; ``call_once(client_index)`` makes one call."""

    async def caller(index: int) -> None:
        for _ in range(args.calls // args.clients):
            await call_once(index)

    started = time.perf_counter()
    await asyncio.gather(*(caller(i) for i in range(args.clients)))
    return args.calls // args.clients * args.clients / (time.perf_counter() - started)


async def latencies(args, queries, busy_once) -> dict[str, dict[str, float]]:
    """For each kind of query in ``queries`` (kind -> make one query), the median seconds of one, idle
    and while ``busy_once()`` updates run back to back."""

    async def timed() -> dict[str, list[float]]:
        times: dict[str, list[float]] = {kind: [] for kind in queries}
        for kind, query_once in queries.items():
            for _ in range(args.latency):
                started = time.perf_counter()
                await query_once()
                times[kind].append(time.perf_counter() - started)
        return times

    idle = await timed()
    stop = asyncio.Event()

    async def keep_busy() -> int:
        runs = 0
        while not stop.is_set():
            await busy_once()
            runs += 1
        return runs

    busy = asyncio.ensure_future(keep_busy())
    await asyncio.sleep(0.05)  # the first busy update is running
    during = await timed()
    stop.set()
    assert await busy > 0
    return {kind: {"idle": statistics.median(idle[kind]), "busy": statistics.median(during[kind])} for kind in queries}


async def direct_rates(spec: ActorSpec, args) -> tuple[dict[str, list[float]], dict[str, dict[str, float]]]:
    host = Host([spec, replace(spec, name=PEER)])
    await host.start()
    try:
        rates = {}
        for kind, _, method in CALLS:

            async def call_once(_client, method=method, query=(kind == "query")) -> None:
                outcome = await host.call("counter", method, NO_ARGS, query=query)
                assert outcome.reply is not None, outcome.reject_message

            rates[kind] = [await rate(args, call_once) for _ in range(args.rounds)]
        busy_arg = encode_args([NAT], [BUSY_ROUNDS])

        async def busy_once() -> None:
            outcome = await host.call("counter", "busy", busy_arg, query=False)
            assert outcome.reply is not None, outcome.reject_message

        via_arg = encode_args([PRINCIPAL], VIA_ARGS)

        async def via_once() -> None:
            outcome = await host.call("counter", "getVia", via_arg, query=True)
            assert outcome.reply is not None, outcome.reject_message

        queries = {"query": lambda: call_once(0, "get", True), "composite": via_once}
        return rates, await latencies(args, queries, busy_once)
    finally:
        await host.stop()


async def http_rates(
    folder: Path, built: BuildResult, args
) -> tuple[dict[str, list[float]], dict[str, dict[str, float]]]:
    with serving(folder, **{"counter": built, PEER: built}) as daemon:
        sessions = [aiohttp.ClientSession(daemon.url) for _ in range(args.clients)]
        try:
            rates = {}
            for kind, route, method in CALLS:

                async def call_once(client, path=f"/{route}/counter/{method}") -> None:
                    async with sessions[client].post(path, data=b"[]") as response:
                        assert response.status == 200, await response.text()
                        await response.read()

                rates[kind] = [await rate(args, call_once) for _ in range(args.rounds)]
            # Every update ran exactly once: the rates count real calls.
            async with sessions[0].post("/query-json/counter/get", data=b"[]") as response:
                count = (await response.json())[0]
            made = args.rounds * (args.calls // args.clients * args.clients)
            assert count == made, f"the counter says {count} after {made} updates"

            async def busy_once() -> None:
                async with sessions[1].post("/call-json/counter/busy", data=f"[{BUSY_ROUNDS}]") as response:
                    assert response.status == 200, await response.text()

            get = CALLS[1]
            via = json.dumps([v.to_text() for v in VIA_ARGS]).encode()

            async def via_once() -> None:
                async with sessions[0].post("/query-json/counter/getVia", data=via) as response:
                    assert response.status == 200, await response.text()
                    await response.read()

            queries = {"query": lambda: call_once(0, f"/{get[1]}/counter/{get[2]}"), "composite": via_once}
            return rates, await latencies(args, queries, busy_once)
        finally:
            for session in sessions:
                await session.close()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000, help="calls per round (default 2000)")
    parser.add_argument("--clients", type=int, default=4, help="concurrent callers (default 4)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds; the median counts (default 5)")
    parser.add_argument("--latency", type=int, default=200, help="queries timed idle and busy (default 200)")
    args = parser.parse_args()
    if args.clients < 2:
        parser.error("--clients must be at least 2")
    with tempfile.TemporaryDirectory() as source_folder, tempfile.TemporaryDirectory() as folder:
        source = Path(source_folder) / "counter.mo"
        source.write_text(COUNTER)
        built = build(source)
        direct, direct_latency = await direct_rates(
            ActorSpec("counter", built.wasm_path.read_bytes(), built.did_path.read_text()), args
        )
        http, http_latency = await http_rates(Path(folder), built, args)
    print(
        f"counter actor, {args.calls} calls per round, {args.clients} concurrent callers, "
        f"median of {args.rounds} rounds"
    )
    print(f"{'':8}{'direct calls/s':>16}{'HTTP calls/s':>14}{'HTTP/direct':>13}")
    for kind in ("update", "query"):
        d, h = statistics.median(direct[kind]), statistics.median(http[kind])
        print(f"{kind:8}{d:16.0f}{h:14.0f}{h / d:13.2f}")
    print(
        f"\nquery latency, median of {args.latency} one after another, idle and while the actor runs "
        f"long updates ({BUSY_ROUNDS:,} loop rounds each); composite: getVia, awaiting the peer's get"
    )
    print(f"{'':20}{'idle ms':>10}{'busy ms':>10}{'busy/idle':>11}")
    for name, measured in (("direct", direct_latency), ("HTTP", http_latency)):
        for kind, times in measured.items():
            idle, busy = times["idle"] * 1e3, times["busy"] * 1e3
            print(f"{f'{name} {kind}':20}{idle:10.2f}{busy:10.2f}{busy / idle:11.2f}")


if __name__ == "__main__":
    asyncio.run(main())
