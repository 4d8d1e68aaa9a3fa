"""moxzid as a separate process, the way users run it, and the small projects tests give it."""

import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from kit.actorbuild import BuiltActor, build_actor
from kit.http import Answer, request
from moxzi_core.build import BuildResult

THIRD_PARTY = Path(__file__).parent.parent / "thirdparty"  # see tests/thirdparty/README.md


@dataclass
class Daemon:
    process: subprocess.Popen
    url: str  # http://HOST:PORT of the http gateway
    log: Path  # its stderr

    def stop(self, signum=signal.SIGTERM) -> int:
        self.process.send_signal(signum)
        return self.process.wait(timeout=30)

    def kill(self) -> None:
        """As ``pkill -9 moxzid``."""
        self.process.kill()
        self.process.wait()

    def try_call(self, actor: str, method: str, *args, query: bool = False, timeout: float = 60) -> Answer:
        """(status, JSON answer) of ``POST /call-json/ACTOR/METHOD`` (``/query-json`` with ``query``)."""
        route = "query-json" if query else "call-json"
        return request(f"{self.url}/{route}/{actor}/{method}", list(args), timeout=timeout)

    def call(self, actor: str, method: str, *args, query: bool = False, timeout: float = 60):
        """The results of a call that must succeed."""
        status, answer = self.try_call(actor, method, *args, query=query, timeout=timeout)
        assert status == 200, (status, answer)
        return answer

    def reject(self, actor: str, method: str, *args) -> str:
        """The reject message of a call the actor must reject."""
        status, answer = self.try_call(actor, method, *args)
        assert status == 422, (status, answer)
        return answer["reject_message"]


def moxzid_env(third_party: bool = False) -> dict[str, str]:
    """The environment for a moxzid process; with ``third_party``, tests/thirdparty's plugins are found."""
    env = dict(os.environ)
    if third_party:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(THIRD_PARTY), env.get("PYTHONPATH")]))
    return env


def moxzid(*args, cwd=None, third_party: bool = False) -> subprocess.CompletedProcess:
    """moxzid run to its end (start-up errors, ``moxzid plugins``, ``--help``)."""
    return subprocess.run(
        [sys.executable, "-m", "moxzi_core.daemon", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        env=moxzid_env(third_party),
    )


def moxzi(*args: str, cwd=None, input: str | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
    """The moxzi command line run to its end, ``input`` on its stdin."""
    argv = [sys.executable, "-m", "moxzi_core.cli", *args]
    return subprocess.run(argv, cwd=cwd, input=input, capture_output=True, text=True, timeout=timeout)


READY = "actors ready in"  # what moxzid logs once start-up restored every actor


@contextlib.contextmanager
def running_moxzid(
    *args,
    cwd: Path,
    plugins: str = "http",
    third_party: bool = False,
    serving: str = r"serving on (http://\S+)",
    preexec_fn=None,
    ready: bool = True,
):
    """moxzid started with ``args`` (and ``--plugins PLUGINS --listen 127.0.0.1:0``), once its log shows
    ``serving`` (its first group is the Daemon's url) and, with ``ready``, that every actor runs (the
    port opens before); killed at exit if still running. ``preexec_fn`` runs in the child before
    moxzid does (to set its resource limits)."""
    log = cwd / "moxzid.log"
    listen = ["--listen", "127.0.0.1:0"] if "http" in plugins.split(",") else []
    with log.open("w") as stderr:
        process = subprocess.Popen(
            [sys.executable, "-m", "moxzi_core.daemon", "--plugins", plugins, *listen, *args],
            cwd=cwd,
            stdout=subprocess.DEVNULL,
            stderr=stderr,
            env=moxzid_env(third_party),
            preexec_fn=preexec_fn,
        )
    try:
        deadline = time.monotonic() + 60
        while not (found := re.search(serving, log.read_text())) or (ready and READY not in log.read_text()):
            assert process.poll() is None, f"moxzid exited {process.returncode}:\n{log.read_text()}"
            assert time.monotonic() < deadline, f"moxzid did not start serving:\n{log.read_text()}"
            time.sleep(0.05)
        yield Daemon(process, found.group(1), log)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def project(
    folder: Path, *actors: str, controllers: tuple[str, ...] = (), **hosted: str | BuiltActor | BuildResult
) -> Path:
    """``folder`` with a manifest (actors.json) and each actor's wasm and .did; the manifest. Each of
    ``actors`` is a test actor (tests/actors/NAME.mo) hosted under its own name; ``NAME=ACTOR`` hosts
    ACTOR under NAME, ACTOR being a test actor's name or a build's output (moxzi_core.build) made
    outside ``folder``. ``controllers`` (principals' text) control every actor the manifest names."""
    entries = []
    for name, actor in {**{actor: actor for actor in actors}, **hosted}.items():
        built = build_actor(actor) if isinstance(actor, str) else actor
        shutil.copy(built.wasm_path, folder / f"{name}.wasm")
        shutil.copy(built.did_path, folder / f"{name}.did")
        entries.append(
            {"name": name, "wasm": f"{name}.wasm", **({"controllers": list(controllers)} if controllers else {})}
        )
    (folder / "actors.json").write_text(json.dumps({"actors": entries}))
    return folder / "actors.json"
