"""secp256k1 arithmetic for the management canister's threshold keys, in plain Python: points, the
IC's key derivation (a generalisation of BIP32: ``derive``), ECDSA signing, BIP340 Schnorr signing and
verifying, and BIP341's taproot tweak.

``cryptography`` signs ECDSA but neither adds points nor does BIP340, which the IC's derivation and
``sign_with_schnorr`` need. Points are affine ``(x, y)`` tuples, None the point at infinity; inside
``multiply`` they are Jacobian ``(X, Y, Z)`` (x = X/Z², y = Y/Z³, Z = 0 at infinity), which saves a
modular inversion a step. Secrets are ints in [1, N). Nothing here is constant-time: the secrets are a
local replica's test keys, which the state directory holds in the clear anyway.
"""

from __future__ import annotations

import hashlib
import hmac

P = 2**256 - 2**32 - 977  # the field's prime
N = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141  # the group's order
G = (
    0x79BE667EF9DCBBAC55A06295CE870B07029BFCDB2DCE28D959F2815B16F81798,
    0x483ADA7726A3C4655DA4FBFC0E1108A8FD17B448A68554199C47D08FFB10D4B8,
)
Point = tuple[int, int] | None
Jacobian = tuple[int, int, int]
_INFINITY: Jacobian = (1, 1, 0)


def add(a: Point, b: Point) -> Point:
    return _affine(_add(_jacobian(a), _jacobian(b)))


def multiply(k: int, point: Point = G) -> Point:
    """k·point; for the generator, a sum of its precomputed doublings (a step per bit set of k)."""
    k %= N
    result = _INFINITY
    if point == G:
        for doubling in _G_DOUBLINGS:
            if k & 1:
                result = _add(result, doubling)
            k >>= 1
        return _affine(result)
    addend = _jacobian(point)
    while k:
        if k & 1:
            result = _add(result, addend)
        addend = _double(addend)
        k >>= 1
    return _affine(result)


def _jacobian(point: Point) -> Jacobian:
    return _INFINITY if point is None else (point[0], point[1], 1)


def _affine(point: Jacobian) -> Point:
    x, y, z = point
    if z == 0:
        return None
    z_inverse = pow(z, -1, P)
    z_inverse_squared = z_inverse * z_inverse % P
    return x * z_inverse_squared % P, y * z_inverse_squared * z_inverse % P


def _double(point: Jacobian) -> Jacobian:
    x, y, z = point
    if z == 0 or y == 0:
        return _INFINITY
    y_squared = y * y % P
    s = 4 * x * y_squared % P
    m = 3 * x * x % P  # the curve's a is 0
    x3 = (m * m - 2 * s) % P
    return x3, (m * (s - x3) - 8 * y_squared * y_squared) % P, 2 * y * z % P


def _add(a: Jacobian, b: Jacobian) -> Jacobian:
    if a[2] == 0:
        return b
    if b[2] == 0:
        return a
    (x1, y1, z1), (x2, y2, z2) = a, b
    z1_squared, z2_squared = z1 * z1 % P, z2 * z2 % P
    u1, u2 = x1 * z2_squared % P, x2 * z1_squared % P
    s1, s2 = y1 * z2 * z2_squared % P, y2 * z1 * z1_squared % P
    if u1 == u2:
        return _double(a) if s1 == s2 else _INFINITY
    h, r = u2 - u1, s2 - s1
    h_squared = h * h % P
    h_cubed = h * h_squared % P
    v = u1 * h_squared % P
    x3 = (r * r - h_cubed - 2 * v) % P
    return x3, (r * (v - x3) - s1 * h_cubed) % P, h * z1 * z2 % P


def _doublings(point: Jacobian, count: int) -> list[Jacobian]:
    doublings = [point]
    for _ in range(count - 1):
        doublings.append(_double(doublings[-1]))
    return doublings


_G_DOUBLINGS = _doublings(_jacobian(G), 256)  # 2^i·G for each bit i of a scalar


def lift_x(x: int) -> Point:
    """The point with x coordinate ``x`` and an even y (BIP340), or None if there is none."""
    if x >= P:
        return None
    y_squared = (pow(x, 3, P) + 7) % P
    y = pow(y_squared, (P + 1) // 4, P)
    if y * y % P != y_squared:
        return None
    return x, y if y % 2 == 0 else P - y


def compress(point: Point) -> bytes:
    """SEC1's compressed encoding (33 bytes), as ``ecdsa_public_key`` and ``schnorr_public_key`` answer."""
    assert point is not None, "the point at infinity has no encoding"
    return bytes([2 + point[1] % 2]) + point[0].to_bytes(32, "big")


# --- the IC's key derivation (ic-secp256k1's DerivationPath) ------------------------------------------
def derive(master: Point, chain_code: bytes, path: list[bytes]) -> tuple[Point, int, bytes]:
    """The key ``path`` derives from ``master`` and ``chain_code``: (the derived public key, the offset
    its secret is the master secret plus, mod N, and its chain code). Each component tweaks the key by
    the first half of HMAC-SHA512(chain code, SEC1(key) || component); the second half is the next
    chain code."""
    point, offset = master, 0
    for component in path:
        data = compress(point)
        while True:
            child_code, tweak = _child(component, data, chain_code)
            child = add(point, multiply(tweak))
            if child is not None:
                break
            data = b"\x01" + child_code  # a tweak that cancels the key (never seen) is drawn again
        point, offset, chain_code = child, (offset + tweak) % N, child_code
    return point, offset, chain_code


def _child(component: bytes, data: bytes, chain_code: bytes) -> tuple[bytes, int]:
    while True:
        digest = hmac.digest(chain_code, data + component, "sha512")
        tweak = int.from_bytes(digest[:32], "big")
        if tweak < N:
            return digest[32:], tweak
        data = b"\x01" + digest[32:]


# --- ECDSA ------------------------------------------------------------------------------------------
def ecdsa_sign(secret: int, message_hash: bytes, nonce_seed: bytes) -> bytes:
    """The ECDSA signature (r || s, 32 bytes each, s in the lower half as Bitcoin and Ethereum want) of
    the 32-byte ``message_hash``; its nonce comes from the secret, the hash and ``nonce_seed``, so the
    same three give the same signature."""
    z = int.from_bytes(message_hash, "big")
    counter = 0
    while True:
        material = hmac.digest(secret.to_bytes(32, "big"), nonce_seed + message_hash + bytes([counter]), "sha512")
        k = int.from_bytes(material, "big") % (N - 1) + 1
        nonce_point = multiply(k)
        assert nonce_point is not None
        r = nonce_point[0] % N
        s = pow(k, -1, N) * (z + r * secret) % N
        if r and s:
            return r.to_bytes(32, "big") + min(s, N - s).to_bytes(32, "big")
        counter += 1


# --- BIP340 Schnorr ---------------------------------------------------------------------------------
def tagged_hash(tag: str, data: bytes) -> bytes:
    tag_hash = hashlib.sha256(tag.encode()).digest()
    return hashlib.sha256(tag_hash + tag_hash + data).digest()


def bip340_sign(secret: int, message: bytes, aux_rand: bytes) -> bytes:
    """BIP340's signature (64 bytes) of ``message`` (any length) with ``secret``, its nonce from the
    32 bytes ``aux_rand``."""
    point = multiply(secret)
    assert point is not None
    d = secret if point[1] % 2 == 0 else N - secret
    x_only = point[0].to_bytes(32, "big")
    masked = (d ^ int.from_bytes(tagged_hash("BIP0340/aux", aux_rand), "big")).to_bytes(32, "big")
    k = int.from_bytes(tagged_hash("BIP0340/nonce", masked + x_only + message), "big") % N
    if k == 0:
        raise ValueError("BIP340: the nonce is 0 (probability 2**-256)")
    nonce_point = multiply(k)
    assert nonce_point is not None
    k = k if nonce_point[1] % 2 == 0 else N - k
    r = nonce_point[0].to_bytes(32, "big")
    e = int.from_bytes(tagged_hash("BIP0340/challenge", r + x_only + message), "big") % N
    return r + ((k + e * d) % N).to_bytes(32, "big")


def bip340_verify(x_only: bytes, message: bytes, signature: bytes) -> bool:
    """Whether ``signature`` is BIP340's signature of ``message`` under the 32-byte x-only key."""
    if len(x_only) != 32 or len(signature) != 64:
        return False
    point = lift_x(int.from_bytes(x_only, "big"))
    r, s = int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big")
    if point is None or r >= P or s >= N:
        return False
    e = int.from_bytes(tagged_hash("BIP0340/challenge", signature[:32] + x_only + message), "big") % N
    nonce_point = add(multiply(s), multiply(N - e, point))
    return nonce_point is not None and nonce_point[1] % 2 == 0 and nonce_point[0] == r


# --- BIP341 taproot ---------------------------------------------------------------------------------
def taproot_tweak(point: Point, merkle_root: bytes) -> int:
    """The tweak BIP341 adds to the internal key ``point`` (taken with an even y) for a script tree
    with ``merkle_root`` (32 bytes; empty: no script tree, as BIP86 spends)."""
    assert point is not None
    tweak = int.from_bytes(tagged_hash("TapTweak", point[0].to_bytes(32, "big") + merkle_root), "big")
    if tweak >= N:
        raise ValueError("BIP341: the tweak is not below the group order (probability 2**-128)")
    return tweak


def taproot_secret(secret: int, merkle_root: bytes) -> int:
    """The secret of BIP341's output key for the internal key of ``secret``: BIP340 signatures made
    with it verify under ``taproot_output_key`` of the internal public key."""
    point = multiply(secret)
    even = secret if point is not None and point[1] % 2 == 0 else N - secret
    return (even + taproot_tweak(point, merkle_root)) % N


def taproot_output_key(internal: bytes, merkle_root: bytes) -> bytes:
    """BIP341's x-only output key (32 bytes) for the x-only internal key ``internal``."""
    point = lift_x(int.from_bytes(internal, "big"))
    if point is None:
        raise ValueError("BIP341: the internal key is not on the curve")
    output = add(point, multiply(taproot_tweak(point, merkle_root)))
    assert output is not None
    return output[0].to_bytes(32, "big")
