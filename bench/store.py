"""Commits per second to the LMDB store and to the in-memory store, side by side: small batches (one
4 KiB page and a 200-byte state record, what a message that changes one page commits) and large ones
(256 pages, 1 MiB), each without and with ``flush()`` (an fsync) after every batch.

    python bench/store.py [--rounds 5] [--small 2000] [--large 40] [--dir DIR]

Pages are overwritten in turn among 4,096 page keys, as an actor's heap would be. The table shows the
median over the rounds: batches/s for small batches, MiB/s of page data for large ones, and LMDB's
rate as a fraction of the in-memory store's. The LMDB store lives in a temporary directory under
``--dir`` (default: the system's temporary directory); flush figures mean little on a tmpfs.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

from moxzi_core.store import Batch, MemoryStore, Store
from moxzi_store_lmdb import LmdbStore

PAGE = 4096
PAGE_KEYS = 4096
STATE = 200

# (name, pages per batch, unit); batch counts per round come from the command line
WORKLOADS = (("small", 1, "batches/s"), ("large", 256, "MiB/s"))


def batches(pages: int, count: int) -> list[Batch]:
    """``count`` batches of ``pages`` fresh pages each, plus the state record."""
    made = []
    for index in range(count):
        batch = Batch()
        for page in range(pages):
            number = (index * pages + page) % PAGE_KEYS
            batch.put(b"page/%08d" % number, os.urandom(PAGE))
        batch.put(b"state", os.urandom(STATE))
        made.append(batch)
    return made


def commit_rate(store: Store, work: list[Batch], flush: bool) -> float:
    """Batches per second committing ``work`` one batch after another."""
    started = time.perf_counter()
    for batch in work:
        store.commit(batch)
        if flush:
            store.flush()
    return len(work) / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="rounds; the median counts (default 5)")
    parser.add_argument("--small", type=int, default=2000, help="small batches per round (default 2000)")
    parser.add_argument("--large", type=int, default=40, help="large batches per round (default 40)")
    parser.add_argument("--dir", type=Path, default=None, help="where the LMDB store goes")
    args = parser.parse_args()
    counts = {"small": args.small, "large": args.large}

    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        stores = {"LMDB": LmdbStore(Path(folder) / "state"), "memory": MemoryStore()}
        rows = []
        for name, pages, unit in WORKLOADS:
            work = batches(pages, counts[name])
            for flush in (False, True):
                medians = {}
                for label, store in stores.items():
                    rates = [commit_rate(store, work, flush) for _ in range(args.rounds)]
                    per_batch = 1 if unit == "batches/s" else pages * PAGE / 2**20
                    medians[label] = statistics.median(rates) * per_batch
                rows.append((f"{name}{' + flush' if flush else ''}", unit, medians))
        for store in stores.values():
            store.close()

    print(
        f"store commits, median of {args.rounds} rounds; small: {args.small} batches of 1 page + "
        f"{STATE} B, large: {args.large} batches of 256 pages; LMDB in {args.dir or tempfile.gettempdir()}"
    )
    print(f"{'':16}{'unit':>10}{'LMDB':>12}{'memory':>12}{'LMDB/memory':>13}")
    for label, unit, medians in rows:
        lmdb, memory = medians["LMDB"], medians["memory"]
        print(f"{label:16}{unit:>10}{lmdb:12.0f}{memory:12.0f}{lmdb / memory:13.3f}")


if __name__ == "__main__":
    main()
