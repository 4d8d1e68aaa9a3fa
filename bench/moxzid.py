"""moxzid as a process for the benches: actors in a folder with their manifest, moxzid started on it once
it serves, stopped at the end, and its memory and CPU time read while it runs.

Starting moxzid, waiting for its port and building the test actors have one home, the tests' kit
(tests/kit/daemon.py, tests/kit/actorbuild.py, whose build cache the benches share); this module puts
tests/ on the path once and adds what only the benches need. A bench imports it as ``moxzid`` (the
folder of the script being run, bench/, is on the path).
"""

import contextlib
import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from kit.actorbuild import BuiltActor, build_actor  # noqa: E402
from kit.daemon import Daemon, project, running_moxzid  # noqa: E402

from moxzi_core.build import BuildResult  # noqa: E402

__all__ = ["build_actor", "code_of", "cpu_seconds", "memory_mib", "project", "python_path", "running_moxzid", "serving"]


def python_path(checkout: Path) -> str:
    """PYTHONPATH for moxzid from ``checkout``: the core and every plugin (as a development worktree sets it)."""
    plugins = sorted(str(p) for p in (checkout / "plugins").iterdir() if p.is_dir())
    return os.pathsep.join([str(checkout), *plugins, str(checkout / "tests" / "thirdparty_op")])


@contextlib.contextmanager
def code_of(checkout: Path | None) -> Iterator[None]:
    """moxzid processes started inside run ``checkout``'s code (its core and plugins), or this one's (None:
    as the environment has it)."""
    if checkout is None:
        yield
        return
    before = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = python_path(checkout)
    try:
        yield
    finally:
        if before is None:
            del os.environ["PYTHONPATH"]
        else:
            os.environ["PYTHONPATH"] = before


@contextlib.contextmanager
def serving(
    folder: Path, *flags: str, plugins: str = "http", **actors: str | BuiltActor | BuildResult
) -> Iterator[Daemon]:
    """moxzid working in ``folder`` (``-m actors.json --plugins PLUGINS --listen 127.0.0.1:0`` and
    ``flags``) and hosting ``actors`` (NAME=ACTOR, as ``project`` takes them), once it serves; stopped
    with SIGTERM at the end if it still runs (an AssertionError with moxzid's log if it does not start)."""
    project(folder, **actors)
    with running_moxzid("-m", "actors.json", *flags, cwd=folder, plugins=plugins) as daemon:
        try:
            yield daemon
        finally:
            if daemon.process.poll() is None:
                daemon.stop()


def memory_mib(daemon: Daemon, field: str = "VmRSS") -> float:
    """moxzid's resident memory now (``VmRSS``) or at its peak so far (``VmHWM``), MiB."""
    status = Path(f"/proc/{daemon.process.pid}/status").read_text()
    return int(re.search(rf"{field}:\s+(\d+) kB", status).group(1)) / 1024


def cpu_seconds(pid: int) -> float:
    """User and system CPU seconds process ``pid`` has used, all its threads."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
