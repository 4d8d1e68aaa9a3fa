"""The seed's 2,000-step Shakespeare run (003) straight on the tensor device, without an actor.

    python bench/device_shakespeare.py [--steps 2000] [--device-threads 1]

The seed's schedule (warmup 100 steps to 1e-3, cosine to 1e-4 at step 2,000), AdamW (0.9, 0.99, 1e-8,
weight decay 0.1), clip 1.0, random windows from the first 90% of the text; then the seed's evaluate:
the mean loss of 20 fixed batches from each split. The seed reports train 1.5442, val 1.7135.
"""

import argparse
import math
import time

import device_step as ds
import numpy as np


def lr_at(it: int, steps: int, lr=1e-3, min_lr=1e-4, warmup=100) -> float:
    if it < warmup:
        return lr * (it + 1) / (warmup + 1)
    return min_lr + 0.5 * (1 + math.cos(math.pi * (it - warmup) / (steps - warmup))) * (lr - min_lr)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--device-threads", type=int, default=1)
    args = parser.parse_args()
    cfg = ds.Config()
    text = np.frombuffer(ds.DATA.read_bytes(), np.uint8)
    ids = np.searchsorted(np.unique(text), text).astype(np.uint8)
    n_train = len(ids) * 9 // 10
    dev = ds.DeviceGPT(cfg, ds.weights(cfg), threads=args.device_threads)
    rng = np.random.default_rng(1337)

    def windows(starts):
        return np.stack([ids[s : s + cfg.block + 1] for s in starts])

    def evaluate(lo: int, hi: int) -> float:
        span = hi - lo - cfg.block - 1
        total = 0.0
        for k in range(20):
            seq = windows([lo + (k * cfg.batch + j) * span // (20 * cfg.batch) for j in range(cfg.batch)])
            total += dev.device.request("run", dev.CALLER, dev.run(seq, lr=None))["scalars"][0]
        return total / 20

    started = time.perf_counter()
    for step in range(args.steps):
        loss = dev.step(dev.arg(windows(rng.integers(0, n_train - cfg.block - 1, cfg.batch)), lr_at(step, args.steps)))
        if step % 250 == 0 or step == args.steps - 1:
            print(f"step {step} | loss {loss:.4f} | {time.perf_counter() - started:.0f} s", flush=True)
    print(f"step {args.steps}: train loss {evaluate(0, n_train):.4f}, val loss {evaluate(n_train, len(ids)):.4f}")


if __name__ == "__main__":
    main()
