"""moxzid's identity on the IC interface: its root key (BLS12-381), its one node's key (Ed25519), and
certificates, hash trees signed with the root key as the IC signs its state.

The keys live in ``ic-keys.cbor`` in the state directory (``-s DIR``), so a client that pinned the
root key keeps trusting a restarted moxzid; without a state directory they are made at start.
Signing uses ``pyblst`` (chosen by measurement: 0.13 ms a signature against py-arkworks-bls12381's
0.38 ms here; both give the same bytes).
"""

from __future__ import annotations

import hashlib
import os
import secrets
import time
from dataclasses import dataclass
from pathlib import Path

import cbor2
import pyblst
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ed25519

from . import cbor
from .requests import leb128, self_authenticating

KEYS_FILE = "ic-keys.cbor"
BLS_DST = b"BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_"
BLS_ORDER = 0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001
G2_GENERATOR = bytes.fromhex(
    "93e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e"
    "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8"
)
ROOT_KEY_DER_PREFIX = bytes.fromhex("308182301d060d2b0601040182dc7c0503010201060c2b0601040182dc7c05030201036100")
STATE_ROOT_DOMAIN = b"\x0dic-state-root"
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
        keys = cls(secrets.randbelow(BLS_ORDER - 1) + 1, ed25519.Ed25519PrivateKey.generate())
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
        public = pyblst.BlstP2Element().uncompress(G2_GENERATOR).scalar_mul(keys.bls_secret).compress()
        self.root_key_der = ROOT_KEY_DER_PREFIX + public
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
        message = STATE_ROOT_DOMAIN + tree_hash(hash_tree)
        signature = pyblst.BlstP1Element().hash_to_group(message, BLS_DST).scalar_mul(self._keys.bls_secret).compress()
        return cbor2.dumps({"tree": hash_tree, "signature": signature})

    def sign_response(self, response_hash: bytes) -> dict:
        """A query response's signature entry for the hash of its fields (``timestamp`` among them)."""
        return {"signature": self._keys.node_key.sign(RESPONSE_DOMAIN + response_hash), "identity": self.node_id}


def build_tree(labeled: dict) -> list:
    """The hash tree (``[0]`` empty, ``[1, l, r]`` fork, ``[2, label, t]``, ``[3, leaf]``) of nested
    dicts; labels are sorted as the spec requires."""
    nodes = [
        [2, label, [3, value] if isinstance(value, bytes) else build_tree(value)]
        for label, value in sorted(labeled.items())
    ]
    if not nodes:
        return [0]
    while len(nodes) > 1:  # pair neighbours level by level: a balanced tree, order kept
        nodes = [[1, nodes[i], nodes[i + 1]] if i + 1 < len(nodes) else nodes[i] for i in range(0, len(nodes), 2)]
    return nodes[0]


def tree_hash(tree: list) -> bytes:
    kind = tree[0]
    if kind == 0:
        return _domain_hash(b"ic-hashtree-empty")
    if kind == 1:
        return _domain_hash(b"ic-hashtree-fork", tree_hash(tree[1]), tree_hash(tree[2]))
    if kind == 2:
        return _domain_hash(b"ic-hashtree-labeled", tree[1], tree_hash(tree[2]))
    if kind == 3:
        return _domain_hash(b"ic-hashtree-leaf", tree[1])
    return tree[1]  # 4: pruned


def _domain_hash(domain: bytes, *parts: bytes) -> bytes:
    return hashlib.sha256(bytes([len(domain)]) + domain + b"".join(parts)).digest()
