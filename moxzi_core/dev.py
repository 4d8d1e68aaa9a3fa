"""``moxzi dev``: build an actor and upgrade it on a running moxzid at every save, keeping its state.

``Watcher`` polls the files a build may read (every ``.mo`` under the entry's directory and under each
local package of its ``mops.toml``, that ``mops.toml``, and every local file the last build read, which
an import like ``../lib/X.mo`` can put elsewhere) for changes to their size, mtime or inode, and answers
once a burst of saves is over: a build starts when nothing changed for ``QUIET_SECONDS``. Polling rather
than inotify or a file-watching package: no dependency and the same code on every system, and a
project's few dozen files are stat'ed in well under a millisecond, nothing next to a build of seconds.

``Reloader`` builds (``build.build``, answered from the build cache when nothing it reads changed) and
upgrades the actor through ``Client.upgrade`` (moxzid's ``POST /upgrade/ACTOR``, as ``moxzi upgrade``:
signed by a controller's key or carrying the admin token, whichever the client holds), and says in one
line what became of the change.
"""

import contextlib
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from types import FrameType

from . import mops
from .build import BuildError, BuildResult, build, bundled_core_version
from .client import CallError, Client

POLL_SECONDS = 0.25  # how often the files are looked at: well under the time from a save to a look
QUIET_SECONDS = 0.3  # a burst of saves (an editor's save-all, a checkout) is over after this long
_SKIPPED = ("node_modules",)  # directories that hold no sources of the actor's (besides hidden ones)

_FIRST_DEPLOY = (
    "moxzi dev upgrades an actor moxzid runs already: one its manifest names (moxzid -m actors.json) or one "
    "created over the IC interface (icp deploy); --name says which"
)

# What each watched file looked like: (size, mtime in ns, inode; an editor that saves by renaming a new
# file into place changes the inode)
Looks = dict[Path, tuple[int, int, int]]


class Watcher:
    """The files a build of ``source`` may read, and when they change."""

    def __init__(
        self,
        source: Path,
        poll: float = POLL_SECONDS,
        quiet: float = QUIET_SECONDS,
        sleep: Callable[[float], None] = time.sleep,
    ):
        self.source = source
        self._poll, self._quiet, self._sleep = poll, quiet, sleep
        self._read: set[Path] = set()  # the local files the last good build read
        self._seen = self.looks()

    def roots(self) -> list[Path]:
        """The directories whose ``.mo`` files are watched: the entry's, and its local packages'."""
        try:
            packages = mops.packages(self.source.parent, bundled_core_version()).local
        except mops.MopsError:  # the build says what is wrong with the mops.toml, which stays watched
            packages = {}
        return [self.source.parent.resolve(), *packages.values()]

    def paths(self) -> set[Path]:
        found = set(self._read)
        manifest = mops.find(self.source.parent)
        found.add(self.source.parent.resolve() / mops.FILE_NAME)  # one may be added beside the entry
        if manifest is not None:
            found.add(manifest)
        for root in self.roots():
            for directory, subdirectories, files in os.walk(root):
                subdirectories[:] = [d for d in subdirectories if not d.startswith(".") and d not in _SKIPPED]
                found.update(Path(directory, name) for name in files if name.endswith(".mo"))
        return found

    def looks(self) -> Looks:
        seen: Looks = {}
        for path in self.paths():
            try:
                stat = path.stat()
            except OSError:
                continue  # missing (its absence is what is compared), or removed meanwhile
            seen[path] = (stat.st_size, stat.st_mtime_ns, stat.st_ino)
        return seen

    def built(self, result: BuildResult) -> None:
        """Watch the local files ``result`` read, too. Those already watched keep the looks they had
        before the build, so a save made while it ran is a change."""
        self._read = {Path(name).resolve() for name in result.sources if not name.startswith("mo:")}
        self._seen = {path: self._seen.get(path, looks) for path, looks in self.looks().items()}

    def next_burst(self) -> list[Path]:
        """Wait until files change and then stay unchanged for the quiet time; the files that changed
        (added or removed ones too), by name."""
        changed_at = None
        latest = self._seen
        while True:
            self._sleep(self._poll)
            now = self.looks()
            if now != latest:
                latest, changed_at = now, time.monotonic()
            elif changed_at is not None and time.monotonic() - changed_at >= self._quiet:
                before, self._seen = self._seen, latest
                return sorted(path for path in before.keys() | latest.keys() if before.get(path) != latest.get(path))


class Reloader:
    """Builds ``source`` and upgrades actor ``actor`` on the moxzid ``client`` reaches."""

    def __init__(self, source: Path, actor: str, client: Client, *, classic: bool = False):
        self.source, self.actor, self.client, self.classic = source, actor, client, classic
        self._running: bytes | None = None  # the module last upgraded to: an unchanged build is not sent

    def reload(self, *, first: bool = False) -> tuple[str, BuildResult | None]:
        """Build and upgrade: (the line that says what happened, the build if it succeeded). An upgrade
        moxzid could not be asked for (not answering, an unknown actor, no right to upgrade) is said,
        or with ``first`` raises CallError."""
        try:
            with _interrupt_after():
                built = build(self.source, classic=self.classic)
        except BuildError as error:
            if not error.diagnostics:
                return f"refused: {_one_line(str(error))}", None
            errors = [_one_line(d.brief()) for d in error.diagnostics if d.severity == "error"]
            return "refused: " + "\n  ".join(errors), None
        said = f"built in {built.seconds:.1f} s"
        if built.cached:
            said += " (cached)"
        warnings = sum(d.severity == "warning" for d in built.diagnostics)
        if warnings:
            said += f" with {warnings} warning(s) (moxzi build shows them)"
        wasm = built.wasm_path.read_bytes()
        if wasm == self._running:
            return f"{said}, the same module: not upgraded", built
        started = time.perf_counter()
        try:
            self.client.upgrade(self.actor, wasm)
        except CallError as error:
            if error.status == 409:  # this code refused: the actor keeps its old code
                reason = error.reason.removeprefix(f"upgrade of {self.actor} refused: ")
                return f"{said}, upgrade refused: {_one_line(reason)}", built
            if first:
                raise
            return f"{said}, not upgraded: {_one_line(str(error))}", built
        self._running = wasm
        return f"{said}, upgraded in {time.perf_counter() - started:.1f} s", built


def watch(reloader: Reloader, watcher: Watcher, say: Callable[[str], None]) -> None:
    """Reload now, then at every burst of saves, saying what became of each, until interrupted. A
    first upgrade moxzid cannot take (an unknown actor, no right to upgrade it) raises CallError;
    later, moxzid not answering or refusing is said and the watch goes on."""
    try:
        line, built = reloader.reload(first=True)
    except CallError as error:
        if error.status != 404:
            raise
        raise CallError(f"{error} ({_FIRST_DEPLOY})", error.status, reason=error.reason) from None
    say(f"{_now()} {line}")
    if built is not None:
        watcher.built(built)
    while True:
        changed = watcher.next_burst()
        names = ", ".join(os.path.relpath(path) for path in changed[:3]) + (" ..." if len(changed) > 3 else "")
        line, built = reloader.reload()
        say(f"{_now()} {names}: {line}")
        if built is not None:
            watcher.built(built)


@contextlib.contextmanager
def _interrupt_after() -> Iterator[None]:
    """Ctrl-C while the compiler runs stops once it has returned: V8 stopped halfway through a call
    reports its callback's closed event loop on the way out. A second Ctrl-C stops at once."""
    if threading.current_thread() is not threading.main_thread():
        yield  # (signal handlers belong to the main thread; the watch runs there from the command line)
        return
    interrupted: list[int] = []

    def defer(signum: int, frame: FrameType | None) -> None:
        if interrupted:
            raise KeyboardInterrupt
        interrupted.append(signum)
        print("stopping once the compiler returns (Ctrl-C again: now)", file=sys.stderr, flush=True)

    before = signal.signal(signal.SIGINT, defer)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)
        if interrupted:
            raise KeyboardInterrupt  # (in place of the build's own error, if it had one)


def _now() -> str:
    return datetime.now().strftime("%H:%M:%S")


def _one_line(text: str) -> str:
    # The compiler's messages lay types out over several lines.
    return " ".join(text.split())
