"""Stable memory reads and writes per second from Motoko (tests/actors/stable.mo: each 8-byte
``Region.loadNat64`` / ``storeNat64`` is one ``ic0.stable64_read`` / ``stable64_write``), in both
persistence modes, through Host.call: this tree against an earlier commit's, side by side.

    python bench/stable_memory.py [--ops 200000] [--rounds 5] [--before a5e35a6]

Each round is one update message doing ``--ops`` writes, then one doing ``--ops`` reads; the table shows
the median rate over the rounds. Both trees run the same compiled actor, each in a process of its own
(``--before``'s moxzi_core taken from ``git archive``; a5e35a6 is the last commit whose stable memory
functions were Python host functions).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


async def rates(wasm: bytes, did: str, ops: int, rounds: int) -> dict[str, float]:
    """Median operations per second of the actor's ``writes`` and ``reads``, with whichever moxzi_core
    this process imports."""
    from moxzi_core.candid import NAT, encode_args
    from moxzi_core.runtime.host import ActorSpec, Host

    host = Host([ActorSpec("s", wasm, did)])
    await host.start()
    try:
        measured: dict[str, list[float]] = {"writes": [], "reads": []}
        for _ in range(rounds):
            for method in ("writes", "reads"):
                started = time.perf_counter()
                outcome = await host.call("s", method, encode_args([NAT], [ops]), query=False)
                assert outcome.reply is not None, outcome.reject_message
                measured[method].append(ops / (time.perf_counter() - started))
        return {method: statistics.median(values) for method, values in measured.items()}
    finally:
        await host.stop()


def measured_in(tree: Path, wasm: Path, did: Path, ops: int, rounds: int) -> dict[str, float]:
    """`rates` in a fresh process whose moxzi_core is ``tree``'s."""
    command = [sys.executable, __file__, "--measure", str(wasm), str(did), f"--ops={ops}", f"--rounds={rounds}"]
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"measuring with {tree} failed:\n{done.stderr}")
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ops", type=int, default=200_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--before", default="a5e35a6", help="the commit to compare with")
    parser.add_argument("--measure", nargs=2, metavar=("WASM", "DID"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:  # the child process: one tree, one actor
        wasm, did = (Path(p) for p in args.measure)
        print(json.dumps(asyncio.run(rates(wasm.read_bytes(), did.read_text(), args.ops, args.rounds))))
        return

    from moxzid import build_actor

    print(f"stable memory, {args.ops} 8-byte operations per message, median of {args.rounds} rounds")
    print(f"{'persistence':<12} {'operation':<10} {args.before + '/s':>14} {'this tree/s':>14} {'ratio':>8}")
    with tempfile.TemporaryDirectory() as before:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", args.before, "moxzi_core"], capture_output=True, check=True
        )
        subprocess.run(["tar", "-x", "-C", before], input=archive.stdout, check=True)
        for classic in (False, True):
            built = build_actor("stable", classic=classic)
            old = measured_in(Path(before), built.wasm_path, built.did_path, args.ops, args.rounds)
            new = measured_in(ROOT, built.wasm_path, built.did_path, args.ops, args.rounds)
            for operation in ("writes", "reads"):
                print(
                    f"{'classic' if classic else 'enhanced':<12} {operation:<10} {old[operation]:>14,.0f} "
                    f"{new[operation]:>14,.0f} {new[operation] / old[operation]:>7.0f}x"
                )


if __name__ == "__main__":
    main()
