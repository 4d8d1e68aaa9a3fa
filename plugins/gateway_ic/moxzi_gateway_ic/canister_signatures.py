"""Canister signatures (interface spec, "Canister signatures"): how Internet Identity signs delegations.

The public key names the signing canister and a seed (DER, OID 1.3.6.1.4.1.56387.1.2, the bit string
``|canister id| · canister id · seed``). The signature is CBOR ``{certificate, tree}``: it holds when
the certificate verifies under moxzid's root key, certifies ``canister/<id>/certified_data`` as the
tree's root hash, and the tree holds an empty leaf at ``sig/<sha256(seed)>/<sha256(payload)>``.
"""

from __future__ import annotations

import hashlib

from . import bls, cbor
from .hashtree import MalformedTree, lookup, tree_hash

# SEQUENCE { SEQUENCE { OID 1.3.6.1.4.1.56387.1.2 } }: the algorithm part of the key's DER
ALGORITHM = bytes.fromhex("300c060a2b0601040183b8430102")
STATE_ROOT_DOMAIN = b"\x0dic-state-root"
MAX_SIGNATURE_ITEMS = 10_000  # a signature's CBOR: trees of a few hundred nodes are typical


class InvalidCanisterSignature(ValueError):
    """The key or signature is malformed, or the signature does not hold; the message says which."""


def is_canister_key(public_key_der: bytes) -> bool:
    """Whether the DER key is a canister signature's (by its algorithm identifier)."""
    try:
        return _read(public_key_der, 0x30, "the key").startswith(ALGORITHM)
    except InvalidCanisterSignature:
        return False


def public_key(canister_id: bytes, seed: bytes) -> bytes:
    """The DER public key of ``canister_id``'s signatures with ``seed``."""
    bits = b"\x00" + bytes([len(canister_id)]) + canister_id + seed
    return _der(0x30, ALGORITHM + _der(0x03, bits))


def parse_public_key(public_key_der: bytes) -> tuple[bytes, bytes]:
    """(signing canister id, seed) of a canister signature's DER key."""
    body = _read(public_key_der, 0x30, "the key")
    if not body.startswith(ALGORITHM):
        raise InvalidCanisterSignature("the key's algorithm is not canister signatures (1.3.6.1.4.1.56387.1.2)")
    bits = _read(body[len(ALGORITHM) :], 0x03, "the key's bit string")
    if not bits or bits[0] != 0 or len(bits) < 2 or len(bits) < 2 + bits[1] or not 1 <= bits[1] <= 29:
        raise InvalidCanisterSignature("the key's bit string must be 0x00 |canister id| canister id seed")
    length = bits[1]
    return bits[2 : 2 + length], bits[2 + length :]


def verify(public_key_der: bytes, payload: bytes, signature: bytes, root_key_der: bytes) -> None:
    """Check a canister signature on ``payload`` (the domain separator and message); raise
    InvalidCanisterSignature saying what does not hold."""
    canister_id, seed = parse_public_key(public_key_der)
    decoded = _decode_map(signature, "the signature", "certificate")
    try:
        certified = verify_certificate(decoded["certificate"], root_key_der)
        certified_data = lookup(certified, [b"canister", canister_id, b"certified_data"])
        if certified_data != tree_hash(decoded["tree"]):
            raise InvalidCanisterSignature(
                "the certificate's canister/<id>/certified_data is not the root hash of the signature's tree"
            )
        path = [b"sig", hashlib.sha256(seed).digest(), hashlib.sha256(payload).digest()]
        if lookup(decoded["tree"], path) != b"":
            raise InvalidCanisterSignature(
                "the signature's tree has no empty leaf at sig/<sha256(seed)>/<sha256(payload)>: "
                "it signs another message, or for another seed"
            )
    except MalformedTree as error:
        raise InvalidCanisterSignature(f"a hash tree in the signature: {error}") from None


def verify_certificate(certificate: bytes, root_key_der: bytes) -> list:
    """The tree of a certificate signed with ``root_key_der``, moxzid's root key; raise
    InvalidCanisterSignature if it is not one."""
    decoded = _decode_map(certificate, "the certificate", "signature")
    if "delegation" in decoded:
        raise InvalidCanisterSignature("the certificate has a subnet delegation: moxzid's certificates have none")
    try:
        root_hash = tree_hash(decoded["tree"])
    except MalformedTree as error:
        raise InvalidCanisterSignature(f"the certificate's tree: {error}") from None
    if not bls.verify(root_key_der, STATE_ROOT_DOMAIN + root_hash, decoded["signature"]):
        raise InvalidCanisterSignature("the certificate is not signed with this moxzid's root key")
    return decoded["tree"]


def _decode_map(data: bytes, what: str, blob: str) -> dict:
    """``data`` decoded as the CBOR map ``{tree, <blob>}`` (``blob``'s value bytes); other keys are kept."""
    try:
        decoded = cbor.decode(data, max_depth=64, max_items=MAX_SIGNATURE_ITEMS)
    except cbor.CborError as error:
        raise InvalidCanisterSignature(f"{what} is not CBOR {{{blob}, tree}}: {error}") from None
    if not isinstance(decoded, dict) or not isinstance(decoded.get(blob), bytes) or "tree" not in decoded:
        raise InvalidCanisterSignature(f"{what} must be a CBOR map {{{blob}, tree}}")
    return decoded


def _der(tag: int, content: bytes) -> bytes:
    size = len(content)
    if size < 0x80:
        return bytes([tag, size]) + content
    length = size.to_bytes((size.bit_length() + 7) // 8, "big")
    return bytes([tag, 0x80 | len(length)]) + length + content


def _read(data: bytes, tag: int, what: str) -> bytes:
    """The content of the DER item ``data`` is, exactly (nothing after it)."""
    if len(data) < 2 or data[0] != tag:
        raise InvalidCanisterSignature(f"{what} is not DER (tag {tag:#x})")
    size, start = data[1], 2
    if size & 0x80:
        count = size & 0x7F
        if not 1 <= count <= 2 or len(data) < 2 + count:
            raise InvalidCanisterSignature(f"{what}: a DER length this key cannot have")
        size, start = int.from_bytes(data[2 : 2 + count], "big"), 2 + count
    if len(data) != start + size:
        raise InvalidCanisterSignature(f"{what}: the DER length does not match")
    return data[start:]
