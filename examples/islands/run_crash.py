#!/usr/bin/env python3
"""The Shakespeare trainer, hosted alone (trainer.json), trains in the background with -s and a device;
its moxzid is killed with SIGKILL twice mid-run and started again on the same state directory each time. It must finish with the
same `evaluate` numbers and the same generated text as an uninterrupted run (GPU math for actors,
"Survive a crash"). Exits 1 if they differ.

    python3 examples/islands/run_crash.py [TEXT] [--steps 300] [--device torch:cpu] [--workdir DIR] [--port N]
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parent
sys.path.insert(0, str(EXAMPLE.parent / "microgpt"))
from moxzid_child import Moxzid, build_example, run, say, text_example, wait_for_step  # noqa: E402


def ending(daemon: Moxzid, steps: int) -> tuple[str, str]:
    wait_for_step(daemon, "trainer", steps)
    return daemon.call("trainer", "evaluate")[0], daemon.call("trainer", "generate", 200, 0.8)[0]


def main() -> int:
    args, text, workdir = text_example(
        __doc__, "crash-", lambda p: p.add_argument("--steps", type=int, default=300, help="training steps")
    )
    manifest = build_example([EXAMPLE / "trainer.mo"], EXAMPLE / "trainer.json", workdir)

    def daemon(name: str) -> Moxzid:
        return Moxzid(manifest, workdir / f"{name}.log", state=workdir / name, device=args.device, port=args.port)

    say("== uninterrupted")
    with daemon("uninterrupted") as d:
        say(f"load: {d.call('trainer', 'load', text)[0]}")
        d.call("trainer", "trainInBackground", args.steps)
        expected = ending(d, args.steps)

    say("== killed twice")
    d = daemon("crashed").start()
    say(f"load: {d.call('trainer', 'load', text)[0]}")
    d.call("trainer", "trainInBackground", args.steps)
    for fraction in (1 / 3, 2 / 3):
        wait_for_step(d, "trainer", int(args.steps * fraction) // 10 * 10, beyond=True)
        say(f"kill -9 at: {d.query('trainer', 'status')[0]}")
        d.kill9()
        d = daemon("crashed").start()
        say(f"restarted: {d.query('trainer', 'status')[0]}")
    got = ending(d, args.steps)
    d.stop()

    for label, (evaluated, written) in (("uninterrupted", expected), ("killed twice", got)):
        say(f"{label}: {evaluated}")
        say(f"{label}: {written!r}")
    if got != expected:
        say(f"FAILED: the runs differ (logs in {workdir})")
        return 1
    say("same evaluation and the same generated text")
    if args.workdir is None:
        shutil.rmtree(workdir)
    return 0


if __name__ == "__main__":
    run(main)
