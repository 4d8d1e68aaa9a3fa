"""How soon a restarted moxzid serves a large state: the time from starting the process to its port
opening, to the first actor answering a query, and to every actor answering, for this checkout and a
baseline checkout (another worktree: ``git worktree add /tmp/mainref main``) on the same state.

    python3 bench/restart.py --baseline /tmp/mainref [--actors 6] [--mib 64] [--rounds 3] [--stages]

The state is a stand-in for seed 000's (six actors, 666 MB): ``--actors`` copies of
bench/actors/ballast.mo, each holding ``--mib`` MiB of pseudo-random bytes (incompressible, as trained
weights nearly are), written once by this checkout's moxzid with ``-s`` and restarted by each side in
turn (the order alternating by round). No device: the stand-in measures the actors' part of a restart.
Prints the medians of ``--rounds`` rounds side by side. ``--stages`` prints, instead, what restoring one
actor costs each side in CPU seconds by stage (`stages`), a measure a loaded machine disturbs less than
the seconds until actors answer.

``--seed-state FOLDER`` restarts instead seed 000's own state: a folder that
``bench/state_size.py islands --seed --workdir FOLDER`` left (actors.json, the actors, state/), with
the torch device; ``--baseline-state`` is the baseline's (the same flow run by the baseline's code; by
default the same folder). Each round restarts a copy, so neither side changes what the other reads. The
actors answering are those with a ``status`` query (the trainer and the islands); "ready" is when
``GET /health`` says every actor and the device are back.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

from moxzid import build_actor, python_path, serving

ROOT = Path(__file__).resolve().parent.parent
FILL_MIB = 8  # per call: the collector runs between messages, so the heap holds little garbage
POLL_SECONDS = 0.05


def build_state(folder: Path, actors: int, mib: int) -> list[str]:
    """``folder``/state holding ``actors`` ballast actors of ``mib`` MiB each; their names."""
    built = build_actor("ballast", directory=ROOT / "bench" / "actors")
    names = [f"model{i}" for i in range(actors)]
    with serving(folder, "-s", "state", plugins="http,lmdb", **dict.fromkeys(names, built)) as daemon:
        for name in names:
            for _ in range(0, mib, FILL_MIB):
                ask(f"{daemon.url}/call-json/{name}/fill", f"[{FILL_MIB}]", timeout=600)
    return names


def ask(url: str, body: str = "[]", timeout: float = 5) -> bool:
    """Whether a POST of ``body`` answers 200."""
    request = urllib.request.Request(url, data=body.encode(), headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            return answer.status == 200
    except urllib.error.HTTPError:
        return False


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def restart(
    folder: Path,
    checkout_path: str,
    names: list[str],
    method: str = "size",
    flags: tuple[str, ...] = ("--plugins", "http,lmdb"),
) -> tuple[float, float, float, float]:
    """(port open, first actor answering ``method``, every actor answering, ready), seconds from starting
    moxzid."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "moxzi_core.daemon", "-m", "actors.json", "-s", "state"]
    command += [*flags, "--listen", f"127.0.0.1:{port}"]
    env = {**os.environ, "PYTHONPATH": checkout_path}
    started = time.perf_counter()
    process = subprocess.Popen(command, cwd=folder, env=env, stderr=subprocess.DEVNULL)
    opened, answered, ready = None, {}, None
    try:
        while len(answered) < len(names) or ready is None:
            assert process.poll() is None, f"moxzid exited {process.returncode}"
            assert time.perf_counter() - started < 600, "moxzid did not serve every actor in 600 s"
            if opened is None:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    opened = time.perf_counter() - started
                except OSError:
                    time.sleep(POLL_SECONDS)
                    continue
            for name in names:
                if name not in answered:
                    try:
                        if ask(f"{url}/query-json/{name}/{method}"):
                            answered[name] = time.perf_counter() - started
                    except (urllib.error.URLError, ConnectionError, TimeoutError):
                        pass
            if ready is None and is_ready(url):
                ready = time.perf_counter() - started
            time.sleep(POLL_SECONDS)
    finally:
        process.terminate()
        process.wait(timeout=60)
    return opened, min(answered.values()), max(answered.values()), ready


def is_ready(url: str) -> bool:
    """Whether ``GET /health`` says moxzid restored every actor and the device."""
    try:
        with urllib.request.urlopen(f"{url}/health", timeout=5) as answer:
            return b"ready" in answer.read()
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return False


def restart_copy(folder: Path, checkout_path: str) -> tuple[float, float, float, float]:
    """`restart` on a copy of seed 000's ``folder``, with the torch device, timing its trainers' ``status``."""
    trainers = [
        actor["name"]
        for actor in json.loads((folder / "actors.json").read_text())["actors"]
        if " status:" in (folder / actor["wasm"]).with_suffix(".did").read_text()
    ]
    with tempfile.TemporaryDirectory(dir=folder.parent) as scratch:
        copy = Path(scratch) / folder.name
        shutil.copytree(folder, copy)
        flags = ("--plugins", "http,lmdb,torch", "--device", "torch:cpu")
        return restart(copy, checkout_path, trainers, "status", flags)


STAGES = ("reading from LMDB", "instantiating", "restoring its memories", "its first query replica")


def stages(state: Path, rounds: int) -> None:
    """Print (JSON) the medians of ``rounds`` restores, an actor at a time, of each stage's CPU seconds
    (its page faults included), the code being the one on ``sys.path``; preparing the module, once, last."""
    from moxzi_core.runtime.clock import Clock
    from moxzi_core.runtime.engine import Limits
    from moxzi_core.runtime.journal import Journal
    from moxzi_core.runtime.modules import Modules
    from moxzi_store_lmdb.store import LmdbStore

    journal = Journal(LmdbStore(state))
    modules = Modules(Limits(), journal, Clock())
    names = journal.actor_names()
    times: dict[str, list[float]] = {stage: [] for stage in STAGES}
    prepare = 0.0
    for round_ in range(rounds):
        name = names[round_ % len(names)]
        at = [time.process_time()]
        saved = journal.load(name)
        assert saved is not None and saved.state["module"] is not None, f"{name} has code"
        module = saved.state["module"]
        if round_ == 0:
            modules.remember(module, journal.module(module), name)
            prepare = time.process_time() - at[0]
            at[0] = time.process_time()
        at.append(time.process_time())
        instance = modules.instantiate(module, name, b"", bytes(saved.stable.over(b"")))
        at.append(time.process_time())
        instance.restore(saved.state, saved.memory)
        at.append(time.process_time())
        modules.instantiate(module, name, b"", replica=True).follow(instance, None, None)
        at.append(time.process_time())
        for stage, start, end in zip(STAGES, at, at[1:]):
            times[stage].append(end - start)
    print(json.dumps({**{s: statistics.median(t) for s, t in times.items()}, "preparing the module": prepare}))


def stages_side_by_side(state: Path, sides: dict[str, str], rounds: int) -> None:
    measured = {}
    for side, path in sides.items():
        command = [sys.executable, __file__, "--baseline", ".", "--stages-of", str(state), "--rounds", str(rounds)]
        answer = subprocess.run(command, env={**os.environ, "PYTHONPATH": path}, capture_output=True, text=True)
        assert answer.returncode == 0, answer.stderr
        measured[side] = json.loads(answer.stdout.splitlines()[-1])
    print(f"\nCPU seconds restoring one actor, medians of {rounds} (the module's preparation: once)")
    print(f"{'':<28}{'baseline':>10}{'this':>10}{'ratio':>8}")
    for stage in [*STAGES, "preparing the module"]:
        old, new = measured["baseline"][stage], measured["this"][stage]
        print(f"{stage:<28}{old:>10.3f}{new:>10.3f}{new / max(old, 1e-9):>8.2f}")


def du_mb(path: Path) -> float:
    return int(subprocess.run(["du", "-sk", str(path)], capture_output=True, text=True).stdout.split()[0]) / 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, required=True, help="a checkout to compare against (main)")
    parser.add_argument("--actors", type=int, default=6)
    parser.add_argument("--mib", type=int, default=32, help="MiB of data per actor (its heap grows ~10x)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--workdir", type=Path, help="keep the state here, and use it if it is there")
    parser.add_argument("--stages", action="store_true", help="CPU seconds per stage of one actor's restore")
    parser.add_argument("--seed-state", type=Path, help="restart this folder of seed 000's (see above) instead")
    parser.add_argument(
        "--baseline-state", type=Path, help="the baseline's folder of seed 000's (default: --seed-state)"
    )
    parser.add_argument("--stages-of", type=Path, help=argparse.SUPPRESS)  # (one side's, in its own process)
    args = parser.parse_args()
    if args.stages_of:
        stages(args.stages_of, args.rounds)
        return
    sides = {"baseline": python_path(args.baseline.resolve()), "this": python_path(ROOT)}
    if args.seed_state:
        folders = {"baseline": (args.baseline_state or args.seed_state).resolve(), "this": args.seed_state.resolve()}
        print(", ".join(f"{side}: {du_mb(folder / 'state'):.0f} MB on disk" for side, folder in folders.items()))
        side_by_side(list(sides), args.rounds, lambda side: restart_copy(folders[side], sides[side]), args.baseline)
        return
    with contextlib.ExitStack() as stack:
        folder = args.workdir or Path(stack.enter_context(tempfile.TemporaryDirectory()))
        folder.mkdir(parents=True, exist_ok=True)
        if (folder / "state").exists():
            names = [actor["name"] for actor in json.loads((folder / "actors.json").read_text())["actors"]]
        else:
            names = build_state(folder, args.actors, args.mib)
        print(f"state: {len(names)} ballast actors, {du_mb(folder / 'state'):.0f} MB on disk")
        if args.stages:
            stages_side_by_side(folder / "state", sides, args.rounds)
            return
        side_by_side(list(sides), args.rounds, lambda side: restart(folder, sides[side], names), args.baseline)


def side_by_side(sides: list[str], rounds: int, restarted, baseline: Path) -> None:
    """Run ``restarted(side)`` for each side ``rounds`` times, the order alternating by round, printing
    each round's times and then their medians side by side."""
    times: dict[str, list[tuple[float, ...]]] = {side: [] for side in sides}
    for round_ in range(rounds):
        for side in sides if round_ % 2 == 0 else reversed(sides):
            times[side].append(restarted(side))
            print(f"round {round_ + 1} {side}: " + ", ".join(f"{t:.2f}" for t in times[side][-1]), flush=True)
    print(f"\nmedians of {rounds} rounds, seconds from starting moxzid (baseline: {baseline})")
    print(f"{'':<28}{'baseline':>10}{'this':>10}{'ratio':>8}")
    for at, what in enumerate(("port open", "first actor answering", "every actor answering", "ready (GET /health)")):
        old, new = (statistics.median(t[at] for t in times[side]) for side in sides)
        print(f"{what:<28}{old:>10.2f}{new:>10.2f}{new / old:>8.2f}")


if __name__ == "__main__":
    main()
