"""Where a state directory's bytes go: the bytes in ``data.mdb`` by kind of key (journal layout:
moxzi_core/runtime/journal.py), the LMDB pages each kind takes, the free pages, and for the memory
chunks the bytes they hold raw against compressed (and, with ``--levels``, what zstd's higher levels
would make of them). Then each actor's heap: its wasm memory, what its Motoko runtime holds (the static
and dynamic spaces of its collector's partitions) and their free space (`motoko_heap.free_space`; what
of it is not zeros), and its chunks' bytes.

    python3 bench/state_breakdown.py STATE_DIR [--levels 1,3,9,19]

Read with LMDB's read-only access and no lock: give it a directory no moxzid is writing (stopped, or a
``moxzid backup`` of it).
"""

from __future__ import annotations

import argparse
import re
from collections import defaultdict
from pathlib import Path

import cbor2
import lmdb
import numpy as np
import zstandard

from moxzi_core.runtime.engine import motoko_heap
from moxzi_core.runtime.journal import Journal
from moxzi_store_lmdb.store import LmdbStore

_PAGE_HEADER = 16  # an overflow run's header (LMDB's page header)


def kind(key: bytes, copy_ident: bytes | None) -> str:
    """What a key holds, as the breakdown's rows name it."""
    if key.startswith(b"actor/"):
        match = re.match(rb"actor/[^/]+/([^/]+)/?(.*)", key, re.S)
        if match is None:
            return "actor state"
        part, rest = match.groups()
        if part in (b"memory", b"stable-memory"):
            name = "heap" if part == b"memory" else "stable memory"
            return f"{name} {'chunks' if len(rest) == 8 else 'patches'}"
        return {b"state": "actor state", b"inbox": "inbox", b"pending": "pending"}.get(part, f"actor {part.decode()}")
    if key.startswith(b"system/parts/"):
        ident = key[len(b"system/parts/") :].rsplit(b"/", 1)[0]
        return "device copy" if ident == copy_ident else "device record (attachments)"
    if key.startswith(b"system/log/"):
        return "device record"
    if key.startswith(b"module/"):
        return "modules"
    return "other (meta, system index, replays, cycles)"


def lmdb_pages(key: bytes, value: bytes, page_size: int) -> float:
    """The pages an entry takes: a large value an overflow run of its own, a small one its share of a
    leaf (what it and its 8-byte node header take, of a leaf about two-thirds full)."""
    if len(key) + len(value) + 8 > (page_size - 16) // 2:
        return float(-(-(len(value) + _PAGE_HEADER) // page_size))
    return (len(key) + len(value) + 10) / (page_size * 2 / 3)


def breakdown(state: Path, levels: list[int]) -> None:
    env = lmdb.open(str(state), readonly=True, lock=False)
    page_size, info = env.stat()["psize"], env.info()
    with env.begin(buffers=True) as txn:
        copy = txn.get(b"system/copy")
        copy_ident = None if copy is None else cbor2.loads(bytes(copy))[1]
        rows: dict[str, list[float]] = defaultdict(lambda: [0, 0, 0.0, 0])  # entries, bytes, pages, raw
        chunks: list[bytes] = []
        for key, view in txn.cursor():
            key, value = bytes(key), bytes(view)
            row = rows[kind(key, copy_ident)]
            row[0] += 1
            row[1] += len(value)
            row[2] += lmdb_pages(key, value, page_size)
            if key.startswith(b"actor/") and b"memory/" in key and value[:1] == b"\0":
                row[3] += zstandard.frame_content_size(value[1:])
                if len(key) - key.index(b"memory/") - 7 == 8:
                    chunks.append(value[1:])
            else:
                row[3] += len(value)
        main = env.stat()
    total_pages = info["last_pgno"] + 1
    used = main["branch_pages"] + main["leaf_pages"] + main["overflow_pages"] + 2
    file_bytes = (state / "data.mdb").stat().st_size
    print(f"{state}: data.mdb {file_bytes / 1e6:.1f} MB, {total_pages * page_size / 1e6:.1f} MB of pages used")
    print("| kind | entries | value MB | on disk MB (pages) | raw MB |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, (entries, size, pages, raw) in sorted(rows.items(), key=lambda r: -r[1][2]):
        print(f"| {name} | {entries:,} | {size / 1e6:.1f} | {pages * page_size / 1e6:.1f} | {raw / 1e6:.1f} |")
    free = total_pages - used
    print(f"| free pages (LMDB's free list) | | | {free * page_size / 1e6:.1f} | |")
    print(
        f"| branch and leaf pages, meta | | | {(main['branch_pages'] + main['leaf_pages'] + 2) * page_size / 1e6:.1f} | |"
    )
    if levels and chunks:
        decompressor = zstandard.ZstdDecompressor()
        contents = [decompressor.decompress(frame) for frame in chunks]
        zero_pages = sum(content.count(bytes(4096)) for content in contents)  # (a page-aligned count)
        print(
            f"heap chunks: {len(contents):,}, {sum(map(len, contents)) / 1e6:.1f} MB raw; {zero_pages:,} zero 4 KiB pages in them"
        )
        for level in levels:
            compressor = zstandard.ZstdCompressor(level=level, write_checksum=True)
            sizes = [len(compressor.compress(content)) + 1 for content in contents]
            pages = sum(-(-(size + _PAGE_HEADER) // page_size) for size in sizes)
            print(f"  zstd level {level}: {sum(sizes) / 1e6:.1f} MB, {pages * page_size / 1e6:.1f} MB of pages")


def heaps(state: Path) -> None:
    """A row for each actor: its main memory, its heap's held and free bytes, its chunks' bytes."""
    store = LmdbStore(state, compact_idle=False)
    journal = Journal(store)
    print("| actor | wasm memory MiB | heap held MiB | free MiB (not zeros) | chunks MB |")
    print("| --- | ---: | ---: | ---: | ---: |")
    try:
        for name in journal.actor_names():
            saved = journal.load(name)
            if saved is None:
                continue
            memory, size = saved.memory, saved.memory.size
            free = motoko_heap.free_space(memory.read, size)
            image = np.frombuffer(memory.over(b""), dtype=np.uint8)
            garbage = sum(int(np.count_nonzero(image[start:end])) for start, end in free)  # (bytes, not pages)
            freed = sum(end - start for start, end in free)
            held = "?" if not free else f"{(size - freed) / 2**20:.0f}"
            chunks = sum(map(len, memory.chunks.values())) + sum(
                len(patch) for patches in memory.patches.values() for patch in patches.values()
            )
            print(
                f"| {name} | {size / 2**20:.0f} | {held} | {freed / 2**20:.0f} ({garbage / 2**20:.0f}) "
                f"| {chunks / 1e6:.1f} |"
            )
    finally:
        store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("state", type=Path)
    parser.add_argument("--levels", default="", help="zstd levels to recompress the heap chunks at, e.g. 1,3,9,19")
    args = parser.parse_args()
    breakdown(args.state, [int(level) for level in args.levels.split(",") if level])
    heaps(args.state)


if __name__ == "__main__":
    main()
