"""Data-parallel training steps on one rank and on two (gloo, this machine), one torch thread each.

    python bench/device_world.py [--steps 10] [--rounds 5]

Trains nanoGPT's Shakespeare laptop config (batch 12; ``device_step.py``'s model) through the device,
as an actor's calls: on one device with the whole batch, and on a device of two ranks with the batch
split 6/6 (rank 1 a ``moxzid device-worker`` child process). Rounds alternate so a busy machine slows
both alike. Prints ms/step and steps/s medians, and on two ranks the time rank 0 spends in collectives
(the all-reduce of gradients and loss, and the agreement on each call's outcome), which includes waiting
for the slower rank to finish its half.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import device_step


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=10, help="steps per round and path")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()

    from moxzi_core import device, plugins

    registry = plugins.load(["torch"])[0]
    local = device.LocalRanks(["--device", "torch:cpu", "--device-world", "2", "--plugins", "torch"], 2)
    two_ranks = device.open_device(
        registry, "torch:cpu", ranks=device.Ranks(2, 0, "127.0.0.1", 0, 60.0, local.start), local=local
    )
    in_collectives = [0.0]
    collective = two_ranks.group.collective

    def timed(*a):
        started = time.perf_counter()
        try:
            return collective(*a)
        finally:
            in_collectives[0] += time.perf_counter() - started

    two_ranks.group.collective = timed

    cfg = device_step.Config()
    start = device_step.weights(cfg)
    data = device_step.batches(cfg, args.steps)
    one = device_step.DeviceGPT(cfg, start)
    two = device_step.DeviceGPT(cfg, start, on=two_ranks)
    one_ms, two_ms, shares, comm_ms = [], [], [], []
    try:
        for _ in range(args.rounds):
            args_one = [one.arg(s, 1e-3) for s in data]
            started = time.perf_counter()
            for a in args_one:
                one.step(a)
            one_ms.append((time.perf_counter() - started) * 1000 / args.steps)
            args_two = [two.arg(s, 1e-3, split=True) for s in data]
            in_collectives[0] = 0.0
            started = time.perf_counter()
            for a in args_two:
                two.step(a)
            elapsed = time.perf_counter() - started
            two_ms.append(elapsed * 1000 / args.steps)
            comm_ms.append(in_collectives[0] * 1000 / args.steps)
            shares.append(in_collectives[0] / elapsed)
    finally:
        one.device.close()
        two_ranks.close()

    one_med, two_med = statistics.median(one_ms), statistics.median(two_ms)
    print(
        f"Shakespeare config (batch {cfg.batch}), {args.steps} steps x {args.rounds} rounds, one torch thread "
        f"per rank, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}"
    )
    print("| ranks | batch per rank | ms/step | steps/s | speed-up | collectives ms/step | share of a step |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    print(f"| 1 | {cfg.batch} | {one_med:.1f} | {1000 / one_med:.2f} | 1.00 | - | - |")
    print(
        f"| 2 | {cfg.batch // 2} | {two_med:.1f} | {1000 / two_med:.2f} | {one_med / two_med:.2f} | "
        f"{statistics.median(comm_ms):.1f} | {statistics.median(shares):.0%} |"
    )


if __name__ == "__main__":
    main()
