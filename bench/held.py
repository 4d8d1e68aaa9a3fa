"""What moxzid's memory (RSS) grows by while actors hold what issue 37's attacker made it hold, beside
what the device's byte budget counts: whether RSS stays within the budgets plus a constant.

    python3 bench/held.py [--actors 4] [--rounds 3] [--actor-mb 32] [--total-mb 64]

On torch:cpu, in this process (the device's accounting is the same whoever calls it: an actor of the
manifest, or one an anonymous client created over ``/api``):

- ``names``: each of ``--actors`` actors makes 20,000 zero-element parameters with 250-byte names and
  then SGD optimizers over all of them until the budget refuses one, then deletes everything; ``--rounds``
  times. A row a round: RSS over the start at its peak and after the deletions, and the bytes counted.
- ``exports``: an actor publishes an 8 MiB parameter and exports it (five downloads, ten minutes), and
  again, up to 20 times: each replaced publication's tensor stays held by its export until the budget
  refuses the next replacement.
"""

from __future__ import annotations

import argparse
import gc
import os

import torch

from moxzi_core import plugins
from moxzi_core.candid import Some
from moxzi_core.device import DeviceBudget, DeviceError, open_device

MiB = 1 << 20
NAMES = [f"p{i:05d}".ljust(250, "x") for i in range(20_000)]


def rss() -> int:
    gc.collect()
    with open(f"/proc/{os.getpid()}/status") as status:
        return next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmRSS"))


def fill(device, caller: bytes) -> None:
    """Parameters (2,000 a call) and optimizers over them until the budget refuses."""
    kept = 0
    try:
        for at in range(0, len(NAMES), 2_000):
            device.request(
                "params", caller, [{"name": n, "shape": [0], "init": {"zeros": None}} for n in NAMES[at : at + 2_000]]
            )
            kept = at + 2_000
    except DeviceError:
        pass
    for made in range(100):
        spec = {"name": f"o{made}", "params": NAMES[:kept], "lr": 0.1, "beta1": 0.0, "beta2": 0.99, "eps": 1e-8}
        try:
            device.request("optimizer", caller, {**spec, "weight_decay": 0.0, "kind": Some({"sgd": None})})
        except DeviceError:
            return


def names(registry, budget: DeviceBudget, actors: int, rounds: int) -> None:
    device = open_device(registry, "torch:cpu", budget=budget)
    callers = [bytes([i]) * 8 + b"\x01" for i in range(1, actors + 1)]
    start = rss()
    for n in range(rounds):
        for caller in callers:
            fill(device, caller)
        peak, counted = rss() - start, device.holdings.total
        for caller in callers:
            held = device.request("list", caller)
            device.request("delete", caller, [{"kind": e["kind"], "name": e["name"]} for e in held])
        print(
            f"names, round {n}: RSS +{peak / MiB:.1f} MiB with {counted / MiB:.1f} MiB counted; "
            f"+{(rss() - start) / MiB:.1f} MiB once all is deleted"
        )
    device.close()


def exports(registry, budget: DeviceBudget) -> None:
    device = open_device(registry, "torch:cpu", budget=budget)
    device.exports.prefix = "http://exports.invalid/export"  # (as a transport sets it; nothing downloads)
    caller = b"exporter\x01"
    start = rss()
    device.request("params", caller, [{"name": "w", "shape": [2 * MiB], "init": {"ones": None}}])  # 8 MiB
    made, refused = 0, "never"
    while made < 20:
        try:
            device.request("publish", caller, {"names": ["w"], "prefix": "p/", "readers": None})
            device.request("export", caller, {"names": ["w"], "prefix": "p/", "uses": Some(5), "seconds": None})
        except DeviceError as error:
            refused = str(error)[:100] + "..."
            break
        made += 1
    print(
        f"exports: {made} made; RSS +{(rss() - start) / MiB:.1f} MiB with {device.holdings.total / MiB:.1f} MiB counted"
    )
    print(f"  refused: {refused}")
    device.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actors", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--actor-mb", type=int, default=32)
    parser.add_argument("--total-mb", type=int, default=64)
    args = parser.parse_args()
    torch.set_num_threads(1)
    registry = plugins.load(["torch"])[0]
    budget = DeviceBudget(args.actor_mb * MiB, args.total_mb * MiB)
    print(f"--device-actor-mb {args.actor_mb} --device-total-mb {args.total_mb}")
    names(registry, budget, args.actors, args.rounds)
    exports(registry, budget)


if __name__ == "__main__":
    main()
