"""Who may use the JSON routes that change an actor's code or a balance: ``POST /upgrade/ACTOR`` (which
can replace the code, and so read out everything the actor holds), ``POST /cycles/ACTOR`` and ``POST
/cycles-ledger/PRINCIPAL`` (a cycles-ledger account, which creations draw on), and the weights routes
(``/weights/ACTOR``); the actor's controllers may also upgrade it and use its weights routes with
requests they sign (``controllers.py``).

On a loopback listen address (``127.0.0.1``, ``::1``, ``localhost``: the default) they are open like
every route, as the tutorials use them: only this machine reaches the port. On any other address they
need moxzid's admin token, sent as ``Authorization: Bearer TOKEN``; no setting opens them, so serving
on a network cannot hand upgrades to the network by accident. With ``-s DIR`` the token is kept in
``DIR/admin-token`` (mode 0600, made at the first start); without ``-s`` it is new at each start and
written to moxzid's log.
"""

from __future__ import annotations

import hmac
import ipaddress
import logging
import os
import secrets
from pathlib import Path

log = logging.getLogger("moxzi.http")

TOKEN_FILE = "admin-token"


class AdminToken:
    """The token the admin routes need (``None``: they are open, on a loopback address)."""

    def __init__(self, token: str | None, where: str):
        self.token, self.where = token, where

    @classmethod
    def for_listening(cls, host: str, state_dir: Path | None) -> AdminToken:
        if _is_loopback(host):
            return cls(None, "")
        if state_dir is None:
            token = _new_token()
            log.info("admin token for /upgrade and POST /cycles (new at each start without -s): %s", token)
            return cls(token, "moxzid's log")
        path = Path(state_dir) / TOKEN_FILE
        if not path.exists():
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(descriptor, "w") as file:
                file.write(_new_token() + "\n")
        log.info("admin token for /upgrade and POST /cycles: in %s", path)
        return cls(path.read_text().strip(), str(path))

    def allows(self, authorization: str | None) -> bool:
        """Whether a request with this ``Authorization`` header may use the admin routes."""
        if self.token is None:
            return True
        scheme, _, given = (authorization or "").partition(" ")
        return scheme.lower() == "bearer" and hmac.compare_digest(given.strip().encode(), self.token.encode())


def _new_token() -> str:
    # hex, not base64url: a token starting with "-" read as a flag by `moxzi upgrade --token TOKEN`
    return secrets.token_hex(32)


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False  # a host name: whatever it resolves to, not known to be loopback
