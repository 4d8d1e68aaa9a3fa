"""Plugin discovery, selection and collection (moxzi_core.plugins) and `moxzid plugins`, against small
plugin distributions written to a temporary folder, installed the way pip would (a .dist-info with an
entry point in the group ``moxzi``)."""

import ast
import importlib.util
import itertools
import os
import re
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from kit.daemon import moxzid, project, running_moxzid

from moxzi_core import plugins
from moxzi_core.candid import NAT, encode_args
from moxzi_core.public import PUBLIC_MODULES

_unique = itertools.count()
ROOT = Path(__file__).parent.parent


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
    site.install(
        "typo",
        """
        from moxzi_core.hookspecs import hookimpl

        @hookimpl
        def register_backend(register):
            register("x", object())
    """,
    )
    with pytest.raises(plugins.PluginError, match="register_backend"):
        plugins.load(["typo"])


def test_two_plugins_registering_one_op_is_an_error_naming_both(site):
    site.install("first", OP_PLUGIN)
    site.install("second", OP_PLUGIN)
    with pytest.raises(plugins.PluginError, match="'second' registers op 'matmul', already registered by 'first'"):
        plugins.load(["first", "second"])


HTTP_APP_PLUGIN = """
    from moxzi_core.hookspecs import hookimpl

    def app(host, settings):
        raise AssertionError("not built by these tests")

    @hookimpl(optionalhook=True)
    def register_http_apps(register):
        register("/web", app)
"""


def test_a_plugin_mounts_an_http_app_through_the_http_plugins_hook_and_loads_without_it(site):
    module = site.install("web", HTTP_APP_PLUGIN)
    alone, _ = plugins.load(["web"])
    assert alone.added == {}  # no http plugin: nobody added the hook, nothing was collected
    registry, _ = plugins.load(["web", "http"])
    assert registry.added["register_http_apps"] == {"/web": sys.modules[module].app}
    assert registry.provided_by[("http apps", "/web")] == "web"


def test_two_plugins_claiming_one_http_prefix_is_an_error_naming_both(site):
    site.install("first", HTTP_APP_PLUGIN)
    site.install("second", HTTP_APP_PLUGIN)
    with pytest.raises(plugins.PluginError, match="'second' registers http apps '/web', already registered by 'first'"):
        plugins.load(["http", "first", "second"])


def test_a_plugin_may_not_add_a_hook_moxzid_declares(site):
    site.install(
        "rival",
        """
        import types
        from moxzi_core.hookspecs import hookimpl, hookspec

        specs = types.ModuleType("rival_specs")
        specs.register_ops = hookspec(lambda register: None)

        @hookimpl
        def register_hookspecs(register):
            register(specs)
    """,
    )
    with pytest.raises(plugins.PluginError, match="plugin 'rival' adds hooks from rival_specs: .*register_ops"):
        plugins.load(["rival"])


def test_plugin_that_fails_to_import_names_itself(site):
    site.install("broken", "raise ImportError('needs libfoo')\n")
    with pytest.raises(plugins.PluginError, match="plugin 'broken' failed to import: needs libfoo"):
        plugins.load(["broken"])


@pytest.mark.slow
def test_describe_lists_what_each_plugin_registers(site):
    module = site.install("fake", BACKEND_PLUGIN)
    registry, loaded = plugins.load(["fake", "http"])
    lines = plugins.describe(registry, loaded)
    assert any(line.split() == ["fake", module, "1.2.3:", "backend", "fake"] for line in lines), lines
    (http,) = [line for line in lines if line.startswith("http ")]
    assert http.endswith(
        ": gateway http, setting allowed-hosts, setting allowed-origins, setting device-listen, "
        "setting device-max-connections, setting http-body-secs, setting http-idle-secs, "
        "setting http-max-calls-per-client, setting http-max-connections, setting http-max-streams, "
        "setting http-write-secs, setting listen, transport http"
    ), http


def _moxzid(site, *args):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site.path), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run(
        [sys.executable, "-m", "moxzi_core.daemon", *args], env=env, capture_output=True, text=True, timeout=60
    )


@pytest.mark.slow
def test_an_installed_plugin_that_cannot_load_is_skipped_with_a_warning_unless_named(site, tmp_path):
    site.install("gpu", "raise ImportError('needs a CUDA GPU; set TRITON_INTERPRET=1 to run on the CPU')\n")
    registry, loaded = plugins.load()
    assert "gpu" not in loaded and registry.skipped == {
        "gpu": "needs a CUDA GPU; set TRITON_INTERPRET=1 to run on the CPU"
    }
    (tmp_path / "a.wasm").write_bytes(b"not wasm")
    (tmp_path / "actors.json").write_text('{"actors": [{"name": "a", "wasm": "a.wasm"}]}')
    done = _moxzid(site, "-m", str(tmp_path / "actors.json"))  # as the seeds run it: no --plugins
    assert done.returncode == 1 and "cannot start the actors" in done.stderr  # past the plugins
    (warning,) = [line for line in done.stderr.splitlines() if "plugin gpu skipped" in line]
    assert warning.endswith(
        "moxzid: plugin gpu skipped: needs a CUDA GPU; set TRITON_INTERPRET=1 to run on the "
        "CPU (name it in --plugins to make this an error)"
    )
    named = _moxzid(site, "-m", str(tmp_path / "actors.json"), "--plugins", "http,gpu")
    assert named.returncode == 2 and "moxzid: error: plugin 'gpu' failed to import: needs a CUDA GPU" in named.stderr


@pytest.mark.slow
def test_hook_tracing_prints_each_hook_call(site):
    site.install("fake", BACKEND_PLUGIN)
    env = {
        **os.environ,
        "MOXZI_TRACE_HOOKS": "1",
        "PYTHONPATH": os.pathsep.join([str(site.path), os.environ.get("PYTHONPATH", "")]),
    }
    done = subprocess.run(
        [sys.executable, "-c", "from moxzi_core import plugins; plugins.load(['fake', 'http'])"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    assert "moxzi hooks: register_backends -> fake" in lines
    assert "moxzi hooks: register_gateways -> http" in lines
    assert (
        sum(line.startswith("moxzi hooks: register_") and " done in " in line for line in lines) == 4
    )  # fake: 1, http: 3


SETTING_PLUGIN = """
    from moxzi_core.hookspecs import hookimpl
    from moxzi_core.settings import Setting

    @hookimpl
    def register_settings(register):
        register(Setting({flag!r}, "count", "how many widgets", default=3, metavar="N"))
"""


@pytest.mark.slow
def test_plugin_settings_are_flags_and_toml_keys_and_may_not_collide(site, tmp_path):
    site.install("widgets", SETTING_PLUGIN.format(flag="widgets"))
    registry, _ = plugins.load(["widgets"])
    assert [s.flag for s in registry.settings][-1] == "widgets"
    help_text = _moxzid(site, "--help-all").stdout
    assert "--widgets N" in help_text and "how many widgets" in help_text
    site.install("again", SETTING_PLUGIN.format(flag="widgets"))
    with pytest.raises(
        plugins.PluginError, match="'again' registers setting 'widgets', already registered by 'widgets'"
    ):
        plugins.load(["widgets", "again"])
    site.install("core", SETTING_PLUGIN.format(flag="cycles"))
    with pytest.raises(plugins.PluginError, match="'core' registers setting 'cycles', a core setting"):
        plugins.load(["core"])


@pytest.mark.slow
def test_moxzid_plugins_lists_installed_plugins(site):
    module = site.install("fake", BACKEND_PLUGIN)
    done = _moxzid(site, "plugins")
    assert done.returncode == 0, done.stderr
    assert f"fake     {module} 1.2.3: backend fake" in done.stdout.splitlines()
    assert "gateway http" in done.stdout
    # what a plugin registers through another's hooks: the console's HTTP apps, through the http plugin's
    (console,) = [line for line in done.stdout.splitlines() if line.startswith("console ")]
    assert "http apps /console" in console and "http redirects /" in console


KERNEL_PLUGIN = """
    from moxzi_core.device import Kernel
    from moxzi_core.hookspecs import hookimpl

    @hookimpl
    def register_kernels(register):
        register(Kernel("relu", "torch:cpu", lambda p, x: x.clamp(min=0), "fast"))
"""


@pytest.mark.slow
def test_moxzid_plugins_with_a_device_says_whose_kernel_runs_each_op(site):
    site.install("fast", KERNEL_PLUGIN)
    done = _moxzid(site, "--device", "torch:cpu", "--plugins", "torch,fast", "plugins")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "device   torch:cpu: fast kernels: relu" in lines
    assert "device   torch:cpu: torch:cpu kernels: optimizer:adamw, optimizer:sgd" in lines
    (torch_line,) = [ln for ln in lines if ln.startswith("device   torch:cpu: torch kernels: add, ")]
    assert "relu" not in torch_line


@pytest.mark.slow
def test_moxzid_unknown_plugin_is_a_short_error(site, tmp_path):
    site.install("fake", BACKEND_PLUGIN)
    (tmp_path / "a.wasm").write_bytes(b"\0asm")
    (tmp_path / "actors.json").write_text('{"actors": [{"name": "a", "wasm": "a.wasm"}]}')
    done = _moxzid(site, "-m", str(tmp_path / "actors.json"), "--plugins", "http,nope")
    assert done.returncode == 2
    assert "moxzid: error: unknown plugin(s): nope; installed:" in done.stderr
    assert "fake" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.slow
def test_moxzid_plugins_lists_the_others_when_one_fails_to_import(site):
    module = site.install("broken", "raise ImportError('needs libfoo')\n")
    done = _moxzid(site, "plugins")
    assert done.returncode == 1
    assert (
        f"broken   {module} 1.2.3: cannot load: plugin 'broken' failed to import: needs libfoo"
        in done.stdout.splitlines()
    )
    assert "gateway http" in done.stdout and "Traceback" not in done.stderr


STORE_PLUGIN = """
    from moxzi_core.hookspecs import hookimpl
    from moxzi_core.store import MemoryStore

    @hookimpl
    def register_stores(register):
        register("{name}", lambda directory: MemoryStore())
"""


@pytest.mark.slow
def test_moxzid_state_with_two_stores_loaded_asks_to_choose(site, tmp_path):
    site.install("mem1", STORE_PLUGIN.format(name="mem1"))
    site.install("mem2", STORE_PLUGIN.format(name="mem2"))
    (tmp_path / "a.wasm").write_bytes(b"\0asm")
    (tmp_path / "actors.json").write_text('{"actors": [{"name": "a", "wasm": "a.wasm"}]}')
    done = _moxzid(site, "-m", str(tmp_path / "actors.json"), "-s", "state", "--plugins", "http,mem1,mem2")
    assert done.returncode == 2
    assert "moxzid: error: -s state: several stores are loaded (mem1, mem2); choose one with --plugins" in done.stderr


# --- plugins use only public APIs ------------------------------------------------------------------
PLUGIN_FOLDERS = [
    folder
    for folder in [*(ROOT / "plugins").glob("*/moxzi_*"), *(ROOT / "tests").glob("thirdparty*/moxzi_*")]
    if folder.is_dir() and "." not in folder.name
]  # packages, not their .egg-info or .dist-info


def _imports(source: str):
    """Every module ``source`` imports: ``from P import N`` imports P, and P.N too where that is a module
    (``from moxzi_core.device import builtin`` reaches into moxzi_core.device.builtin)."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module
            for alias in node.names:
                if node.module.startswith("moxzi") and _is_module(f"{node.module}.{alias.name}"):
                    yield f"{node.module}.{alias.name}"


def _is_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):  # its package is not a package, or not importable here
        return False


def test_the_import_rule_sees_a_submodule_imported_by_name():
    imported = set(_imports("from moxzi_core.device import builtin, DeviceError\nfrom moxzi_core import device"))
    assert imported == {"moxzi_core.device", "moxzi_core.device.builtin", "moxzi_core"}


def test_plugins_import_only_the_public_modules_of_the_core_and_of_each_other():
    """docs/ARCHITECTURE.md's rule: a plugin imports moxzi_core's public modules (`moxzi_core.public`) and other
    plugins' top-level packages only, so the core can change inside without breaking a third party."""
    own = {folder.name for folder in PLUGIN_FOLDERS}
    assert {
        "moxzi_gateway_http",
        "moxzi_store_lmdb",
        "moxzi_device_torch",
        "moxzi_device_triton",
        "moxzi_linegate",
        "moxzi_flat_fee",
        "moxzi_square",
    } <= own
    wrong = []
    for folder in PLUGIN_FOLDERS:
        for path in folder.rglob("*.py"):
            for module in _imports(path.read_text()):
                top = module.split(".")[0]
                if top == "moxzi_core" and module not in PUBLIC_MODULES:
                    wrong.append(f"{path.relative_to(ROOT)}: {module}")
                elif top != "moxzi_core" and top.startswith("moxzi_") and top != folder.name and module != top:
                    wrong.append(f"{path.relative_to(ROOT)}: {module} (another plugin's insides)")
    assert not wrong, "plugins import non-public modules:\n" + "\n".join(wrong)


# --- a third party's flag, gateway and store -----------------------------------------------------------
def _line(address: str, text: str) -> str:
    host, port = address.rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=30) as connection:
        connection.sendall(text.encode() + b"\n")
        return connection.makefile().readline().strip()


@pytest.mark.slow
@pytest.mark.slow
def test_a_third_party_plugin_adds_its_flag_gateway_and_store(tmp_path):
    """tests/thirdparty/moxzi_linegate, through the public hooks alone: ``--line-listen`` is in
    ``moxzid --help-all``, its gateway serves the counter, and its store keeps the counter across kill -9."""
    assert "--line-listen HOST:PORT" in moxzid("--help-all", third_party=True).stdout
    project(tmp_path, "counter")
    flags = ("-m", "actors.json", "-s", "state", "--line-listen", "127.0.0.1:0")
    gateway = r"line gateway on (\S+)"
    with running_moxzid(*flags, cwd=tmp_path, plugins="linegate", third_party=True, serving=gateway) as daemon:
        assert "state: log file state/batches.log" in daemon.log.read_text()
        assert _line(daemon.url, "counter inc") == "ok " + encode_args([NAT], [1]).hex()
        assert _line(daemon.url, "counter inc") == "ok " + encode_args([NAT], [2]).hex()
        assert _line(daemon.url, "counter nothing").startswith("reject 0 actor counter has no method 'nothing'")
        daemon.kill()
    with running_moxzid(*flags, cwd=tmp_path, plugins="linegate", third_party=True, serving=gateway) as daemon:
        assert _line(daemon.url, "counter get") == "ok " + encode_args([NAT], [2]).hex()
        assert daemon.stop() == 0


# --- what the docs say of the plugins --------------------------------------------------------------
def _uses_of_host(folder: Path) -> set[str]:
    """The members of ``Host`` the code under ``folder`` reads: ``host.X``, ``self.host.X``, ``self._host.X``
    where X is one (``host`` is also the name of a host name's text there)."""
    from moxzi_core.runtime import host

    members = set(dir(host.Host)) | set(re.findall(r"self\.(\w+)\s*[:=]", Path(host.__file__).read_text()))

    def is_host(node: ast.expr) -> bool:
        if isinstance(node, ast.Name):
            return node.id == "host"
        return (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "self"
            and node.attr in ("host", "_host")
        )

    return {
        node.attr
        for path in folder.rglob("*.py")
        if "tests" not in path.relative_to(folder).parts
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Attribute) and is_host(node.value) and node.attr in members
    }


def test_the_gateways_use_of_host_only_what_gateway_host_names():
    """mypy checks the gateways' calls against GatewayHost; this sees uses mypy cannot (an untyped ``host``)."""
    from moxzi_core.host_api import GatewayHost

    named = set(vars(GatewayHost)) | set(GatewayHost.__annotations__)
    for gateway in ("gateway_http", "gateway_ic", "console"):
        used = _uses_of_host(ROOT / "plugins" / gateway)
        assert used and used <= named, (gateway, used - named)


def test_each_plugin_names_the_settings_it_registers_in_its_docstring():
    registry, loaded = plugins.load(["http", "ic", "torch"])
    for name in loaded:
        doc = importlib.import_module(loaded[name].entry_point.value).__doc__
        flags = {flag for (kind, flag), by in registry.provided_by.items() if kind == "setting" and by == name}
        assert flags and all(f"``--{flag}``" in doc for flag in flags), (name, flags)


def test_the_hook_specs_name_every_plugin_moxzi_ships():
    import tomllib

    from moxzi_core import hookspecs

    shipped = set()
    for pyproject in [ROOT / "pyproject.toml", *ROOT.glob("plugins/*/pyproject.toml")]:
        shipped |= set(tomllib.loads(pyproject.read_text())["project"].get("entry-points", {}).get("moxzi", {}))
    named = set(re.findall(r"``(\w+)``", hookspecs.__doc__.split("use exactly these hooks")[0]))
    assert shipped and shipped <= named, shipped - named


def test_the_runtime_does_not_import_the_device():
    """moxzi_core.device's docstring: the device imports the runtime, never the other way round."""
    wrong = [
        f"{path.relative_to(ROOT)}: {module}"
        for path in (ROOT / "moxzi_core" / "runtime").rglob("*.py")
        for module in _imports(path.read_text())
        if module.startswith("moxzi_core.device")
    ]
    relative = [
        str(path.relative_to(ROOT))
        for path in (ROOT / "moxzi_core" / "runtime").rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.ImportFrom) and node.level >= 2 and (node.module or "").startswith("device")
    ]
    assert not wrong and not relative, wrong + relative
