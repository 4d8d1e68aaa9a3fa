"""The management canister's threshold keys: ``ecdsa_public_key`` and ``sign_with_ecdsa`` (secp256k1),
``schnorr_public_key`` and ``sign_with_schnorr`` (BIP340 on secp256k1, with BIP341's taproot tweak
when ``aux`` asks, and Ed25519), for the key names a local replica offers.

A canister's key is derived from the master key of the (scheme, key name) through the canister's
principal, then the derivation path, as the IC derives it (``threshold_keys``).

As on the IC, only canisters may call these methods, and signing costs the fee of the key's subnet,
taken from the cycles the call attaches (the rest go back) when moxzid charges cycles. A signature's
randomness is drawn as raw_rand's is (``Randomness``): a seeded host (``--rand-seed``) signs the same
way on every run, a call made again after a crash (its answer not yet recorded) included.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Callable

from ...candid import Some
from ..messages import FromActor, Outcome, Reject
from .curves import ed25519, secp256k1
from .interface import BadArgument, reply
from .request import Manager, Request
from .threshold_keys import BIP340, ECDSA, ED25519, KEY_NAMES

# What a signature costs, by key name, as the IC charges it: 10 B cycles on a 13-node subnet, where the
# test keys live, scaled by 34/13 on the 34-node fiduciary subnet that holds key_1.
SIGNING_FEES = {"dfx_test_key": 10_000_000_000, "test_key_1": 10_000_000_000, "key_1": 26_153_846_153}
MAX_PATH_COMPONENTS = 255  # the IC's bound on a derivation path's length


class _Refused(Exception):
    """A call the IC rejects (CANISTER_REJECT) for who makes it or what it asks for."""


# --- the methods, on the host -------------------------------------------------------------------
# The arithmetic (plain Python: some 4 to 9 ms to derive a key and sign) runs on a worker thread, so
# the host's event loop goes on answering meanwhile.
async def ecdsa_public_key(manager: Manager, request: Request, target: None) -> Outcome:
    return await _answer(request, lambda: _public_key(manager, request, ECDSA))


async def schnorr_public_key(manager: Manager, request: Request, target: None) -> Outcome:
    return await _answer(request, lambda: _public_key(manager, request, _schnorr_scheme(request)))


async def sign_with_ecdsa(manager: Manager, request: Request, target: None) -> Outcome:
    def signing() -> Callable[[], Outcome]:
        name = _key_name(request, ECDSA)
        message_hash = request.argument["message_hash"]
        if len(message_hash) != 32:
            raise BadArgument(f"sign_with_ecdsa: message_hash must be 32 bytes, not {len(message_hash)}")
        path, fee = _path(request, request.caller), _fee(manager, request, name)
        randomness = manager.randomness.draw(request.batch)

        def sign() -> Outcome:
            secret = manager.threshold_keys.derived(ECDSA, name, path)[2]
            return _paid(manager, request, fee, secp256k1.ecdsa_sign(secret, message_hash, randomness))

        return sign

    return await _answer(request, signing)


async def sign_with_schnorr(manager: Manager, request: Request, target: None) -> Outcome:
    def signing() -> Callable[[], Outcome]:
        scheme = _schnorr_scheme(request)
        name = _key_name(request, scheme)
        merkle_root = _merkle_root(request.argument["aux"], scheme)
        path, fee = _path(request, request.caller), _fee(manager, request, name)
        randomness, message = manager.randomness.draw(request.batch), request.argument["message"]

        def sign() -> Outcome:
            secret = manager.threshold_keys.derived(scheme, name, path)[2]
            if scheme == ED25519:
                prefix = hashlib.sha512(b"moxzi ed25519 nonce\0" + secret.to_bytes(32, "big") + randomness).digest()
                return _paid(manager, request, fee, ed25519.sign(secret, prefix[:32], message))
            if merkle_root is not None:
                secret = secp256k1.taproot_secret(secret, merkle_root)
            return _paid(manager, request, fee, secp256k1.bip340_sign(secret, message, randomness))

        return sign

    return await _answer(request, signing)


# --- their parts ----------------------------------------------------------------------------------
async def _answer(request: Request, checked: Callable[[], Callable[[], Outcome]]) -> Outcome:
    """The outcome of a call from a canister: ``checked()`` checks the call (on the event loop: it may
    draw randomness and write in the call's batch) and gives the work, run on a worker thread; the
    reject either raised, or the reject of a call from outside."""
    if not isinstance(request.origin, FromActor):
        return Outcome.reject(Reject.CANISTER_REJECT, f"{request.method} can be called by canisters only")
    try:
        return await asyncio.to_thread(checked())
    except _Refused as refusal:
        return Outcome.reject(Reject.CANISTER_REJECT, str(refusal))


def _public_key(manager: Manager, request: Request, scheme: str) -> Callable[[], Outcome]:
    name = _key_name(request, scheme)
    canister = request.argument["canister_id"]
    path = _path(request, canister.value.bytes if isinstance(canister, Some) else request.caller)

    def answer() -> Outcome:
        public_key, chain_code, _ = manager.threshold_keys.derived(scheme, name, path)
        return Outcome(reply(request.method, {"public_key": public_key, "chain_code": chain_code}))

    return answer


def _schnorr_scheme(request: Request) -> str:
    ((algorithm, _),) = request.argument["key_id"]["algorithm"].items()
    return f"schnorr:{algorithm}"


def _key_name(request: Request, scheme: str) -> str:
    name = request.argument["key_id"]["name"]
    if name not in KEY_NAMES:
        known = ", ".join(f"{scheme}:{known}" for known in KEY_NAMES)
        raise _Refused(f"{request.method}: no key {scheme}:{name} here; the keys are {known}")
    return name


def _path(request: Request, principal: bytes) -> list[bytes]:
    """The whole derivation path of the call's key: the canister's principal, then the call's path."""
    path = request.argument["derivation_path"]
    if len(path) > MAX_PATH_COMPONENTS:
        raise BadArgument(
            f"{request.method}: a derivation path has at most {MAX_PATH_COMPONENTS} components, not {len(path)}"
        )
    return [principal, *path]


def _merkle_root(aux, scheme: str) -> bytes | None:
    """The taproot merkle root ``aux`` gives (BIP341), None when it gives none."""
    if aux is None:
        return None
    if scheme != BIP340:
        raise BadArgument(f"sign_with_schnorr: aux (bip341) is for bip340secp256k1 keys only, not {scheme}")
    root = aux.value["bip341"]["merkle_root_hash"]
    if len(root) not in (0, 32):
        raise BadArgument(f"sign_with_schnorr: a bip341 merkle_root_hash is 0 or 32 bytes, not {len(root)}")
    return root


def _fee(manager: Manager, request: Request, name: str) -> int:
    """What the signature costs (nothing when moxzid does not charge); _Refused if the call attached
    less."""
    if manager.ledger is None or not manager.ledger.charging:
        return 0
    fee = SIGNING_FEES[name]
    if request.cycles < fee:
        raise _Refused(f"{request.method} request sent with {request.cycles} cycles, but {fee} cycles are required")
    return fee


def _paid(manager: Manager, request: Request, fee: int, signature: bytes) -> Outcome:
    """The reply with ``signature``: the fee burned (counted as the caller's spending), the rest of the
    attached cycles back with it."""
    assert isinstance(request.origin, FromActor), "_answer lets only canisters' calls through"
    if fee and manager.ledger is not None:
        manager.ledger.transfer(request.batch, request.origin.actor, 0, burned=fee)
    return Outcome(reply(request.method, {"signature": signature}), refund=request.cycles - fee)
