"""The torch:cpu device's thread count: the torch plugin's ``--device-threads`` setting (a flag and a TOML
key), what it means, and that it is the count torch computes with in a device run."""

import asyncio
import os
import types

import pytest
from kit.daemon import moxzid
from kit.device import probe, probe_run

from moxzi_core import device, plugins, settings
from moxzi_device_torch import threads


@pytest.fixture(scope="module")
def registry():
    """The torch plugin's registrations, with an op whose kernel notes the thread count it runs with."""
    import torch

    loaded = plugins.load(["torch"])[0]
    seen: list[int] = []

    def kernel(p, x):
        seen.append(torch.get_num_threads())
        return x

    before = torch.get_num_threads()
    yield (
        types.SimpleNamespace(
            backends=loaded.backends,
            ops=loaded.ops | {"probe": probe(kernel)},
            kernels=loaded.kernels,
            settings=loaded.settings,
        ),
        seen,
    )
    torch.set_num_threads(before)


def threads_in_a_run(registry, flags: dict) -> int:
    """The thread count torch had in a run on the device's worker thread, for these raw flags."""
    loaded, seen = registry
    d = device.open_device(loaded, "torch:cpu", settings=settings.from_sources(flags, loaded.settings))
    arg = probe_run(d)
    seen.clear()
    try:
        outcome = asyncio.run(d.system_methods()["moxzi_device_run"](b"caller\x01", arg))
    finally:
        d.close()
    assert outcome.reply is not None, outcome.reject_message
    (count,) = seen
    return count


def test_the_flag_sets_the_threads_of_a_device_run(registry):
    assert threads_in_a_run(registry, {"device_threads": "2"}) == 2
    assert threads_in_a_run(registry, {}) == threads.DEFAULT == 1
    cores = len(os.sched_getaffinity(0))
    assert threads_in_a_run(registry, {"device_threads": "0"}) == max(1, min(threads.MAX_AUTO, cores - 1))


def test_the_toml_key_sets_them_too(registry, tmp_path):
    (tmp_path / "moxzid.toml").write_text("device-threads = 3\n")
    assert threads_in_a_run(registry, {"config": str(tmp_path / "moxzid.toml")}) == 3


def test_a_count_that_means_nothing_is_refused(registry):
    loaded, _ = registry
    with pytest.raises(settings.SettingsError, match="device-threads must be a whole number >= 0, got 'two'"):
        settings.from_sources({"device_threads": "two"}, loaded.settings)
    too_many = settings.from_sources({"device_threads": "5000"}, loaded.settings)
    with pytest.raises(device.DeviceError, match="--device-threads 5000: at most 1024 threads"):
        device.open_device(loaded, "torch:cpu", settings=too_many)


def test_every_rank_of_a_device_gets_the_count(registry):
    loaded, _ = registry
    given = settings.from_sources({"device": "torch:cpu", "device_threads": "2"}, loaded.settings)
    flags = given.every_rank_flags()
    assert flags[flags.index("--device-threads") + 1] == "2"
    assert flags[flags.index("--device") + 1] == "torch:cpu"
    assert flags[flags.index("--device-seed") + 1] == "0"
    assert "--listen" not in flags and "--manifest" not in flags  # the device's settings only


@pytest.mark.slow
def test_moxzid_says_how_many_threads_it_computes_with():
    done = moxzid("--plugins", "torch", "--device", "torch:cpu", "--device-threads", "2", "plugins")
    assert done.returncode == 0, done.stderr
    assert "torch:cpu computes with 2 intra-op thread(s) (--device-threads)" in done.stderr
    refused = moxzid("--plugins", "torch", "--device", "torch:cpu", "--device-threads", "5000", "plugins")
    assert refused.returncode == 2
    assert "moxzid: error: --device-threads 5000: at most 1024 threads" in refused.stderr
