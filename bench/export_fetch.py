"""Export + fetch throughput between two moxzid processes on loopback, beside a plain download.

    python bench/export_fetch.py [--rounds 5] [--sizes shakespeare,100m]

Starts two moxzid (``--device torch:cpu --device-listen 127.0.0.1:0``), each hosting the porter actor
of tests/actors/porter.mo. On the first, alice makes a model's parameters and publishes them; each
round she exports them (one URL) and bob, on the second, fetches them into his publications: the
device downloads the body, checks its digest and shapes, and stores it. A round is timed from the
export call to the fetch's answer, as an HTTP caller sees them (the export call alone is printed too:
the rest is the fetch). Each round also times the line rate
to compare with: the same body (downloaded once from an export) served by a plain aiohttp server in
another process and downloaded by aiohttp in this one, hashing with sha256 as it reads. Prints the
median MB/s of both (MB = 10^6 bytes of float32 data) per model, their ratio, each daemon's peak
resident memory (VmHWM, MiB) and the fetcher's before its first fetch, against the model's size, which
shows what streaming keeps: no extra copy of every tensor at either end, and none of the recorded
parts' pages left mapped after the fetcher reads them back (each fetch added its size before). The daemons keep their state in LMDB (``-s``: the fetcher records each
fetch's bytes, in parts) and take no device copies (NO_COPIES), so the numbers are the transfer's and
its record's.

Models (GPT shapes: per layer qkv, proj, fc, out; embedding and head):
  shakespeare   nanoGPT's Shakespeare laptop config, 4 layers, 128 wide: 803,072 parameters
  64mib         4 layers, 591 wide: 16,842,318 parameters (64.2 MiB), issue 41's size
  100m          8 layers, 1024 wide: 100,794,368 parameters
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from moxzid import memory_mib, serving

MODELS = {"shakespeare": (4, 128), "64mib": (4, 591), "100m": (8, 1024)}  # layers, width
VOCAB = 65
# The transfer alone: no copy of the fetcher's device after a large recorded fetch (which by default,
# past 64 MB of record, pauses its next device calls while it is taken).
NO_COPIES = ["--device-checkpoint-secs", "0", "--device-checkpoint-mb", "1000000"]
CALL_SECS = 1800  # the 100m model's calls, on a busy machine


# A plain aiohttp server for the line rate: serves the file argv[1] from memory at /, prints its port.
PLAIN_SERVER = """
import asyncio, sys
from aiohttp import web
body = open(sys.argv[1], "rb").read()
async def main():
    app = web.Application()
    app.router.add_get("/", lambda request: web.Response(body=body))
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    print(runner.addresses[0][1], flush=True)
    await asyncio.Event().wait()
asyncio.run(main())
"""


def plain_download(url: str) -> float:
    """Seconds to download ``url`` with aiohttp, hashing with sha256 as it reads."""
    import aiohttp

    async def run() -> float:
        async with aiohttp.ClientSession() as session:
            started = time.perf_counter()
            async with session.get(url) as response:
                digest = hashlib.sha256()
                async for chunk in response.content.iter_chunked(1 << 20):
                    digest.update(chunk)
                digest.digest()
            return time.perf_counter() - started

    return asyncio.run(run())


def shapes(layers: int, d: int) -> dict[str, list[int]]:
    out = {"wte": [VOCAB, d]}
    for i in range(layers):
        out |= {f"h{i}.qkv": [3 * d, d], f"h{i}.proj": [d, d], f"h{i}.fc": [4 * d, d], f"h{i}.out": [d, 4 * d]}
    return out | {"head": [VOCAB, d]}


def porters_in(folder: Path):
    """moxzid in ``folder`` (made here) with the porter actor as alice and as bob, its device serving
    exports and its state in LMDB; stopped at the end."""
    folder.mkdir()
    flags = ("--device", "torch:cpu", "--device-listen", "127.0.0.1:0", "-s", "state", *NO_COPIES)
    return serving(folder, *flags, plugins="http,torch,lmdb", alice="porter", bob="porter")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--sizes", default="shakespeare,100m", help="comma-separated: " + ", ".join(MODELS))
    args = parser.parse_args()
    rows = []
    for size in args.sizes.split(","):
        model = shapes(*MODELS[size])
        params = sum(a * b for a, b in model.values())
        with tempfile.TemporaryDirectory(prefix="export-fetch-") as scratch, contextlib.ExitStack() as daemons:
            here, there = (daemons.enter_context(porters_in(Path(scratch) / side)) for side in ("here", "there"))
            plain = None
            try:
                here.call("alice", "make", list(model), list(model.values()), timeout=CALL_SECS)
                here.call("alice", "share", list(model), "pub/", timeout=CALL_SECS)
                [url] = here.call("alice", "export", list(model), "pub/", None, None, timeout=CALL_SECS)
                body = Path(scratch) / "body"
                with urllib.request.urlopen(url, timeout=600) as response, body.open("wb") as out:
                    shutil.copyfileobj(response, out, 1 << 20)
                plain = subprocess.Popen([sys.executable, "-c", PLAIN_SERVER, str(body)], stdout=subprocess.PIPE)
                plain_url = f"http://127.0.0.1:{int(plain.stdout.readline())}/"
                base = memory_mib(there)
                seconds, plain_seconds, export_seconds = [], [], []
                for _ in range(args.rounds):
                    plain_seconds.append(plain_download(plain_url))
                    started = time.perf_counter()
                    [url] = here.call("alice", "export", list(model), "pub/", None, None, timeout=CALL_SECS)
                    export_seconds.append(time.perf_counter() - started)
                    there.call("bob", "fetch", url, "alice/", timeout=CALL_SECS)
                    seconds.append(time.perf_counter() - started)
                peaks = memory_mib(here, "VmHWM"), memory_mib(there, "VmHWM")
            finally:
                if plain is not None:
                    plain.kill()
                    plain.wait()
        mb = 4 * params / 1e6
        rate, plain_rate = mb / statistics.median(seconds), mb / statistics.median(plain_seconds)
        rows.append((size, params, mb, rate, plain_rate, statistics.median(export_seconds), *peaks, base))
        print(f"{size}: moxzid {', '.join(f'{s:.3f}' for s in seconds)} s", file=sys.stderr)
        print(f"{size}: plain  {', '.join(f'{s:.3f}' for s in plain_seconds)} s", file=sys.stderr)

    print(
        f"{'model':<12} {'parameters':>12} {'MB':>8} {'moxzid MB/s':>12} {'plain MB/s':>11} {'ratio':>6} "
        f"{'export call s':>14} {'exporter peak MiB':>18} {'fetcher peak MiB':>17} {'fetcher before MiB':>19}"
    )
    for size, params, mb, rate, plain_rate, export, here_peak, there_peak, base in rows:
        print(
            f"{size:<12} {params:>12,} {mb:>8.1f} {rate:>12.1f} {plain_rate:>11.1f} {rate / plain_rate:>6.2f} "
            f"{export:>14.3f} {here_peak:>18.0f} {there_peak:>17.0f} {base:>19.0f}"
        )


if __name__ == "__main__":
    main()
