"""A hostile client's malformed requests and connection floods, against moxzid as users run it: each
malformed request is a 4xx with a message, a flood of connections past the open-file limit is shed,
and neither leaves a traceback in moxzid's log. (Malformed weights files: tests/test_weights.py.)"""

import asyncio
import base64
import errno
import resource
import socket
import time
from types import SimpleNamespace

import cbor2
import pytest
from kit.daemon import project, running_moxzid
from kit.http import request

from moxzi_core.candid import Principal
from moxzi_core.daemon import OutOfFiles
from moxzi_core.runtime.host import actor_principal
from moxzi_gateway_http.listener import ACCEPT_BACKLOG, RESERVED_FILES

B64 = base64.b64encode(bytes(32)).decode()


def raw(url: str, head: bytes, body: bytes = b"") -> tuple[int, bytes]:
    """(status, body) of a request written byte for byte."""
    host, port = url.removeprefix("http://").rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=30) as conn:
        conn.sendall(head + b"\r\nContent-Length: %d\r\nConnection: close\r\n\r\n" % len(body) + body)
        answer = b""
        while chunk := conn.recv(1 << 16):
            answer += chunk
    return int(answer.split(b" ", 2)[1]), answer.partition(b"\r\n\r\n")[2]


@pytest.mark.slow  # a moxzid
def test_malformed_requests_are_4xx_with_a_message_and_no_traceback(tmp_path):
    counter = Principal(actor_principal("counter")).to_text()
    with running_moxzid("-m", project(tmp_path, "counter").name, cwd=tmp_path, plugins="http,ic") as daemon:
        url = daemon.url
        for expiry in ("9" * 5000, "²³"):  # past Python's int() digits; digits int() does not read
            signed = f"IC-Signature sender_pubkey={B64}, sender_sig={B64}, ingress_expiry={expiry}, nonce={B64}, moxzid={B64}"
            status, body = raw(
                url,
                f"POST /upgrade/counter HTTP/1.1\r\nHost: localhost\r\nAuthorization: {signed}, body_sha256={B64}".encode(),
                b"x",
            )
            assert status == 401 and b"ingress_expiry must be nanoseconds since 1970 (at most 20 digits" in body
        status, body = raw(url, b"GET /actors HTTP/1.1\r\nHost: localhost\r\nX-Large: " + b"a" * 20_000)
        assert status == 400 and b"Got more than 8190 bytes" in body
        content = {
            "request_type": "query",
            "sender": b"\x04",
            "canister_id": actor_principal("counter"),
            "method_name": "get",
            "arg": b"DIDL\0\0",
            "ingress_expiry": 10**5000,
        }
        status, body = raw(
            url,
            f"POST /api/v2/canister/{counter}/query HTTP/1.1\r\nHost: localhost".encode(),
            cbor2.dumps({"content": content}),
        )
        assert status == 400 and b"tag 2 is not accepted" in body  # a bignum
        status, body = raw(url, b"POST /call-json/counter/inc HTTP/1.1\r\nHost: localhost", b"[" * 100_000)
        assert status == 400 and b"nested too deeply" in body
        assert daemon.call("counter", "inc") == [1]
    assert "Traceback" not in daemon.log.read_text()


def open_files(n: int):
    return lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (n, n))


@pytest.mark.slow  # a moxzid, and 880 connections
def test_connections_past_the_open_file_limit_are_shed_quietly(tmp_path):
    """With 400 open files (`ulimit -n 400`), 880 connections: those past the caps are answered 503
    or wait in the listen queue, accepts that fail for want of files are one warning, and
    once the flood goes calls are served."""
    limit = 400
    assert limit > RESERVED_FILES + 2 * ACCEPT_BACKLOG  # room for a few connections
    project(tmp_path, "counter")
    with running_moxzid("-m", "actors.json", cwd=tmp_path, preexec_fn=open_files(limit)) as daemon:
        host, port = daemon.url.removeprefix("http://").rsplit(":", 1)
        flood = []
        try:
            for _ in range(880):
                flood.append(socket.create_connection((host, int(port)), timeout=30))
            time.sleep(2)
        finally:
            for conn in flood:
                conn.close()
        deadline = time.monotonic() + 30
        while (answer := request(f"{daemon.url}/call-json/counter/inc", [])).status != 200:
            assert time.monotonic() < deadline, answer
            time.sleep(0.2)
    log = daemon.log.read_text()
    assert "Traceback" not in log and log.count("out of open files") <= 1 and len(log) < 4000, log


def test_accepts_that_fail_for_want_of_files_are_one_warning_an_episode(caplog, monkeypatch):
    """asyncio reports each failed accept (up to a backlog of them at a time) with a traceback;
    moxzid's handler turns a flood of them into one line as it begins, one more only after a quiet
    spell, and leaves other reports to asyncio."""
    now = [0.0]  # the handler's clock, moved by the test: a busy machine's pause is no quiet spell
    monkeypatch.setattr("moxzi_core.daemon.time", SimpleNamespace(monotonic=lambda: now[0]))
    loop = asyncio.new_event_loop()
    try:
        handler = OutOfFiles(quiet_seconds=0.5)
        failed = {"message": OutOfFiles.MESSAGE, "exception": OSError(errno.EMFILE, "Too many open files")}
        for _ in range(10):  # a flood lasting longer than the quiet spell is still one episode
            for _ in range(100):
                handler.handle(loop, failed)
            now[0] += 0.1
        now[0] += 0.6
        handler.handle(loop, failed)  # a new episode
        handler.handle(loop, {"message": "something else", "exception": ValueError("kept")})
    finally:
        loop.close()
    warnings = [r for r in caplog.records if r.getMessage().startswith("out of open files")]
    assert len(warnings) == 2 and "Too many open files" in warnings[0].getMessage()
    assert not warnings[0].exc_info
    assert any(r.getMessage() == "something else" and r.exc_info for r in caplog.records)  # asyncio's
