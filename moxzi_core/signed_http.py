"""Requests to moxzid's HTTP routes signed with a sender's key, as IC requests are: how ``moxzi`` signs
one (``authorization``) and how the gateway checks it (``read``). ``POST /upgrade/ACTOR`` and the
weights routes take them, so an actor's controllers upgrade it and reach its weights with the key they
control it with (``moxzi upgrade --identity``, ``moxzi weights --identity``), where others need
moxzid's admin token.

The signed content is a map hashed as an IC request's content is (``signatures.hash_of_map``):

    {method: "GET" | "PUT" | "POST", path: "/weights/ACTOR" | "/upgrade/ACTOR", query: {name: value}, body_sha256: <32 bytes>,
     body_bytes: n, sender: <principal>, ingress_expiry: <ns>, nonce: <bytes>, moxzid: <its id>}

so the signature binds the route, its parameters, the body (its hash and size: the gateway checks the
hash as the body streams in, or an upgrade's once it is read), an expiry at most 5.5 minutes ahead (as
the IC's), a nonce (the request id, the hash, is new for each request; the gateway lets each through
once) and the moxzid it is for: its id, 16 random bytes kept with its state, which it sends with every
answer (``ID_HEADER``, hex), so a request signed for one moxzid is refused by any other, whatever
actors and keys they share (an IC request names no replica; a moxzid route's actor names repeat
across moxzids). The signed message is
``DOMAIN`` followed by that hash: a separator of its own, so no signature on an IC request (or on a
delegation) is one on a moxzid route, nor the other way round. The request carries it as

    Authorization: IC-Signature sender_pubkey=B64, sender_sig=B64, ingress_expiry=NS, nonce=B64, body_sha256=B64,
        moxzid=B64

(base64 with padding; ``sender_pubkey`` the key's DER, whose self-authenticating principal is the sender).
Keys are those ``signatures.verify_key`` checks; delegations and canister signatures (Internet Identity)
are not taken here.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass

from moxzi_core.signatures import Identity, Refused, check_expiry, hash_of_map, self_authenticating, verify_key

SCHEME = "IC-Signature"
DOMAIN = b"\x12moxzi-http-request"  # the length of the name first, as the IC's separators are
EXPIRY_NS = 4 * 60 * 10**9  # how far ahead moxzi sets the expiry: within the window, with room for skew
FIELDS = ("sender_pubkey", "sender_sig", "ingress_expiry", "nonce", "body_sha256", "moxzid")
EXPIRY_DIGITS = 20  # a u64 of nanoseconds, as an IC request's ingress_expiry
ID_HEADER = "Moxzid-Id"  # the answers' header that says which moxzid sent them (its id, hex)
EMPTY_SHA256 = hashlib.sha256(b"").digest()


@dataclass(frozen=True)
class Signed:
    """A signed request whose signature holds: who sent it, its id (kept until ``expiry`` so it runs
    once) and the hash its body must have."""

    sender: bytes
    id: bytes
    expiry: int
    body_sha256: bytes


def content(
    method: str,
    path: str,
    query: Mapping[str, str],
    body_sha256: bytes,
    body_bytes: int,
    sender: bytes,
    expiry: int,
    nonce: bytes,
    moxzid: bytes,
) -> dict:
    """The map a signature signs the hash of (see the module docstring)."""
    return {
        "method": method,
        "path": path,
        "query": dict(query),
        "body_sha256": body_sha256,
        "body_bytes": body_bytes,
        "sender": sender,
        "ingress_expiry": expiry,
        "nonce": nonce,
        "moxzid": moxzid,
    }


def authorization(
    identity: Identity,
    method: str,
    path: str,
    query: Mapping[str, str],
    body_sha256: bytes = EMPTY_SHA256,
    body_bytes: int = 0,
    now_ns: int | None = None,
    *,
    moxzid: bytes,
) -> str:
    """The ``Authorization`` header of a request ``identity`` signs for the moxzid whose id is
    ``moxzid`` (what it sends as ``ID_HEADER``): ``method`` on ``path`` (decoded, as the server sees
    it: ``/weights/letters``) with ``query`` and a body of ``body_bytes`` bytes whose sha256 is
    ``body_sha256`` (none: the defaults), expiring EXPIRY_NS after ``now_ns`` (now)."""
    expiry = (time.time_ns() if now_ns is None else now_ns) + EXPIRY_NS
    nonce = secrets.token_bytes(16)
    signed = content(method, path, query, body_sha256, body_bytes, identity.principal, expiry, nonce, moxzid)
    signature = identity.sign(DOMAIN + hash_of_map(signed))
    fields = {
        "sender_pubkey": _b64(identity.public_key_der),
        "sender_sig": _b64(signature),
        "ingress_expiry": str(expiry),
        "nonce": _b64(nonce),
        "body_sha256": _b64(body_sha256),
        "moxzid": _b64(moxzid),
    }
    return f"{SCHEME} " + ", ".join(f"{name}={value}" for name, value in fields.items())


def is_signed(header: str | None) -> bool:
    """Whether an ``Authorization`` header is a signature (not, say, a bearer token)."""
    return (header or "").partition(" ")[0].lower() == SCHEME.lower()


def read(
    header: str,
    method: str,
    path: str,
    query: Mapping[str, str],
    body_bytes: int,
    now_ns: int | None = None,
    *,
    moxzid: bytes,
) -> Signed:
    """The signed request of an ``Authorization`` header, for a request of ``method`` on ``path`` with
    ``query`` and a body of ``body_bytes`` bytes, to the moxzid whose id is ``moxzid``. Raises
    Refused, saying what is wrong, unless the header is well formed, is for this moxzid, the expiry is
    in the window and the signature holds."""
    fields: dict[str, str] = {}
    for part in header.partition(" ")[2].split(","):
        name, equals, value = part.strip().partition("=")
        if not equals or name not in FIELDS or name in fields:
            raise Refused(
                f"{SCHEME}: {part.strip()[:40]!r} is not one of {', '.join(FIELDS)}, each once, as NAME=VALUE"
            )
        fields[name] = value.strip()
    missing = [name for name in FIELDS if name not in fields]
    if missing:
        raise Refused(f"{SCHEME}: the header has no {', '.join(missing)}")
    pubkey, signature, nonce, body_sha256, target = (
        _unb64(fields[name], name) for name in ("sender_pubkey", "sender_sig", "nonce", "body_sha256", "moxzid")
    )
    expiry_text = fields["ingress_expiry"]
    if not (expiry_text.isascii() and expiry_text.isdigit() and len(expiry_text) <= EXPIRY_DIGITS):
        raise Refused(
            f"{SCHEME}: ingress_expiry must be nanoseconds since 1970 (at most {EXPIRY_DIGITS} digits 0-9), "
            f"not {expiry_text[:40]!r}"
        )
    if target != moxzid:
        raise Refused(
            f"{SCHEME}: the request is signed for the moxzid whose id is {target.hex()[:64]}, and this one's is "
            f"{moxzid.hex()} (its {ID_HEADER} header): sign it anew for this moxzid"
        )
    if len(body_sha256) != 32:
        raise Refused(f"{SCHEME}: body_sha256 must be 32 bytes, not {len(body_sha256)}")
    expiry = int(expiry_text)
    check_expiry(expiry, time.time_ns() if now_ns is None else now_ns)
    sender = self_authenticating(pubkey)
    request_id = hash_of_map(content(method, path, query, body_sha256, body_bytes, sender, expiry, nonce, moxzid))
    if not verify_key(pubkey, DOMAIN + request_id, signature):
        raise Refused(
            f"{SCHEME}: the signature does not verify: sender_sig is not sender_pubkey's signature of "
            f"{method} {path} with these parameters and a body of {body_bytes} bytes"
        )
    return Signed(sender, request_id, expiry, body_sha256)


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def _unb64(text: str, name: str) -> bytes:
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise Refused(f"{SCHEME}: {name} is not base64") from None
