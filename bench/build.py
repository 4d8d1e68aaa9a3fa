"""What `moxzi build` takes: the compiler in this process (V8, cold: no cache) and an unchanged rebuild
(answered from the build cache), against the Node.js builder moxzi had before, where there is one.

    python bench/build.py [SOURCE.mo] [--rounds 3] [--node-builder DIR]

SOURCE defaults to examples/shakespeare/gpt.mo (seed 003's actor). Each row is the wall time of a whole
`moxzi build` process (Python's start included), the median of ``--rounds`` rounds, the rows taking
turns within a round so that a busy machine slows them alike. ``--node-builder DIR``: a checkout of
moxzi from before (``git worktree add DIR f474b13``, then ``npm ci --prefix DIR/moxzi_core/compiler``),
whose ``moxzi build`` runs the npm compiler in node; left out, or where there is no ``node``, that row
is not shown.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def timed_build(tree: Path, source: Path, out: Path, cache: Path) -> float:
    environment = {**os.environ, "PYTHONPATH": str(tree), "MOXZI_BUILD_CACHE": str(cache)}
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "moxzi_core.cli", "build", source.resolve(), "-o", out],
        env=environment,
        cwd=tree,  # python -m puts the working directory first on the path
        check=True,
        capture_output=True,
    )
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", nargs="?", type=Path, default=ROOT / "examples" / "shakespeare" / "gpt.mo")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--node-builder", type=Path, help="a checkout of moxzi whose builder runs node")
    args = parser.parse_args()

    rows: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as scratch:
        out, warm_cache = Path(scratch, "out"), Path(scratch, "warm")
        timed_build(ROOT, args.source, out, warm_cache)  # fills the cache the cached row reads
        for _ in range(args.rounds):
            if args.node_builder is not None and shutil.which("node"):
                rows.setdefault("node (before)", []).append(
                    timed_build(args.node_builder, args.source, out, warm_cache)
                )
            cold = Path(tempfile.mkdtemp(dir=scratch))  # empty: every file's imports parsed too
            rows.setdefault("in-process V8, cold", []).append(timed_build(ROOT, args.source, out, cold))
            rows.setdefault("in-process V8, cached", []).append(timed_build(ROOT, args.source, out, warm_cache))
    print(f"moxzi build {args.source}: wall seconds, median of {args.rounds} rounds")
    print(f"{'builder':<24}{'median':>8}{'min':>8}{'max':>8}")
    for name, seconds in rows.items():
        print(f"{name:<24}{statistics.median(seconds):>8.2f}{min(seconds):>8.2f}{max(seconds):>8.2f}")


if __name__ == "__main__":
    main()
