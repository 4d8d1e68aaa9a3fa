"""What keeping the device across restarts costs, for nanoGPT's Shakespeare laptop model (~800k
parameters with AdamW state): a full copy's size and time (into a file, and into LMDB), putting it back, and
a start-up that re-runs a record of training calls, against the time those calls took the first time.

    python3 bench/device_copy.py [--steps 100] [--rounds 3]

Prints medians, side by side, with ratios.
"""

import argparse
import asyncio
import io
import statistics
import tempfile
import time
from pathlib import Path

from device_step import Config, DeviceGPT, batches, weights

from moxzi_core.runtime.attachments import Attachment
from moxzi_core.runtime.device_calls import CheckpointPolicy, DeviceCalls
from moxzi_core.runtime.journal import Journal
from moxzi_core.store import Batch
from moxzi_store_lmdb import LmdbStore


def median_time(fn, rounds):
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - started)
    return statistics.median(times), result


async def rerun_seconds(directory: Path, cfg: Config) -> float:
    """Start-up with a record of ``record`` training calls: the model built anew, every call re-run."""
    store = LmdbStore(directory)
    try:
        journal = Journal(store)
        fresh = DeviceGPT(cfg, weights(cfg))  # params and optimizer as the record's first calls made them
        calls = DeviceCalls(
            journal, fresh.device.system_methods(), fresh.device, CheckpointPolicy(seconds=0, megabytes=1e9)
        )
        started = time.perf_counter()
        await calls.rebuild()
        seconds = time.perf_counter() - started
        fresh.device.close()
        return seconds
    finally:
        store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=100, help="training calls in the record")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    cfg = Config()
    model = DeviceGPT(cfg, weights(cfg))
    record, trained = [], []
    for seq in batches(cfg, args.steps):
        arg = model.arg(seq, 1e-3)
        started = time.perf_counter()
        model.step(arg)
        trained.append(time.perf_counter() - started)
        record.append(arg)
    first_time = sum(trained)

    copy_s, data = median_time(lambda: _snapshot(model.device), args.rounds)
    restore_s, _ = median_time(lambda: model.device.restore(io.BytesIO(data)), args.rounds)
    with tempfile.TemporaryDirectory() as scratch:
        store = LmdbStore(Path(scratch) / "state")
        journal = Journal(store)
        batch_s, _ = median_time(lambda: _write_copy(journal, data), args.rounds)
        store.close()
        store = LmdbStore(Path(scratch) / "record")
        Journal(store)  # lays out a new state directory
        batch = Batch()
        for seq, arg in enumerate(record):
            Journal.system_call(batch, seq, DeviceGPT.CALLER, "moxzi_device_run", arg)
        store.commit(batch)
        store.close()
        reruns = [asyncio.run(rerun_seconds(Path(scratch) / "record", cfg)) for _ in range(args.rounds)]
    rerun_s = statistics.median(reruns)
    model.device.close()

    params = sum(w.size for w in weights(cfg).values())
    print(
        f"model: {params:,} parameters; record of {args.steps} training calls, {sum(map(len, record)) / 2**20:.1f} MB"
    )
    print(f"{'what':<48} {'median':>10}")
    print(f"{'copy size, MB':<48} {len(data) / 2**20:>10.2f}")
    print(f"{'copy: device to a file, s':<48} {copy_s:>10.3f}")
    print(f"{'copy: written to LMDB (in parts, flushed), s':<48} {batch_s:>10.3f}")
    print(f"{'copy: put back into a device, s':<48} {restore_s:>10.3f}")
    print(f"{'the record the first time (training), s':<48} {first_time:>10.2f}")
    print(f"{'start-up re-running the whole record, s':<48} {rerun_s:>10.2f}")
    print(f"{'ratio start-up / first time':<48} {rerun_s / first_time:>10.2f}")
    print(
        f"{'ratio copy (bytes + LMDB) / one training step':<48} "
        f"{(copy_s + batch_s) / statistics.median(trained):>10.1f}"
    )


def _snapshot(device) -> bytes:
    with tempfile.TemporaryFile() as out:
        device.snapshot(out)
        out.seek(0)
        return out.read()


def _write_copy(journal: Journal, data: bytes) -> None:
    """What a copy costs in the store: its parts, then the batch that makes it the copy, flushed."""
    copy = Attachment(len(data), lambda: io.BytesIO(data))
    journal.put_attachment(copy)
    batch = Batch()
    journal.put_system_checkpoint(batch, 0, copy)
    journal.store.commit(batch)
    journal.store.flush()


if __name__ == "__main__":
    main()
