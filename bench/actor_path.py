"""What the path from an actor to the device costs: HTTP -> actor -> device calls against the device's
own time for the same calls, for the seeds' actors.

    python bench/actor_path.py [--rounds 5] [--device torch:cpu] [--device-threads 1] [--state]
                               [--against DIR] [--only letters,train,generate]

Rows (each a call over HTTP that makes many device calls, one after another):

- ``letters.learn(500)``: examples/letters, 502 device calls (params, optimizer, 500 runs of a 10-op
  training program);
- ``gpt.train(100)``: examples/shakespeare, 100 training steps of the 119-op program, 12 x 65 bytes in;
- ``gpt.generate(100, 0.8)``: the same actor, one forward run per character.

For each: the call's wall time at the client, the device's time for its calls (the growth of
``moxzi_device_seconds_total`` in ``/metrics``: from the call holding the device to its result,
decoding and encoding excluded), the host's price per device call ((wall - device) / calls: HTTP, the
actor's wasm making the next call, Candid, the store, thread hand-offs), wall / device, and moxzid's CPU
per device call (its CPU seconds over the call, all threads, the device's work included, from
``/proc``: unlike the wall time it leaves out the waits for a core that a busy machine adds, so two
trees compare more steadily by it). Medians of ``--rounds``
rounds. ``--against DIR`` runs a second moxzid from another checkout of moxzi (a worktree
at the code before a change) beside this one, each call alternating between the two, so a busy
machine slows both alike, and which goes first alternating from round to round (the first of a pair
fares differently from the second; an even number of rounds balances them); one table each.
``--state`` runs both with ``-s DIR`` (LMDB: every device call that changes the device recorded,
answers flushed). The Shakespeare actor loads tiny Shakespeare once per
moxzid first (not timed).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import statistics
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from moxzid import code_of, cpu_seconds, serving

from moxzi_core.build import build

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
TEXT = ROOT.parent / "shared" / "data" / "tinyshakespeare.txt"


@dataclass(frozen=True)
class Row:
    key: str  # for --only
    label: str
    actor: str
    method: str
    args: tuple


ROWS = (
    Row("letters", "letters.mo learn(500)", "letters", "learn", (500,)),
    Row("train", "gpt.mo train(100)", "gpt", "train", (100,)),
    Row("generate", "gpt.mo generate(100, 0.8)", "gpt", "generate", (100, 0.8)),
)


@dataclass
class Sample:
    wall: float
    device: float
    calls: int
    cpu: float  # moxzid's CPU seconds (all its threads) over the call

    @property
    def host_per_call(self) -> float:
        return (self.wall - self.device) / self.calls

    @property
    def cpu_per_call(self) -> float:
        return self.cpu / self.calls


@dataclass
class Measured:
    name: str  # which moxzid: "this tree" or --against's folder
    samples: dict[str, list[Sample]] = field(default_factory=dict)


def device_counters(url: str, actor: str) -> tuple[float, int]:
    """(device seconds, device calls) of ``actor`` so far, summed over the device's methods."""
    text = urllib.request.urlopen(f"{url}/metrics", timeout=30).read().decode()
    seconds = sum(
        float(v) for v in re.findall(rf'^moxzi_device_seconds_total{{actor="{actor}",[^}}]*}} (\S+)$', text, re.M)
    )
    calls = sum(
        int(float(v)) for v in re.findall(rf'^moxzi_device_calls_total{{actor="{actor}",[^}}]*}} (\S+)$', text, re.M)
    )
    return seconds, calls


def call(url: str, actor: str, method: str, args) -> object:
    request = urllib.request.Request(
        f"{url}/call-json/{actor}/{method}", json.dumps(list(args)).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=600) as answer:
        return json.loads(answer.read())


def measure(daemon, row: Row) -> Sample:
    seconds, calls = device_counters(daemon.url, row.actor)
    cpu = cpu_seconds(daemon.process.pid)
    started = time.perf_counter()
    call(daemon.url, row.actor, row.method, row.args)
    wall = time.perf_counter() - started
    cpu = cpu_seconds(daemon.process.pid) - cpu
    seconds_after, calls_after = device_counters(daemon.url, row.actor)
    return Sample(wall, seconds_after - seconds, calls_after - calls, cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="rounds; medians count (default 5)")
    parser.add_argument("--device", default="torch:cpu", help="torch:cpu (default) or torch:cuda")
    parser.add_argument("--device-threads", default="1", help="moxzid --device-threads (default 1)")
    parser.add_argument("--state", action="store_true", help="run moxzid with -s DIR (LMDB)")
    parser.add_argument("--against", type=Path, help="another checkout of moxzi, measured beside this one")
    parser.add_argument("--text", type=Path, default=TEXT, help=f"tiny Shakespeare (default {TEXT})")
    parser.add_argument("--only", default=",".join(r.key for r in ROWS), help="rows to run (default all)")
    args = parser.parse_args()
    rows = [r for r in ROWS if r.key in args.only.split(",")]
    trees: list[tuple[str, Path | None]] = [("this tree", None)]
    if args.against is not None:
        trees.append((str(args.against), args.against.resolve()))

    with contextlib.ExitStack() as stack:
        built = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        actors = {
            "letters": build(EXAMPLES / "letters" / "letters.mo", out_dir=built / "letters"),
            "gpt": build(EXAMPLES / "shakespeare" / "gpt.mo", out_dir=built / "gpt"),
        }
        flags = ["--device", args.device, "--device-threads", args.device_threads]
        daemons = []
        for name, tree in trees:
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
            with code_of(tree):
                daemon = stack.enter_context(
                    serving(
                        folder,
                        *flags,
                        *(["-s", str(folder / "state")] if args.state else []),
                        plugins="http,torch,console",
                        **actors,
                    )
                )
            if any(r.actor == "gpt" for r in rows):
                call(daemon.url, "gpt", "load", [args.text.read_text()])
            daemons.append((Measured(name), daemon))

        for round_number in range(args.rounds):
            # Which daemon goes first alternates: the first of a pair fares differently from the second
            # (main against itself, always first: 1.74x the host time under load).
            ordered = daemons if round_number % 2 == 0 else daemons[::-1]
            for row in rows:
                for measured, daemon in ordered:
                    measured.samples.setdefault(row.key, []).append(measure(daemon, row))
            print(f"round {round_number + 1} of {args.rounds} done", flush=True)

    load = os.getloadavg()
    print(
        f"\n{args.device}, --device-threads {args.device_threads}{', -s DIR' if args.state else ''}; "
        f"medians of {args.rounds} rounds; load average at the end {load[0]:.1f} / {load[1]:.1f} (1 / 5 min), "
        f"{os.cpu_count()} cores"
    )
    for measured, _ in daemons:
        print(f"\n{measured.name}")
        print(
            f"{'work':30}{'calls':>7}{'wall ms':>10}{'device ms':>11}{'host/call ms':>14}{'wall/device':>13}"
            f"{'CPU/call ms':>13}"
        )
        for row in rows:
            samples = measured.samples[row.key]
            wall = statistics.median(s.wall for s in samples)
            device = statistics.median(s.device for s in samples)
            host = statistics.median(s.host_per_call for s in samples)
            ratio = statistics.median(s.wall / s.device for s in samples)
            cpu = statistics.median(s.cpu_per_call for s in samples)
            calls = samples[-1].calls
            print(
                f"{row.label:30}{calls:7d}{wall * 1e3:10.0f}{device * 1e3:11.0f}{host * 1e3:14.3f}{ratio:12.3f}x"
                f"{cpu * 1e3:13.3f}"
            )
    if len(daemons) == 2:
        (this, _), (other, _) = daemons
        print(f"\nhost per call and CPU per call, this tree / {other.name} (medians of the rounds' ratios)")
        for row in rows:
            pairs = list(zip(this.samples[row.key], other.samples[row.key]))
            wall = statistics.median(a.host_per_call / b.host_per_call for a, b in pairs)
            cpu = statistics.median(a.cpu_per_call / b.cpu_per_call for a, b in pairs)
            print(f"{row.label:30}{wall:8.2f}{cpu:8.2f}")


if __name__ == "__main__":
    main()
