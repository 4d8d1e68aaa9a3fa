"""moxzid's identity on the IC interface: its root key (BLS12-381), its one node's key (Ed25519), and
certificates, hash trees signed with the root key as the IC signs its state.

The keys live in ``ic-keys.cbor`` in the state directory (``-s DIR``), so a client that pinned the
root key keeps trusting a restarted moxzid; without a state directory they are made at start.
"""

from __future__ import annotations

import os
import secrets
import time
from dataclasses import dataclass
from pathlib import Path

import cbor2
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ed25519

from . import bls, cbor
from .canister_signatures import STATE_ROOT_DOMAIN
from .hashtree import build_tree, tree_hash
from .requests import leb128, self_authenticating

KEYS_FILE = "ic-keys.cbor"
RESPONSE_DOMAIN = b"\x0bic-response"
# Every canister id moxzid gives out is 10 bytes ending in 0x01 0x01 (opaque ids), as the IC's are.
CANISTER_RANGES = [[bytes(8) + b"\x01\x01", b"\xff" * 8 + b"\x01\x01"]]


@dataclass(frozen=True)
class Keys:
    bls_secret: int
    node_key: ed25519.Ed25519PrivateKey

    @classmethod
    def load_or_create(cls, state_dir: Path | None) -> Keys:
        """The keys kept in ``state_dir`` (made and written there the first time), or new ones."""
        path = None if state_dir is None else Path(state_dir) / KEYS_FILE
        if path is not None and path.exists():
            saved = cbor.decode(path.read_bytes(), max_depth=2, max_items=8)
            return cls(
                int.from_bytes(saved["bls_secret"], "big"),
                ed25519.Ed25519PrivateKey.from_private_bytes(saved["node_key"]),
            )
        keys = cls(secrets.randbelow(bls.ORDER - 1) + 1, ed25519.Ed25519PrivateKey.generate())
        if path is not None:
            raw_node = keys.node_key.private_bytes(
                serialization.Encoding.Raw, serialization.PrivateFormat.Raw, serialization.NoEncryption()
            )
            temporary = path.with_suffix(".tmp")
            descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(descriptor, "wb") as file:
                file.write(cbor2.dumps({"bls_secret": keys.bls_secret.to_bytes(32, "big"), "node_key": raw_node}))
                file.flush()
                os.fsync(file.fileno())
            os.replace(temporary, path)
        return keys


class Identity:
    """The root key, the subnet and node ids derived from the keys, and signing with them."""

    def __init__(self, keys: Keys):
        self._keys = keys
        self.root_key_der = bls.public_key_der(keys.bls_secret)
        self.subnet_id = self_authenticating(self.root_key_der)
        self.node_key_der = keys.node_key.public_key().public_bytes(
            serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
        )
        self.node_id = self_authenticating(self.node_key_der)

    def subnet_tree(self) -> dict:
        """The ``subnet`` subtree: this one subnet, its key, canister ranges and node."""
        return {
            b"subnet": {
                self.subnet_id: {
                    b"public_key": self.root_key_der,
                    b"canister_ranges": cbor2.dumps(CANISTER_RANGES),
                    b"node": {self.node_id: {b"public_key": self.node_key_der}},
                }
            }
        }

    def certificate(self, tree: dict) -> bytes:
        """CBOR of a certificate of ``tree`` (nested dicts of byte labels, leaves bytes) with ``time``
        set to now, signed with the root key."""
        hash_tree = build_tree({**tree, b"time": leb128(time.time_ns())})
        signature = bls.sign(self._keys.bls_secret, STATE_ROOT_DOMAIN + tree_hash(hash_tree))
        return cbor2.dumps({"tree": hash_tree, "signature": signature})

    def certify_data(self, canister_id: bytes, certified_data: bytes) -> bytes:
        """The data certificate of an actor's certified data (``moxzi_core.runtime.queries.Certifier``)."""
        return self.certificate({b"canister": {canister_id: {b"certified_data": certified_data}}})

    def sign_response(self, response_hash: bytes) -> dict:
        """A query response's signature entry for the hash of its fields (``timestamp`` among them)."""
        return {"signature": self._keys.node_key.sign(RESPONSE_DOMAIN + response_hash), "identity": self.node_id}
