"""secp256k1 arithmetic for the management canister's threshold keys, in plain Python: points, the
IC's key derivation (a generalisation of BIP32: ``derive``), ECDSA signing, BIP340 Schnorr signing and
verifying, and BIP341's taproot tweak.

``cryptography`` signs ECDSA but neither adds points nor does BIP340, which the IC's derivation and
``sign_with_schnorr`` need (it does multiply the generator, the costly step, for ``multiply``). Points are affine ``(x, y)`` tuples, None the point at infinity; secrets are
ints in [1, N). Nothing here is constant-time: the secrets are a local replica's test keys, which the
state directory holds in the clear anyway.
"""

from __future__ import annotations

import hashlib
import hmac

from cryptography.hazmat.primitives.asymmetric import ec

P = 2**256 - 2**32 - 977  # the field's prime
N = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141  # the group's order
G = (
    0x79BE667EF9DCBBAC55A06295CE870B07029BFCDB2DCE28D959F2815B16F81798,
    0x483ADA7726A3C4655DA4FBFC0E1108A8FD17B448A68554199C47D08FFB10D4B8,
)
Point = tuple[int, int] | None


def add(a: Point, b: Point) -> Point:
    if a is None:
        return b
    if b is None:
        return a
    if a[0] == b[0] and (a[1] + b[1]) % P == 0:
        return None
    if a == b:
        slope = 3 * a[0] * a[0] * pow(2 * a[1], -1, P) % P
    else:
        slope = (b[1] - a[1]) * pow(b[0] - a[0], -1, P) % P
    x = (slope * slope - a[0] - b[0]) % P
    return x, (slope * (a[0] - x) - a[1]) % P


def multiply(k: int, point: Point = G) -> Point:
    if point == G:  # the common case, through OpenSSL: some 100 times faster than the loop below
        k %= N
        if k == 0:
            return None
        numbers = ec.derive_private_key(k, ec.SECP256K1()).public_key().public_numbers()
        return numbers.x, numbers.y
    result: Point = None
    while k:
        if k & 1:
            result = add(result, point)
        point = add(point, point)
        k >>= 1
    return result


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
