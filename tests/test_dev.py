"""`moxzi dev`: a save builds the actor again and upgrades it on a running moxzid, keeping its state; a
compile error or an upgrade moxzid refuses is said and leaves the old code serving; a burst of saves is
one build, and a save while a build runs starts another; the files watched are those a build may read;
an actor moxzid does not run is an error."""

import itertools
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from kit.daemon import project, running_moxzid

from moxzi_core.build import build
from moxzi_core.dev import Watcher

COUNTER = Path(__file__).parents[1] / "examples" / "counter" / "counter.mo"
LINE_SECONDS = 120  # a build on a busy 2-core machine, then the upgrade's checks


def watching(source: Path, quiet: float = 0.2, before_looking=lambda: None) -> Watcher:
    """A Watcher of ``source`` that looks every 20 ms, calling ``before_looking`` before each look, and
    fails the test where it would wait for a change more than 20 s."""
    polls = itertools.count()

    def sleep(seconds: float) -> None:
        if next(polls) > 1000:
            raise AssertionError("no change seen")
        time.sleep(seconds)
        before_looking()

    return Watcher(source, poll=0.02, quiet=quiet, sleep=sleep)


def test_a_burst_of_saves_is_one_change(tmp_path):
    main = tmp_path / "main.mo"
    main.write_text("persistent actor {};\n")
    saves = iter(range(5))

    def save() -> None:  # one save before each of the first 5 looks (20 ms apart, within the quiet time)
        if (n := next(saves, None)) is not None:
            main.write_text(f"persistent actor {{ let n = {n} }};\n")

    # Saving between the watcher's looks, not on a thread of its own: a busy machine that paused such
    # a thread for the quiet time split the burst in two.
    watcher = watching(main, before_looking=save)
    assert watcher.next_burst() == [main]
    assert next(saves, None) is None  # it answered only after the last save

    (tmp_path / "notes.txt").write_text("not a source")  # not watched: no change
    (tmp_path / "main.wasm").write_bytes(b"\0asm")  # the build's own output: no change
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "Util.mo").write_text("module {}\n")  # a new file that may be imported
    assert watcher.next_burst() == [tmp_path / "lib" / "Util.mo"]


def test_the_files_a_build_may_read_are_watched(tmp_path):
    """The entry's directory, the local packages of its mops.toml, and local files it imports from
    elsewhere; not the files beside a package's directory."""
    project_dir, shared, other = tmp_path / "app", tmp_path / "shared", tmp_path / "other"
    for directory in (project_dir, shared / "src", other):
        directory.mkdir(parents=True)
    (project_dir / "mops.toml").write_text('[dependencies]\nshared = "../shared"\n')
    (shared / "src" / "Greet.mo").write_text('module { public func hi() : Text { "hi" } }\n')
    (shared / "README.mo").write_text("outside the package's src/\n")
    (other / "Two.mo").write_text("module { public func two() : Nat { 2 } }\n")
    main = project_dir / "main.mo"
    main.write_text(
        'import Greet "mo:shared/Greet";\nimport Two "../other/Two";\n'
        "persistent actor { public query func hi() : async Text { Greet.hi() # debug_show Two.two() } };\n"
    )
    watcher = watching(main, quiet=0.05)
    assert watcher.roots() == [project_dir, shared / "src"]
    assert other / "Two.mo" not in watcher.paths()  # not known until a build reads it
    built = build(main)
    main.write_text(main.read_text() + "// saved while the build ran\n")
    watcher.built(built)
    assert watcher.paths() >= {main, project_dir / "mops.toml", shared / "src" / "Greet.mo", other / "Two.mo"}
    assert shared / "README.mo" not in watcher.paths()
    assert watcher.next_burst() == [main]  # the save during the build is a change
    (other / "Two.mo").write_text("module { public func two() : Nat { 1 + 1 } }\n")
    assert watcher.next_burst() == [other / "Two.mo"]


class DevProcess:
    """``moxzi dev`` running, its output lines read as they come."""

    def __init__(self, *args: str, cwd: Path):
        self.process = subprocess.Popen(
            [sys.executable, "-u", "-m", "moxzi_core.cli", "dev", *args],
            cwd=cwd,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))

    def next_line(self) -> str:
        return self.lines.get(timeout=LINE_SECONDS)

    def no_line_for(self, seconds: float) -> bool:
        try:
            extra = self.lines.get(timeout=seconds)
        except queue.Empty:
            return True
        raise AssertionError(f"an unexpected line: {extra}")


@pytest.mark.slow
def test_saves_upgrade_the_running_actor_and_keep_its_state(tmp_path):
    source = tmp_path / "src" / "counter.mo"
    source.parent.mkdir()
    original = COUNTER.read_text()
    source.write_text(original)
    project(tmp_path, counter=build(source))
    with running_moxzid("-m", "actors.json", cwd=tmp_path) as daemon:
        nobody = DevProcess("src/counter.mo", "--name", "nobody", "--url", daemon.url, cwd=tmp_path)
        assert nobody.process.wait(timeout=LINE_SECONDS) == 1
        nobody.next_line()  # what it watches
        assert "no actor named 'nobody' (moxzi dev upgrades an actor moxzid runs already" in nobody.next_line()

        dev = DevProcess("src/counter.mo", "--url", daemon.url, cwd=tmp_path)
        try:
            assert dev.next_line() == f"src/counter.mo -> counter on {daemon.url}; watching src (Ctrl-C stops)"
            assert "upgraded" in dev.next_line()  # the first build, upgraded to
            assert daemon.call("counter", "inc") == [1]
            assert daemon.call("counter", "inc") == [2]

            # A burst of saves: one build, of the last.
            twice = original.replace(
                "  // The current count",
                "  public query func twice() : async Nat { count * 2 };\n\n  // The current count",
            )
            for text in (original + "// one\n", original + "// two\n", twice):
                source.write_text(text)
                time.sleep(0.05)
            line = dev.next_line()
            assert line.split(" ", 1)[1].startswith("src/counter.mo: built in") and ", upgraded in" in line, line
            assert daemon.call("counter", "twice", query=True) == [4]  # the new code, the old state
            assert dev.no_line_for(1.0)

            # A compile error: the compiler's message, and the old code serves on.
            source.write_text(twice.replace("count += 1;", 'count += "one";'))
            line = dev.next_line()
            assert "src/counter.mo: refused: src/counter.mo:7:14: error [M0050] literal of type Text" in line, line
            assert daemon.call("counter", "inc") == [3]

            # An incompatible stable variable: moxzid refuses the upgrade, naming it.
            as_text = original.replace("var count : Nat = 0", 'var count : Text = ""')
            as_text = as_text.replace("count += 1;", 'count #= "|";').replace("async Nat", "async Text")
            source.write_text(as_text)
            line = dev.next_line()
            assert "upgrade refused:" in line and "stable variable `count`" in line, line
            assert daemon.call("counter", "twice", query=True) == [6]

            # Back to the code that runs: the same module, not sent again.
            source.write_text(twice)
            line = dev.next_line()
            assert "(cached), the same module: not upgraded" in line, line

            # moxzid gone: said, and the watch goes on.
            assert daemon.stop() == 0
            source.write_text(original)
            line = dev.next_line()
            assert "(cached), not upgraded: POST" in line and "moxzid did not answer" in line, line
            assert dev.process.poll() is None
        finally:
            dev.process.send_signal(signal.SIGINT)  # Ctrl-C
            assert dev.process.wait(timeout=LINE_SECONDS) == 0
        assert dev.lines.empty()  # no traceback
