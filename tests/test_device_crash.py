"""kill -9 of a real moxzid with -s and a device, in the middle of training (and of copies of the
device): after restarts, training finishes with the same parameters, byte for byte, and the same losses
as an uninterrupted run."""

import base64
import time

import pytest
from kit.crashing import DEVICE_COPIED_EACH_CALL, call, call_in_background, uninterrupted_and_crashed
from kit.daemon import project as kit_project

pytestmark = pytest.mark.slow  # kill -9 runs of moxzid while training

pytest.importorskip("moxzi_store_lmdb")
pytest.importorskip("moxzi_device_torch")

STEPS = 1000


def project(folder):
    """``folder`` with the learner actor and its manifest."""
    kit_project(folder, "learner")


def learn_in_background(daemon):
    call_in_background(daemon, "call-json/learner/learn", [STEPS])


def finished(daemon, seconds=180):
    deadline = time.monotonic() + seconds
    while len(losses := call(daemon, "query-json/learner/progress")[0]) < STEPS:
        assert time.monotonic() < deadline, f"stuck at {len(losses)} steps"
        time.sleep(0.05)
    return losses, base64.b64decode(call(daemon, "call-json/learner/weights")[0])


def test_killed_while_training_ends_with_the_same_parameters(tmp_path):
    expected, result, seen, log = uninterrupted_and_crashed(
        tmp_path,
        DEVICE_COPIED_EACH_CALL,
        project,
        learn_in_background,
        lambda daemon: len(call(daemon, "query-json/learner/progress")[0]),
        finished,
        seed=11,
        first_kill=(0.3, 0.8),
        later_kills=(0.1, 0.4),
        restarts=2,
    )
    assert result == expected
    assert seen == sorted(seen) and seen[-1] < STEPS, f"the kills did not interrupt training: {seen}"
    assert "system state restored from its copy" in log
