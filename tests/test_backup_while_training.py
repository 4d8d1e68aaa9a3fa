"""`moxzi backup DEST` while an actor trains on the device: moxzid goes on training, and a moxzid
started on the backup (after kill -9 of the first) holds the backup's moment: it carries on from there
to the same losses and parameters, byte for byte, as the run that was backed up."""

import re
import stat
import time

import pytest
from kit.crashing import Training
from kit.daemon import moxzi, running_moxzid

pytestmark = pytest.mark.slow  # moxzid training, killed and started on its backup

pytest.importorskip("moxzi_device_torch")

STEPS = 1000
TRAINING = Training("learner", STEPS, seconds=180)
SETUP_CALLS = 2  # learner's first calls to the device (params, optimizer) before its steps
FLAGS = ("--device", "torch:cpu")
KEYS = "threshold-keys.cbor"  # kept beside the store, copied beside it


def test_a_backup_taken_while_training_restores_to_its_moment(tmp_path):
    (first := tmp_path / "first").mkdir()
    manifest = str(first / "actors.json")
    TRAINING.project(first)
    backup = tmp_path / "backup"
    with running_moxzid("-m", manifest, "-s", "state", *FLAGS, cwd=first, plugins="http,lmdb,torch") as daemon:
        TRAINING.start(daemon)
        while (before := TRAINING.progress(daemon)) < 30:
            time.sleep(0.05)
        done = moxzi("backup", "--url", daemon.url, str(backup))
        after = TRAINING.progress(daemon)
        expected = TRAINING.finished(daemon)
        daemon.kill()
    assert done.returncode == 0, done.stderr
    said = re.search(
        rf"{backup}: [\d.]+ MB in [\d.]+ s \(FORMAT, data.mdb, {KEYS}\), as of device call (\d+)", done.stdout
    )
    assert said, done.stdout
    assert stat.S_IMODE(backup.stat().st_mode) == 0o700
    assert (backup / KEYS).read_bytes() == (first / "state" / KEYS).read_bytes()
    moment = int(said.group(1)) - SETUP_CALLS  # the training steps the device had run at the backup
    assert before <= moment <= after + 1, (before, moment, after)  # (+1: a step whose answer was on its way)
    assert moment < STEPS, "training ended before the backup: nothing shows the moment"

    (restored := tmp_path / "restored").mkdir()
    with running_moxzid("-m", manifest, "-s", str(backup), *FLAGS, cwd=restored, plugins="http,lmdb,torch") as daemon:
        assert TRAINING.finished(daemon) == expected
    # The device was rebuilt (from its copy, if one was taken, then the record after it) up to the
    # backup's moment exactly: as many calls as the backup said it holds.
    log = (restored / "moxzid.log").read_text()
    copied = re.search(r"system state restored from its copy at call (\d+)", log)
    rerun = re.search(r"re-ran (\d+) system call", log)
    assert rerun is not None, log
    assert (int(copied.group(1)) if copied else 0) + int(rerun.group(1)) == int(said.group(1))
