"""`moxzi call` and `moxzi query` against a running moxzid: Candid text in and out, and each error
(bad syntax with its column, wrong types, an unknown actor or method, a trap, no moxzid) with its exit
status; the gateway's /call and /query routes they use."""

import socket

import pytest
from kit.daemon import moxzi, project, running_moxzid

from moxzi_core.client import CallError, Client


@pytest.fixture(scope="module")
def url(tmp_path_factory):
    folder = tmp_path_factory.mktemp("call")
    project(folder, "lab")
    with running_moxzid("-m", "actors.json", cwd=folder) as daemon:
        yield daemon.url
        assert daemon.stop() == 0


@pytest.mark.slow
def test_call_and_query_print_the_reply_as_dfx_does(url):
    first = moxzi("call", "--url", url, "lab", "inc")
    assert first.returncode == 0, first.stderr
    count = int(first.stdout.strip().removeprefix("(").removesuffix(" : nat)"))
    assert moxzi("query", "--url", url, "lab", "get").stdout == f"({count} : nat)\n"
    echo = moxzi("query", "--url", url, "lab", "echo", '("hi", 7, 1.5, true, vec { 1; 2 }, opt "x")')
    assert echo.returncode == 0, echo.stderr
    for part in (
        '"text" = "hi"',
        "n = 7 : nat",
        "f = 1.5 : float64",
        "flag = true",
        'o = opt "x"',
        r'items = blob "\01\02"',
    ):
        assert part in echo.stdout


@pytest.mark.slow
@pytest.mark.parametrize(
    "args, status, words",
    [
        (["lab", "echo", '("hi", 7, 1.5, true, vec { 1; 2 }, opt "x"'], 2, "1:"),  # unclosed
        (["lab", "echo", '("hi", "seven", 1.5, true, vec {}, null)'], 2, "1:8: expected nat"),
        (["lab", "echo", '("hi")'], 2, "1 argument given, but the method takes 6"),
        (["lab", "nope"], 2, "has no method 'nope'"),
        (["lab", "ehco"], 2, "lab has no method 'ehco'; did you mean 'echo'?"),
        (["nobody", "inc"], 2, "POST {url}/call/nobody/inc: no actor named 'nobody'"),  # names the moxzid asked
        (["lab", "incThenTrap"], 1, "trapped"),
    ],
)
def test_errors_say_what_and_where_with_a_non_zero_exit(url, args, status, words):
    done = moxzi("call", "--url", url, *args)
    assert done.returncode == status, done.stderr
    assert done.stdout == ""
    assert words.format(url=url) in done.stderr


@pytest.mark.slow
def test_a_type_error_points_at_its_column(url):
    done = moxzi("call", "--url", url, "lab", "echo", '("hi", "seven", 1.5, true, vec {}, null)')
    lines = done.stderr.splitlines()
    assert lines[-2:] == ['  ("hi", "seven", 1.5, true, vec {}, null)', "         ^"]


@pytest.mark.slow
def test_an_update_method_on_query_is_refused(url):
    done = moxzi("query", "--url", url, "lab", "inc")
    assert done.returncode == 2 and "is an update method" in done.stderr


@pytest.mark.slow
def test_the_client_speaks_candid_text_too(url):
    client = Client(url)
    assert client.query_text("lab", "id").startswith('(principal "')
    with pytest.raises(CallError) as error:
        client.call_text("lab", "say", "(42)")
    assert error.value.status == 400 and "1:2: expected text" in str(error.value)


def test_no_moxzid_exits_1():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{s.getsockname()[1]}"
        done = moxzi("call", "--url", url, "lab", "inc")
    assert done.returncode == 1 and f"POST {url}/call/lab/inc: moxzid did not answer" in done.stderr
