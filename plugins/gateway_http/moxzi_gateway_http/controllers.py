"""Who besides the admin token may use ``POST /upgrade/ACTOR`` and the weights routes: an actor's
controllers, with requests they sign (``Authorization: IC-Signature ...``, moxzi_core.signed_http;
`moxzi upgrade --identity PEM`, `moxzi weights --identity PEM`); and who signed a ``GET /logs/ACTOR``
(`moxzi logs --identity PEM`), whom the actor's log_visibility may let see its log.

A signed request is let through when it is signed for this moxzid (its id, ``moxzid_id``, 16 random
bytes made with its state, is in what is signed, and every answer says it: ``signed_http.ID_HEADER``),
its signature holds and has not expired (401 otherwise, saying what is wrong), its sender is one of the
actor's controllers (403 naming the sender and the actor; a log request's sender is judged by the actor's
log_visibility instead) and it was not let through before: its id is kept in the store until its expiry (moxzi_core.received), so a
captured request resent, after a restart too, is refused (401). The ids count against the actor the
request names, not its sender: keys cost nothing, and an actor's controllers may be changed to any
number of them in turn, but an actor's controllers cannot crowd out another actor's (a 429 for the
actor whose ids hold more than their share of a full table). A signature is checked wherever moxzid
listens, loopback too: a request that brings one is judged by it.
"""

from __future__ import annotations

import secrets
from functools import cached_property

from aiohttp import web

from moxzi_core.candid import Principal
from moxzi_core.errors import MoxziError
from moxzi_core.host_api import GatewayHost
from moxzi_core.received import NotReceived, Received
from moxzi_core.signatures import Refused
from moxzi_core.signed_http import Signed, read
from moxzi_core.store import Batch

RECEIVED = b"http/signed/"  # where the store keeps the signed requests let through, until they expire
MOXZID_ID = b"http/moxzid-id"  # where it keeps this moxzid's id


class BadSignature(MoxziError):
    status = 401


class NotAController(MoxziError):
    status = 403


class TooManySigned(MoxziError):
    status = 429


class Controllers:
    """The check of requests signed by ``host``'s actors' controllers, with the ids of those let through."""

    def __init__(self, host: GatewayHost):
        self.host = host

    @cached_property
    def moxzid_id(self) -> bytes:  # read (or made) at the first answer
        return self.host.store.get(MOXZID_ID) or _new_id(self.host)

    @cached_property
    def received(self) -> Received:  # read from the store at the first signed request
        return Received(self.host.store, RECEIVED, "signed upgrade, weights and log requests", key_name="actor")

    def admit(self, request: web.Request, actor: str, what: str) -> Signed:
        """The signed request, once its checks pass (see the module docstring); raises otherwise."""
        signed = self._verified(request, what)
        info = self.host.info(actor)
        controllers = info.controllers
        if signed.sender not in controllers:
            raise NotAController(
                f"{what}: {Principal(signed.sender)} is not a controller of {actor} (its controllers: "
                f"{', '.join(str(Principal(c)) for c in controllers) or 'none'}); a controller's key or "
                "moxzid's admin token is needed"
            )
        self._once(signed, what, info.principal.bytes)
        return signed

    def sender(self, request: web.Request, actor: str, what: str) -> bytes:
        """Who sent a signed request about ``actor`` whose signature holds, let through once (``GET
        /logs/ACTOR``, which the actor's log_visibility, not its controllers alone, opens); raises
        otherwise."""
        signed = self._verified(request, what)
        self._once(signed, what, self.host.info(actor).principal.bytes)
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
                moxzid=self.moxzid_id,
            )
        except Refused as refused:
            raise BadSignature(f"{what}: {refused}") from None

    def _once(self, signed: Signed, what: str, actor: bytes) -> None:
        """Lets ``signed`` through once, its id counted against ``actor``'s share."""
        if self.received.known(signed.id):
            raise BadSignature(f"{what}: this signed request was let through before; sign each request anew")
        try:
            self.received.receive(signed.id, signed.expiry, actor)
        except NotReceived as refusal:
            raise TooManySigned(f"{what}: {refusal}; retry once some expire") from None


def _new_id(host: GatewayHost) -> bytes:
    """A new moxzid's id, kept with its state (without ``-s``, its state and its id last until it stops)."""
    made = secrets.token_bytes(16)
    batch = Batch()
    batch.put(MOXZID_ID, made)
    host.store.commit(batch)
    host.store.flush()
    return made
