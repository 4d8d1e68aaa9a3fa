#!/usr/bin/env python3
"""Four islands of "Serve and train with several actors", run against moxzid with a tensor device
and a state directory, as the seed runs it (`moxzid -m actors.json -s ./state --device ...`):
island0 leads 25 rounds in which every island trains 10 steps on its own batches and all average
their weights, 250 steps each. A single trainer then trains 250 steps alone. The islands' validation
loss must beat the single trainer's; exits 1 if it does not.

    python3 examples/islands/run_islands.py [TEXT] [--device torch:cpu] [--workdir DIR] [--port N]
"""

from __future__ import annotations

import re
import shutil
import sys
import time
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parent
sys.path.insert(0, str(EXAMPLE.parent / "microgpt"))
from moxzid_child import Moxzid, build_example, run, say, text_example

ISLANDS = [f"island{i}" for i in range(4)]
ROUNDS, EVERY = 25, 10
LEAD_SECONDS = 3600


def main() -> int:
    args, text, workdir = text_example(__doc__, "islands-")

    manifest = build_example([EXAMPLE / "trainer.mo", EXAMPLE / "writer.mo"], EXAMPLE / "actors.json", workdir)
    with Moxzid(
        manifest, workdir / "moxzid.log", state=workdir / "state", device=args.device, port=args.port
    ) as daemon:
        for i, island in enumerate(ISLANDS):
            say(f"{island}.load: {daemon.call(island, 'load', text)[0]}")
            daemon.call(island, "setIsland", i)
        peers = [daemon.query(island, "id")[0] for island in ISLANDS[1:]]
        say(f"island0.lead({ROUNDS} rounds of {EVERY} steps) with peers {', '.join(peers)}")
        started = time.monotonic()
        islands = daemon.call("island0", "lead", peers, ROUNDS, EVERY, timeout=LEAD_SECONDS)[0]
        say(f"islands: {islands}  ({time.monotonic() - started:.0f} s)")

        say(f"trainer.load: {daemon.call('trainer', 'load', text)[0]}")
        started = time.monotonic()
        say(f"  {daemon.call('trainer', 'train', ROUNDS * EVERY)[0]}")
        single = daemon.call("trainer", "evaluate")[0]
        say(f"single: {single}  ({time.monotonic() - started:.0f} s)")

    def val_loss(evaluation: str) -> float:
        return float(re.search(r"val loss (\S+)", evaluation).group(1))

    if val_loss(islands) >= val_loss(single):
        say(f"FAILED: the islands did not beat a single trainer at step {ROUNDS * EVERY} (log in {workdir})")
        return 1
    say(f"the islands beat a single trainer at step {ROUNDS * EVERY}")
    if args.workdir is None:
        shutil.rmtree(workdir)
    return 0


if __name__ == "__main__":
    run(main)
