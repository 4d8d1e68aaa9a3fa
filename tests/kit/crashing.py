"""The procedure the crash tests follow: run a workload once without interruption, and once with
`kill -9` at random points, restarting moxzid on the same state directory each time; and the workload
of the device's crash tests, an actor training."""

import base64
import random
import threading
import time
import urllib.error
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from kit.daemon import Daemon, project, running_moxzid
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


def kill_by(daemon: Daemon, seconds: float, progress: Callable[[Daemon], int], reached: int) -> None:
    """kill -9 of ``daemon`` ``seconds`` from now, or sooner once ``progress(daemon)`` reaches ``reached``:
    a kill meant to land in the middle of some work must not count on how fast a machine does it."""
    kill_at = time.monotonic() + seconds
    while time.monotonic() < kill_at and progress(daemon) < reached:
        time.sleep(0.01)
    daemon.process.kill()


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
    total: int,
    uninterrupted_flags=None,
):
    """Returns (the uninterrupted run's result, the killed run's result, the progress seen at each
    restart, the last moxzid's log). Each kill comes a random time (``first_kill`` after starting the
    work, ``later_kills`` after each restart) into a run, or sooner once the work's progress is halfway
    from where it stood to ``total`` (its progress when done), so that no machine is quick enough to
    finish before a kill. The uninterrupted run has ``flags`` too unless ``uninterrupted_flags`` says
    otherwise."""
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
        kill_by(daemon, rng.uniform(*first_kill), progress, total // 2)
    seen = []
    for _ in range(restarts):  # the work carries on by itself after each restart, until killed again
        with running_moxzid(*flags, cwd=crashed) as daemon:
            seen.append(progress(daemon))
            kill_by(daemon, rng.uniform(*later_kills), progress, (seen[-1] + total) // 2)
    with running_moxzid(*flags, cwd=crashed) as daemon:
        result = finished(daemon)
        return expected, result, seen, daemon.log.read_text()


@dataclass(frozen=True)
class Training:
    """The device crash tests' workload: test actor ``actor`` (tests/actors: ``learn(steps)``, the query
    ``progress()`` with the losses so far, ``weights()`` its parameters) training for ``steps`` steps in
    the background. Its methods are what ``uninterrupted_and_crashed`` takes."""

    actor: str
    steps: int
    seconds: float  # the most that finishing may take, after a start or a restart

    def project(self, folder: Path) -> None:
        project(folder, self.actor)

    def start(self, daemon: Daemon) -> None:
        call_in_background(daemon, f"call-json/{self.actor}/learn", [self.steps])

    def losses(self, daemon: Daemon) -> list[float]:
        return call(daemon, f"query-json/{self.actor}/progress")[0]

    def progress(self, daemon: Daemon) -> int:
        return len(self.losses(daemon))

    def finished(self, daemon: Daemon) -> tuple[list[float], bytes]:
        """(every step's loss, the parameters' bytes) once all steps have run."""
        deadline = time.monotonic() + self.seconds
        while len(losses := self.losses(daemon)) < self.steps:
            assert time.monotonic() < deadline, f"stuck at {len(losses)} steps"
            time.sleep(0.05)
        return losses, base64.b64decode(call(daemon, f"call-json/{self.actor}/weights")[0])
