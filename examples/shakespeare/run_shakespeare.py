#!/usr/bin/env python3
"""The Shakespeare GPT of "Train a Shakespeare GPT on the GPU", run against moxzid with a tensor device
and a state directory, as the seed runs it (`moxzid -m actors.json -s ./state --device ...`):
load tiny Shakespeare, train 2,000 steps (evaluating at 1,000 and 2,000), then generate 500
characters, as the seed does and with a key/value cache (generateCached). Exits 1 if the validation
loss after training is above 1.75 (the seed: 1.7135).

    python3 examples/shakespeare/run_shakespeare.py [TEXT] [--device torch:cpu] [--workdir DIR] [--port N]
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

STEPS = 2000
EVALUATE_EVERY = 1000
CALL_STEPS = 100  # steps per train call: one call per progress line
MAX_VAL_LOSS = 1.75


def main() -> int:
    args, text, workdir = text_example(__doc__, "shakespeare-")

    manifest = build_example([EXAMPLE / "gpt.mo"], EXAMPLE / "actors.json", workdir)
    with Moxzid(
        manifest, workdir / "moxzid.log", state=workdir / "state", device=args.device, port=args.port
    ) as daemon:
        say(f"load: {daemon.call('gpt', 'load', text)[0]}")
        started = time.monotonic()
        evaluation = ""
        for done in range(CALL_STEPS, STEPS + 1, CALL_STEPS):
            status = daemon.call("gpt", "train", CALL_STEPS)[0]
            say(f"  {status}  ({(time.monotonic() - started) / done * 1000:.0f} ms/step)")
            if done % EVALUATE_EVERY == 0:
                evaluation = daemon.call("gpt", "evaluate")[0]
                say(evaluation)
        say(f"{STEPS} steps in {time.monotonic() - started:.0f} s (with the evaluations)")
        say("generate(500, 0.8):")
        say(daemon.call("gpt", "generate", 500, 0.8)[0])
        say("generateCached(500, 0.8), with a key/value cache on the device:")
        say(daemon.call("gpt", "generateCached", 500, 0.8)[0])

    val_loss = float(re.search(r"val loss (\S+)", evaluation).group(1))
    if val_loss > MAX_VAL_LOSS:
        say(f"FAILED: val loss {val_loss:.4f} is above {MAX_VAL_LOSS} (log in {workdir})")
        return 1
    if args.workdir is None:
        shutil.rmtree(workdir)
    return 0


if __name__ == "__main__":
    run(main)
