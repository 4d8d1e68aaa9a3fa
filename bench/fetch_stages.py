"""Where a durable fetch's time goes beyond the network, by stage, in this process (no daemons):

    python bench/fetch_stages.py [--rounds 7] [--mib 64]

A body of ``--mib`` MiB of float32 (the shapes of bench/export_fetch.py's 64mib model, scaled) is
fetched, as ``moxzi_core.device.transfer.download`` does it, from memory (a transport that hands over
1 MiB at a time, so no network time) into an LMDB store's spool (``-s``: hashing each chunk and writing
it as attachment parts, in a worker thread); then the store is flushed (fsync), as the fetch's record
is; then the recorded fetch is read back and its tensors made (``Fetched.tensors``, torch tensors on
the bytes read), as the ``moxzi_device_fetched`` call does. Beside them, the baseline: sha256 of the
same bytes, which a plain download also pays. Prints each stage's median wall milliseconds, MiB/s and
process CPU milliseconds (all threads: steadier than wall on a busy machine), and its wall time over
the same round's sha256 (the median of those ratios).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import hashlib
import statistics
import struct
import tempfile
import time

import cbor2
import numpy as np
import torch

from moxzi_core.device.transfer import CHUNK, MAGIC, Fetched, download
from moxzi_core.runtime.attachments import AttachmentWriter
from moxzi_store_lmdb import LmdbStore

WIDTH, LAYERS, VOCAB = 591, 4, 65  # bench/export_fetch.py's 64mib model: 64.2 MiB


class MemoryBody:
    """A transport's download of ``body`` from memory."""

    def __init__(self, body: bytes):
        self.size, self._body, self._at = len(body), memoryview(body), 0

    async def read(self, n: int) -> bytes:
        chunk = self._body[self._at : self._at + min(n, CHUNK)]
        self._at += len(chunk)
        return bytes(chunk)


class MemoryTransport:
    schemes = ("mem",)

    def __init__(self, body: bytes):
        self._body = body

    def open(self, url: str):
        return contextlib.nullcontext(MemoryBody(self._body))  # (an async context manager too)


def export_body(mib: float) -> bytes:
    scale = (mib / 64.25) ** 0.5
    d = max(1, round(WIDTH * scale))
    shapes = [[VOCAB, d]] + [s for _ in range(LAYERS) for s in ([3 * d, d], [d, d], [4 * d, d], [d, 4 * d])]
    shapes.append([VOCAB, d])
    header = cbor2.dumps([[f"t{i}", "f32", s] for i, s in enumerate(shapes)])
    data = np.random.default_rng(0).standard_normal(sum(a * b for a, b in shapes), dtype=np.float32)
    body = MAGIC + struct.pack("<Q", len(header)) + header + data.tobytes()
    return body + hashlib.sha256(body).digest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--mib", type=float, default=64)
    args = parser.parse_args()
    body = export_body(args.mib)
    transport = MemoryTransport(body)
    stages: dict[str, list[tuple[float, float]]] = {}  # stage -> (wall, CPU seconds) per round

    def timed(stage: str, started: tuple[float, float]) -> tuple[float, float]:
        now = time.perf_counter(), time.process_time()
        stages.setdefault(stage, []).append((now[0] - started[0], now[1] - started[1]))
        return now

    for _ in range(args.rounds):
        with tempfile.TemporaryDirectory(prefix="fetch-stages-") as scratch:
            store = LmdbStore(scratch)
            try:
                started = time.perf_counter(), time.process_time()
                hashlib.sha256(body).digest()
                started = timed("baseline: sha256 of the body", started)
                spool = functools.partial(AttachmentWriter, store)
                attached = asyncio.run(download(transport, "mem://x", "p/", len(body), 600, spool))
                started = timed("download into the store (hash, parts)", started)
                store.flush()
                started = timed("flush (fsync)", started)
                export = Fetched(attached.open(), attached.head)
                export.tensors(lambda data, meta: torch.from_numpy(np.frombuffer(data, np.float32).reshape(meta.shape)))
                timed("read back, tensors made", started)
            finally:
                store.close()
    mib = len(body) / 2**20
    print(f"{mib:.1f} MiB body, medians of {args.rounds} rounds")
    print(f"{'stage':<40} {'ms':>8} {'MiB/s':>8} {'CPU ms':>8} {'x sha256':>9}")
    baseline = [wall for wall, _ in next(iter(stages.values()))]
    for stage, times in stages.items():
        wall, cpu = (statistics.median(t[i] for t in times) for i in (0, 1))
        ratio = statistics.median(t[0] / b for t, b in zip(times, baseline))
        print(f"{stage:<40} {wall * 1000:>8.1f} {mib / wall:>8.0f} {cpu * 1000:>8.1f} {ratio:>9.2f}")


if __name__ == "__main__":
    main()
