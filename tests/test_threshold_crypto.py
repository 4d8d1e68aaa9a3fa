"""The arithmetic behind the management canister's threshold keys (runtime/management/curves/secp256k1.py,
ed25519.py, threshold_keys.py): BIP340's official test vectors, RFC 8032's for Ed25519 signing with a
scalar, BIP341's taproot tweak, ECDSA signatures `cryptography` verifies, and the IC's key derivation
checked against @dfinity/ic-pub-key (tests/ic_js/derive_keys.mjs, pinned in its package-lock.json)
given moxzid's master public keys."""

import hashlib
import json
import subprocess
from pathlib import Path

import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, ed25519
from cryptography.hazmat.primitives.asymmetric.utils import Prehashed, encode_dss_signature

from moxzi_core.runtime.management.curves import ed25519 as edwards
from moxzi_core.runtime.management.curves import secp256k1
from moxzi_core.runtime.management.threshold_keys import BIP340, ECDSA, ED25519, KEYS_FILE, MasterKeys

AGENTS = Path(__file__).parent / "ic_js"

# BIP340's test vectors (bip-0340/test-vectors.csv): index, secret key, public key, aux_rand, message,
# signature, whether it verifies.
_M = "243F6A8885A308D313198A2E03707344A4093822299F31D0082EFA98EC4E6C89"
_PK = "DFF1D77F2A671C5F36183726DB2341BE58FEAE1DA2DECED843240F7B502BA659"
BIP340_VECTORS = [
    (0, "0000000000000000000000000000000000000000000000000000000000000003",
     "F9308A019258C31049344F85F89D5229B531C845836F99B08601F113BCE036F9", "00" * 32, "00" * 32,
     "E907831F80848D1069A5371B402410364BDF1C5F8307B0084C55F1CE2DCA8215"
     "25F66A4A85EA8B71E482A74F382D2CE5EBEEE8FDB2172F477DF4900D310536C0", True),
    (1, "B7E151628AED2A6ABF7158809CF4F3C762E7160F38B4DA56A784D9045190CFEF", _PK, "00" * 31 + "01", _M,
     "6896BD60EEAE296DB48A229FF71DFE071BDE413E6D43F917DC8DCF8C78DE3341"
     "8906D11AC976ABCCB20B091292BFF4EA897EFCB639EA871CFA95F6DE339E4B0A", True),
    (2, "C90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B14E5C9",
     "DD308AFEC5777E13121FA72B9CC1B7CC0139715309B086C960E18FD969774EB8",
     "C87AA53824B4D7AE2EB035A2B5BBBCCC080E76CDC6D1692C4B0B62D798E6D906",
     "7E2D58D8B3BCDF1ABADEC7829054F90DDA9805AAB56C77333024B9D0A508B75C",
     "5831AAEED7B44BB74E5EAB94BA9D4294C49BCF2A60728D8B4C200F50DD313C1B"
     "AB745879A5AD954A72C45A91C3A51D3C7ADEA98D82F8481E0E1E03674A6F3FB7", True),
    (3, "0B432B2677937381AEF05BB02A66ECD012773062CF3FA2549E44F58ED2401710",
     "25D1DFF95105F5253C4022F628A996AD3A0D95FBF21D468A1B33F8C160D8F517", "FF" * 32, "FF" * 32,
     "7EB0509757E246F19449885651611CB965ECC1A187DD51B64FDA1EDC9637D5EC"
     "97582B9CB13DB3933705B32BA982AF5AF25FD78881EBB32771FC5922EFC66EA3", True),
    (4, None, "D69C3509BB99E412E68B0FE8544E72837DFA30746D8BE2AA65975F29D22DC7B9", None,
     "4DF3C3F68FCC83B27E9D42C90431A72499F17875C81A599B566C9889B9696703",
     "00000000000000000000003B78CE563F89A0ED9414F5AA28AD0D96D6795F9C63"
     "76AFB1548AF603B3EB45C9F8207DEE1060CB71C04E80F593060B07D28308D7F4", True),
    (5, None, "EEFDEA4CDB677750A420FEE807EACF21EB9898AE79B9768766E4FAA04A2D4A34", None, _M,
     "6CFF5C3BA86C69EA4B7376F31A9BCB4F74C1976089B2D9963DA2E5543E177769"
     "69E89B4C5564D00349106B8497785DD7D1D713A8AE82B32FA79D5F7FC407D39B", False),  # key not on the curve
    (6, None, _PK, None, _M,
     "FFF97BD5755EEEA420453A14355235D382F6472F8568A18B2F057A1460297556"
     "3CC27944640AC607CD107AE10923D9EF7A73C643E166BE5EBEAFA34B1AC553E2", False),  # has_even_y(R) is false
    (7, None, _PK, None, _M,
     "1FA62E331EDBC21C394792D2AB1100A7B432B013DF3F6FF4F99FCB33E0E1515F"
     "28890B3EDB6E7189B630448B515CE4F8622A954CFE545735AAEA5134FCCDB2BD", False),  # negated message
    (8, None, _PK, None, _M,
     "6CFF5C3BA86C69EA4B7376F31A9BCB4F74C1976089B2D9963DA2E5543E177769"
     "961764B3AA9B2FFCB6EF947B6887A226E8D7C93E00C5ED0C1834FF0D0C2E6DA6", False),  # negated s
    (9, None, _PK, None, _M,
     "0000000000000000000000000000000000000000000000000000000000000000"
     "123DDA8328AF9C23A94C1FEECFD123BA4FB73476F0D594DCB65C6425BD186051", False),  # sG - eP is infinite
    (12, None, _PK, None, _M,
     "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEFFFFFC2F"
     "69E89B4C5564D00349106B8497785DD7D1D713A8AE82B32FA79D5F7FC407D39B", False),  # r is the field size
    (13, None, _PK, None, _M,
     "6CFF5C3BA86C69EA4B7376F31A9BCB4F74C1976089B2D9963DA2E5543E177769"
     "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141", False),  # s is the group order
    (14, None, "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEFFFFFC30", None, _M,
     "6CFF5C3BA86C69EA4B7376F31A9BCB4F74C1976089B2D9963DA2E5543E177769"
     "69E89B4C5564D00349106B8497785DD7D1D713A8AE82B32FA79D5F7FC407D39B", False),  # key past the field
]  # fmt: skip


@pytest.mark.parametrize("vector", BIP340_VECTORS, ids=lambda v: f"bip340-{v[0]}")
def test_bip340_vectors(vector):
    _, secret, public, aux, message, signature, valid = vector
    public, message, signature = bytes.fromhex(public), bytes.fromhex(message), bytes.fromhex(signature)
    if secret is not None:
        point = secp256k1.multiply(int(secret, 16))
        assert point is not None and point[0].to_bytes(32, "big") == public
        assert secp256k1.bip340_sign(int(secret, 16), message, bytes.fromhex(aux)) == signature
    assert secp256k1.bip340_verify(public, message, signature) is valid


# RFC 8032, section 7.1: TEST 1, 2 and 3 (secret seed, public key, message, signature).
ED25519_VECTORS = [
    ("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
     "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
     "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"),
    ("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
     "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
     "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"),
    ("c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
     "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025", "af82",
     "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a"),
]  # fmt: skip


@pytest.mark.parametrize("vector", ED25519_VECTORS, ids=["test1", "test2", "test3"])
def test_ed25519_signs_with_a_scalar_as_rfc8032_signs_with_a_seed(vector):
    seed, public, message, signature = (bytes.fromhex(v) for v in vector)
    digest = hashlib.sha512(seed).digest()
    clamped = bytearray(digest[:32])  # RFC 8032, 5.1.5: the seed's hash, clamped, is the secret scalar
    clamped[0] &= 248
    clamped[31] = clamped[31] & 127 | 64
    scalar = int.from_bytes(clamped, "little")
    assert edwards.encode(edwards.multiply(scalar)) == public
    assert edwards.sign(scalar, digest[32:], message) == signature
    ed25519.Ed25519PublicKey.from_public_bytes(public).verify(signature, message)


def test_taproot_tweak_matches_bip341_and_signs_for_the_output_key():
    # BIP341's wallet test vectors (scriptPubKey, the first): a key with no script tree.
    internal = bytes.fromhex("d6889cb081036e0faefa3a35157ad71086b123b2b144b649798b494c300a961d")
    tweaked = "53a1f6e454df1aa2776a2814a721372d6258050de330b3c6d10ee8f4e0dda343"
    assert secp256k1.taproot_output_key(internal, b"").hex() == tweaked
    secret = 0x1234567890ABCDEF << 100
    point = secp256k1.multiply(secret)
    assert point is not None
    x_only = point[0].to_bytes(32, "big")
    for root in (b"", hashlib.sha256(b"a script tree").digest()):
        signature = secp256k1.bip340_sign(secp256k1.taproot_secret(secret, root), b"spend", bytes(32))
        assert secp256k1.bip340_verify(secp256k1.taproot_output_key(x_only, root), b"spend", signature)
        assert not secp256k1.bip340_verify(x_only, b"spend", signature)


def test_ecdsa_signatures_verify_with_cryptography_and_have_a_low_s():
    secret = 0xC0FFEE << 200
    point = secp256k1.multiply(secret)
    assert point is not None
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256K1(), secp256k1.compress(point))
    message_hash = hashlib.sha256(b"a transaction").digest()
    signatures = {secp256k1.ecdsa_sign(secret, message_hash, bytes([seed]) * 32) for seed in range(8)}
    assert len(signatures) == 8  # another nonce seed, another signature ...
    assert secp256k1.ecdsa_sign(secret, message_hash, bytes(32)) in signatures  # ... the same, the same
    for signature in signatures:
        r, s = int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big")
        assert s <= secp256k1.N // 2
        public.verify(encode_dss_signature(r, s), message_hash, ec.ECDSA(Prehashed(hashes.SHA256())))
        with pytest.raises(InvalidSignature):
            public.verify(encode_dss_signature(r, s), bytes(32), ec.ECDSA(Prehashed(hashes.SHA256())))


def test_derivation_matches_ic_pub_key(tmp_path):
    """moxzid's derived keys and chain codes are those @dfinity/ic-pub-key derives from its master
    public keys, for each scheme, for paths of several shapes (a canister's principal first)."""
    keys = MasterKeys.load_or_create(tmp_path)
    canister = bytes.fromhex("00000000001000010101")
    paths = [[canister], [canister, b""], [canister, b"\x00\x00\x00\x01", b"a longer component" * 4], [b"x"] * 5]
    requests, expected = [], []
    for scheme in (ECDSA, BIP340, ED25519):
        master_public, master_chain, _ = keys.derived(scheme, "key_1", [])
        assert master_chain == bytes(32)
        for path in paths:
            public, chain_code, secret = keys.derived(scheme, "key_1", path)
            requests.append(
                {"scheme": scheme, "public_key": master_public.hex(), "chain_code": master_chain.hex(),
                 "path": [component.hex() for component in path]}
            )  # fmt: skip
            expected.append({"public_key": public.hex(), "chain_code": chain_code.hex()})
            # The derived secret is the derived public key's.
            if scheme == ED25519:
                assert edwards.encode(edwards.multiply(secret)) == public
            else:
                assert secp256k1.compress(secp256k1.multiply(secret)) == public
    done = subprocess.run(
        ["node", "derive_keys.mjs"], cwd=AGENTS, input=json.dumps(requests), capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == expected


def test_master_keys_are_kept_private_and_come_back(tmp_path):
    first = MasterKeys.load_or_create(tmp_path)
    assert (tmp_path / KEYS_FILE).stat().st_mode & 0o777 == 0o600
    again = MasterKeys.load_or_create(tmp_path)
    for scheme in (ECDSA, BIP340, ED25519):
        for name in ("dfx_test_key", "test_key_1", "key_1"):
            assert first.derived(scheme, name, [b"c"]) == again.derived(scheme, name, [b"c"])
    # Every (scheme, key name) has a master key of its own; a host without a directory makes new ones.
    publics = {first.derived(scheme, name, [])[0] for scheme in (ECDSA, BIP340) for name in ("test_key_1", "key_1")}
    assert len(publics) == 4
    assert MasterKeys.load_or_create(None).derived(ECDSA, "key_1", []) != first.derived(ECDSA, "key_1", [])
