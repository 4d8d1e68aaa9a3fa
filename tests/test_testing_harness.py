"""moxzi_core.testing as a user's tests use it: the ``moxzi_host`` fixture deploys an actor, calls it
with Candid values, moves the manual clock, reads its log and restarts it from its store."""

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from moxzi_core import testing
from moxzi_core.testing import CallRejected, MoxziHost

pytest_plugins = ["moxzi_core.testing"]

LAB = Path(__file__).parent / "actors" / "lab.mo"


def test_calls_take_and_give_candid_values(moxzi_host):
    lab = moxzi_host.deploy(LAB)
    assert lab.update("inc") == 1
    assert lab.update("inc") == 2
    assert lab.query("get") == 2
    text, n, f, flag, items, o = "hi", 7, 1.5, True, b"\x01\x02", None
    assert lab.query("echo", text, n, f, flag, items, o) is not None
    with pytest.raises(CallRejected, match="deliberate trap"):
        lab.update("incThenTrap")
    assert lab.query("get") == 2
    with pytest.raises(AttributeError, match="no method 'nothing'"):
        lab.update("nothing")


def test_advancing_the_clock_fires_a_timer(moxzi_host):
    lab = moxzi_host.deploy(LAB)
    lab.update("tickOnce", 60)
    moxzi_host.advance(seconds=59)
    assert lab.query("getTicks") == 0  # the clock is manual: nothing moves it but the test
    moxzi_host.advance(seconds=1)
    assert lab.query("getTicks") == 1


def test_logs_and_a_restart_keep_the_state(moxzi_host, tmp_path):
    lab = moxzi_host.deploy(LAB)
    lab.update("say", "hello from lab")
    lab.update("inc")
    assert "hello from lab" in lab.logs()
    before = moxzi_host.now_ns()
    moxzi_host.restart()
    assert lab.query("get") == 1
    assert "hello from lab" in lab.logs()
    assert moxzi_host.now_ns() == before  # the manual clock's time is kept in the store
    assert (tmp_path / "moxzi" / "store" / "data.mdb").is_file()  # the lmdb plugin's store


def test_without_the_lmdb_plugin_the_state_lives_in_memory(tmp_path, monkeypatch):
    monkeypatch.setattr(testing, "STORE_PLUGIN", "not-installed")
    moxzi = MoxziHost(tmp_path)
    try:
        lab = moxzi.deploy(LAB)
        lab.update("inc")
        moxzi.restart()
        assert lab.query("get") == 1
        assert not (tmp_path / "store").exists()
    finally:
        moxzi.close()


def test_a_wasm_deploys_beside_a_built_actor(moxzi_host, tmp_path):
    first = moxzi_host.deploy(LAB)
    first.update("inc")
    wasm = tmp_path / "moxzi" / "build" / "lab.wasm"  # what deploy built, with lab.did beside it
    second = moxzi_host.deploy(wasm, name="second")
    assert second.update("inc") == 1
    assert first.query("get") == 1  # the first kept its state through the restart deploy makes
    with pytest.raises(ValueError, match="deployed already"):
        moxzi_host.deploy(LAB)
    (tmp_path / "broken.wasm").write_bytes(b"\0asm not a module")
    with pytest.raises(Exception, match="actor broken: unsupported wasm version"):
        moxzi_host.deploy(tmp_path / "broken.wasm")
    assert first.update("inc") == 2  # the host came back without it


def fenced(text: str, language: str) -> str:
    """The one ```LANGUAGE block of a Markdown text."""
    [block] = re.findall(rf"^```{language}\n(.*?)^```$", text, re.MULTILINE | re.DOTALL)
    return block


@pytest.mark.slow
def test_the_example_in_the_docs_passes(tmp_path):
    docs = (Path(__file__).parents[1] / "docs" / "testing.md").read_text()
    (tmp_path / "ticker.mo").write_text(fenced(docs, "motoko"))
    (tmp_path / "test_ticker.py").write_text(fenced(docs, "python"))
    result = run_pytest(tmp_path, sys.path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "1 passed" in result.stdout


def run_pytest(directory: Path, path: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(directory)],
        cwd=directory,
        env={**os.environ, "PYTHONPATH": ":".join(p for p in path if p)},
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.slow
def test_the_entry_point_and_pytest_plugins_together(tmp_path):
    """With the pytest11 entry point installed and a conftest naming the module too, pytest loads it
    once (pluggy would refuse the second registration)."""
    info = tmp_path / "site" / "moxzi_fixture-0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: moxzi-fixture\nVersion: 0\n")
    (info / "entry_points.txt").write_text("[pytest11]\nmoxzi = moxzi_core.testing\n")
    project = tmp_path / "project"
    project.mkdir()
    (project / "conftest.py").write_text('pytest_plugins = ["moxzi_core.testing"]\n')
    (project / "test_clock.py").write_text(
        textwrap.dedent("""
        def test_the_clock(moxzi_host):
            start = moxzi_host.now_ns()
            assert moxzi_host.advance(seconds=60) == start + 60 * 10**9
        """)
    )
    result = run_pytest(project, [str(tmp_path / "site"), *sys.path])
    assert result.returncode == 0, result.stdout + result.stderr
    assert "1 passed" in result.stdout
