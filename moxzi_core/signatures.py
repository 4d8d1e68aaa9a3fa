"""Signatures as the Internet Computer's requests carry them, shared by everything in moxzid that checks a
signed sender (the IC interface's envelopes, the HTTP gateway's signed routes: ``signed_http``) and by
``moxzi``, which signs with a PEM identity.

- ``hash_of_map``: the spec's representation-independent hash of a request's content (its request id).
- ``self_authenticating``: the principal of a public key, as the IC derives it.
- ``check_expiry``: an ``ingress_expiry`` in the past, or too far ahead, is refused.
- ``verify_key``: whether an Ed25519 or ECDSA (secp256k1, P-256; SHA-256, 64-byte r||s) signature holds.
- ``Identity``: a private key from a PEM file as icp-cli (``icp identity export``) and dfx write them:
  PKCS#8 (``BEGIN PRIVATE KEY``: Ed25519 or EC) or SEC1 (``BEGIN EC PRIVATE KEY``, after an optional
  ``EC PARAMETERS`` block).

Whatever is refused raises ``Refused`` with a message a person can act on.
"""

from __future__ import annotations

import hashlib
import re

from cryptography.exceptions import InvalidSignature, UnsupportedAlgorithm
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature, encode_dss_signature

from moxzi_core.leb128 import unsigned

MAX_EXPIRY_AHEAD_NS = (5 * 60 + 30) * 10**9  # agents ask for 5 minutes; a little clock skew allowed
EXPIRY_PREFIX = "Invalid request expiry: "  # the JS agent re-syncs its clock on this text
CURVES = ("secp256k1", "secp256r1")


class Refused(Exception):
    """A signed request is refused before anything runs. ``malformed``: it is not a well-formed request
    at all (or its expiry is out of range), which the IC answers with a 400 and the text."""

    def __init__(self, message: str, malformed: bool = False):
        super().__init__(message)
        self.malformed = malformed


def hash_of_map(value: dict) -> bytes:
    """The spec's representation-independent hash of a map (nested maps, arrays, ints, text, blobs).
    Raises Refused (malformed) for a key that is not text, which has no hash."""
    if not all(isinstance(key, str) for key in value):
        raise Refused("a map's keys must be text", malformed=True)
    pairs = sorted(hashlib.sha256(key.encode()).digest() + _hash_value(item) for key, item in value.items())
    return hashlib.sha256(b"".join(pairs)).digest()


def _hash_value(value) -> bytes:
    if isinstance(value, bool):
        raise Refused("a boolean has no request hash")
    if isinstance(value, int):
        if value < 0:
            raise Refused("a negative integer has no request hash")
        return hashlib.sha256(unsigned(value)).digest()
    if isinstance(value, str):
        return hashlib.sha256(value.encode()).digest()
    if isinstance(value, bytes):
        return hashlib.sha256(value).digest()
    if isinstance(value, list):
        return hashlib.sha256(b"".join(_hash_value(item) for item in value)).digest()
    if isinstance(value, dict):
        return hash_of_map(value)
    raise Refused(f"a {type(value).__name__} has no request hash")


def self_authenticating(public_key_der: bytes) -> bytes:
    """The principal of a public key (DER): sha224 of it and the suffix 0x02."""
    return hashlib.sha224(public_key_der).digest() + b"\x02"


def check_expiry(expiry: int, now_ns: int) -> None:
    """Raises Refused (malformed) unless ``now_ns <= expiry <= now_ns + MAX_EXPIRY_AHEAD_NS``."""
    if expiry < now_ns:
        raise Refused(
            f"{EXPIRY_PREFIX}the request expired {(now_ns - expiry) / 1e9:.0f} s ago "
            f"(ingress_expiry {expiry}, moxzid's time {now_ns})",
            malformed=True,
        )
    if expiry > now_ns + MAX_EXPIRY_AHEAD_NS:
        raise Refused(
            f"{EXPIRY_PREFIX}ingress_expiry {expiry} is more than {MAX_EXPIRY_AHEAD_NS // 10**9} s "
            f"ahead of moxzid's time {now_ns}",
            malformed=True,
        )


def verify_key(public_key_der: bytes, message: bytes, signature: bytes) -> bool:
    """Whether ``signature`` signs ``message`` with the key ``public_key_der`` (SubjectPublicKeyInfo):
    Ed25519, or ECDSA on secp256k1 or P-256 over SHA-256 (64-byte r||s). A key that cannot be read, or
    of another type, raises Refused saying so."""
    try:
        key = serialization.load_der_public_key(public_key_der)
    except (ValueError, TypeError, UnsupportedAlgorithm) as error:
        raise Refused(f"cannot read the public key ({len(public_key_der)} bytes of DER): {error}") from None
    try:
        if isinstance(key, ed25519.Ed25519PublicKey):
            key.verify(signature, message)
        elif isinstance(key, ec.EllipticCurvePublicKey) and key.curve.name in CURVES:
            if len(signature) != 64:
                return False
            der = encode_dss_signature(int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big"))
            key.verify(der, message, ec.ECDSA(hashes.SHA256()))
        else:
            raise Refused("only Ed25519, ECDSA secp256k1 and ECDSA P-256 keys are accepted")
    except InvalidSignature:
        return False
    return True


class IdentityError(ValueError):
    """A PEM file that is not a key ``Identity`` signs with; the message says what it is instead."""


# A PEM file's private key block: dfx writes an `EC PARAMETERS` block before a secp256k1 key's.
PRIVATE_KEY_BLOCK = re.compile(rb"-----BEGIN ((?:EC |ENCRYPTED )?PRIVATE KEY)-----.*?-----END \1-----", re.S)


class Identity:
    """A private key that signs as a sender does: ``public_key_der`` is its ``sender_pubkey``,
    ``principal`` its self-authenticating principal (what ``icp identity principal`` prints)."""

    def __init__(self, key: ed25519.Ed25519PrivateKey | ec.EllipticCurvePrivateKey):
        if isinstance(key, ec.EllipticCurvePrivateKey) and key.curve.name not in CURVES:
            raise IdentityError(f"an ECDSA key on {key.curve.name}: only secp256k1 and P-256 keys sign")
        self.key = key
        self.public_key_der = key.public_key().public_bytes(
            serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
        )
        self.principal = self_authenticating(self.public_key_der)

    @classmethod
    def from_pem(cls, data: bytes) -> Identity:
        """The key of a PEM file (see the module docstring); raises IdentityError for anything else."""
        block = PRIVATE_KEY_BLOCK.search(data)
        if block is None:
            raise IdentityError("no `BEGIN PRIVATE KEY` or `BEGIN EC PRIVATE KEY` block: not a PEM identity")
        if block.group(1) == b"ENCRYPTED PRIVATE KEY":
            raise IdentityError("the key is encrypted: give the PEM that `icp identity export NAME` prints")
        try:
            key = serialization.load_pem_private_key(block.group(0), password=None)
        except (ValueError, TypeError, UnsupportedAlgorithm) as error:
            raise IdentityError(f"the private key cannot be read: {error}") from None
        if not isinstance(key, ed25519.Ed25519PrivateKey | ec.EllipticCurvePrivateKey):
            raise IdentityError(f"a {type(key).__name__}: only Ed25519 and ECDSA keys sign")
        return cls(key)

    def sign(self, message: bytes) -> bytes:
        """The signature ``verify_key`` checks: Ed25519's, or ECDSA's over SHA-256 as 64 bytes r||s."""
        if isinstance(self.key, ed25519.Ed25519PrivateKey):
            return self.key.sign(message)
        r, s = decode_dss_signature(self.key.sign(message, ec.ECDSA(hashes.SHA256())))
        return r.to_bytes(32, "big") + s.to_bytes(32, "big")
