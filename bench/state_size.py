"""How large the state directory grows: the seeds' training flows run against moxzid with ``-s`` on a
tensor device, the directory's size (and the actors' wasm memory) printed after each stage.

    python3 bench/state_size.py gpt [--seed] [--steps 500] [--device torch:cpu] [--workdir DIR]
    python3 bench/state_size.py islands [--seed] [--steps 500] [--device torch:cpu] [--workdir DIR]

``gpt``: seed 003's Shakespeare GPT (examples/shakespeare; with ``--seed``, the tutorial's gpt.mo as it
writes it, bench/actors/seed003): ``load`` the text, then train ``--steps``.
``islands``: seed 000's six actors (examples/islands): every trainer loads the text, the writer follows
the trainer and writes, the trainer trains ``--steps`` in the background, then island0 leads the
islands through rounds of 10 steps (``--steps`` / 2 each). With ``--seed``, the tutorial's trainer.mo and
writer.mo as it writes them (bench/actors/seed000) in its order: the trainer loads and trains in the
background to ``--steps`` / 4 (the tutorial's 250 of 1,000), the writer follows and writes, the trainer
trains on to ``--steps`` and the writer writes again, then the four islands load and island0 leads them
through ``--rounds`` rounds of 10 steps (the tutorial's 25). Sizes are the bytes the directory's files
take on disk (``du``), and the data file's length, after each stage, again once moxzid has been idle
``--idle`` seconds (the LMDB store gives its free pages back once idle), and once it stopped;
bench/state_breakdown.py then tells where they go.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "examples" / "microgpt"))
from moxzid_child import SHAKESPEARE, Moxzid, build_example, say, wait_for_step  # noqa: E402

ISLANDS = [f"island{i}" for i in range(4)]


def du(path: Path, *flags: str) -> int:
    return int(subprocess.run(["du", *flags, str(path)], capture_output=True, text=True, check=True).stdout.split()[0])


def report(stage: str, daemon: Moxzid | None, state: Path) -> None:
    """The directory's size; with ``daemon`` (running), the actors' wasm memory too."""
    used, on_disk = du(state, "-sb", "--apparent-size"), du(state, "-sk") << 10
    data = (state / "data.mdb").stat().st_size
    memory = 0.0
    if daemon is not None:
        with urllib.request.urlopen(f"{daemon.client.url}/metrics") as answer:  # the console plugin's
            metrics = answer.read().decode()
        memory = sum(float(m) for m in re.findall(r"^moxzi_actor_memory_bytes\{[^}]*\} (\S+)", metrics, re.M))
    line = f"{stage}: state {on_disk / 1e6:.0f} MB on disk ({used / 1e6:.0f} MB of files), data.mdb {data / 1e6:.0f} MB"
    if memory:
        line += f"; actors' wasm memory {memory / 2**20:.0f} MiB"
    say(line)


def gpt(daemon: Moxzid, state: Path, text: str, steps: int) -> None:
    say(f"load: {daemon.call('gpt', 'load', text)[0]}")
    report("after load", daemon, state)
    for _ in range(0, steps, 100):
        say(f"  {daemon.call('gpt', 'train', min(100, steps))[0]}")
    report(f"after {steps} steps", daemon, state)


def islands(daemon: Moxzid, state: Path, text: str, steps: int) -> None:
    for actor in ["trainer", *ISLANDS]:
        daemon.call(actor, "load", text)
    for i, island in enumerate(ISLANDS):
        daemon.call(island, "setIsland", i)
    report("after the five loads", daemon, state)
    daemon.call("writer", "follow", daemon.query("trainer", "id")[0])
    daemon.call("trainer", "trainInBackground", steps)
    wait_for_step(daemon, "trainer", steps)
    daemon.call("writer", "write", 200, 0.8)
    report(f"after the trainer's {steps} steps and a write", daemon, state)
    peers = [daemon.query(island, "id")[0] for island in ISLANDS[1:]]
    say(daemon.call("island0", "lead", peers, steps // 20, 10, timeout=3600)[0])
    report(f"after the islands' {steps // 20} rounds of 10 steps", daemon, state)


def islands_seed(daemon: Moxzid, state: Path, text: str, steps: int, rounds: int) -> None:
    say(f"load: {daemon.call('trainer', 'load', text)[0]}")
    daemon.call("writer", "follow", daemon.query("trainer", "id")[0])
    for target in (steps // 4, steps):
        daemon.call("trainer", "trainInBackground", target)
        wait_for_step(daemon, "trainer", target)
        daemon.call("writer", "write", 200, 0.8)
    report(f"after the trainer's {steps} steps and the writer's writes", daemon, state)
    for i, island in enumerate(ISLANDS):
        daemon.call(island, "load", text)
        daemon.call(island, "setIsland", i)
    report("after the islands' loads", daemon, state)
    peers = [daemon.query(island, "id")[0] for island in ISLANDS[1:]]
    say(daemon.call("island0", "lead", peers, rounds, 10, timeout=3600)[0])
    report(f"after the islands' {rounds} rounds of 10 steps", daemon, state)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("flow", choices=["gpt", "islands"])
    parser.add_argument("--steps", type=int, default=500)
    parser.add_argument("--device", default="torch:cpu")
    parser.add_argument("--workdir", type=Path)
    parser.add_argument("--text", type=Path, default=SHAKESPEARE)
    parser.add_argument("--idle", type=float, default=5.0, help="seconds idle before the last report while it runs")
    parser.add_argument(
        "--seed", action="store_true", help="the tutorial's actors as written (bench/actors/seed003, seed000)"
    )
    parser.add_argument("--rounds", type=int, default=25, help="islands --seed: the islands' rounds of 10 steps")
    args = parser.parse_args()
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix=f"state-size-{args.flow}-"))
    workdir.mkdir(parents=True, exist_ok=True)
    if args.flow == "gpt":
        actor = ROOT / ("bench/actors/seed003" if args.seed else "examples/shakespeare") / "gpt.mo"
        sources, manifest = [actor], ROOT / "examples/shakespeare/actors.json"
    else:
        actors = ROOT / ("bench/actors/seed000" if args.seed else "examples/islands")
        sources = [actors / "trainer.mo", actors / "writer.mo"]
        manifest = ROOT / "examples/islands/actors.json"
    built = build_example(sources, manifest, workdir)
    state = workdir / "state"
    started = time.monotonic()
    with Moxzid(built, workdir / "moxzid.log", state=state, device=args.device) as daemon:
        text = args.text.read_text()
        if args.flow == "gpt":
            gpt(daemon, state, text, args.steps)
        elif args.seed:
            islands_seed(daemon, state, text, args.steps, args.rounds)
        else:
            islands(daemon, state, text, args.steps)
        time.sleep(args.idle)
        report(f"after {args.idle:g} s idle", daemon, state)
    report("stopped", None, state)
    say(f"{time.monotonic() - started:.0f} s; state in {state}")


if __name__ == "__main__":
    main()
