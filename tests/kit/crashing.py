"""The procedure both crash tests follow: run a workload once without interruption, and once with
`kill -9` at random points, restarting moxzid on the same state directory each time."""

import random
import threading
import time
import urllib.error
from collections.abc import Callable
from pathlib import Path

from kit.daemon import Daemon, running_moxzid
from kit.http import request

# moxzid on a state directory with the torch device, copied into the store after nearly every device
# call, so that kills land during copies too.
DEVICE_COPIED_EACH_CALL = (
    "-m",
    "actors.json",
    "-s",
    "state",
    "--plugins",
    "http,lmdb,torch",
    "--device",
    "torch:cpu",
    "--device-checkpoint-secs",
    "0",
    "--device-checkpoint-mb",
    "0.001",
)


def call(daemon: Daemon, route: str, args=(), timeout=120):
    """The results of ``POST /ROUTE`` (``call-json/ACTOR/METHOD``), which must succeed."""
    status, answer = request(f"{daemon.url}/{route}", list(args), timeout=timeout)
    assert status == 200, answer
    return answer


def call_in_background(daemon: Daemon, route: str, args=(), timeout=300) -> None:
    """``POST /ROUTE`` on a thread of its own, for a call that a kill -9 of ``daemon`` may cut off: the
    call was recorded and carries on after the restart, so nothing waits for its answer here."""

    def post():
        try:
            request(f"{daemon.url}/{route}", list(args), timeout=timeout)
        except (urllib.error.URLError, ConnectionError, OSError):
            pass  # the daemon was killed under it

    threading.Thread(target=post, daemon=True).start()


def uninterrupted_and_crashed(
    tmp_path: Path,
    flags,
    project: Callable[[Path], None],
    start: Callable[[Daemon], None],
    progress: Callable[[Daemon], int],
    finished: Callable[[Daemon], object],
    *,
    seed: int,
    first_kill: tuple,
    later_kills: tuple,
    restarts: int,
    uninterrupted_flags=None,
):
    """Returns (the uninterrupted run's result, the killed run's result, the progress seen at each
    restart, the last moxzid's log). Each kill comes a random time (``first_kill`` after starting the
    work, ``later_kills`` after each restart) into a run. The uninterrupted run has ``flags`` too unless
    ``uninterrupted_flags`` says otherwise."""
    uninterrupted, crashed = tmp_path / "uninterrupted", tmp_path / "crashed"
    for folder in (uninterrupted, crashed):
        folder.mkdir()
        project(folder)
    with running_moxzid(*(uninterrupted_flags or flags), cwd=uninterrupted) as daemon:
        start(daemon)
        expected = finished(daemon)

    rng = random.Random(seed)
    with running_moxzid(*flags, cwd=crashed) as daemon:
        start(daemon)
        time.sleep(rng.uniform(*first_kill))
        daemon.process.kill()
    seen = []
    for _ in range(restarts):  # the work carries on by itself after each restart, until killed again
        with running_moxzid(*flags, cwd=crashed) as daemon:
            seen.append(progress(daemon))
            time.sleep(rng.uniform(*later_kills))
            daemon.process.kill()
    with running_moxzid(*flags, cwd=crashed) as daemon:
        result = finished(daemon)
        return expected, result, seen, daemon.log.read_text()
