"""Calls per second to the counter actor: directly through Host.call, and through HTTP to a moxzid
subprocess (the http gateway), updates (``inc``) and queries (``get``).

    python bench/calls.py [--calls 2000] [--clients 4] [--rounds 5]

Each round makes ``--calls`` calls spread over ``--clients`` concurrent callers (each its own aiohttp
session on the HTTP side); the table shows the median rate over the rounds and the HTTP/direct ratio.
The HTTP figures include JSON and Candid conversion, HTTP and the client itself, which shares the
machine's cores with moxzid.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

from moxzi_core.build import build
from moxzi_core.candid import encode_args
from moxzi_core.runtime.host import ActorSpec, Host

COUNTER = Path(__file__).resolve().parent.parent / "examples" / "counter" / "counter.mo"
NO_ARGS = encode_args([], [])


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


async def direct_rates(spec: ActorSpec, args) -> dict[str, list[float]]:
    host = Host([spec])
    await host.start()
    try:
        rates = {}
        for kind, _, method in CALLS:
            async def call_once(_client, method=method, query=(kind == "query")) -> None:
                outcome = await host.call("counter", method, NO_ARGS, query=query)
                assert outcome.reply is not None, outcome.reject_message
            rates[kind] = [await rate(args, call_once) for _ in range(args.rounds)]
        return rates
    finally:
        await host.stop()


async def http_rates(manifest: Path, args) -> dict[str, list[float]]:
    log = manifest.parent / "moxzid.log"
    with log.open("w") as stderr:
        daemon = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "moxzi_core.daemon", "-m", str(manifest), "--plugins", "http",
            "--listen", "127.0.0.1:0", stderr=stderr)
    try:
        url = await serving_url(daemon, log)
        sessions = [aiohttp.ClientSession(url) for _ in range(args.clients)]
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
            return rates
        finally:
            for session in sessions:
                await session.close()
    finally:
        daemon.terminate()
        await daemon.wait()


async def serving_url(daemon, log: Path) -> str:
    for _ in range(600):
        found = re.search(r"serving on (http://\S+)", log.read_text())
        if found:
            return found.group(1)
        if daemon.returncode is not None:
            raise SystemExit(f"moxzid exited {daemon.returncode}:\n{log.read_text()}")
        await asyncio.sleep(0.1)
    raise SystemExit(f"moxzid did not start serving:\n{log.read_text()}")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000, help="calls per round (default 2000)")
    parser.add_argument("--clients", type=int, default=4, help="concurrent callers (default 4)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds; the median counts (default 5)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        built = build(COUNTER, out_dir=Path(folder))
        manifest = Path(folder) / "actors.json"
        manifest.write_text(json.dumps({"actors": [{"name": "counter", "wasm": built.wasm_path.name}]}))
        direct = await direct_rates(ActorSpec("counter", built.wasm_path.read_bytes(),
                                              built.did_path.read_text()), args)
        http = await http_rates(manifest, args)
    print(f"counter actor, {args.calls} calls per round, {args.clients} concurrent callers, "
          f"median of {args.rounds} rounds")
    print(f"{'':8}{'direct calls/s':>16}{'HTTP calls/s':>14}{'HTTP/direct':>13}")
    for kind in ("update", "query"):
        d, h = statistics.median(direct[kind]), statistics.median(http[kind])
        print(f"{kind:8}{d:16.0f}{h:14.0f}{h / d:13.2f}")


if __name__ == "__main__":
    asyncio.run(main())
