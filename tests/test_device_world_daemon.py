"""moxzid with a device on two ranks (--device-world 2, gloo): `moxzid plugins` and the log show the
ranks, and kill -9 in the middle of data-parallel training (and of copies of the device), then
restarts, end with one device's result; the worker ranks of a killed moxzid go away by themselves."""

import time
from pathlib import Path

import numpy as np
import pytest
from kit.crashing import DEVICE_COPIED_EACH_CALL, Training, uninterrupted_and_crashed
from kit.daemon import moxzid

pytest.importorskip("moxzi_store_lmdb")
pytest.importorskip("moxzi_device_torch")
pytestmark = pytest.mark.slow

STEPS = 200  # past about 200 steps on its plateau, rounding moves the losses by more than 1e-5
ONE = DEVICE_COPIED_EACH_CALL
TWO = ONE + ("--device-world", "2", "--device-rank-timeout", "10")
TRAINING = Training("rows", STEPS, seconds=240)


def processes_in(folder: Path) -> list[int]:
    """The processes working in ``folder`` (moxzid and its device workers run there)."""
    found = []
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and Path(proc / "cwd").resolve() == folder.resolve():
                found.append(int(proc.name))
        except OSError:
            pass  # gone, or not ours to read
    return found


def test_plugins_lists_the_ranks():
    out = moxzid("--plugins", "torch", "--device", "torch:cpu", "--device-world", "2", "plugins")
    assert out.returncode == 0, out.stderr
    assert "device   rank 0 of 2: " in out.stdout and "device   rank 1 of 2: " in out.stdout, out.stdout


@pytest.mark.timeout(400)  # five moxzid start-ups, four of them with a worker rank importing torch
def test_killed_while_training_on_two_ranks_ends_with_one_devices_result(tmp_path):
    expected, result, seen, log = uninterrupted_and_crashed(
        tmp_path,
        TWO,
        TRAINING.project,
        TRAINING.start,
        TRAINING.progress,
        TRAINING.finished,
        seed=17,
        first_kill=(0.5, 1.5),
        later_kills=(0.1, 0.5),
        restarts=2,
        total=STEPS,
        uninterrupted_flags=ONE,
    )
    assert seen == sorted(seen) and seen[-1] < STEPS, f"the kills did not interrupt training: {seen}"
    np.testing.assert_allclose(result[0], expected[0], rtol=1e-5)
    # Float rounding differs between one device and two (AdamW magnifies it where gradients nearly cancel).
    drift = np.abs(np.frombuffer(result[1], "<f4") - np.frombuffer(expected[1], "<f4"))
    assert np.quantile(drift, 0.99) < 1e-4 and drift.max() < 1e-3, drift.max()
    assert "system state restored from its copy" in log
    assert "moxzid: device rank 0 of 2: " in log and "moxzid: device rank 1 of 2: " in log, log
    deadline = time.monotonic() + 30  # the killed moxzids' workers saw their rendezvous go
    while processes_in(tmp_path / "crashed"):
        assert time.monotonic() < deadline, f"left running: {processes_in(tmp_path / 'crashed')}"
        time.sleep(0.2)
