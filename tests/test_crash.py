"""kill -9 of a real moxzid (LMDB store) at several points of a timer-driven workload: after each restart
the actors carry on by themselves, and at the end every actor answers exactly what an uninterrupted run
answers.

The workload (tests/actors/crunch.mo): actor `a` runs a loop of timer callbacks, each a batch of
arithmetic followed by an awaited call to actor `b` whose answer it folds in; `b` folds each call into
its own number. Messages between actors, timers, self-calls and callbacks are all in flight when the
process dies."""

import time

import pytest
from kit.crashing import call, uninterrupted_and_crashed
from kit.daemon import project

from moxzi_core.candid import Principal
from moxzi_core.runtime.host import actor_principal

pytestmark = pytest.mark.slow  # kill -9 runs of moxzid

pytest.importorskip("moxzi_store_lmdb")

TARGET = 400  # timer callbacks of actor a: 90-130 done when the last restart looks here; a quicker machine's kills come by halfway
FLAGS = ("-m", "actors.json", "-s", "state", "--plugins", "http,lmdb")


def status(daemon):
    return {name: call(daemon, f"query-json/{name}/status") for name in ("a", "b")}


def start_work(daemon):
    b = Principal(actor_principal("b")).to_text()
    assert call(daemon, "call-json/a/run", [TARGET, b]) == []


def finished(daemon, seconds=120):
    deadline = time.monotonic() + seconds
    while (now := status(daemon))["a"][0] < TARGET:
        assert time.monotonic() < deadline, f"stuck at {now}"
        time.sleep(0.05)
    time.sleep(0.2)  # nothing runs twice: the numbers stay put once the loop ends
    assert status(daemon) == now
    return now


def test_kill_at_several_points_ends_as_an_uninterrupted_run(tmp_path):
    expected, result, steps_seen, _ = uninterrupted_and_crashed(
        tmp_path,
        FLAGS,
        lambda folder: project(folder, a="crunch", b="crunch"),
        start_work,
        lambda daemon: status(daemon)["a"][0],
        finished,
        seed=7,
        first_kill=(0.05, 0.3),
        later_kills=(0.05, 0.5),
        restarts=3,
        total=TARGET,
    )
    assert result == expected
    assert steps_seen == sorted(steps_seen)  # progress is never lost across a kill
    assert steps_seen[-1] < TARGET, "the kills came too late to interrupt the loop"
