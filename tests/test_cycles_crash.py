"""kill -9 of a real moxzid (LMDB store) while cycles move between two actors: the client's timer loop
(tests/actors/client.mo) offers the bank cycles it keeps part of, offers them to a method that traps
(they all come back) and deposits them through the management canister. After restarts at random
points the balances are exactly an uninterrupted run's, and exactly what the steps moved: no cycle is
lost or moved twice by a message that ran again after the crash."""

import time

import pytest
from kit.actorbuild import build_actor
from kit.crashing import call, uninterrupted_and_crashed
from kit.daemon import project
from kit.http import request

from moxzi_core.candid import Principal
from moxzi_core.runtime.host import actor_principal

pytestmark = pytest.mark.slow  # kill -9 runs of moxzid

pytest.importorskip("moxzi_store_lmdb")

TARGET = 1000  # steps of the client's loop: 250-400 done when the last restart looks here (classic is faster); a quicker machine's kills come by halfway
INITIAL = 10**12
FLAGS = ("-m", "actors.json", "-s", "state", "--plugins", "http,lmdb", "--cycles", str(INITIAL))


def bank_and_client(folder, classic: bool) -> None:
    """``folder`` with the bank and client actors, built for ``classic`` persistence or not."""
    project(folder, bank=build_actor("bank", classic=classic), client=build_actor("client", classic=classic))


def kept_by_the_bank(steps: int) -> int:
    """What the bank keeps of the loop's first ``steps`` steps (client.mo's `schedule`)."""
    kept = 0
    for step in range(steps):
        amount = 1_000 + step
        kept += amount if step % 4 == 3 else 0 if step % 4 == 2 else min(amount, step * 7)
    return kept


def start_work(daemon):
    assert call(daemon, "call-json/client/run", [TARGET, Principal(actor_principal("bank")).to_text()]) == []


def steps(daemon) -> int:
    return call(daemon, "query-json/client/status")[0]


def finished(daemon, seconds=120):
    deadline = time.monotonic() + seconds
    while steps(daemon) < TARGET:
        assert time.monotonic() < deadline, f"stuck at step {steps(daemon)}"
        time.sleep(0.05)
    time.sleep(0.2)  # nothing moves once the loop ends
    status, accounts = request(f"{daemon.url}/cycles")
    assert status == 200, accounts
    return accounts, call(daemon, "query-json/bank/keptInAll"), call(daemon, "query-json/client/status")


@pytest.mark.parametrize("classic", [False, True], ids=["enhanced", "classic"])
def test_balances_are_exact_after_kills(tmp_path, classic):
    expected, result, steps_seen, _ = uninterrupted_and_crashed(
        tmp_path,
        FLAGS,
        lambda folder: bank_and_client(folder, classic),
        start_work,
        steps,
        finished,
        seed=11,
        first_kill=(0.05, 0.3),
        later_kills=(0.05, 0.3),
        restarts=3,
        total=TARGET,
    )
    assert result == expected
    kept = kept_by_the_bank(TARGET)
    accounts, bank_kept, client_status = result
    assert accounts == {
        "bank": {"balance": INITIAL + kept, "spent": 0},
        "client": {"balance": INITIAL - kept, "spent": 0},
    }
    assert bank_kept == [kept - sum(1_000 + s for s in range(3, TARGET, 4))]  # deposit_cycles bypass `kept`
    assert client_status == [TARGET, INITIAL - kept]
    assert steps_seen == sorted(steps_seen)
    assert steps_seen[-1] < TARGET, "the kills came too late to interrupt the loop"
