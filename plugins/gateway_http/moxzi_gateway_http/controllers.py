"""Who besides the admin token may use ``POST /upgrade/ACTOR`` and the weights routes: an actor's
controllers, with requests they sign (``Authorization: IC-Signature ...``, moxzi_core.signed_http;
`moxzi upgrade --identity PEM`, `moxzi weights --identity PEM`); and who signed a ``GET /logs/ACTOR``
(`moxzi logs --identity PEM`), whom the actor's log_visibility may let see its log.

A signed request is let through when its signature holds and has not expired (401 otherwise, saying
what is wrong), its sender is one of the actor's controllers (403 naming the sender and the actor) and
it was not let through before: its id is kept in the store until its expiry (moxzi_core.received), so a
captured request resent, after a restart too, is refused (401). A signature is checked wherever moxzid
listens, loopback too: a request that brings one is judged by it.
"""

from __future__ import annotations

from functools import cached_property

from aiohttp import web

from moxzi_core.candid import Principal
from moxzi_core.errors import MoxziError
from moxzi_core.received import Received
from moxzi_core.runtime.host import Host
from moxzi_core.signatures import Refused
from moxzi_core.signed_http import Signed, read

RECEIVED = b"http/signed/"  # where the store keeps the signed requests let through, until they expire


class BadSignature(MoxziError):
    status = 401


class NotAController(MoxziError):
    status = 403


class TooManySigned(MoxziError):
    status = 429


class Controllers:
    """The check of requests signed by ``host``'s actors' controllers, with the ids of those let through."""

    def __init__(self, host: Host):
        self.host = host

    @cached_property
    def received(self) -> Received:  # read from the store at the first signed request
        return Received(self.host.store, RECEIVED, "signed upgrade and weights requests")

    def admit(self, request: web.Request, actor: str, what: str) -> Signed:
        """The signed request, once its checks pass (see the module docstring); raises otherwise."""
        signed = self._verified(request, what)
        controllers = self.host.info(actor).controllers
        if signed.sender not in controllers:
            raise NotAController(
                f"{what}: {Principal(signed.sender)} is not a controller of {actor} (its controllers: "
                f"{', '.join(str(Principal(c)) for c in controllers) or 'none'}); a controller's key or "
                "moxzid's admin token is needed"
            )
        self._once(signed, what)
        return signed

    def sender(self, request: web.Request, what: str) -> bytes:
        """Who sent a signed request whose signature holds, let through once (``GET /logs/ACTOR``, which
        the actor's log_visibility, not its controllers alone, opens); raises otherwise."""
        signed = self._verified(request, what)
        self._once(signed, what)
        return signed.sender

    def _verified(self, request: web.Request, what: str) -> Signed:
        query = request.query
        if len(set(query)) != len(query):
            raise BadSignature(f"{what}: a query parameter is given twice, which a signature cannot sign")
        try:
            return read(
                request.headers["Authorization"],
                request.method,
                request.path,
                dict(query),
                request.content_length or 0,
            )
        except Refused as refused:
            raise BadSignature(f"{what}: {refused}") from None

    def _once(self, signed: Signed, what: str) -> None:
        if self.received.known(signed.id):
            raise BadSignature(f"{what}: this signed request was let through before; sign each request anew")
        refusal = self.received.receive(signed.id, signed.expiry, signed.sender)
        if refusal is not None:
            raise TooManySigned(f"{what}: {refusal}; retry once some expire")
