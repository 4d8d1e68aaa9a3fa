"""A small client for moxzid's HTTP gateway (the ``http`` plugin), on the standard library (and
``cryptography``, to sign upgrades and weights requests with an identity)::

    from moxzi_core.client import Client

    moxzid = Client("http://127.0.0.1:7000")
    moxzid.call("counter", "inc")                 # [1]: the results, in the JSON mapping (docs/candid-json.md)
    moxzid.query("counter", "get")                # [1]
    moxzid.call("letters", "learn", 200)          # [{"first": 5.54, "last": 0.87}]
    moxzid.call_text("counter", "inc", "()")      # "(2 : nat)": Candid text in and out, as dfx

Arguments and results are Python values in Candid's JSON mapping: numbers, strings, lists, dicts, a
blob as a base64 string. A call that fails (a reject, a trap, an unknown actor or method, arguments of
the wrong type, moxzid not answering) raises ``CallError`` with the gateway's message.
"""

from __future__ import annotations

import hashlib
import json
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from pathlib import Path

from moxzi_core import signed_http
from moxzi_core.signatures import Identity

DEFAULT_URL = "http://127.0.0.1:7000"
CALL_SECONDS = 600.0  # a training call may run for minutes
CHUNK = 2**20  # bytes of a weights file read or written at a time


class CallError(RuntimeError):
    """A request to moxzid failed. ``status`` is the HTTP status (None when moxzid did not answer);
    ``reject_code`` the IC reject code when the actor's call was rejected (else None); ``reason`` the
    message without the request it answers (moxzid's own words where it answered)."""

    def __init__(
        self, message: str, status: int | None = None, reject_code: int | None = None, reason: str | None = None
    ):
        super().__init__(message)
        self.status, self.reject_code = status, reject_code
        self.reason = message if reason is None else reason


class Client:
    """moxzid at ``url`` (``http://HOST:PORT``); ``token``: moxzid's admin token, which the admin routes
    (upgrades, cycles, weights) need on a listen address other than loopback; ``identity``: a key that
    signs the upgrades and weights requests instead (moxzi_core.signed_http), which moxzid lets through
    for the actor's controllers."""

    def __init__(
        self,
        url: str = DEFAULT_URL,
        timeout: float = CALL_SECONDS,
        token: str | None = None,
        identity: Identity | None = None,
    ):
        self.url = url.rstrip("/")
        self.timeout = timeout
        self.token = token
        self.identity = identity
        self._moxzid_id: bytes | None = None  # the id of the moxzid at url, which signed requests name

    def call(self, actor: str, method: str, *args, timeout: float | None = None) -> list:
        """Call ``method`` of ``actor`` as an update with ``args``; the list of its results."""
        return self._json("POST", _route("call-json", actor, method), json.dumps(list(args)).encode(), timeout)

    def query(self, actor: str, method: str, *args, timeout: float | None = None) -> list:
        """Call the query method ``method`` of ``actor``; the list of its results."""
        return self._json("POST", _route("query-json", actor, method), json.dumps(list(args)).encode(), timeout)

    def call_text(self, actor: str, method: str, args: str = "()", timeout: float | None = None) -> str:
        """An update call with Candid textual arguments (``'(42, "x")'``); the reply as Candid text, as
        ``dfx canister call`` prints it (``(43 : nat)``). Bad syntax or types: a CallError (status 400)
        whose message has the offending token's ``line:column``."""
        return self._request("POST", _route("call", actor, method), args.encode(), timeout).decode().rstrip("\n")

    def query_text(self, actor: str, method: str, args: str = "()", timeout: float | None = None) -> str:
        """A query call with Candid textual arguments; the reply as Candid text."""
        return self._request("POST", _route("query", actor, method), args.encode(), timeout).decode().rstrip("\n")

    def upgrade(self, actor: str, wasm: Path | bytes, timeout: float | None = None) -> str:
        """Replace ``actor``'s code with ``wasm`` (a path or the module's bytes), keeping its state;
        the gateway's answer (``upgraded``)."""
        body = wasm if isinstance(wasm, bytes) else Path(wasm).read_bytes()
        headers = self._signed("POST", ("upgrade", actor), {}, body)
        return self._request("POST", _route("upgrade", actor), body, timeout, headers).decode()

    def export_weights(self, actor: str, out: Path, *, prefix: str = "", publications: bool = False) -> int:
        """Write ``actor``'s parameters (named ``prefix``..., without it; with its publications if asked)
        to ``out`` as a safetensors file, streamed; its size in bytes."""
        query = {"prefix": prefix, "publications": "1" if publications else ""}
        path = f"{_route('weights', actor)}?{urllib.parse.urlencode(query)}"
        headers = self._signed("GET", ("weights", actor), query)
        size = 0
        with self._open("GET", path, None, None, headers) as response, open(out, "wb") as file:
            while chunk := response.read(CHUNK):
                file.write(chunk)
                size += len(chunk)
        return size

    def import_weights(self, actor: str, source: Path, *, prefix: str = "") -> list[str]:
        """Set (or create) ``actor``'s parameters prefix + name from the safetensors file ``source``,
        streamed; the parameters it set."""
        query = {"prefix": prefix}
        path = f"{_route('weights', actor)}?{urllib.parse.urlencode(query)}"
        headers = {
            "Content-Length": str(Path(source).stat().st_size),
            **self._signed("PUT", ("weights", actor), query, Path(source)),
        }
        with open(source, "rb") as file:
            return json.loads(self._request("PUT", path, file, None, headers))["imported"]

    def logs(self, actor: str, since: int = 0) -> list[dict]:
        """``actor``'s log (what it printed and how it trapped, as fetch_canister_logs gives it) from
        record ``since`` on: ``{"idx", "timestamp_nanos", "content"}`` each, oldest first. Signed with
        ``identity`` when there is one: the actor's log_visibility says whom it shows the log."""
        query = {"since": str(since)}
        headers = self._signed("GET", ("logs", actor), query)
        return json.loads(
            self._request("GET", f"{_route('logs', actor)}?{urllib.parse.urlencode(query)}", None, None, headers)
        )

    def backup(self, destination: Path, progress: Callable[[int, int], None] | None = None) -> dict:
        """Have moxzid copy its state directory into ``destination`` (a path on moxzid's machine, made
        absolute here: missing or an empty directory) while it runs (``POST /backup``, an admin route);
        ``progress(copied, about)`` is called as the copy goes. The answer's last line: ``destination``,
        ``bytes``, ``files``, ``seconds``, ``device_calls`` (the moment it holds). A backup that failed is a CallError (what it wrote removed)."""
        body = json.dumps({"destination": str(Path(destination).absolute())}).encode()
        with self._open("POST", "/backup", body, None) as response:
            for line in response:
                said = json.loads(line)
                if "error" in said:
                    raise CallError(f"POST {self.url}/backup: {said['error']}", response.status)
                if "copied" not in said:
                    return said
                if progress is not None:
                    progress(said["copied"], said["of"])
        raise CallError(f"POST {self.url}/backup: moxzid stopped answering before the backup was whole")

    def health(self) -> dict:
        """``{"status": "ready"}`` once every actor runs (``GET /health``); while moxzid starts, raises
        CallError with status 503 and what it restores."""
        return self._json("GET", "/health", None, None)

    def actors(self) -> list[dict]:
        """Each actor's name, principal, persistence mode and methods (``GET /actors``)."""
        return self._json("GET", "/actors", None, None)

    def _signed(
        self, verb: str, route: tuple[str, ...], query: dict[str, str], body: Path | bytes | None = None
    ) -> dict[str, str]:
        """The header that signs a request with ``identity`` (none without one): ``verb`` on ``route``
        with ``query`` and ``body``: bytes, a file (read once here for its hash) or none."""
        if self.identity is None:
            return {}
        path = "/" + "/".join(route)  # decoded, as the gateway sees it
        moxzid = self._moxzid()
        if body is None:
            return {"Authorization": signed_http.authorization(self.identity, verb, path, query, moxzid=moxzid)}
        if isinstance(body, bytes):
            digest, size = hashlib.sha256(body).digest(), len(body)
        else:
            with open(body, "rb") as file:
                digest = hashlib.file_digest(file, "sha256").digest()
            size = Path(body).stat().st_size
        signed = signed_http.authorization(self.identity, verb, path, query, digest, size, moxzid=moxzid)
        return {"Authorization": signed}

    def _moxzid(self) -> bytes:
        """The id of the moxzid at ``url``, which a request signed for it names (its answers say it)."""
        if self._moxzid_id is None:
            with self._open("HEAD", "/actors", None, None) as response:
                said = response.headers.get(signed_http.ID_HEADER, "")
            try:
                self._moxzid_id = bytes.fromhex(said)
            except ValueError:
                self._moxzid_id = b""
            if not self._moxzid_id:
                raise CallError(
                    f"{self.url} does not say which moxzid it is ({signed_http.ID_HEADER}: {said[:40]!r}), "
                    "so no request can be signed for it"
                )
        return self._moxzid_id

    def _json(self, verb: str, path: str, body: bytes | None, timeout: float | None):
        return json.loads(self._request(verb, path, body, timeout))

    def _request(self, verb: str, path: str, body, timeout: float | None, headers: dict | None = None) -> bytes:
        with self._open(verb, path, body, timeout, headers) as response:
            return response.read()

    def _open(self, verb: str, path: str, body, timeout: float | None, headers: dict | None = None):
        """The response to a request, to read; ``body``: bytes, a file, or None."""
        headers = dict(headers or {})
        if self.token is not None and "Authorization" not in headers:  # a signed request is signed only
            headers["Authorization"] = f"Bearer {self.token}"
        request = urllib.request.Request(self.url + path, data=body, method=verb, headers=headers)
        try:
            return urllib.request.urlopen(request, timeout=timeout or self.timeout)
        except urllib.error.HTTPError as error:
            text = error.read().decode(errors="replace")
            try:
                answer = json.loads(text)
            except ValueError:
                answer = {"error": text}
            said = answer.get("error", text)
            raise CallError(  # the URL in full: the default address may be another moxzid than meant
                f"{verb} {self.url}{path}: {said}", error.code, answer.get("reject_code"), said
            ) from None
        except (urllib.error.URLError, TimeoutError, ConnectionError) as error:
            said = f"moxzid did not answer: {getattr(error, 'reason', error)}"
            raise CallError(f"{verb} {self.url}{path}: {said}", reason=said) from None


def _route(*parts: str) -> str:
    return "/" + "/".join(urllib.parse.quote(part, safe="") for part in parts)
