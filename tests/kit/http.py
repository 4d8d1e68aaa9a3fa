"""The one HTTP client of the tests: ``request`` against a running moxzid (or any URL)."""

import json
import urllib.error
import urllib.request
from typing import Any, NamedTuple


class Answer(NamedTuple):
    status: int
    body: Any  # decoded JSON when the answer is JSON, else text


def request(url: str, body: Any = None, *, data: bytes | None = None, timeout: float = 60) -> Answer:
    """GET ``url`` (no body) or POST ``body`` as JSON (or the raw bytes ``data``); never raises for an
    HTTP error status: the status and the decoded answer come back either way."""
    if body is not None:
        data = json.dumps(body).encode()
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=data), timeout=timeout) as response:
            return Answer(response.status, _decoded(response))
    except urllib.error.HTTPError as error:
        return Answer(error.code, _decoded(error))


def _decoded(response) -> Any:
    raw = response.read().decode()
    return json.loads(raw) if response.headers.get_content_type() == "application/json" else raw
