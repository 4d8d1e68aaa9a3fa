#!/usr/bin/env python3
"""letters.mo from "GPU math for actors", run against moxzid with a tensor device: 200 training steps
take the loss from about 5.5 (a uniform guess over 256 byte values) to under 1.0. Exits 1 if not.

    python3 examples/letters/run_letters.py [--device torch:cpu] [--steps 200] [--workdir DIR] [--port N]
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parent
sys.path.insert(0, str(EXAMPLE.parent / "microgpt"))
from moxzid_child import Moxzid, add_port_option, build_example, run, say


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--device", default="torch:cpu", help="the device backend (default torch:cpu)")
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument(
        "--workdir",
        type=Path,
        help="where to build and keep the log (default: a temporary folder, removed after a pass)",
    )
    add_port_option(parser)
    args = parser.parse_args()
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="letters-"))
    workdir.mkdir(parents=True, exist_ok=True)

    manifest = build_example([EXAMPLE / "letters.mo"], EXAMPLE / "actors.json", workdir)
    with Moxzid(manifest, workdir / "moxzid.log", device=args.device, port=args.port) as daemon:
        [losses] = daemon.call("letters", "learn", args.steps)
    say(f"learn({args.steps}): first loss {losses['first']:.4f}, last loss {losses['last']:.4f}")

    if not (5.0 < losses["first"] < 6.0 and losses["last"] < 1.0):
        say(f"FAILED: expected the first loss near 5.5 and the last under 1.0 (log in {workdir})")
        return 1
    if args.workdir is None:
        shutil.rmtree(workdir)
    return 0


if __name__ == "__main__":
    run(main)
