"""How soon a restarted moxzid serves a large state: the time from starting the process to its port
opening, to the first actor answering a query, and to every actor answering, for this checkout and a
baseline checkout (another worktree: ``git worktree add /tmp/mainref main``) on the same state.

    python3 bench/restart.py --baseline /tmp/mainref [--actors 6] [--mib 64] [--rounds 3]

The state is a stand-in for seed 000's (six actors, 666 MB): ``--actors`` copies of
bench/actors/ballast.mo, each holding ``--mib`` MiB of pseudo-random bytes (incompressible, as trained
weights nearly are), written once by this checkout's moxzid with ``-s`` and restarted by each side in
turn (the order alternating by round). No device: the stand-in measures the actors' part of a restart.
Prints the medians of ``--rounds`` rounds side by side.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
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


def restart(folder: Path, checkout_path: str, names: list[str]) -> tuple[float, float, float]:
    """(port open, first actor answering, every actor answering), seconds from starting moxzid."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "moxzi_core.daemon", "-m", "actors.json", "-s", "state"]
    command += ["--plugins", "http,lmdb", "--listen", f"127.0.0.1:{port}"]
    env = {**os.environ, "PYTHONPATH": checkout_path}
    started = time.perf_counter()
    process = subprocess.Popen(command, cwd=folder, env=env, stderr=subprocess.DEVNULL)
    opened, answered = None, {}
    try:
        while len(answered) < len(names):
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
                        if ask(f"{url}/query-json/{name}/size"):
                            answered[name] = time.perf_counter() - started
                    except (urllib.error.URLError, ConnectionError, TimeoutError):
                        pass
            time.sleep(POLL_SECONDS)
    finally:
        process.terminate()
        process.wait(timeout=60)
    return opened, min(answered.values()), max(answered.values())


def du_mb(path: Path) -> float:
    return int(subprocess.run(["du", "-sk", str(path)], capture_output=True, text=True).stdout.split()[0]) / 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, required=True, help="a checkout to compare against (main)")
    parser.add_argument("--actors", type=int, default=6)
    parser.add_argument("--mib", type=int, default=32, help="MiB of data per actor (its heap grows ~10x)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--workdir", type=Path, help="keep the state here, and use it if it is there")
    args = parser.parse_args()
    sides = {"baseline": python_path(args.baseline.resolve()), "this": python_path(ROOT)}
    with contextlib.ExitStack() as stack:
        folder = args.workdir or Path(stack.enter_context(tempfile.TemporaryDirectory()))
        folder.mkdir(parents=True, exist_ok=True)
        if (folder / "state").exists():
            names = [actor["name"] for actor in json.loads((folder / "actors.json").read_text())["actors"]]
        else:
            names = build_state(folder, args.actors, args.mib)
        print(f"state: {len(names)} ballast actors, {du_mb(folder / 'state'):.0f} MB on disk")
        times: dict[str, list[tuple[float, float, float]]] = {side: [] for side in sides}
        for round_ in range(args.rounds):
            order = list(sides) if round_ % 2 == 0 else list(reversed(sides))
            for side in order:
                times[side].append(restart(folder, sides[side], names))
                print(f"round {round_ + 1} {side}: " + ", ".join(f"{t:.2f}" for t in times[side][-1]), flush=True)
    print(f"\nmedians of {args.rounds} rounds, seconds from starting moxzid (baseline: {args.baseline})")
    print(f"{'':<28}{'baseline':>10}{'this':>10}{'ratio':>8}")
    for at, what in enumerate(("port open", "first actor answering", "every actor answering")):
        old, new = (statistics.median(t[at] for t in times[side]) for side in sides)
        print(f"{what:<28}{old:>10.2f}{new:>10.2f}{new / old:>8.2f}")


if __name__ == "__main__":
    main()
