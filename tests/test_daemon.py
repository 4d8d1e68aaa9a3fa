"""moxzid's settings (defaults < TOML file < flags) and its start-up: the errors that stop it before it
serves, and a clean start and stop with real actors."""

import argparse
import json
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from kit.daemon import moxzid, project, running_moxzid
from kit.http import request

from moxzi_core import plugins
from moxzi_core.build import build
from moxzi_core.settings import Address, Settings, SettingsError, add_arguments, from_sources

DECLARED = plugins.load(["http"])[0].settings  # the core's settings and the http plugin's


def settings(*argv) -> Settings:
    parser = argparse.ArgumentParser()
    add_arguments(parser, DECLARED)
    return from_sources(vars(parser.parse_args(argv)), DECLARED)


def test_defaults():
    config = settings()
    assert all(config.is_default(s) for s in DECLARED)
    assert config.manifest is None and config.device_seed == 0 and config.max_message_bytes == 8 << 20
    assert config.plugins is None  # every installed plugin
    assert config.listen == Address("127.0.0.1", 7000)
    assert (config.cycles, config.device_cycles_per_ms) == (0, 100_000_000)
    assert (config.device_checkpoint_secs, config.device_checkpoint_mb) == (30, 64)


def test_a_setting_reads_back_typed_by_its_declaration():
    """``settings[SETTING]`` is the value the attribute gives (mypy types it from the declaration); a
    setting no loaded part declared is refused by name."""
    from moxzi_core.device.settings import DEVICE_CHECKPOINT_MB, DEVICE_SEED
    from moxzi_core.settings import STATE, Setting

    config = settings("--device-seed", "7", "-s", "there")
    assert (config[DEVICE_SEED], config[STATE], config[DEVICE_CHECKPOINT_MB]) == (7, Path("there"), 64.0)
    assert not config.is_default(DEVICE_SEED) and config.is_default(DEVICE_CHECKPOINT_MB)
    with pytest.raises(KeyError, match="no setting 'not-loaded' is declared"):
        config[Setting("not-loaded", "count", "a plugin's not loaded here")]


def test_config_file_overrides_defaults_and_flags_override_the_file(tmp_path):
    toml = tmp_path / "conf" / "moxzid.toml"
    toml.parent.mkdir()
    toml.write_text(
        'plugins = ["http"]\nlisten = "0.0.0.0:8000"\nmanifest = "actors.json"\n'
        "device_checkpoint_secs = 5\ndevice-checkpoint-mb = 16.5\n"
    )
    from_file = settings("--config", str(toml))
    assert from_file.plugins == ["http"]
    assert from_file.listen == Address("0.0.0.0", 8000)
    assert from_file.manifest == tmp_path / "conf" / "actors.json"  # relative to the file's folder
    assert (from_file.device_checkpoint_secs, from_file.device_checkpoint_mb) == (5, 16.5)

    flags = settings("--config", str(toml), "--listen", "[::1]:9000", "-m", "other.json", "--plugins", "")
    assert flags.listen == Address("::1", 9000) and str(flags.listen) == "[::1]:9000"
    assert flags.manifest == Path("other.json")  # relative to the working directory
    assert flags.plugins == []
    assert flags.device_checkpoint_secs == 5  # not given as a flag: the file's value stays


def test_flags_parse_lists_and_numbers():
    config = settings(
        "--plugins",
        "torch, lmdb,http",
        "--cycles",
        "7",
        "--device-checkpoint-secs",
        "0.5",
        "-s",
        "state",
        "--device",
        "torch:cpu",
        "--device-listen",
        "10.0.0.1:7001",
        "--device-seed",
        "42",
    )
    assert config.plugins == ["torch", "lmdb", "http"]
    assert (config.cycles, config.device_checkpoint_secs) == (7, 0.5)
    assert (config.state, config.device, config.device_listen) == (
        Path("state"),
        "torch:cpu",
        Address("10.0.0.1", 7001),
    )
    assert config.device_seed == 42


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--listen", "7000"], "command line: listen must be HOST:PORT, got '7000'"),
        (["--listen", "localhost:http"], "listen must be HOST:PORT"),
        (["--cycles", "-1"], "cycles must be a whole number >= 0, got '-1'"),
        (["--cycles", "1.5"], "cycles must be a whole number >= 0"),
        (["--device-checkpoint-mb", "lots"], "device-checkpoint-mb must be a number >= 0"),
        (["--device-seed", "0x10"], "device-seed must be a whole number >= 0, got '0x10'"),
    ],
)
def test_bad_flag_values(argv, message):
    with pytest.raises(SettingsError, match=message):
        settings(*argv)


@pytest.mark.parametrize(
    "toml, message",
    [
        ("listen = 7000", "listen must be HOST:PORT, got 7000"),
        ("cycles = true", "cycles must be a whole number >= 0, got True"),
        ("plugins = [1]", "plugins must be a list of plugin names"),
        ("manifest = 3", "manifest must be a path"),
        (
            "devise = 'torch:cpu'",
            "unknown setting 'devise'; known: manifest, state, plugins, .*, listen, http-idle-secs, .*device-listen",
        ),
        ("listen = ", "is not TOML"),
    ],
)
def test_bad_config_file(tmp_path, toml, message):
    path = tmp_path / "moxzid.toml"
    path.write_text(toml + "\n")
    with pytest.raises(SettingsError, match=message):
        settings("--config", str(path))


def test_missing_config_file(tmp_path):
    with pytest.raises(SettingsError, match="cannot read config file .*nope.toml"):
        settings("--config", str(tmp_path / "nope.toml"))


@pytest.fixture
def garbage_actor(tmp_path):
    """A manifest naming one actor whose wasm is not a wasm module."""
    (tmp_path / "junk.wasm").write_bytes(b"not wasm")
    (tmp_path / "actors.json").write_text(json.dumps({"actors": [{"name": "junk", "wasm": "junk.wasm"}]}))
    return tmp_path / "actors.json"


@pytest.mark.parametrize(
    "flags, lines",
    [
        (["--device", "warp:gpu"], ["--device warp:gpu: no backend 'warp'; loaded backends: none"]),
        (
            ["--device-listen", "0.0.0.0:7001"],
            ["--device-listen 0.0.0.0:7001: exports serve a device's publications; give --device too"],
        ),
        (["-s", "state"], ["-s state: no loaded plugin registers a store (loaded: http)"]),
        (["--device-seed", "5"], ["--device-seed 5: seeds a device; give --device too"]),
        (["--device-call-secs", "5"], ["--device-call-secs 5: limits device calls; give --device too"]),
        (
            ["--device", "torch:cpu", "--device-world", "2", "--device-call-secs", "5"],
            ["--device-call-secs 5: a device over several ranks runs each call whole"],
        ),
        (["--actor-memory-mb", "5000"], ["--actor-memory-mb 5000: an actor's wasm memory may be 1 to 4096 MB"]),
        (["--actor-stable-mb", "0"], ["--actor-stable-mb 0: an actor's stable memory may be 1 to 4096 MB"]),
        (
            ["--total-memory-mb", "0"],
            ["--total-memory-mb 0: all actors' wasm memory could hold nothing; give at least 1"],
        ),
        (
            ["--max-queued-calls", "0"],
            ["--max-queued-calls 0: no actor could take a call from outside; give at least 1"],
        ),
        (["--max-queued-mb", "0"], ["--max-queued-mb 0: inboxes could hold no call's bytes; give at least 1"]),
        (["--total-queued-mb", "0"], ["--total-queued-mb 0: inboxes could hold no call's bytes; give at least 1"]),
        (
            ["--device", "torch:cpu", "--device-total-mb", "0"],
            ["--device-total-mb 0: the device's actors could hold nothing; give at least 1"],
        ),
    ],
)
@pytest.mark.slow
def test_settings_nothing_loaded_can_honor_stop_startup(garbage_actor, flags, lines):
    done = moxzid("-m", str(garbage_actor), "--plugins", "http", *flags)
    assert done.returncode == 2, done.stderr
    for line in lines:
        assert f"moxzid: error: {line}" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.slow
def test_defaults_given_explicitly_are_accepted(garbage_actor):
    # --cycles 0 and the documented device defaults ask for nothing new: start-up gets past them
    # and fails only on the junk actor.
    done = moxzid(
        "-m",
        str(garbage_actor),
        "--cycles",
        "0",
        "--device-cycles-per-ms",
        "100000000",
        "--device-checkpoint-secs",
        "30",
        "--device-checkpoint-mb",
        "64",
        "--device-actor-mb",
        "8192",
        "--device-actor-entries",
        "100000",
        "--device-total-mb",
        "32768",
        "--device-call-secs",
        "60",
    )
    assert done.returncode == 1, done.stderr
    assert "cannot start the actors" in done.stderr


@pytest.mark.slow
def test_no_manifest(tmp_path):
    done = moxzid(cwd=tmp_path)
    assert done.returncode == 2
    assert "moxzid: error: no manifest: give -m FILE" in done.stderr


@pytest.mark.slow
def test_bad_manifest_is_a_startup_error(tmp_path):
    (tmp_path / "actors.json").write_text('{"actors": [{"name": "a b", "wasm": "x.wasm"}]}')
    done = moxzid("-m", "actors.json", cwd=tmp_path)
    assert done.returncode == 2
    assert 'moxzid: error: manifest actors.json, actors[0]: name "a b" must be letters' in done.stderr


@pytest.mark.slow
def test_bad_config_is_a_startup_error(tmp_path):
    (tmp_path / "moxzid.toml").write_text("listen = 'nowhere'\n")
    done = moxzid("--config", "moxzid.toml", cwd=tmp_path)
    assert done.returncode == 2
    assert "moxzid: error: config file moxzid.toml: listen must be HOST:PORT" in done.stderr


@pytest.mark.slow
def test_actor_that_cannot_start_is_named(garbage_actor):
    done = moxzid("-m", str(garbage_actor), "--plugins", "http")
    assert done.returncode == 1
    assert "cannot start the actors" in done.stderr and "junk" in done.stderr


@pytest.mark.slow
def test_help_all_lists_every_seed_flag():
    done = moxzid("--help-all")
    for flag in (
        "-m FILE",
        "-s DIR",
        "--plugins",
        "--config",
        "--listen",
        "--device SPEC",
        "--cycles",
        "--device-cycles-per-ms",
        "--device-checkpoint-secs",
        "--device-checkpoint-mb",
        "--device-listen",
        "--device-seed N",
        "--device-threads N",
        "plugins",
    ):
        assert flag in done.stdout
    assert "\ntorch flags:\n" in done.stdout and "\ncore.device flags:\n" in done.stdout  # grouped


def test_the_short_help_is_short_names_every_flag_and_imports_no_device():
    """``moxzid --help``: the common flags with their help, every other flag by name in its group, in
    a screenful; and no plugin's device (torch, seconds to import) is imported for it."""
    shows = (
        "import sys\nfrom moxzi_core import daemon\ntry:\n    daemon.main(['--help'])\nexcept SystemExit:\n"
        "    print('torch' in sys.modules, file=sys.stderr)"
    )
    done = subprocess.run([sys.executable, "-c", shows], capture_output=True, text=True, timeout=120)
    assert done.stderr.strip() == "False"
    assert len(done.stdout.splitlines()) < 60
    assert "-m, --manifest FILE   the manifest naming the actors to host" in done.stdout
    declared = plugins.load(None, settings_only=True)[0].settings
    assert {f"--{s.flag}" for s in declared} <= set(re.findall(r"--[a-z][a-z-]+", done.stdout))


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.slow
@pytest.mark.slow
def test_starts_logs_each_actor_and_stops_cleanly(tmp_path, signum):
    project(tmp_path, "counter")
    with running_moxzid("-m", "actors.json", cwd=tmp_path) as daemon:
        assert daemon.stop(signum) == 0
    log = daemon.log.read_text()
    assert re.search(r"moxzid: actor counter: principal [a-z0-9-]+, enhanced persistence, 2 methods", log), log
    assert "moxzid: state: in memory: state is lost when moxzid exits" in log
    assert "moxzid: stopping" in log and "Traceback" not in log


@pytest.mark.slow
def test_without_a_gateway_it_says_nothing_serves(tmp_path):
    # --plugins with no gateway plugin: the host runs but nothing serves it, and moxzid says so.
    project(tmp_path, "counter")
    process = subprocess.Popen(
        [sys.executable, "-m", "moxzi_core.daemon", "-m", "actors.json", "--plugins", ""],
        cwd=tmp_path,
        stderr=subprocess.PIPE,
        text=True,
    )
    for line in process.stderr:
        if "no gateway loaded" in line:
            break
    else:
        pytest.fail(f"moxzid exited {process.wait()} without the warning")
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=30) == 0
    assert "stopping" in process.stderr.read()


@pytest.mark.slow
def test_listen_address_in_use(tmp_path):
    project(tmp_path, "counter")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = moxzid(
            "-m",
            "actors.json",
            "--plugins",
            "http,torch",
            "--device",
            "torch:cpu",
            "--listen",
            f"127.0.0.1:{port}",
            cwd=tmp_path,
        )
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == (
        f"moxzid: error: --listen 127.0.0.1:{port}: the port is in use (another moxzid?); pass --listen "
        "HOST:PORT with a free port, or port 0 to have one picked (the log says which)"
    )
    assert "intra-op thread" not in done.stderr  # refused before the device opened


@pytest.mark.slow
@pytest.mark.slow
def test_state_survives_a_restart_and_a_kill(tmp_path):
    pytest.importorskip("moxzi_store_lmdb")
    project(tmp_path, "counter")
    flags = ("-m", "actors.json", "-s", "state", "--plugins", "http,lmdb")

    def call(daemon, route):
        status, answer = request(f"{daemon.url}/{route}", [])
        assert status == 200, answer
        return answer

    with running_moxzid(*flags, cwd=tmp_path) as daemon:
        assert re.search(r"state: LMDB in state .*; \d+\.\d (KiB|MiB)\n", daemon.log.read_text())  # its size
        assert call(daemon, "call-json/counter/inc") == [1]
        assert daemon.stop() == 0
        assert re.search(r"moxzid: stopping; \d+\.\d (KiB|MiB)\n", daemon.log.read_text())
    with running_moxzid(*flags, cwd=tmp_path) as daemon:
        assert call(daemon, "call-json/counter/inc") == [2]
        daemon.kill()  # as `pkill -9 moxzid`: an answered call must already be durable
    with running_moxzid(*flags, cwd=tmp_path) as daemon:
        assert call(daemon, "query-json/counter/get") == [2]
        second = moxzid(*flags, cwd=tmp_path)  # the same -s directory while the first holds it
        assert second.returncode == 1
        assert "moxzid: error: state is in use by another moxzid" in second.stderr
        assert call(daemon, "query-json/counter/get") == [2]


DEVICE_ACTOR = """
// Makes a parameter on the tensor device and counts what its space holds.
persistent actor {
  type Param = { name : Text; shape : [Nat32]; init : { #ones } };
  type Entry = { name : Text; shape : [Nat32] };
  transient let device = actor "aaaaa-aa" : actor {
    moxzi_device_params : ([Param]) -> async ();
    moxzi_device_list : () -> async [Entry];
  };

  public func make(name : Text) : async Nat {
    await device.moxzi_device_params([{ name; shape = [2, 3]; init = #ones }]);
    (await device.moxzi_device_list()).size()
  };
};
"""


@pytest.mark.slow
@pytest.mark.slow
def test_device_reaches_the_actors_only_with_device(tmp_path):
    pytest.importorskip("moxzi_device_torch")
    (tmp_path / "dev.mo").write_text(DEVICE_ACTOR)
    build(tmp_path / "dev.mo")
    (tmp_path / "actors.json").write_text(json.dumps({"actors": [{"name": "dev", "wasm": "dev.wasm"}]}))

    def make(daemon, name):
        return tuple(daemon.try_call("dev", "make", name))

    with running_moxzid(
        "-m", "actors.json", "--device", "torch:cpu", "--plugins", "http,torch", cwd=tmp_path
    ) as daemon:
        assert make(daemon, "w") == (200, [1])
        assert make(daemon, "v") == (200, [2])
        assert "moxzid: device: torch:cpu" in daemon.log.read_text()
    with running_moxzid("-m", "actors.json", cwd=tmp_path) as daemon:
        status, error = make(daemon, "w")
        assert (status, error["reject_code"]) == (422, 4)  # the actor passes the reject on
        assert "no method 'moxzi_device_params'" in error["reject_message"]
