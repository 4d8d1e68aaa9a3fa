"""kill -9 of a real moxzid with -s and a device, in the middle of training (and of copies of the
device): after restarts, training finishes with the same parameters, byte for byte, and the same losses
as an uninterrupted run."""

import pytest
from kit.crashing import DEVICE_COPIED_EACH_CALL, Training, uninterrupted_and_crashed

pytestmark = pytest.mark.slow  # kill -9 runs of moxzid while training

pytest.importorskip("moxzi_store_lmdb")
pytest.importorskip("moxzi_device_torch")

STEPS = 1000
TRAINING = Training("learner", STEPS, seconds=180)


def test_killed_while_training_ends_with_the_same_parameters(tmp_path):
    expected, result, seen, log = uninterrupted_and_crashed(
        tmp_path,
        DEVICE_COPIED_EACH_CALL,
        TRAINING.project,
        TRAINING.start,
        TRAINING.progress,
        TRAINING.finished,
        seed=11,
        first_kill=(0.3, 0.8),
        later_kills=(0.1, 0.4),
        restarts=2,
        total=STEPS,
    )
    assert result == expected
    assert seen == sorted(seen) and seen[-1] < STEPS, f"the kills did not interrupt training: {seen}"
    assert "system state restored from its copy" in log
