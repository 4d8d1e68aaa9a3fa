"""What an IC request is: its envelope, its id, who sent it and whether the sender really signed it.

``read_envelope`` takes a decoded CBOR body ``{content, sender_pubkey?, sender_sig?, sender_delegation?}``
and answers a ``Request`` only when the content is well formed, the ingress expiry is within the
window, and the sender is the anonymous principal (unsigned) or the self-authenticating principal of
``sender_pubkey`` that signed the request id, directly or through a chain of delegations. Keys are
Ed25519, ECDSA (secp256k1, P-256) or canister signatures (as Internet Identity signs delegations,
checked against moxzid's root key). Otherwise it raises ``Refused`` with a message a person can act on.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from moxzi_core.candid import Principal
from moxzi_core.runtime.messages import ANONYMOUS
from moxzi_core.signatures import Refused, check_expiry, hash_of_map, self_authenticating, verify_key

from . import canister_signatures

REQUEST_DOMAIN = b"\x0aic-request"
DELEGATION_DOMAIN = b"\x1aic-request-auth-delegation"
MAX_DELEGATIONS = 20  # the IC's own limit on a chain
MAX_TARGETS = 1000


@dataclass(frozen=True)
class Request:
    kind: str  # call, query or read_state
    id: bytes  # the representation-independent hash of the content
    sender: bytes
    content: dict
    # The canisters the sender's delegations allow (those every delegation with targets names); None:
    # any. A call's or query's canister is among them (read_envelope checks); a read_state's paths
    # are checked by the route.
    targets: frozenset[bytes] | None = None

    def allows(self, canister: bytes) -> bool:
        return self.targets is None or canister in self.targets


def leb128(value: int) -> bytes:
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def read_envelope(body, *, root_key_der: bytes | None = None, now_ns: int | None = None) -> Request:
    """Check a decoded request body; see the module docstring. Canister signatures verify against
    ``root_key_der`` (None: they are refused)."""
    if not isinstance(body, dict) or not isinstance(body.get("content"), dict):
        raise Refused("the body must be a CBOR map with a `content` map", malformed=True)
    unknown = set(body) - {"content", "sender_pubkey", "sender_sig", "sender_delegation"}
    if unknown:
        raise Refused(f"unknown envelope field(s): {', '.join(sorted(map(str, unknown)))}", malformed=True)
    content = body["content"]
    kind = content.get("request_type")
    fields = {
        "call": ("canister_id", "method_name", "arg"),
        "query": ("canister_id", "method_name", "arg"),
        "read_state": ("paths",),
    }.get(kind)
    if fields is None:
        raise Refused(f"request_type must be call, query or read_state, not {kind!r}", malformed=True)
    for name, wanted in [("sender", bytes), ("ingress_expiry", int)] + [
        (f, list if f == "paths" else str if f == "method_name" else bytes) for f in fields
    ]:
        if not isinstance(content.get(name), wanted) or isinstance(content.get(name), bool):
            raise Refused(f"content.{name} must be a {wanted.__name__}", malformed=True)
    if "nonce" in content and not isinstance(content["nonce"], bytes):
        raise Refused("content.nonce must be a byte string", malformed=True)
    request_id = hash_of_map(content)
    now_ns = time.time_ns() if now_ns is None else now_ns
    check_expiry(content["ingress_expiry"], now_ns)
    sender = content["sender"]
    targets = None
    if sender == ANONYMOUS:
        if any(k in body for k in ("sender_pubkey", "sender_sig", "sender_delegation")):
            raise Refused("the anonymous sender does not sign: send no sender_pubkey, sender_sig or sender_delegation")
    else:
        targets = _check_signature(body, sender, request_id, content.get("canister_id"), now_ns, root_key_der)
    return Request(kind, request_id, sender, content, targets)


def _check_signature(
    body: dict, sender: bytes, request_id: bytes, canister_id, now_ns: int, root_key_der: bytes | None
) -> frozenset[bytes] | None:
    """Raises Refused unless the sender signed the request; the canisters its delegations allow."""
    pubkey, signature = body.get("sender_pubkey"), body.get("sender_sig")
    if not isinstance(pubkey, bytes) or not isinstance(signature, bytes):
        raise Refused(f"the sender {_text(sender)} is not anonymous: the request needs sender_pubkey and sender_sig")
    if self_authenticating(pubkey) != sender:
        raise Refused(
            f"the sender {_text(sender)} is not the principal of sender_pubkey ({_text(self_authenticating(pubkey))})"
        )
    signer = pubkey
    seen = {pubkey}
    allowed: frozenset[bytes] | None = None
    delegations = body.get("sender_delegation", [])
    if not isinstance(delegations, list) or len(delegations) > MAX_DELEGATIONS:
        raise Refused(f"sender_delegation must be a list of at most {MAX_DELEGATIONS} delegations")
    for index, signed in enumerate(delegations):
        delegation = signed.get("delegation") if isinstance(signed, dict) else None
        if (
            not isinstance(delegation, dict)
            or not isinstance(signed.get("signature"), bytes)
            or not isinstance(delegation.get("pubkey"), bytes)
            or not isinstance(delegation.get("expiration"), int)
        ):
            raise Refused(f"delegation {index} must be {{delegation: {{pubkey, expiration, targets?}}, signature}}")
        if delegation["pubkey"] in seen:
            raise Refused(f"delegation {index} delegates to a key already in the chain (cycles are not allowed)")
        seen.add(delegation["pubkey"])
        if not verify(signer, DELEGATION_DOMAIN + hash_of_map(delegation), signed["signature"], root_key_der):
            raise Refused(f"delegation {index}: the signature does not verify with the key it delegates from")
        if delegation["expiration"] < now_ns:
            raise Refused(f"delegation {index} expired at {delegation['expiration']} (now {now_ns})")
        targets = delegation.get("targets")
        if targets is not None:
            if not isinstance(targets, list) or len(targets) > MAX_TARGETS:
                raise Refused(f"delegation {index}: targets must be a list of at most {MAX_TARGETS} ids")
            if canister_id is not None and canister_id not in targets:
                raise Refused(f"delegation {index} does not allow calls to {_text(canister_id)}")
            named = frozenset(t for t in targets if isinstance(t, bytes))
            allowed = named if allowed is None else allowed & named
        signer = delegation["pubkey"]
    if not verify(signer, REQUEST_DOMAIN + request_id, signature, root_key_der):
        raise Refused(
            "the signature does not verify: sender_sig is not the signature of this request by "
            + ("the last delegation's key" if delegations else "sender_pubkey")
        )
    return allowed


def verify(public_key_der: bytes, message: bytes, signature: bytes, root_key_der: bytes | None) -> bool:
    """Whether ``signature`` signs ``message`` with the key ``public_key_der``: a canister signature,
    checked against ``root_key_der``, or a key ``moxzi_core.signatures.verify_key`` checks. A canister
    signature that does not hold (or any, with ``root_key_der`` None) and other key types raise Refused
    saying why."""
    if canister_signatures.is_canister_key(public_key_der):
        if root_key_der is None:
            raise Refused("canister signatures are not accepted here (no root key to check them with)")
        try:
            canister_signatures.verify(public_key_der, message, signature, root_key_der)
        except canister_signatures.InvalidCanisterSignature as error:
            raise Refused(f"the canister signature does not verify: {error}") from None
        return True
    return verify_key(public_key_der, message, signature)


def _text(principal: bytes) -> str:
    return str(Principal(principal))
