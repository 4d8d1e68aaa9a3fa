"""The master keys of the management canister's threshold keys, and the keys derived from them as the IC
derives them (``secp256k1.derive``, ``ed25519.derive``): from the master key of the (scheme, key
name), through the canister's principal, then the derivation path, with an all-zero master chain code.

Unlike the IC, where no node ever holds a master secret, moxzid keeps each master secret in
``threshold-keys.cbor`` in the state directory (mode 0600, beside the IC interface's root key), so a
canister's keys survive restarts; without a state directory they are made at start.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

import cbor2

from .curves import ed25519, secp256k1

KEYS_FILE = "threshold-keys.cbor"
KEY_NAMES = ("dfx_test_key", "test_key_1", "key_1")  # as a local replica (dfx, PocketIC) offers them
ECDSA, BIP340, ED25519 = "ecdsa:secp256k1", "schnorr:bip340secp256k1", "schnorr:ed25519"
MASTER_CHAIN_CODE = bytes(32)


class MasterKeys:
    """The master secret of each (scheme, key name): a secp256k1 scalar for ECDSA and BIP340, an
    Ed25519 scalar for Ed25519."""

    def __init__(self, secrets_by_key: dict[str, int]):
        self._secrets = secrets_by_key
        self._public: dict[str, Any] = {}  # the master public keys (points), computed once

    @classmethod
    def load_or_create(cls, directory: Path | None) -> MasterKeys:
        """The keys kept in ``directory`` (those missing made and written there), or new ones."""
        path = None if directory is None else Path(directory) / KEYS_FILE
        saved = {}
        if path is not None and path.exists():
            saved = {key: int.from_bytes(secret, "big") for key, secret in cbor2.loads(path.read_bytes()).items()}
        wanted = [f"{scheme}:{name}" for scheme in (ECDSA, BIP340, ED25519) for name in KEY_NAMES]
        made = {key: _new_secret(key) for key in wanted if key not in saved}
        if made and path is not None:
            _write_private(path, cbor2.dumps({key: s.to_bytes(32, "big") for key, s in {**saved, **made}.items()}))
        return cls({**saved, **made})

    def derived(self, scheme: str, name: str, path: list[bytes]) -> tuple[bytes, bytes, int]:
        """The key ``path`` derives from the master key of ``scheme`` and ``name``: (its public key,
        SEC1-compressed for secp256k1, 32 bytes for Ed25519; its chain code; its secret)."""
        key = f"{scheme}:{name}"
        secret = self._secrets[key]
        if key not in self._public:
            self._public[key] = ed25519.multiply(secret) if scheme == ED25519 else secp256k1.multiply(secret)
        if scheme == ED25519:
            point, offset, chain_code = ed25519.derive(self._public[key], MASTER_CHAIN_CODE, path)
            return ed25519.encode(point), chain_code, (secret + offset) % ed25519.L
        curve_point, offset, chain_code = secp256k1.derive(self._public[key], MASTER_CHAIN_CODE, path)
        return secp256k1.compress(curve_point), chain_code, (secret + offset) % secp256k1.N


def _new_secret(key: str) -> int:
    order = ed25519.L if key.startswith(ED25519) else secp256k1.N
    return secrets.randbelow(order - 1) + 1


def _write_private(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` readable by its owner only, whole or not at all."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    temporary = path.with_suffix(".tmp")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "wb") as file:
        file.write(data)
        file.flush()
        os.fsync(file.fileno())
    os.replace(temporary, path)
