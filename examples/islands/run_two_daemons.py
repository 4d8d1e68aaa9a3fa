#!/usr/bin/env python3
"""The four islands of "Serve and train with several actors" on two moxzid, two islands on each, as if
on two machines: 25 rounds in which every island trains 10 steps on its own batches, shares its
weights, offers them as a URL (moxzi_device_export, two downloads) and averages its own, its peer's on
the same daemon and the two fetched from the other daemon (moxzi_device_fetch). Then, for comparison,
the same islands on one moxzid (island0.lead, as run_islands.py). Prints both val losses at step 250;
exits 1 if the two-daemon islands do not come within 0.05 of the single-daemon ones.

    python3 examples/islands/run_two_daemons.py [TEXT] [--device torch:cpu] [--workdir DIR] [--port N]
"""

from __future__ import annotations

import concurrent.futures
import functools
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
SAME_WITHIN = 0.05  # val loss


def val_loss(evaluation: str) -> float:
    return float(re.search(r"val loss (\S+)", evaluation).group(1))


def across(workdir: Path, manifest: Path, text: str, device: str, port: int) -> str:
    """25 rounds with island0, island1 on one moxzid and island2, island3 on another; island0's evaluation."""
    with (
        Moxzid(
            manifest,
            workdir / "here.log",
            state=workdir / "here",
            device=device,
            device_listen="127.0.0.1:0",
            port=port,
        ) as here,
        Moxzid(
            manifest,
            workdir / "there.log",
            state=workdir / "there",
            device=device,
            device_listen="127.0.0.1:0",
            port=port and port + 1,
        ) as there,
    ):
        home = {"island0": here, "island1": here, "island2": there, "island3": there}
        for i, island in enumerate(ISLANDS):
            say(
                f"{island}.load on {'here' if home[island] is here else 'there'}: "
                f"{home[island].call(island, 'load', text)[0]}"
            )
            home[island].call(island, "setIsland", i)
        ids = {island: home[island].query(island, "id")[0] for island in ISLANDS}
        started = time.monotonic()
        with concurrent.futures.ThreadPoolExecutor(len(ISLANDS)) as pool:
            for round_ in range(ROUNDS):
                list(pool.map(lambda island: home[island].call(island, "train", EVERY), ISLANDS))
                for island in ISLANDS:
                    home[island].call(island, "share")
                offers = {island: home[island].call(island, "offer", 2)[0] for island in ISLANDS}

                list(pool.map(functools.partial(average, home, ids, offers), ISLANDS))
                if (round_ + 1) % 5 == 0:
                    say(f"  round {round_ + 1}: {time.monotonic() - started:.0f} s")
        return here.call("island0", "evaluate")[0]


def average(home: dict, ids: dict, offers: dict, island: str) -> None:
    """`island` averages with its peer on the same moxzid and the two islands of the other."""
    near = [ids[p] for p in ISLANDS if p != island and home[p] is home[island]]
    far = [offers[p] for p in ISLANDS if home[p] is not home[island]]
    home[island].call(island, "averageAcross", near, far)


def together(workdir: Path, manifest: Path, text: str, device: str, port: int) -> str:
    """The same islands on one moxzid, led by island0 (run_islands.py); island0's evaluation."""
    with Moxzid(manifest, workdir / "one.log", state=workdir / "one", device=device, port=port) as daemon:
        for i, island in enumerate(ISLANDS):
            daemon.call(island, "load", text)
            daemon.call(island, "setIsland", i)
        peers = [daemon.query(island, "id")[0] for island in ISLANDS[1:]]
        return daemon.call("island0", "lead", peers, ROUNDS, EVERY, timeout=LEAD_SECONDS)[0]


def main() -> int:
    args, text, workdir = text_example(__doc__, "islands-two-")
    manifest = build_example([EXAMPLE / "trainer.mo", EXAMPLE / "writer.mo"], EXAMPLE / "actors.json", workdir)

    started = time.monotonic()
    two = across(workdir, manifest, text, args.device, args.port)
    say(f"islands on two moxzid: {two}  ({time.monotonic() - started:.0f} s)")
    started = time.monotonic()
    one = together(workdir, manifest, text, args.device, args.port)
    say(f"islands on one moxzid: {one}  ({time.monotonic() - started:.0f} s)")

    if abs(val_loss(two) - val_loss(one)) > SAME_WITHIN:
        say(f"FAILED: the val losses differ by more than {SAME_WITHIN} (logs in {workdir})")
        return 1
    say(f"the islands across two moxzid reach the val loss of the islands on one (within {SAME_WITHIN})")
    if args.workdir is None:
        shutil.rmtree(workdir)
    return 0


if __name__ == "__main__":
    run(main)
