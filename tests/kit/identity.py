"""Ed25519 identities for calls over the IC interface, as the agents' Ed25519KeyIdentity."""

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ed25519

from moxzi_core.signatures import self_authenticating


class Ed25519Identity:
    """A new key, or the one of ``seed`` (32 bytes): ``key`` signs, ``der`` is its public key as
    ``sender_pubkey`` and delegations carry it, ``principal`` its self-authenticating principal."""

    def __init__(self, seed: bytes | None = None):
        self.key = (
            ed25519.Ed25519PrivateKey.generate() if seed is None else ed25519.Ed25519PrivateKey.from_private_bytes(seed)
        )
        self.der = self.key.public_key().public_bytes(
            serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
        )
        self.principal = self_authenticating(self.der)
