"""Calls per second to the counter actor on a moxzid subprocess through the IC interface with the real JS
agent (@icp-sdk/core: Ed25519-signed envelopes, certified update replies, query signatures verified),
against its JSON routes from the same Node process with plain fetch; updates (``inc``) and queries
(``get``).

    python bench/ic_agent.py [--calls 40] [--clients 4] [--rounds 5]

Each round makes ``--calls`` calls spread over ``--clients`` concurrent callers; the table shows the
median rate over the rounds and the agent/JSON ratio. Needs tests/ic_js's packages (scripts/install
--test). The client shares the machine's cores with moxzid. Most of an agent call's time is the agent's
own cryptography in JavaScript (measured one call at a time on a busy 2-core machine: an anonymous
update 120 ms, of which moxzid's side, envelope checks and a BLS signature, is under 1 ms; the agent
verifies the certificate's BLS signature in pure JS), so small rounds suffice.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import tempfile
from pathlib import Path

from moxzid import serving

from moxzi_core.build import build
from moxzi_core.candid import Principal
from moxzi_core.runtime.host import actor_principal

HERE = Path(__file__).resolve().parent
COUNTER = HERE.parent / "examples" / "counter" / "counter.mo"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=40, help="calls per round (default 40)")
    parser.add_argument("--clients", type=int, default=4, help="concurrent callers (default 4)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds; the median counts (default 5)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as source_folder, tempfile.TemporaryDirectory() as folder:
        built = build(COUNTER, out_dir=Path(source_folder))
        with serving(Path(folder), plugins="http,ic", counter=built) as daemon:
            canister = str(Principal(actor_principal("counter")))
            done = subprocess.run(
                [
                    "node",
                    str(HERE / "ic_agent.mjs"),
                    daemon.url,
                    canister,
                    str(args.calls),
                    str(args.clients),
                    str(args.rounds),
                ],
                capture_output=True,
                text=True,
                check=True,
            )
    rates = json.loads(done.stdout.splitlines()[-1])
    per_round = args.calls // args.clients * args.clients
    made = 2 * (1 + args.rounds * per_round)  # warm-up call and rounds, agent and JSON
    assert rates["count"] == made, f"the counter says {rates['count']} after {made} updates"
    print(
        f"counter actor, {per_round} calls per round, {args.clients} concurrent callers, median of {args.rounds} rounds"
    )
    print(f"{'':8}{'JS agent calls/s':>18}{'JSON calls/s':>14}{'agent/JSON':>12}")
    for kind in ("update", "query"):
        agent, plain = statistics.median(rates["agent"][kind]), statistics.median(rates["json"][kind])
        print(f"{kind:8}{agent:18.0f}{plain:14.0f}{agent / plain:12.2f}")


if __name__ == "__main__":
    main()
