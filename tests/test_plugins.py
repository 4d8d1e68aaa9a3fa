"""Plugin discovery, selection and collection (moxzi_core.plugins) and `moxzid plugins`, against small
plugin distributions written to a temporary folder, installed the way pip would (a .dist-info with an
entry point in the group ``moxzi``)."""

import itertools
import os
import subprocess
import sys
import textwrap

import pytest

from moxzi_core import plugins

_unique = itertools.count()


class PluginSite:
    """A folder on sys.path where ``install(name, source)`` puts a plugin distribution whose entry
    point ``name`` loads a module made of ``source``."""

    def __init__(self, path):
        self.path = path

    def install(self, name, source, version="1.2.3"):
        module = f"moxzi_test_plugin_{name}_{next(_unique)}"  # fresh per test: sys.modules caches modules
        (self.path / f"{module}.py").write_text(textwrap.dedent(source))
        info = self.path / f"{module}-{version}.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {module}\nVersion: {version}\n")
        (info / "entry_points.txt").write_text(f"[moxzi]\n{name} = {module}\n")
        return module


@pytest.fixture
def site(tmp_path, monkeypatch):
    folder = tmp_path / "site"
    folder.mkdir()
    monkeypatch.syspath_prepend(str(folder))
    return PluginSite(folder)


BACKEND_PLUGIN = """
    from moxzi_core.hookspecs import hookimpl

    @hookimpl
    def register_backends(register):
        register("fake", lambda spec: ("fake backend", spec))
"""

OP_PLUGIN = """
    from types import SimpleNamespace
    from moxzi_core.hookspecs import hookimpl

    @hookimpl
    def register_ops(register):
        register(SimpleNamespace(name="matmul"))
"""


def test_installed_plugins_reports_distribution_and_version(site):
    module = site.install("fake", BACKEND_PLUGIN, version="4.5.6")
    found = plugins.installed_plugins()["fake"]
    assert (found.distribution, found.version) == (module, "4.5.6")


def test_selected_plugins_only_are_loaded(site):
    site.install("fake", BACKEND_PLUGIN)
    registry, loaded = plugins.load(["fake"])
    assert list(loaded) == ["fake"]
    assert registry.backends["fake"]("fake:cpu") == ("fake backend", "fake:cpu")
    assert registry.gateways == {}  # http is installed but was not selected


def test_without_selection_every_installed_plugin_loads(site):
    site.install("fake", BACKEND_PLUGIN)
    registry, loaded = plugins.load(None)
    assert {"fake", "http"} <= set(loaded)
    assert "http" in registry.gateways


def test_unknown_plugin_names_what_is_installed(site):
    site.install("fake", BACKEND_PLUGIN)
    with pytest.raises(plugins.PluginError, match=r"unknown plugin\(s\): nope; installed: .*fake.*http"):
        plugins.load(["fake", "nope"])


def test_misspelled_hook_fails_at_load(site):
    site.install("typo", """
        from moxzi_core.hookspecs import hookimpl

        @hookimpl
        def register_backend(register):
            register("x", object())
    """)
    with pytest.raises(plugins.PluginError, match="register_backend"):
        plugins.load(["typo"])


def test_two_plugins_registering_one_op_is_an_error_naming_both(site):
    site.install("first", OP_PLUGIN)
    site.install("second", OP_PLUGIN)
    with pytest.raises(plugins.PluginError, match="'second' registers op 'matmul', already registered by 'first'"):
        plugins.load(["first", "second"])


def test_plugin_that_fails_to_import_names_itself(site):
    site.install("broken", "raise ImportError('needs libfoo')\n")
    with pytest.raises(plugins.PluginError, match="plugin 'broken' failed to import: needs libfoo"):
        plugins.load(["broken"])


def test_describe_lists_what_each_plugin_registers(site):
    module = site.install("fake", BACKEND_PLUGIN)
    registry, loaded = plugins.load(["fake", "http"])
    lines = plugins.describe(registry, loaded)
    assert any(line.split() == ["fake", module, "1.2.3:", "backend", "fake"] for line in lines), lines
    assert any(line.startswith("http ") and line.endswith(": gateway http") for line in lines), lines


def _moxzid(site, *args):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site.path), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, "-m", "moxzi_core.daemon", *args], env=env,
                          capture_output=True, text=True, timeout=60)


def test_moxzid_plugins_lists_installed_plugins(site):
    module = site.install("fake", BACKEND_PLUGIN)
    done = _moxzid(site, "plugins")
    assert done.returncode == 0, done.stderr
    assert f"fake     {module} 1.2.3: backend fake" in done.stdout.splitlines()
    assert "gateway http" in done.stdout


KERNEL_PLUGIN = """
    from moxzi_core.device import Kernel
    from moxzi_core.hookspecs import hookimpl

    @hookimpl
    def register_ops(register):
        register(Kernel("relu", "torch:cpu", lambda p, x: x.clamp(min=0), "fast"))
"""


def test_moxzid_plugins_with_a_device_says_whose_kernel_runs_each_op(site):
    site.install("fast", KERNEL_PLUGIN)
    done = _moxzid(site, "--device", "torch:cpu", "--plugins", "torch,fast", "plugins")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "device   torch:cpu: fast kernels: relu" in lines
    assert "device   torch:cpu: torch:cpu kernels: optimizer:adamw, optimizer:sgd" in lines
    torch_line, = [ln for ln in lines if ln.startswith("device   torch:cpu: torch kernels: add, ")]
    assert "relu" not in torch_line


def test_moxzid_unknown_plugin_is_a_short_error(site, tmp_path):
    site.install("fake", BACKEND_PLUGIN)
    (tmp_path / "a.wasm").write_bytes(b"\0asm")
    (tmp_path / "actors.json").write_text('{"actors": [{"name": "a", "wasm": "a.wasm"}]}')
    done = _moxzid(site, "-m", str(tmp_path / "actors.json"), "--plugins", "http,nope")
    assert done.returncode == 2
    assert "moxzid: error: unknown plugin(s): nope; installed:" in done.stderr
    assert "fake" in done.stderr and "Traceback" not in done.stderr


def test_moxzid_plugins_lists_the_others_when_one_fails_to_import(site):
    module = site.install("broken", "raise ImportError('needs libfoo')\n")
    done = _moxzid(site, "plugins")
    assert done.returncode == 1
    assert f"broken   {module} 1.2.3: cannot load: plugin 'broken' failed to import: needs libfoo" \
        in done.stdout.splitlines()
    assert "gateway http" in done.stdout and "Traceback" not in done.stderr


STORE_PLUGIN = """
    from moxzi_core.hookspecs import hookimpl
    from moxzi_core.store import MemoryStore

    @hookimpl
    def register_stores(register):
        register("{name}", lambda directory: MemoryStore())
"""


def test_moxzid_state_with_two_stores_loaded_asks_to_choose(site, tmp_path):
    site.install("mem1", STORE_PLUGIN.format(name="mem1"))
    site.install("mem2", STORE_PLUGIN.format(name="mem2"))
    (tmp_path / "a.wasm").write_bytes(b"\0asm")
    (tmp_path / "actors.json").write_text('{"actors": [{"name": "a", "wasm": "a.wasm"}]}')
    done = _moxzid(site, "-m", str(tmp_path / "actors.json"), "-s", "state", "--plugins", "http,mem1,mem2")
    assert done.returncode == 2
    assert "moxzid: error: -s state: several stores are loaded (mem1, mem2); choose one with --plugins" \
        in done.stderr
