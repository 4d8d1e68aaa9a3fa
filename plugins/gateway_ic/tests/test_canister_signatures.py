"""Canister signatures, as Internet Identity signs delegations: an actor on moxzid (tests/actors/signer.mo)
certifies sig/<sha256(seed)>/<sha256(payload)> in its certified data and hands out its data
certificate from a query; a client builds a delegation chain signed by that canister signature, and
a call made with it reaches an actor as the canister key's self-authenticating principal. Each way
such a signature can fail to hold is refused."""

import hashlib
import random
import time

import cbor2
import pytest
from kit.actorbuild import build_actor
from kit.gateway import serving
from kit.identity import Ed25519Identity
from moxzi_gateway_ic import build_ic_app, canister_signatures
from moxzi_gateway_ic.certificates import Identity, Keys
from moxzi_gateway_ic.hashtree import build_tree, lookup, tree_hash
from moxzi_gateway_ic.requests import DELEGATION_DOMAIN

from moxzi_core.candid import BLOB, BOOL, PRINCIPAL, Opt, Principal, decode_args, encode_args
from moxzi_core.runtime.host import ActorSpec, Host, actor_principal
from moxzi_core.signatures import hash_of_map, self_authenticating

SIGNER = actor_principal("signer")
GATE = actor_principal("gate")
SEED = b"user 10000"


@pytest.fixture
async def ic():
    """(host, an aiohttp session serving it over the IC interface) with the signer and gate actors."""
    host = Host([ActorSpec(name, build_actor(name).wasm, build_actor(name).did) for name in ("signer", "gate")])
    await host.start()
    try:
        async with serving(host, {"/api": build_ic_app}) as (_, session):
            yield host, session
    finally:
        await host.stop()


async def canister_signature(host, payload: bytes, seed: bytes = SEED) -> tuple[bytes, list]:
    """(certificate, tree) for ``payload``: the signer actor certifies it, then its query answers the
    data certificate; the tree is the one the actor built."""
    outcome = await host.call("signer", "sign", encode_args([BLOB, BLOB], [seed, payload]), query=False)
    tree = build_tree({b"sig": {hashlib.sha256(seed).digest(): {hashlib.sha256(payload).digest(): b""}}})
    assert decode_args(outcome.reply, [BLOB]) == [tree_hash(tree)]  # the actor's SHA-256 and tree agree
    outcome = await host.call("signer", "certificate", encode_args([], []), query=True)
    (certificate,) = decode_args(outcome.reply, [Opt(BLOB)])
    assert certificate is not None, "a query has a data certificate"
    return certificate.value, tree


def signature(certificate: bytes, tree: list) -> bytes:
    return cbor2.dumps(cbor2.CBORTag(55799, {"certificate": certificate, "tree": tree}))


async def call_whoami(session, delegation: dict, delegation_sig: bytes, key: Ed25519Identity, *, seed: bytes = SEED):
    """(sender, answer, certified reply or None) of gate.whoamiUpdate sent as the canister key of
    ``seed``, through the delegation to ``key``."""
    public_key = canister_signatures.public_key(SIGNER, seed)
    content = {
        "request_type": "call",
        "sender": self_authenticating(public_key),
        "ingress_expiry": time.time_ns() + 4 * 60 * 10**9,
        "nonce": hashlib.sha256(delegation_sig).digest()[:16],
        "canister_id": GATE,
        "method_name": "whoamiUpdate",
        "arg": encode_args([], []),
    }
    body = {
        "content": content,
        "sender_pubkey": public_key,
        "sender_delegation": [{"delegation": delegation, "signature": delegation_sig}],
        "sender_sig": key.key.sign(b"\x0aic-request" + hash_of_map(content)),
    }
    path = f"/api/v4/canister/{Principal(GATE)}/call"
    async with session.post(path, data=cbor2.dumps(cbor2.CBORTag(55799, body))) as response:
        answer = cbor2.loads(await response.read())
    reply = None
    if answer.get("status") == "replied":
        tree = cbor2.loads(answer["certificate"])["tree"]
        reply = lookup(tree, [b"request_status", hash_of_map(content), b"reply"])
    return content["sender"], answer, reply


def delegation_to(key: Ed25519Identity, expiration: int | None = None) -> tuple[dict, bytes]:
    delegation = {"pubkey": key.der, "expiration": expiration or time.time_ns() + 10 * 60 * 10**9}
    return delegation, DELEGATION_DOMAIN + hash_of_map(delegation)


async def test_a_delegation_signed_by_a_canister_signature_calls_as_its_principal(ic):
    host, session = ic
    key = Ed25519Identity()
    delegation, payload = delegation_to(key)
    certificate, tree = await canister_signature(host, payload)
    sender, answer, reply = await call_whoami(session, delegation, signature(certificate, tree), key)
    assert answer["status"] == "replied", answer
    assert decode_args(reply, [PRINCIPAL]) == [Principal(sender)]


async def test_queries_have_a_data_certificate_but_not_as_updates(ic):
    host, _ = ic

    async def has_certificate(method: str, query: bool) -> bool:
        outcome = await host.call("signer", method, encode_args([], []), query=query)
        return decode_args(outcome.reply, [BOOL])[0]

    assert await has_certificate("hasCertificate", query=True)
    assert await has_certificate("compositeHasCertificate", query=True)
    assert not await has_certificate("hasCertificate", query=False)  # replicated: none, as on the IC


async def test_refusals(ic):
    """Wrong seed, a signature that is not CBOR, a delegation back to the key itself, a tree that is not
    the certified data, a certificate under another root key, an expired delegation: each is refused
    with what does not hold."""
    host, session = ic
    key = Ed25519Identity()
    delegation, payload = delegation_to(key)
    certificate, tree = await canister_signature(host, payload)
    good = signature(certificate, tree)

    async def refused(delegation, signed, message, **kwargs):
        _, answer, _ = await call_whoami(session, delegation, signed, key, **kwargs)
        assert answer["status"] == "non_replicated_rejection", answer
        assert message in answer["reject_message"], answer["reject_message"]

    await refused(delegation, good, "no empty leaf at sig/<sha256(seed)>", seed=b"user 10001")
    await refused(delegation, b"\xd9\xd9\xf7\x9f", "the signature is not CBOR {certificate, tree}")
    to_itself = {**delegation, "pubkey": canister_signatures.public_key(SIGNER, SEED)}
    await refused(to_itself, good, "delegates to a key already in the chain")
    other_tree = build_tree({b"sig": {hashlib.sha256(SEED).digest(): {hashlib.sha256(b"other").digest(): b""}}})
    await refused(delegation, signature(certificate, other_tree), "is not the root hash of the signature's tree")
    elsewhere = Identity(Keys.load_or_create(None)).certify_data(SIGNER, tree_hash(tree))
    await refused(delegation, signature(elsewhere, tree), "not signed with this moxzid's root key")
    expired, expired_payload = delegation_to(key, time.time_ns() - 10**9)
    certificate, tree = await canister_signature(host, expired_payload)
    await refused(expired, signature(certificate, tree), "delegation 0 expired")


async def test_init_and_post_upgrade_set_the_certified_data(ic):
    """signer.mo certifies the leaf hash of "signer ready" as it initialises; `sign` replaces it; an
    upgrade's post_upgrade (the same initialisation) sets it again."""
    host, _ = ic
    ready = hashlib.sha256(b"\x10ic-hashtree-leaf" + b"signer ready").digest()

    async def certified() -> bytes:
        outcome = await host.call("signer", "certificate", encode_args([], []), query=True)
        (certificate,) = decode_args(outcome.reply, [Opt(BLOB)])
        return lookup(cbor2.loads(certificate.value)["tree"], [b"canister", SIGNER, b"certified_data"])

    assert await certified() == ready
    await canister_signature(host, b"payload")
    assert await certified() != ready
    await host.upgrade("signer", build_actor("signer").wasm)
    assert await certified() == ready


def test_mutated_keys_and_signatures_are_refused_never_crash():
    """Mutations of a valid canister key and signature (a fixed seed, a bounded count): each verifies
    or raises InvalidCanisterSignature; nothing else escapes (which would be a 500 for the caller)."""
    rng = random.Random(14)
    identity = Identity(Keys.load_or_create(None))
    payload = DELEGATION_DOMAIN + bytes(32)
    tree = build_tree({b"sig": {hashlib.sha256(SEED).digest(): {hashlib.sha256(payload).digest(): b""}}})
    key = canister_signatures.public_key(SIGNER, SEED)
    good = signature(identity.certify_data(SIGNER, tree_hash(tree)), tree)
    canister_signatures.verify(key, payload, good, identity.root_key_der)  # the unmutated one holds
    outcomes = {"held": 0, "refused": 0}
    for _ in range(2000):
        mutated_key, mutated = bytearray(key), bytearray(good)
        target = mutated_key if rng.random() < 0.2 else mutated
        for _ in range(rng.randint(1, 3)):
            position = rng.randrange(len(target))
            if rng.random() < 0.7:
                target[position] = rng.randrange(256)
            else:
                del target[position : position + rng.randint(1, 4)]
        try:
            canister_signatures.verify(bytes(mutated_key), payload, bytes(mutated), identity.root_key_der)
            outcomes["held"] += 1
        except canister_signatures.InvalidCanisterSignature:
            outcomes["refused"] += 1
    assert outcomes["refused"] > 1900, outcomes


def test_lookup_follows_the_spec_example():
    # The interface specification's pruned example tree (certification section) and its lookups.
    pruned = cbor2.loads(
        bytes.fromhex(
            "83018301830241618301820458201b4feff9bef8131788b0c9dc6dbad6e81e524249c879e9f10f71ce3749f5a638830241"
            "79820345776f726c6483024162820458207b32ac0c6ba8ce35ac82c255fc7906f7fc130dab2a090f80fe12f9c2cae83ba6"
            "830182045820ec8324b8a1f1ac16bd2e806edba78006479c9877fed4eb464a25485465af601d830241648203476d6f726e69"
            "6e67"
        )
    )
    assert tree_hash(pruned).hex() == "eb5c5b2195e62d996b84c9bcc8259d19a83786a2f59e0878cec84c811f669aa0"
    assert lookup(pruned, [b"a", b"y"]) == b"world" and lookup(pruned, [b"d"]) == b"morning"
    for absent_or_unknown in ([b"a", b"a"], [b"aa"], [b"ax"], [b"b"], [b"bb"], [b"e"]):
        assert lookup(pruned, absent_or_unknown) is None
