"""The torch:cpu device's thread count: the torch plugin's ``--device-threads`` setting (a flag and a TOML
key), what it means, and that it is the count torch computes with in a device run, and OpenMP's (what
MKL's matmul reads) in every thread that calls the backend."""

import asyncio
import ctypes
import io
import os
import threading
import types
from pathlib import Path

import pytest
from kit.daemon import moxzid
from kit.device import LETTERS, adamw, letters_params, probe, probe_run, run_arg

from moxzi_core import device, plugins, settings
from moxzi_device_torch import settings as torch_settings

CALLER = b"caller\x01"


@pytest.fixture(scope="module")
def registry():
    """The torch plugin's registrations, with an op whose kernel notes the thread count it runs with."""
    import torch

    loaded = plugins.load(["torch"])[0]
    seen: list[int | None] = []

    def kernel(p, x):
        openmp = openmp_threads()  # first: torch.get_num_threads gives a thread torch's count
        seen.append(torch.get_num_threads())
        seen.append(openmp)
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


def openmp_threads() -> int | None:
    """This thread's OpenMP thread count (``omp_get_max_threads`` of the OpenMP runtime torch loaded), or
    None where none is loaded."""
    maps = Path("/proc/self/maps")
    lines = maps.read_text().splitlines() if maps.exists() else []
    runtimes = sorted(
        {p for p in (line.split()[-1] for line in lines) if Path(p).name.startswith(("libgomp", "libiomp5", "libomp"))}
    )
    return ctypes.CDLL(runtimes[0]).omp_get_max_threads() if runtimes else None


def on_a_new_thread(fn):
    """``fn()``'s result, run on a thread started for it."""
    out = []
    thread = threading.Thread(target=lambda: out.append(fn()))
    thread.start()
    thread.join()
    (result,) = out
    return result


@pytest.fixture(scope="module")
def unset(registry) -> int:
    """The OpenMP thread count a thread starts with here (one per core), whatever another thread set.
    Skips where torch computes without OpenMP."""
    count = on_a_new_thread(openmp_threads)
    if count is None:
        pytest.skip("torch loaded no OpenMP runtime here")
    return count


def counts_in_a_run(registry, flags: dict) -> tuple[int, int | None]:
    """(torch's thread count, OpenMP's) in a run on the device's worker thread, for these raw flags."""
    loaded, seen = registry
    d = device.open_device(loaded, "torch:cpu", settings=settings.from_sources(flags, loaded.settings))
    arg = probe_run(d)
    seen.clear()
    try:
        outcome = asyncio.run(d.system_methods()["moxzi_device_run"](CALLER, arg))
    finally:
        d.close()
    assert outcome.reply is not None, outcome.reject_message
    count, openmp = seen
    return count, openmp


def threads_in_a_run(registry, flags: dict) -> int:
    """The thread count torch had in a run on the device's worker thread, for these raw flags."""
    return counts_in_a_run(registry, flags)[0]


def test_the_flag_sets_the_threads_of_a_device_run(registry):
    assert threads_in_a_run(registry, {"device_threads": "2"}) == 2
    assert threads_in_a_run(registry, {}) == torch_settings.DEFAULT == 1
    cores = len(os.sched_getaffinity(0))
    assert threads_in_a_run(registry, {"device_threads": "0"}) == max(1, min(torch_settings.MAX_AUTO, cores - 1))


def test_a_device_thread_computes_with_the_count_in_openmp_too(registry, unset):
    """A matmul reads its thread's OpenMP count, which a thread starts with unset (one per core): the
    device's thread is given the count as it calls the backend, before the kernel runs."""
    other = 1 if unset != 1 else 2
    assert counts_in_a_run(registry, {"device_threads": str(other)}) == (other, other)
    assert counts_in_a_run(registry, {"device_threads": str(unset + 1)}) == (unset + 1, unset + 1)


def test_every_thread_that_calls_the_backend_computes_with_the_count(registry, unset):
    """A run called on a thread of its own (not the device's), a snapshot and a restore (moxzid's copies
    and transfers run on threads of their own) each leave their thread with the device's count."""
    loaded, _ = registry
    other = 1 if unset != 1 else 2
    chosen = settings.from_sources({"device_threads": str(other)}, loaded.settings)
    d = device.open_device(loaded, "torch:cpu", settings=chosen)
    try:
        letters_params(d, CALLER, adamw(["embed", "head"], lr=0.05, weight_decay=0.0))
        text = [{"data": bytes(range(65)), "elem": {"u8": None}, "shape": [1, 65]}]
        forward = run_arg(LETTERS, inputs=text, scalars=[9])
        assert on_a_new_thread(lambda: (d.request("run", CALLER, forward), openmp_threads())[1]) == other
        copy = io.BytesIO()
        assert on_a_new_thread(lambda: (d.snapshot(copy), openmp_threads())[1]) == other
        copy.seek(0)
        assert on_a_new_thread(lambda: (d.restore(copy), openmp_threads())[1]) == other
    finally:
        d.close()


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
