"""moxzid as a child process, for the example scripts: build actors, start moxzid on a manifest, call
and upgrade its actors (through moxzi_core.client), stop it or kill it with SIGKILL.

The scripts of examples/letters, examples/shakespeare and examples/islands import it from here too.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Self

from moxzi_core.client import CallError, Client

START_SECONDS = 120
TRAINING_SECONDS = 1800  # the longest wait for a training target
STEP = re.compile(r"step (\d+)\b")
SHAKESPEARE = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "tinyshakespeare.txt"


def say(line: str) -> None:
    print(line, flush=True)


def run(main) -> None:
    """Exit with main()'s status. A RuntimeError (moxzid exited, a call was rejected or got no answer)
    is a failed run: its message is printed and the status is 1."""
    try:
        status = main()
    except RuntimeError as error:
        say(f"FAILED: {error}")
        status = 1
    sys.exit(status)


def add_port_option(parser: argparse.ArgumentParser) -> None:
    """``--port N``: the port moxzid's HTTP gateway serves on (``args.port``, 0 for a free one)."""
    parser.add_argument(
        "--port",
        type=int,
        default=0,
        help="serve moxzid's HTTP gateway on 127.0.0.1:PORT, to call its actors while the script "
        "runs (default: a free port; a second moxzid running at the same time gets PORT+1)",
    )


def text_example(doc: str, prefix: str, add_options=None) -> tuple[argparse.Namespace, str, Path]:
    """The command line the device examples share (a text file, --device, --workdir, --port, and what
    ``add_options(parser)`` adds): the parsed options, the text, and the work folder (made if needed)."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument(
        "text",
        nargs="?",
        type=Path,
        default=SHAKESPEARE,
        help="the text (default: ../shared/data/tinyshakespeare.txt from the repo root)",
    )
    parser.add_argument("--device", default="torch:cpu", help="the device backend (default torch:cpu)")
    parser.add_argument(
        "--workdir",
        type=Path,
        help="where to build and keep the state and the log (default: a temporary folder, removed after a pass)",
    )
    add_port_option(parser)
    if add_options is not None:
        add_options(parser)
    args = parser.parse_args()
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix=prefix))
    workdir.mkdir(parents=True, exist_ok=True)
    return args, args.text.read_text(), workdir


def build_example(sources: list[Path], manifest: Path, workdir: Path) -> Path:
    """Compile `sources` into `workdir` (in parallel) beside a copy of `manifest`; return the copy."""
    from moxzi_core.build import build

    say(f"building {', '.join(source.name for source in sources)}")
    with concurrent.futures.ThreadPoolExecutor(len(sources)) as pool:
        for result in pool.map(lambda source: build(source, out_dir=workdir), sources):
            say(f"  {result.wasm_path.name}: {result.wasm_size} bytes, {result.seconds:.1f}s")
    return Path(shutil.copy(manifest, workdir / manifest.name))


class Moxzid:
    """``moxzid -m MANIFEST [-s STATE] [--device DEVICE] [--device-listen ADDRESS]`` on 127.0.0.1:`port`
    (0: a free port), its output appended to `log_path`. Use as a context manager, or call start() and
    stop()."""

    def __init__(
        self,
        manifest: Path,
        log_path: Path,
        *,
        state: Path | None = None,
        device: str | None = None,
        device_listen: str | None = None,
        port: int = 0,
    ):
        self.manifest = manifest
        self.log_path = log_path
        self.state = state
        self.device = device
        self.device_listen = device_listen
        self.port = port or _free_port()
        self.client = Client(f"http://127.0.0.1:{self.port}")
        self.process: subprocess.Popen | None = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def start(self) -> Self:
        """Start moxzid and return once every actor answers; raise RuntimeError if it exits first."""
        command = [
            sys.executable,
            "-m",
            "moxzi_core.daemon",
            "-m",
            str(self.manifest),
            "--listen",
            f"127.0.0.1:{self.port}",
        ]
        if self.state is not None:
            command += ["-s", str(self.state)]
        if self.device is not None:
            command += ["--device", self.device]
        if self.device_listen is not None:
            command += ["--device-listen", self.device_listen]
        with open(self.log_path, "a") as log:
            log.write(f"$ {' '.join(command)}\n")
            log.flush()
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            self._check_alive()
            try:
                self.client.health()  # (503 while it restores the actors)
                say(f"moxzid serves on {self.client.url} (log: {self.log_path})")
                return self
            except CallError:
                time.sleep(0.2)
        raise RuntimeError(f"moxzid did not start serving within {START_SECONDS} s; see {self.log_path}")

    def kill9(self) -> None:
        """SIGKILL, as `pkill -9 moxzid` would: no chance to save anything."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill9()

    def call(self, actor: str, method: str, *args, timeout: float = 600):
        """The results of an update call (moxzi_core.client; its CallError is a RuntimeError)."""
        self._check_alive()
        return self.client.call(actor, method, *args, timeout=timeout)

    def query(self, actor: str, method: str, *args):
        self._check_alive()
        return self.client.query(actor, method, *args)

    def upgrade(self, actor: str, wasm: Path, timeout: float = 120) -> str:
        self._check_alive()
        return self.client.upgrade(actor, wasm, timeout=timeout)

    def _check_alive(self) -> None:
        if self.process.poll() is not None:
            tail = self.log_path.read_text().splitlines()[-15:]
            raise RuntimeError(f"moxzid exited with status {self.process.returncode}:\n" + "\n".join(tail))


def wait_for_step(daemon: Moxzid, actor: str, target: int, *, beyond: bool = False) -> str:
    """Poll `actor`'s status query ("step N ...") until N is `target`, or past it with `beyond`;
    print it every 100 steps. Returns the last status."""
    deadline = time.monotonic() + TRAINING_SECONDS
    shown = -1
    while time.monotonic() < deadline:
        status = daemon.query(actor, "status")[0]
        step = int(STEP.match(status).group(1))
        if step // 100 != shown // 100 or step == target:
            say(f"  {status}")
            shown = step
        if step == target or (beyond and step > target):
            return status
        time.sleep(0.25)
    raise RuntimeError(f"{actor}: step {target} not reached in {TRAINING_SECONDS} s; see {daemon.log_path}")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
