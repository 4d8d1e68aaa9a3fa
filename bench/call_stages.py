"""Where the host's price of an actor's device call goes: letters.mo's ``learn`` through moxzid, timed by
stage, side by side with another checkout.

    python bench/call_stages.py [--steps 500] [--rounds 3] [--against DIR] [--spare]

moxzid runs with ``bench/stage_timers`` first on its PYTHONPATH: its ``sitecustomize`` times each
stage of the device calls' path (the actor's thread: the callback's wasm, the heap's commit, the
settle; the device calls' plumbing and record; the device's Candid decode and encode; the two thread
hand-offs) and writes every sample as moxzid exits. Printed: each stage's median and mean in µs (the
timers add ~1 µs to each stage they wrap), and the host's price per device call ((wall - device
seconds) / calls) of each ``learn(STEPS)``, their median. Stages a call skips (a hand-off when the call
runs on the actor's thread, ``Schedule.submit``) show fewer samples. ``--against DIR`` measures a
second checkout after this one, in turn round by round. ``--spare``: ``schedule.Spare`` always finds a
core spare, so a short call runs on the actor's thread as on an idle machine, whatever the load (the
path an idle machine takes, measured on a busy one).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import tempfile
import time
from pathlib import Path

from actor_path import call, device_counters
from moxzid import code_of, serving

from moxzi_core.build import build

ROOT = Path(__file__).resolve().parents[1]
TIMERS = Path(__file__).resolve().parent / "stage_timers"
FLAGS = ("--device", "torch:cpu", "--device-threads", "1")  # as bench/actor_path.py's


def measure(tree: Path | None, letters, steps: int, out: Path, spare: bool) -> list[float]:
    """Host price per device call (s) of each ``learn(steps)``, the stages' samples written to ``out``."""
    prices = []
    with tempfile.TemporaryDirectory() as folder, code_of(tree):
        os.environ["PYTHONPATH"] = os.pathsep.join([str(TIMERS), os.environ.get("PYTHONPATH", "")])
        os.environ["MOXZI_STAGES_OUT"] = str(out)
        os.environ["MOXZI_STAGES_SPARE"] = "1" if spare else ""
        try:
            with serving(Path(folder), *FLAGS, plugins="http,torch,console", letters=letters) as daemon:
                call(daemon.url, "letters", "learn", [50])  # (warm: the plan checked, the first calls)
                for _ in range(3):
                    seconds, calls = device_counters(daemon.url, "letters")
                    started = time.perf_counter()
                    call(daemon.url, "letters", "learn", [steps])
                    wall = time.perf_counter() - started
                    seconds_after, calls_after = device_counters(daemon.url, "letters")
                    prices.append((wall - (seconds_after - seconds)) / (calls_after - calls))
                daemon.stop()
        finally:
            del os.environ["MOXZI_STAGES_OUT"], os.environ["MOXZI_STAGES_SPARE"]
    return prices


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=500, help="learn(STEPS) (default 500)")
    parser.add_argument("--rounds", type=int, default=3, help="moxzid started this many times per tree (default 3)")
    parser.add_argument("--against", type=Path, help="another checkout of moxzi, measured after this one")
    parser.add_argument("--spare", action="store_true", help="short calls on the actor's thread whatever the load")
    args = parser.parse_args()
    trees: list[tuple[str, Path | None]] = [("this tree", None)]
    if args.against is not None:
        trees.append((str(args.against), args.against.resolve()))
    stages: dict[str, dict[str, list[int]]] = {name: {} for name, _ in trees}
    prices: dict[str, list[float]] = {name: [] for name, _ in trees}
    with contextlib.ExitStack() as stack:
        built = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        letters = build(ROOT / "examples" / "letters" / "letters.mo", out_dir=built / "letters")
        for round_number in range(args.rounds):
            for name, tree in trees if round_number % 2 == 0 else trees[::-1]:
                out = built / "stages.json"
                prices[name] += measure(tree, letters, args.steps, out, args.spare)
                for stage, samples in json.loads(out.read_text()).items():
                    stages[name].setdefault(stage, []).extend(samples)
            print(f"round {round_number + 1} of {args.rounds} done", flush=True)
    load = os.getloadavg()
    spare = " (--spare)" if args.spare else ""
    print(f"\nletters.mo learn({args.steps}){spare}; load average at the end {load[0]:.1f} / {load[1]:.1f} (1 / 5 min)")
    names = [name for name, _ in trees]
    print(f"{'stage':58}" + "".join(f"{'n':>8}{'median':>9}{'mean':>9}" for _ in names) + "   (µs)")
    for stage in sorted(set().union(*(stages[n] for n in names))):
        row = f"{stage:58}"
        for name in names:
            samples = stages[name].get(stage, [])
            row += (
                f"{len(samples):8d}{statistics.median(samples) / 1e3:9.1f}{statistics.mean(samples) / 1e3:9.1f}"
                if samples
                else f"{0:8d}{'':18}"
            )
        print(row)
    print(
        f"{'host price per device call (median of the calls to learn)':58}"
        + "".join(f"{len(prices[n]):8d}{statistics.median(prices[n]) * 1e6:9.1f}{'':9}" for n in names)
    )
    if len(names) == 2:
        print("columns: " + " | ".join(names))


if __name__ == "__main__":
    main()
