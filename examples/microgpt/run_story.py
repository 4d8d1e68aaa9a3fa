#!/usr/bin/env python3
"""The story of "Keep training through upgrades and crashes", run against moxzid, and its ending checked.

The microGPT of gpt.mo trains in the background on names. While it trains it is upgraded to
gpt_score.mo (which adds `score`), upgraded again, and its moxzid is killed with SIGKILL and started
again on the same state directory. A second moxzid trains the same model without interruption. The
two must end with the same status line and the same 20 names sampled at temperature 0.5; the script
prints both and exits 1 if they differ.

    python3 examples/microgpt/run_story.py [NAMES_TXT] [--without-state] [--workdir DIR] [--port N]

--without-state runs moxzid without -s and skips the kill and the restart (for a moxzid that cannot
keep state yet): the upgrades and the comparison still run.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

from moxzid_child import Moxzid, add_port_option, build_example, run, say, wait_for_step

EXAMPLE = Path(__file__).resolve().parent
DEFAULT_NAMES = EXAMPLE.parents[1] / ".." / "shared" / "data" / "names.txt"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "names",
        nargs="?",
        type=Path,
        default=DEFAULT_NAMES,
        help="the names, one per line (default: ../shared/data/names.txt from the repo root)",
    )
    parser.add_argument(
        "--without-state", action="store_true", help="run moxzid without -s, and skip the kill -9 and the restart"
    )
    parser.add_argument(
        "--workdir",
        type=Path,
        help="where to build and keep state and logs (default: a new temporary folder, "
        "removed after a run that passes)",
    )
    add_port_option(parser)
    args = parser.parse_args()
    text = args.names.read_text()
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="microgpt-story-"))
    workdir.mkdir(parents=True, exist_ok=True)
    with_state = not args.without_state

    manifest = build_example([EXAMPLE / "gpt.mo", EXAMPLE / "gpt_score.mo"], EXAMPLE / "actors.json", workdir)
    say("== the story: train, upgrade, upgrade while training" + (", kill -9, restart" if with_state else ""))
    story = run_story(manifest, workdir, text, with_state, args.port)
    say("== an uninterrupted run")
    plain = run_uninterrupted(manifest, workdir, text, with_state, args.port)

    say("== the ending")
    for label, (status, names) in (("story", story), ("uninterrupted", plain)):
        say(f"{label}: {status}")
        say(f"{label}: {' '.join(names)}")
    if story != plain:
        say(f"DIFFERENT: the story did not end with the uninterrupted run's model (logs in {workdir})")
        return 1
    say("same status and the same 20 names")
    if args.workdir is None:
        shutil.rmtree(workdir)
    return 0


def run_story(manifest: Path, workdir: Path, text: str, with_state: bool, port: int) -> tuple[str, list[str]]:
    state = workdir / "story-state" if with_state else None
    log = workdir / "story.log"
    daemon = Moxzid(manifest, log, state=state, port=port).start()
    try:
        say(f"load: {daemon.call('gpt', 'load', text)[0]}")
        daemon.call("gpt", "trainInBackground", 300)
        say("trainInBackground(300)")
        at_300 = wait_for_step(daemon, "gpt", 300)

        say(f"upgrade to gpt_score: {daemon.upgrade('gpt', workdir / 'gpt_score.wasm')}")
        after = daemon.query("gpt", "status")[0]
        say(f"  {after}")
        if after != at_300:
            raise RuntimeError(f"the upgrade changed the status: {at_300!r} before, {after!r} after")
        for name in ("emma", "xqzzk"):
            say(f"  score: {daemon.query('gpt', 'score', name)[0]}")

        daemon.call("gpt", "trainInBackground", 1000)
        say("trainInBackground(1000)")
        wait_for_step(daemon, "gpt", 400, beyond=True)
        say(f"upgrade while training: {daemon.upgrade('gpt', workdir / 'gpt_score.wasm')}")
        for _ in range(3):
            time.sleep(1)
            say(f"  {daemon.query('gpt', 'status')[0]}")

        if with_state:
            status = wait_for_step(daemon, "gpt", 600, beyond=True)
            if status.startswith("step 1000 "):
                raise RuntimeError("training reached step 1000 before the kill: nothing left to resume")
            daemon.kill9()
            say(f"kill -9 moxzid after: {status}")
            daemon = Moxzid(manifest, log, state=state, port=port).start()
            say(f"restarted: {daemon.query('gpt', 'status')[0]}")

        final = wait_for_step(daemon, "gpt", 1000)
        return final, daemon.call("gpt", "sample", 20, 0.5)[0]
    finally:
        daemon.stop()


def run_uninterrupted(manifest: Path, workdir: Path, text: str, with_state: bool, port: int) -> tuple[str, list[str]]:
    state = workdir / "uninterrupted-state" if with_state else None
    with Moxzid(manifest, workdir / "uninterrupted.log", state=state, port=port) as daemon:
        say(f"load: {daemon.call('gpt', 'load', text)[0]}")
        daemon.call("gpt", "trainInBackground", 1000)
        say("trainInBackground(1000)")
        final = wait_for_step(daemon, "gpt", 1000)
        return final, daemon.call("gpt", "sample", 20, 0.5)[0]


if __name__ == "__main__":
    run(main)
