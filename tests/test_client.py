"""moxzi_core.client against a running moxzid: calls, queries, upgrades, and each failure as a CallError."""

import socket

import pytest
from kit.actorbuild import build_actor
from kit.daemon import project, running_moxzid

from moxzi_core.client import CallError, Client


@pytest.fixture(scope="module")
def moxzid(tmp_path_factory):
    folder = tmp_path_factory.mktemp("client")
    project(folder, "counter")
    with running_moxzid("-m", "actors.json", cwd=folder) as daemon:
        yield Client(daemon.url)
        assert daemon.stop() == 0


@pytest.mark.slow
def test_calls_queries_and_upgrades(moxzid):
    (first,) = moxzid.call("counter", "inc")
    assert moxzid.call("counter", "inc") == [first + 1]
    assert moxzid.query("counter", "get") == [first + 1]
    assert [a["name"] for a in moxzid.actors()] == ["counter"]
    assert moxzid.upgrade("counter", build_actor("counter").wasm_path) == "upgraded"
    assert moxzid.query("counter", "get") == [first + 1]


@pytest.mark.slow
@pytest.mark.parametrize(
    "actor, method, args, status, words",
    [
        ("counter", "nope", [], 404, "has no method 'nope'"),
        ("nobody", "inc", [], 404, "no actor named 'nobody'"),
        ("counter", "inc", [5], 400, "expected 0 arguments"),
    ],
)
def test_failures_raise_call_error_with_the_gateways_message(moxzid, actor, method, args, status, words):
    with pytest.raises(CallError) as error:
        moxzid.call(actor, method, *args)
    assert error.value.status == status
    assert words in str(error.value)


def test_no_moxzid_is_a_call_error_without_a_status():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # bound, not listening: nothing answers
        with pytest.raises(CallError) as error:
            Client(f"http://127.0.0.1:{port}", timeout=5).call("counter", "inc")
    assert error.value.status is None and "did not answer" in str(error.value)
