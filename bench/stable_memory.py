"""Stable memory reads and writes per second from Motoko (tests/actors/stable.mo: each 8-byte
``Region.loadNat64`` / ``storeNat64`` is one ``ic0.stable64_read`` / ``stable64_write``), in both
persistence modes, through Host.call.

    python bench/stable_memory.py [--ops 200000] [--rounds 5]

Each round is one update message doing ``--ops`` writes, then one doing ``--ops`` reads; the table shows
the median rate over the rounds.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from kit.actorbuild import build_actor  # noqa: E402

from moxzi_core.candid import NAT, encode_args  # noqa: E402
from moxzi_core.runtime.host import ActorSpec, Host  # noqa: E402


async def rates(classic: bool, ops: int, rounds: int) -> dict[str, float]:
    built = build_actor("stable", classic=classic)
    host = Host([ActorSpec("s", built.wasm, built.did)])
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ops", type=int, default=200_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    print(f"stable memory, {args.ops} 8-byte operations per message, median of {args.rounds} rounds")
    print(f"{'persistence':<12} {'writes/s':>12} {'reads/s':>12}")
    for classic in (False, True):
        result = asyncio.run(rates(classic, args.ops, args.rounds))
        print(f"{'classic' if classic else 'enhanced':<12} {result['writes']:>12,.0f} {result['reads']:>12,.0f}")


if __name__ == "__main__":
    main()
