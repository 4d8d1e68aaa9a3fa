"""The management canister's threshold keys called by a compiled Motoko actor (tests/actors/keys.mo)
through `actor "aaaaa-aa"`: ecdsa_public_key and sign_with_ecdsa, schnorr_public_key and
sign_with_schnorr (BIP340, with a BIP341 merkle root, and Ed25519). Each signature verifies against
the public key the same canister and path get (`cryptography` for ECDSA and Ed25519, the BIP340
verifier of runtime/management/curves/secp256k1.py); another path or another canister gets another key;
callers outside are refused; signing costs the IC's fee when moxzid charges; a seeded host signs the
same way on every run; the keys survive a restart through the state directory."""

import hashlib

import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, ed25519
from cryptography.hazmat.primitives.asymmetric.utils import Prehashed, encode_dss_signature
from kit.actorbuild import build_actor

from moxzi_core.billing import DefaultPrices, Ledger
from moxzi_core.candid import (
    BLOB,
    NAT,
    PRINCIPAL,
    TEXT,
    Opt,
    Principal,
    Record,
    Some,
    Variant,
    Vec,
    decode_args,
    encode_args,
)
from moxzi_core.runtime.host import ActorSpec, Host, HostConfig, actor_principal
from moxzi_core.runtime.management.curves import secp256k1
from moxzi_core.runtime.management.interface import MANAGEMENT_NAME, SERVICE
from moxzi_core.runtime.management.threshold import SIGNING_FEES
from moxzi_core.runtime.messages import Reject
from moxzi_core.store import MemoryStore

PUBLIC_KEY = Record({"public_key": BLOB, "chain_code": BLOB})
SIGNED = Variant({"ok": Record({"public_key": BLOB, "chain_code": BLOB, "signature": BLOB}), "err": TEXT})
KEY_OF = Variant({"ok": PUBLIC_KEY, "err": TEXT})
PATH = [b"wallet", b"\x00\x00\x00\x07"]
HASH = hashlib.sha256(b"a transaction").digest()


def keys_actor(name: str = "keys") -> ActorSpec:
    built = build_actor("keys")
    return ActorSpec(name, built.wasm, built.did)


async def started(*names, store=None, ledger=None, **config) -> Host:
    store = store or MemoryStore()
    host = Host([keys_actor(name) for name in names or ("keys",)], HostConfig(**config), store=store, ledger=ledger)
    await host.start()
    return host


async def call(host: Host, actor: str, method: str, types: list, values: list, result=SIGNED):
    outcome = await host.call(actor, method, encode_args(types, values), query=False)
    assert outcome.reply is not None, outcome.reject_message
    return decode_args(outcome.reply, [result])[0]


async def ecdsa(host, name="test_key_1", path=PATH, message_hash=HASH, fee=0, actor="keys") -> dict:
    return await call(host, actor, "ecdsa", [TEXT, Vec(BLOB), BLOB, NAT], [name, path, message_hash, fee])


async def schnorr(host, algorithm, message, root=None, name="test_key_1", path=PATH, fee=0, actor="keys") -> dict:
    types = [TEXT, TEXT, Vec(BLOB), BLOB, Opt(BLOB), NAT]
    values = [algorithm, name, path, message, None if root is None else Some(root), fee]
    return await call(host, actor, "schnorr", types, values)


def verify_ecdsa(public_key: bytes, message_hash: bytes, signature: bytes) -> None:
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256K1(), public_key)
    r, s = int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big")
    key.verify(encode_dss_signature(r, s), message_hash, ec.ECDSA(Prehashed(hashes.SHA256())))


async def test_ecdsa_signature_verifies_against_the_callers_key():
    host = await started("keys", "other")
    try:
        signed = (await ecdsa(host))["ok"]
        assert len(signed["public_key"]) == 33 and len(signed["chain_code"]) == 32 and len(signed["signature"]) == 64
        verify_ecdsa(signed["public_key"], HASH, signed["signature"])
        with pytest.raises(InvalidSignature):
            verify_ecdsa(signed["public_key"], hashlib.sha256(b"another").digest(), signed["signature"])
        # Another path, another key name, another canister: another key.
        other_path = (await ecdsa(host, path=[b"wallet", b"\x00\x00\x00\x08"]))["ok"]
        other_name = (await ecdsa(host, name="key_1"))["ok"]
        other_canister = (await ecdsa(host, actor="other"))["ok"]
        keys = {signed["public_key"], other_path["public_key"], other_name["public_key"], other_canister["public_key"]}
        assert len(keys) == 4
        verify_ecdsa(other_canister["public_key"], HASH, other_canister["signature"])
        # Any canister may ask for another's public key: it is the one that canister signs with.
        args = [PRINCIPAL, TEXT, Vec(BLOB)]
        seen = await call(
            host, "keys", "ecdsaKeyOf", args, [Principal(actor_principal("other")), "test_key_1", PATH], KEY_OF
        )
        assert seen["ok"] == {"public_key": other_canister["public_key"], "chain_code": other_canister["chain_code"]}
        # A message hash of another length is refused.
        assert "message_hash must be 32 bytes" in (await ecdsa(host, message_hash=b"short"))["err"]
    finally:
        await host.stop()


async def test_schnorr_signatures_verify_bip340_bip341_and_ed25519():
    host = await started("keys", "other")
    try:
        for message in (b"", b"a message of any length" * 10):
            signed = (await schnorr(host, "bip340secp256k1", message))["ok"]
            assert len(signed["public_key"]) == 33
            x_only = signed["public_key"][1:]
            assert secp256k1.bip340_verify(x_only, message, signed["signature"])
            assert not secp256k1.bip340_verify(x_only, message + b"!", signed["signature"])
        # With a merkle root (empty: key path only), the signature is the taproot output key's.
        for root in (b"", hashlib.sha256(b"leaves").digest()):
            signed = (await schnorr(host, "bip340secp256k1", b"spend", root))["ok"]
            output_key = secp256k1.taproot_output_key(signed["public_key"][1:], root)
            assert secp256k1.bip340_verify(output_key, b"spend", signed["signature"])
            assert not secp256k1.bip340_verify(signed["public_key"][1:], b"spend", signed["signature"])
        assert "0 or 32 bytes" in (await schnorr(host, "bip340secp256k1", b"m", b"\x01" * 31))["err"]
        assert "bip340secp256k1 keys only" in (await schnorr(host, "ed25519", b"m", b""))["err"]

        signed = (await schnorr(host, "ed25519", b"hello"))["ok"]
        key = ed25519.Ed25519PublicKey.from_public_bytes(signed["public_key"])
        key.verify(signed["signature"], b"hello")
        with pytest.raises(InvalidSignature):
            key.verify(signed["signature"], b"hellO")
        other = (await schnorr(host, "ed25519", b"hello", actor="other"))["ok"]
        elsewhere = (await schnorr(host, "ed25519", b"hello", path=[b"elsewhere"]))["ok"]
        assert len({signed["public_key"], other["public_key"], elsewhere["public_key"]}) == 3
        args = [PRINCIPAL, TEXT, TEXT, Vec(BLOB)]
        values = [Principal(actor_principal("other")), "ed25519", "test_key_1", PATH]
        seen = await call(host, "keys", "schnorrKeyOf", args, values, KEY_OF)
        assert seen["ok"]["public_key"] == other["public_key"]
    finally:
        await host.stop()


KEY_ID = {"curve": {"secp256k1": None}, "name": "key_1"}
SCHNORR_KEY_ID = {"algorithm": {"ed25519": None}, "name": "key_1"}
ARGUMENTS = {
    "ecdsa_public_key": {"canister_id": None, "derivation_path": [], "key_id": KEY_ID},
    "sign_with_ecdsa": {"message_hash": HASH, "derivation_path": [], "key_id": KEY_ID},
    "schnorr_public_key": {"canister_id": None, "derivation_path": [], "key_id": SCHNORR_KEY_ID},
    "sign_with_schnorr": {"message": b"m", "derivation_path": [], "key_id": SCHNORR_KEY_ID, "aux": None},
}


async def test_unknown_keys_long_paths_and_callers_outside_are_refused():
    host = await started()
    try:
        assert "no key ecdsa:secp256k1:nope here" in (await ecdsa(host, name="nope"))["err"]
        assert "no key schnorr:ed25519:nope here" in (await schnorr(host, "ed25519", b"m", name="nope"))["err"]
        assert "at most 255 components, not 256" in (await ecdsa(host, path=[b"p"] * 256))["err"]
        assert "ok" in await ecdsa(host, path=[b"p"] * 255)
        for method, argument in ARGUMENTS.items():
            types = SERVICE.methods[method]
            arg = encode_args(list(types.args), [argument])
            outcome = await host.call(MANAGEMENT_NAME, method, arg, query=False)
            assert outcome.reply is None and outcome.reject_code == Reject.CANISTER_REJECT
            assert outcome.reject_message == f"{method} can be called by canisters only"
    finally:
        await host.stop()


async def test_signing_costs_the_ics_fee_when_moxzid_charges():
    store = MemoryStore()
    ledger = Ledger(store, DefaultPrices(), 10**14)
    host = await started(store=store, ledger=ledger)
    try:
        fee = SIGNING_FEES["test_key_1"]
        refused = (await ecdsa(host, fee=fee - 1))["err"]
        assert refused == f"sign_with_ecdsa request sent with {fee - 1} cycles, but {fee} cycles are required"
        before, spent = ledger.balance("keys"), ledger.spent("keys")
        signed = await ecdsa(host, fee=fee + 5_000)  # the fee is kept, the rest comes back
        verify_ecdsa(signed["ok"]["public_key"], HASH, signed["ok"]["signature"])
        assert before - ledger.balance("keys") == fee and ledger.spent("keys") - spent >= fee
        short = await schnorr(host, "bip340secp256k1", b"m", name="key_1", fee=SIGNING_FEES["test_key_1"])
        assert short["err"].endswith(f"but {SIGNING_FEES['key_1']} cycles are required")
        before = ledger.balance("keys")
        await schnorr(host, "ed25519", b"m", name="key_1", fee=SIGNING_FEES["key_1"])
        assert before - ledger.balance("keys") == SIGNING_FEES["key_1"] == 26_153_846_153
    finally:
        await host.stop()


async def test_a_seeded_host_signs_the_same_way_and_keys_survive_a_restart(tmp_path):
    signatures = []
    for _ in range(2):
        host = await started(seed=7, key_dir=tmp_path)
        try:
            signed = (await ecdsa(host))["ok"]
            bip340 = (await schnorr(host, "bip340secp256k1", b"m"))["ok"]
            signatures.append((signed, bip340))
        finally:
            await host.stop()
    assert signatures[0] == signatures[1]
    host = await started(seed=8, key_dir=tmp_path)  # another seed: the same keys, other signatures
    try:
        signed = (await ecdsa(host))["ok"]
        assert signed["public_key"] == signatures[0][0]["public_key"]
        assert signed["signature"] != signatures[0][0]["signature"]
    finally:
        await host.stop()
