"""Ed25519 arithmetic for the management canister's threshold keys, in plain Python: points, the IC's key
derivation (``derive``, as ic-ed25519 derives) and RFC 8032 signing with a secret scalar.

The IC's derivation adds offsets to the master key's secret scalar, so a derived key is a scalar, not
the 32-byte seed RFC 8032 hashes into one: ``cryptography`` signs from seeds only, hence this module.
Points are extended coordinates ``(X, Y, Z, T)`` (x = X/Z, y = Y/Z, x·y = T/Z); secrets are ints in
[1, L). Nothing here is constant-time: the secrets are a local replica's test keys, which the state
directory holds in the clear anyway.
"""

from __future__ import annotations

import hashlib

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

P = 2**255 - 19  # the field's prime
L = 2**252 + 27742317777372353535851937790883648493  # the order of the base point's group
D = -121665 * pow(121666, -1, P) % P  # the curve's constant: -x² + y² = 1 + d·x²·y²
_BX = 15112221349535400772501151409588531511454012693041857206046113283949847762202
_BY = 46316835694926478169428394003475163141307993866256225615783033603165251855960
BASE = (_BX, _BY, 1, _BX * _BY % P)
IDENTITY = (0, 1, 1, 0)
Point = tuple[int, int, int, int]


def add(a: Point, b: Point) -> Point:
    """RFC 8032's addition (section 5.1.4), which also doubles."""
    x1, y1, z1, t1 = a
    x2, y2, z2, t2 = b
    pa = (y1 - x1) * (y2 - x2) % P
    pb = (y1 + x1) * (y2 + x2) % P
    pc = 2 * t1 * D * t2 % P
    pd = 2 * z1 * z2 % P
    e, f, g, h = pb - pa, pd - pc, pd + pc, pb + pa
    return e * f % P, g * h % P, f * g % P, e * h % P


def multiply(k: int, point: Point = BASE) -> Point:
    """k·point; for the base point, a sum of its precomputed doublings (a step per bit set of k)."""
    result = IDENTITY
    if point == BASE:
        k %= L
        for doubling in _BASE_DOUBLINGS:
            if k & 1:
                result = add(result, doubling)
            k >>= 1
        return result
    while k:
        if k & 1:
            result = add(result, point)
        point = add(point, point)
        k >>= 1
    return result


def _doublings(point: Point, count: int) -> list[Point]:
    doublings = [point]
    for _ in range(count - 1):
        doublings.append(add(doublings[-1], doublings[-1]))
    return doublings


_BASE_DOUBLINGS = _doublings(BASE, 253)  # 2^i·B for each bit i of a scalar below L


def encode(point: Point) -> bytes:
    """The 32-byte encoding (y, little-endian, with the sign of x in the top bit)."""
    x, y, z, _ = point
    z_inverse = pow(z, -1, P)
    x, y = x * z_inverse % P, y * z_inverse % P
    return (y | (x & 1) << 255).to_bytes(32, "little")


# --- the IC's key derivation (ic-ed25519's DerivationPath) ------------------------------------------
def derive(master: Point, chain_code: bytes, path: list[bytes]) -> tuple[Point, int, bytes]:
    """The key ``path`` derives from ``master`` and ``chain_code``: (the derived public key, the offset
    its secret scalar is the master's plus, mod L, and its chain code). Each component tweaks the key
    by the first 64 bytes (big-endian, mod L) of HKDF-SHA512(salt: chain code, key: the key's encoding
    and the component, info: "Ed25519", 96 bytes); the last 32 are the next chain code."""
    point, offset = master, 0
    for component in path:
        okm = HKDF(hashes.SHA512(), 96, salt=chain_code, info=b"Ed25519").derive(encode(point) + component)
        tweak = int.from_bytes(okm[:64], "big") % L
        point, offset, chain_code = add(point, multiply(tweak)), (offset + tweak) % L, okm[64:]
    return point, offset, chain_code


def sign(secret: int, prefix: bytes, message: bytes) -> bytes:
    """RFC 8032's Ed25519 signature (section 5.1.6; 64 bytes) of ``message`` with the secret scalar
    ``secret``; ``prefix`` (32 bytes) makes the nonce, as the second half of a seed's hash does."""
    public = encode(multiply(secret))
    r = int.from_bytes(hashlib.sha512(prefix + message).digest(), "little") % L
    nonce = encode(multiply(r))
    k = int.from_bytes(hashlib.sha512(nonce + public + message).digest(), "little") % L
    return nonce + ((r + k * secret) % L).to_bytes(32, "little")
