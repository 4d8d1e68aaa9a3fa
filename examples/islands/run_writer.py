#!/usr/bin/env python3
"""The trainer and the writer of "Serve and train with several actors", run against moxzid with a
tensor device and a state directory, as the seed runs them (`moxzid -m actors.json -s ./state
--device ...`). The trainer trains in the background and publishes its weights after every 10 steps;
the writer writes from the latest publication while training goes on. island0, the same code, trains
the same way beside it and is never read: at step 1,000 both must report the same losses, since
reading a publication changes nothing of its owner's training. Exits 1 if they differ.

    python3 examples/islands/run_writer.py [TEXT] [--device torch:cpu] [--workdir DIR] [--port N]
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parent
sys.path.insert(0, str(EXAMPLE.parent / "microgpt"))
from moxzid_child import Moxzid, build_example, run, say, text_example, wait_for_step

TRAINERS = ("trainer", "island0")  # island0: the control nobody reads


def main() -> int:
    args, text, workdir = text_example(__doc__, "writer-")

    manifest = build_example([EXAMPLE / "trainer.mo", EXAMPLE / "writer.mo"], EXAMPLE / "actors.json", workdir)
    with Moxzid(
        manifest, workdir / "moxzid.log", state=workdir / "state", device=args.device, port=args.port
    ) as daemon:
        for actor in TRAINERS:
            say(f"{actor}.load: {daemon.call(actor, 'load', text)[0]}")
        trainer = daemon.query("trainer", "id")[0]
        daemon.call("writer", "follow", trainer)
        say(f"writer follows trainer {trainer}")

        for actor in TRAINERS:
            daemon.call(actor, "trainInBackground", 250)
        for actor in TRAINERS:
            wait_for_step(daemon, actor, 250)
        say(daemon.call("trainer", "evaluate")[0])
        say("writer.write(200, 0.8) from the step-250 weights:")
        say(daemon.call("writer", "write", 200, 0.8)[0])

        for actor in TRAINERS:
            daemon.call(actor, "trainInBackground", 1000)
        before = daemon.query("trainer", "status")[0]
        written = daemon.call("writer", "write", 200, 0.8)[0]
        after = daemon.query("trainer", "status")[0]
        say(f"writer.write(200, 0.8) while the trainer trains (trainer before: {before}; after: {after}):")
        say(written)

        final = {}
        for actor in TRAINERS:
            status = wait_for_step(daemon, actor, 1000)
            final[actor] = (status, daemon.call(actor, "evaluate")[0])
            say(f"{actor}: {final[actor][1]}")
        say("writer.write(200, 0.8) from the step-1000 weights:")
        say(daemon.call("writer", "write", 200, 0.8)[0])

    if final["trainer"] != final["island0"]:
        say(f"DIFFERENT: the trainer the writer read ended unlike the one nobody read (log in {workdir})")
        return 1
    say("the reads changed nothing: the trainer and the unread control report the same losses")
    if args.workdir is None:
        shutil.rmtree(workdir)
    return 0


if __name__ == "__main__":
    run(main)
