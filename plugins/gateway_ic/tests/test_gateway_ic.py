"""The IC HTTP interface (the ``ic`` plugin) in process, on the HTTP gateway's address: envelopes,
request ids, certificates, request_status, and every refusal, each of which leaves the actor as it was.
The real JS and Python agents drive it in test_gateway_ic_agents.py."""

import asyncio
import hashlib
import random
import threading
import time
import urllib.request

import cbor2
import pytest
from kit.actorbuild import build_actor
from kit.daemon import project, running_moxzid
from kit.gateway import serving
from kit.host import spec
from kit.identity import Ed25519Identity
from moxzi_gateway_ic import build_ic_app, cbor, hashtree, routes
from moxzi_gateway_ic.bls import ROOT_KEY_DER_PREFIX
from moxzi_gateway_ic.certificates import Keys
from moxzi_gateway_ic.hashtree import build_tree, tree_hash
from moxzi_gateway_ic.requests import DELEGATION_DOMAIN, read_envelope
from moxzi_gateway_ic.statuses import Statuses
from moxzi_gateway_ic.system_canisters import CYCLES_LEDGER, CYCLES_MINTING, FEE, SERVICES

from moxzi_core.billing import DefaultPrices, Ledger
from moxzi_core.candid import TEXT, Principal, Some, decode_args, encode_args, resolve
from moxzi_core.received import NotReceived
from moxzi_core.runtime.engine import Limits
from moxzi_core.runtime.host import ActorSpec, Host, HostConfig, actor_principal
from moxzi_core.runtime.journal import Journal
from moxzi_core.runtime.management.interface import SERVICE as MANAGEMENT_SERVICE
from moxzi_core.signatures import Refused, hash_of_map

LIMIT = 64 * 1024
GATE = Principal(actor_principal("gate")).bytes
ANONYMOUS = b"\x04"
EMPTY = encode_args([], [])


@pytest.fixture
async def host():
    built = build_actor("gate")
    host = Host([ActorSpec("gate", built.wasm, built.did, controllers=(OWNER.principal,))])
    await host.start()
    yield host
    await host.stop()


@pytest.fixture
async def ic(host):
    """An aiohttp session whose base URL serves ``host`` with the IC interface mounted at /api."""
    async with serving(host, {"/api": build_ic_app}, max_message_bytes=LIMIT) as (_, session):
        yield session


OWNER = Ed25519Identity()  # gate's controller


def content(
    kind: str, sender: bytes = ANONYMOUS, *, method: str = "inc", arg: bytes = EMPTY, expiry: int | None = None, **extra
) -> dict:
    fields = {
        "request_type": kind,
        "sender": sender,
        "ingress_expiry": expiry or time.time_ns() + 4 * 60 * 10**9,
        **extra,
    }
    if kind in ("call", "query"):
        fields.update(canister_id=GATE, method_name=method, arg=arg)
        if kind == "call" and "nonce" not in extra:
            fields["nonce"] = random.randbytes(16)
    return fields


def envelope(fields: dict, signer: Ed25519Identity | None = None, *, sig_of: bytes | None = None) -> bytes:
    body = {"content": fields}
    if signer is not None:
        request_id = hash_of_map(fields)
        body["sender_pubkey"] = signer.der
        body["sender_sig"] = signer.key.sign(b"\x0aic-request" + (sig_of or request_id))
    return cbor2.dumps(cbor2.CBORTag(55799, body))


async def post(ic, path: str, body: bytes):
    async with ic.post(path, data=body, headers={"content-type": "application/cbor"}) as response:
        data = await response.read()
        if response.content_type == "application/cbor":
            return response.status, cbor2.loads(data)
        return response.status, data.decode()


def lookup(certificate: bytes, *path: bytes):
    """The leaf at ``path`` in a certificate's tree (which must be well formed), or None."""
    return hashtree.lookup(cbor2.loads(certificate)["tree"], list(path))


async def count(ic) -> int:
    status, answer = await post(
        ic, f"/api/v3/canister/{Principal(GATE)}/query", envelope(content("query", method="get"))
    )
    assert status == 200 and answer["status"] == "replied", answer
    return decode_args(answer["reply"]["arg"])[0]


async def test_status_serves_the_root_key(ic):
    status, answer = await post_get(ic, "/api/v2/status")
    assert status == 200 and answer["replica_health_status"] == "healthy"
    assert len(answer["root_key"]) == 133 and answer["root_key"].startswith(ROOT_KEY_DER_PREFIX)


async def post_get(ic, path):
    async with ic.get(path) as response:
        return response.status, cbor2.loads(await response.read())


async def test_synchronous_call_answers_a_certificate_with_the_reply(ic):
    fields = content("call")
    status, answer = await post(ic, f"/api/v4/canister/{Principal(GATE)}/call", envelope(fields))
    assert status == 200 and answer["status"] == "replied"
    request_id = hash_of_map(fields)
    assert lookup(answer["certificate"], b"request_status", request_id, b"status") == b"replied"
    assert decode_args(lookup(answer["certificate"], b"request_status", request_id, b"reply")) == [1]


async def test_v2_call_then_read_state_and_a_resent_request_runs_once(ic):
    signer = Ed25519Identity()
    fields = content("call", signer.principal)
    path = f"/api/v2/canister/{Principal(GATE)}/call"
    assert (await post(ic, path, envelope(fields, signer)))[0] == 202
    assert (await post(ic, path, envelope(fields, signer)))[0] == 202  # the same request again
    request_id = hash_of_map(fields)
    read = content("read_state", signer.principal, paths=[[b"request_status", request_id]])
    for _ in range(100):
        status, answer = await post(ic, f"/api/v2/canister/{Principal(GATE)}/read_state", envelope(read, signer))
        assert status == 200
        if lookup(answer["certificate"], b"request_status", request_id, b"status") == b"replied":
            break
    assert decode_args(lookup(answer["certificate"], b"request_status", request_id, b"reply")) == [1]
    assert await count(ic) == 1
    # Another sender may not read it.
    other = Ed25519Identity()
    read = content("read_state", other.principal, paths=[[b"request_status", request_id]])
    status, text = await post(ic, f"/api/v2/canister/{Principal(GATE)}/read_state", envelope(read, other))
    assert status == 403 and "another sender" in text


async def test_metadata_and_module_hash_are_certified(ic, host):
    read = content(
        "read_state", paths=[[b"canister", GATE, b"module_hash"], [b"canister", GATE, b"metadata", b"candid:service"]]
    )
    status, answer = await post(ic, f"/api/v3/canister/{Principal(GATE)}/read_state", envelope(read))
    assert status == 200
    assert lookup(answer["certificate"], b"canister", GATE, b"module_hash") == host.info("gate").module_hash
    assert b"whoami" in lookup(answer["certificate"], b"canister", GATE, b"metadata", b"candid:service")


async def test_private_metadata_is_for_controllers_only(ic, host):
    """moc puts the stable types in an `icp:private` section: a controller reads it, anyone else is
    refused (403), as the IC does; `icp:public` candid:service is for anyone (the test above)."""
    path = [b"canister", GATE, b"metadata", b"motoko:stable-types"]
    url = f"/api/v3/canister/{Principal(GATE)}/read_state"
    assert "motoko:stable-types" in host.info("gate").private_metadata
    stranger = Ed25519Identity()
    for signer, sender in [(None, ANONYMOUS), (stranger, stranger.principal)]:
        status, text = await post(ic, url, envelope(content("read_state", sender, paths=[path]), signer))
        assert status == 403 and "only the actor's controllers" in text, text
    status, answer = await post(ic, url, envelope(content("read_state", OWNER.principal, paths=[path]), OWNER))
    assert status == 200
    assert lookup(answer["certificate"], *path) == host.info("gate").metadata["motoko:stable-types"]


def signed_by_someone_else(fields):
    signer, other = Ed25519Identity(), Ed25519Identity()
    fields["sender"] = other.principal
    return envelope(fields, signer)


def bad_signature(fields):
    signer = Ed25519Identity()
    fields["sender"] = signer.principal
    return envelope(fields, signer, sig_of=bytes(32))


def unsigned_sender(fields):
    fields["sender"] = Ed25519Identity().principal
    return envelope(fields)


@pytest.mark.parametrize(
    "make, status, message",
    [
        (bad_signature, 200, "the signature does not verify"),
        (signed_by_someone_else, 200, "is not the principal of sender_pubkey"),
        (unsigned_sender, 200, "the request needs sender_pubkey and sender_sig"),
        (lambda f: envelope({**f, "ingress_expiry": time.time_ns() - 10**9}), 400, "Invalid request expiry: "),
        (lambda f: envelope({**f, "ingress_expiry": time.time_ns() + 3600 * 10**9}), 400, "Invalid request expiry: "),
        (lambda f: b"\xa1\x67content", 400, "not a CBOR request envelope: truncated"),
        (lambda f: cbor2.dumps({"content": {**f, "request_type": "query"}}), 400, "takes request_type 'call'"),
        (lambda f: envelope({**f, "canister_id": b"\x01" * 10}), 200, "is not the URL's"),
        (lambda f: envelope({**f, "arg": b"x" * LIMIT}), 413, "Maximum request body size"),
    ],
)
async def test_refusals_are_clear_and_change_nothing(ic, make, status, message):
    got_status, answer = await post(ic, f"/api/v3/canister/{Principal(GATE)}/call", make(content("call")))
    assert got_status == status, answer
    if status == 200:
        assert answer["status"] == "non_replicated_rejection" and message in answer["reject_message"], answer
    else:
        assert message in str(answer), answer
    assert await count(ic) == 0


async def test_unknown_canister_is_a_rejection_not_a_404(ic):
    # A 404 on /api/v4 makes agents fall back to v2 and retry; an unknown canister is a reject (code 3).
    other = Principal(b"\x00" * 8 + b"\x01\x01")
    fields = {**content("call"), "canister_id": other.bytes}
    status, answer = await post(ic, f"/api/v4/canister/{other}/call", envelope(fields))
    assert status == 200 and answer["reject_code"] == 3 and "no actor with canister id" in answer["reject_message"]


async def test_a_bad_signature_on_a_query_is_refused(ic):
    fields = content("query", method="whoami")
    fields["sender"] = Ed25519Identity().principal
    status, answer = await post(ic, f"/api/v3/canister/{Principal(GATE)}/query", envelope(fields, Ed25519Identity()))
    assert status == 200 and "is not the principal of sender_pubkey" in answer["reject_message"]


def test_cbor_decoding_is_bounded():
    with pytest.raises(cbor.CborError, match="nested deeper"):
        cbor.decode(b"\x81" * 10_000 + b"\x00")
    with pytest.raises(cbor.CborError, match="more than this request may hold"):
        cbor.decode(b"\x9b" + (2**40).to_bytes(8, "big"))
    with pytest.raises(cbor.CborError, match="truncated"):
        cbor.decode(b"\x5a" + (2**31).to_bytes(4, "big"))
    with pytest.raises(cbor.CborError, match="indefinite"):
        cbor.decode(b"\x9f\x00\xff")
    with pytest.raises(cbor.CborError, match="appears twice"):
        cbor.decode(b"\xa2\x61a\x01\x61a\x02")
    assert cbor.decode(envelope(content("call")))["content"]["method_name"] == "inc"


def test_fuzzed_envelopes_are_refused_never_crash():
    """Mutations of a valid signed envelope (fixed: the seed, the key, the nonce, the expiry and the
    clock; a bounded count): each decodes and checks to a Request, or is refused with CborError or
    Refused; nothing else escapes. (With a fresh key and nonce each run, about one run in 200 mutated a
    map key into a number, which escaped as an AttributeError: a 500 from the gateway.)"""
    rng = random.Random(14)
    signer = Ed25519Identity(bytes(range(32)))
    now = 1_700_000_000 * 10**9
    valid = envelope(content("call", signer.principal, expiry=now + 60 * 10**9, nonce=bytes(16)), signer)
    outcomes = {"accepted": 0, "refused": 0}
    for _ in range(3000):
        data = bytearray(valid)
        for _ in range(rng.randint(1, 4)):
            choice = rng.random()
            position = rng.randrange(len(data))
            if choice < 0.6:
                data[position] = rng.randrange(256)
            elif choice < 0.8:
                del data[position : position + rng.randint(1, 8)]
            else:
                data[position:position] = rng.randbytes(rng.randint(1, 8))
        try:
            read_envelope(cbor.decode(bytes(data)), now_ns=now)
            outcomes["accepted"] += 1
        except (cbor.CborError, Refused):
            outcomes["refused"] += 1
    assert outcomes["refused"] > 2500, outcomes
    # The case the fuzzing found: a key that is a number, in the content map or in a map within it.
    for fields in ({**content("call"), 7: b"x"}, {**content("read_state", paths=[]), "x": {1: 2}}):
        with pytest.raises(Refused, match="keys must be text") as refused:
            read_envelope(cbor.decode(cbor2.dumps({"content": fields})))
        assert refused.value.malformed


def test_hash_tree_root_hash_matches_the_spec_example():
    # The interface specification's example tree (certification section) and its root hash.
    tree = [
        1,
        [1, [2, b"a", [1, [1, [2, b"x", [3, b"hello"]], [0]], [2, b"y", [3, b"world"]]]], [2, b"b", [3, b"good"]]],
        [1, [2, b"c", [0]], [2, b"d", [3, b"morning"]]],
    ]
    assert tree_hash(tree).hex() == "eb5c5b2195e62d996b84c9bcc8259d19a83786a2f59e0878cec84c811f669aa0"
    assert build_tree({b"b": b"good"})[0] == 2


def test_keys_are_kept_in_the_state_directory(tmp_path):
    first = Keys.load_or_create(tmp_path)
    assert (tmp_path / "ic-keys.cbor").stat().st_mode & 0o077 == 0
    again = Keys.load_or_create(tmp_path)
    assert again.bls_secret == first.bls_secret
    assert Keys.load_or_create(None).bls_secret != first.bls_secret


def management(method: str, value: dict) -> bytes:
    return encode_args(list(MANAGEMENT_SERVICE.methods[method].args), [value])


async def manage(ic, signer: Ed25519Identity, method: str, value: dict, effective: Principal = Principal(GATE)):
    """(status, the reply's values decoded with the method's result types, or None) of a management call that
    ``signer`` makes over /api/v4 with ``effective`` as the URL's canister."""
    fields = {
        **content("call", signer.principal, method=method, arg=management(method, value)),
        "canister_id": b"",
    }
    status, answer = await post(ic, f"/api/v4/canister/{effective}/call", envelope(fields, signer))
    assert status == 200 and answer["status"] == "replied", answer
    certified = lookup(answer["certificate"], b"request_status", hash_of_map(fields), b"status")
    if certified != b"replied":
        return certified.decode(), None
    reply = lookup(answer["certificate"], b"request_status", hash_of_map(fields), b"reply")
    return "replied", decode_args(reply, list(MANAGEMENT_SERVICE.methods[method].rets))


async def test_a_signed_sender_creates_an_actor_and_only_it_controls_it(ic):
    """A created actor is controlled by its creator: only it gets canister_status, and read_state
    certifies its controllers."""
    owner, stranger = Ed25519Identity(), Ed25519Identity()
    _, created = await manage(ic, owner, "create_canister", {"settings": None, "sender_canister_version": None})
    created = created[0]["canister_id"]
    status, record = await manage(ic, owner, "canister_status", {"canister_id": created}, created)
    assert record[0]["settings"]["controllers"] == [Principal(owner.principal)]
    status, _ = await manage(ic, stranger, "canister_status", {"canister_id": created}, created)
    assert status == "rejected"
    read = content("read_state", owner.principal, paths=[[b"canister", created.bytes, b"controllers"]])
    status, answer = await post(ic, f"/api/v3/canister/{created}/read_state", envelope(read, owner))
    assert cbor2.loads(lookup(answer["certificate"], b"canister", created.bytes, b"controllers")) == [owner.principal]


async def test_an_actor_created_over_the_interface_is_reachable_once_installed(host):
    """The routes find actors created after start; module_hash is absent until code is installed."""
    owner = Ed25519Identity()
    wasm = build_actor("gate").wasm
    async with serving(host, {"/api": build_ic_app}) as (_, ic):
        _, created = await manage(ic, owner, "create_canister", {"settings": None, "sender_canister_version": None})
        created = created[0]["canister_id"]

        async def module_hash():
            read = content("read_state", owner.principal, paths=[[b"canister", created.bytes, b"module_hash"]])
            status, answer = await post(ic, f"/api/v3/canister/{created}/read_state", envelope(read, owner))
            assert status == 200, answer
            return lookup(answer["certificate"], b"canister", created.bytes, b"module_hash")

        assert await module_hash() is None
        install = {
            "mode": {"install": None},
            "canister_id": created,
            "wasm_module": wasm,
            "arg": EMPTY,
            "sender_canister_version": None,
        }
        assert (await manage(ic, owner, "install_code", install, created))[0] == "replied"
        assert await module_hash() == hashlib.sha256(wasm).digest()
        fields = {**content("call", owner.principal, method="whoamiUpdate"), "canister_id": created.bytes}
        status, answer = await post(ic, f"/api/v4/canister/{created}/call", envelope(fields, owner))
        reply = lookup(answer["certificate"], b"request_status", hash_of_map(fields), b"reply")
        assert decode_args(reply) == [Principal(owner.principal)]


async def test_an_unexpected_failure_is_a_certified_reject(ic, host, monkeypatch):
    async def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(host, "call", broken)
    fields = content("call")
    status, answer = await post(ic, f"/api/v4/canister/{Principal(GATE)}/call", envelope(fields))
    request_id = hash_of_map(fields)
    assert status == 200 and lookup(answer["certificate"], b"request_status", request_id, b"status") == b"rejected"
    assert (
        lookup(answer["certificate"], b"request_status", request_id, b"reject_message")
        == b"internal error: RuntimeError: boom"
    )


async def system_call(ic, signer: Ed25519Identity, canister: bytes, method: str, arg: bytes, *, query: bool = False):
    """The decoded reply of a call (or query) of a system canister moxzid answers for, or the reject."""
    kind = "query" if query else "call"
    fields = {**content(kind, signer.principal, method=method, arg=arg), "canister_id": canister}
    route = "v3/canister/{}/query" if query else "v4/canister/{}/call"
    status, answer = await post(ic, "/api/" + route.format(Principal(canister)), envelope(fields, signer))
    assert status == 200, answer
    if query:
        reply = answer["reply"]["arg"] if answer["status"] == "replied" else None
        rejected = answer.get("reject_code"), answer.get("error_code"), answer.get("reject_message")
    else:
        reply = lookup(answer["certificate"], b"request_status", hash_of_map(fields), b"reply")
        rejected = tuple(
            lookup(answer["certificate"], b"request_status", hash_of_map(fields), label)
            for label in (b"reject_code", b"error_code", b"reject_message")
        )
    if reply is None:
        return rejected
    return decode_args(reply, list(SERVICES[canister].methods[method].rets))


async def test_the_cycles_ledger_creates_and_the_cycles_minting_canister_names_the_subnet(ic, host):
    """What icp deploy asks before it installs: the subnets to create on, then create_canister on the
    cycles ledger, which makes an empty actor the caller controls."""
    owner = Ed25519Identity()
    (subnets,) = await system_call(ic, owner, CYCLES_MINTING, "get_default_subnets", EMPTY, query=True)
    read = content("read_state", owner.principal, paths=[[b"subnet", subnets[0].bytes, b"public_key"]])
    status, answer = await post(ic, f"/api/v3/subnet/{subnets[0]}/read_state", envelope(read, owner))
    assert status == 200 and lookup(answer["certificate"], b"subnet", subnets[0].bytes, b"public_key")

    create = SERVICES[CYCLES_LEDGER].methods["create_canister"]

    def creation(subnet, controllers=None):
        settings = {
            "controllers": controllers,
            "compute_allocation": None,
            "memory_allocation": None,
            "freezing_threshold": None,
            "reserved_cycles_limit": None,
        }
        args = {"subnet_selection": Some({"Subnet": {"subnet": subnet}}), "settings": Some(settings)}
        value = {"from_subaccount": None, "created_at_time": None, "amount": 2 * 10**12, "creation_args": Some(args)}
        return encode_args(list(create.args), [value])

    (created,) = await system_call(ic, owner, CYCLES_LEDGER, "create_canister", creation(subnets[0]))
    canister = created["Ok"]["canister_id"]
    assert host.info(canister.to_text()).mode == "empty" and host.info(canister.to_text()).module_hash is None
    assert host.info(canister.to_text()).controllers == (owner.principal,)
    status, record = await manage(ic, owner, "canister_status", {"canister_id": canister}, canister)
    assert status == "replied" and record[0]["module_hash"] is None
    # Its subnet is moxzid's one; another subnet, or more than 10 controllers, is a clear error.
    (where,) = await system_call(
        ic, owner, CYCLES_MINTING, "get_subnet_for_canister", _subnet_request(canister), query=True
    )
    assert where == {"Ok": {"subnet_id": Some(subnets[0])}}
    (elsewhere,) = await system_call(ic, owner, CYCLES_LEDGER, "create_canister", creation(Principal(GATE)))
    assert "moxzid has one subnet" in elsewhere["Err"]["FailedToCreate"]["error"]
    crowd = Some([Principal(bytes([n])) for n in range(11)])
    (crowded,) = await system_call(ic, owner, CYCLES_LEDGER, "create_canister", creation(subnets[0], crowd))
    assert "at most 10 principals" in crowded["Err"]["FailedToCreate"]["error"]
    code, error_code, message = await system_call(ic, owner, CYCLES_LEDGER, "icrc1_transfer", EMPTY)
    assert code == b"\x05" and b"not 'icrc1_transfer'" in message  # certified: LEB128, bytes


async def test_query_rejects_are_signed_with_the_ic_error_codes(ic):
    """A query of an unknown canister or method is a signed reject (agents accept no other answer to
    a query); a missing method is IC0536, which icp-cli reads as "no such method"."""
    missing = await system_call(ic, Ed25519Identity(), GATE, "http_request", EMPTY, query=True)
    assert missing[:2] == (5, "IC0536")
    other = Principal(b"\x00" * 7 + b"\x09\x01\x01")
    fields = {**content("query", method="get"), "canister_id": other.bytes}
    status, answer = await post(ic, f"/api/v3/canister/{other}/query", envelope(fields))
    assert status == 200 and answer["status"] == "rejected" and answer["error_code"] == "IC0301"
    assert answer["signatures"]


def _subnet_request(canister: Principal) -> bytes:
    func = SERVICES[CYCLES_MINTING].methods["get_subnet_for_canister"]
    return encode_args(list(func.args), [{"principal": Some(canister)}])


async def test_the_cycles_ledger_creates_from_accounts_only_the_admin_funds(tmp_path):
    """While moxzid charges, a cycles-ledger account holds what the admin gave it (POST
    /cycles-ledger/PRINCIPAL), icrc1_balance_of answers it, and create_canister takes the amount and
    the ledger's fee from it, the actor starting with the amount; an account short of them answers
    InsufficientFunds with its balance and nothing is made or taken. Bad bodies are 400s; the
    accounts are kept across a restart (LMDB), and a captured creation resent after it does not spend
    again."""
    lmdb = pytest.importorskip("moxzi_store_lmdb")
    owner, stranger = Ed25519Identity(), Ed25519Identity()
    other = "01" * 32  # another of owner's subaccounts

    def charging_host():
        store = lmdb.LmdbStore(tmp_path / "state")
        ledger = Ledger(store, DefaultPrices(), 1000)  # charging: 1000 cycles each
        return Host([], HostConfig(max_created_actors=3), store=store, ledger=ledger)

    async def fund(ic, principal, body):
        text = Principal(principal).to_text() if isinstance(principal, bytes) else principal
        async with ic.post(f"/cycles-ledger/{text}", json=body) as response:
            return response.status, await response.json()

    create = SERVICES[CYCLES_LEDGER].methods["create_canister"]
    value = {"from_subaccount": None, "created_at_time": None, "amount": 10, "creation_args": None}
    arg = encode_args(list(create.args), [value])
    creation = {**content("call", owner.principal, method="create_canister", arg=arg), "canister_id": CYCLES_LEDGER}
    captured, url = envelope(creation, owner), f"/api/v4/canister/{Principal(CYCLES_LEDGER)}/call"
    host = charging_host()
    await host.start()
    try:
        async with serving(host, {"/api": build_ic_app}) as (_, ic):
            assert await _balance_of(ic, owner) == 0
            assert await _created(ic, stranger, 2**127) == {"Err": {"InsufficientFunds": {"balance": 0}}}
            assert await fund(ic, owner.principal, {"add": 3 * 10**12}) == (200, {"balance": 3 * 10**12})
            assert await fund(ic, owner.principal, {"add": 7, "subaccount": other}) == (200, {"balance": 7})
            assert await _balance_of(ic, owner, bytes.fromhex(other)) == 7
            made = await _created(ic, owner, 10**12)
            assert host.ledger.balance(made["Ok"]["canister_id"].to_text()) == 10**12
            assert await _balance_of(ic, owner) == 2 * 10**12 - FEE
            # Short by the fee: refused with the balance, nothing made, nothing taken.
            short = await _created(ic, owner, 2 * 10**12)
            assert short == {"Err": {"InsufficientFunds": {"balance": 2 * 10**12 - FEE}}}
            assert await _created(ic, owner, 8, subaccount=bytes.fromhex(other)) == {
                "Err": {"InsufficientFunds": {"balance": 7}}
            }
            assert await _created(ic, stranger, 10**12) == {"Err": {"InsufficientFunds": {"balance": 0}}}
            free = await _created(ic, stranger, 0)  # asking for nothing costs nothing and starts with none
            assert host.ledger.balance(free["Ok"]["canister_id"].to_text()) == 0
            assert (await post(ic, url, captured))[1]["status"] == "replied"  # a creation of 10 cycles
            left = 2 * 10**12 - 2 * FEE - 10
            assert await _balance_of(ic, owner) == left
            assert len(host.actor_names()) == 3
            refused = await _created(ic, owner, 10)  # past --max-created-actors: nothing is taken
            assert "--max-created-actors 3" in refused["Err"]["FailedToCreate"]["error"]
            assert await _balance_of(ic, owner) == left
            for body in ({"add": 0}, {"add": -1}, {"add": "5"}, {"add": True}, {"add": 1.5}, {"add": 1, "x": 2}, [1]):
                status, answer = await fund(ic, owner.principal, body)
                assert status == 400 and "the body must be" in answer["error"], answer
            status, answer = await fund(ic, owner.principal, {"add": 1, "subaccount": "01"})
            assert status == 400 and "64 hex digits" in answer["error"]
            status, answer = await fund(ic, "not-a-principal", {"add": 1})
            assert status == 400 and "not a principal" in answer["error"]
            status, answer = await fund(ic, owner.principal, {"add": 2**128})
            assert status == 400 and "would pass the most it may hold" in answer["error"]
            assert await _balance_of(ic, owner) == left
    finally:
        await host.stop()
        host.store.close()
    host = charging_host()
    await host.start()
    try:
        async with serving(host, {"/api": build_ic_app}) as (_, ic):
            assert await _balance_of(ic, owner) == left
            status, answer = await post(ic, url, captured)  # resent: it ran, once
            assert lookup(answer["certificate"], b"request_status", hash_of_map(creation), b"status") == b"done"
            assert await _balance_of(ic, owner) == left and len(host.actor_names()) == 3
            short = await _created(ic, owner, left - FEE + 1)
            assert short == {"Err": {"InsufficientFunds": {"balance": left}}}
    finally:
        await host.stop()
        host.store.close()


async def test_cycles_ledger_accounts_are_not_funded_while_moxzid_does_not_charge():
    """With --cycles 0 a creation takes what it asks for from nowhere, so funding an account is a 409."""
    host = Host([])
    await host.start()
    try:
        async with serving(host, {"/api": build_ic_app}) as (_, ic):
            async with ic.post(f"/cycles-ledger/{Principal(GATE)}", json={"add": 5}) as response:
                assert response.status == 409 and "does not charge cycles" in (await response.json())["error"]
    finally:
        await host.stop()


async def _created(ic, signer, amount, subaccount=None):
    create = SERVICES[CYCLES_LEDGER].methods["create_canister"]
    value = {
        "from_subaccount": None if subaccount is None else Some(subaccount),
        "created_at_time": None,
        "amount": amount,
        "creation_args": None,
    }
    return (await system_call(ic, signer, CYCLES_LEDGER, "create_canister", encode_args(list(create.args), [value])))[0]


async def _balance_of(ic, identity, subaccount=None) -> int:
    func = SERVICES[CYCLES_LEDGER].methods["icrc1_balance_of"]
    account = {"owner": Principal(identity.principal), "subaccount": None if subaccount is None else Some(subaccount)}
    arg = encode_args(list(func.args), [account])
    return (await system_call(ic, Ed25519Identity(), CYCLES_LEDGER, "icrc1_balance_of", arg, query=True))[0]


async def test_creating_past_the_cap_is_an_ic_reject_and_the_others_are_served():
    """Past --max-created-actors, the management canister's create_canister over /api is a certified
    SYS_TRANSIENT reject (IC0201) and the cycles ledger's answers FailedToCreate, naming the flag;
    the actors there keep answering."""
    host = Host([spec("gate", "gate")], HostConfig(max_created_actors=1))
    await host.start()
    try:
        async with serving(host, {"/api": build_ic_app}) as (_, ic):
            owner = Ed25519Identity()
            create = {"settings": None, "sender_canister_version": None}
            assert (await manage(ic, owner, "create_canister", create))[0] == "replied"
            fields = {
                **content("call", owner.principal, method="create_canister", arg=management("create_canister", create)),
                "canister_id": b"",
            }
            status, answer = await post(ic, f"/api/v4/canister/{Principal(GATE)}/call", envelope(fields, owner))
            path = (b"request_status", hash_of_map(fields))
            assert lookup(answer["certificate"], *path, b"status") == b"rejected"
            assert lookup(answer["certificate"], *path, b"error_code") == b"IC0201"
            assert b"--max-created-actors 1" in lookup(answer["certificate"], *path, b"reject_message")
            ledger_create = SERVICES[CYCLES_LEDGER].methods["create_canister"]
            value = {"from_subaccount": None, "created_at_time": None, "amount": 10**12, "creation_args": None}
            (refused,) = await system_call(
                ic, owner, CYCLES_LEDGER, "create_canister", encode_args(list(ledger_create.args), [value])
            )
            assert "--max-created-actors 1" in refused["Err"]["FailedToCreate"]["error"]
            before = await count(ic)
            status, _ = await post(ic, f"/api/v4/canister/{Principal(GATE)}/call", envelope(content("call")))
            assert status == 200 and await count(ic) == before + 1
    finally:
        await host.stop()


async def test_fresh_keys_filling_the_pool_of_management_ids_leave_a_controllers_call_to_its_canister(
    host, monkeypatch
):
    """A flood of fresh keys, each holding an id or two of a management call (a stranger's
    canister_status on gate), fills the pool of such ids: the next fresh key's call is a SYS_TRANSIENT
    rejection. gate's controller's calls to gate count against gate's share, not the pool, and are
    served meanwhile."""
    monkeypatch.setattr(routes, "POOL_CAPACITY", 64)
    apps = []

    def build(host, settings):
        apps.append(build_ic_app(host, settings))
        return apps[-1]

    async with serving(host, {"/api": build}) as (_, ic):
        gateway = next(route.handler.__self__ for route in apps[0].router.routes())
        expiry = time.time_ns() + 4 * 60 * 10**9
        try:  # the table as tens of thousands of fresh keys leave it, cheaply
            while True:
                gateway.received.receive(random.randbytes(32), expiry, random.randbytes(29))
        except NotReceived:
            pass
        status_of_gate = management("canister_status", {"canister_id": Principal(GATE)})
        for _ in range(2):  # a fresh key's call, as an agent sends it, finds the pool full
            stranger = Ed25519Identity()
            fields = {
                **content("call", stranger.principal, method="canister_status", arg=status_of_gate),
                "canister_id": b"",
            }
            _, answer = await post(ic, f"/api/v4/canister/{Principal(GATE)}/call", envelope(fields, stranger))
            assert answer["status"] == "non_replicated_rejection" and answer["error_code"] == "IC0201", answer
            assert "keeps the ids of" in answer["reject_message"]
        for _ in range(3):
            status, record = await manage(ic, OWNER, "canister_status", {"canister_id": Principal(GATE)})
            assert status == "replied" and record[0]["settings"]["controllers"] == [Principal(OWNER.principal)]
        fields = resolve(MANAGEMENT_SERVICE.methods["update_settings"].args[0]).fields
        record = resolve(next(f.type for f in fields if f.name == "settings"))
        settings = {f.name: Some(1) if f.name == "freezing_threshold" else None for f in record.fields}
        update = {"canister_id": Principal(GATE), "settings": settings, "sender_canister_version": None}
        assert (await manage(ic, OWNER, "update_settings", update))[0] == "replied"


async def test_a_creator_past_its_share_is_an_ic_reject_and_other_creators_create():
    """Past --max-created-per-creator, a sender's create_canister over /api is a certified SYS_TRANSIENT
    reject naming the flag while another key creates; anonymous senders share one creator's share."""
    host = Host([spec("gate", "gate")], HostConfig(max_created_actors=10, max_created_per_creator=1))
    await host.start()
    try:
        async with serving(host, {"/api": build_ic_app}) as (_, ic):
            create = {"settings": None, "sender_canister_version": None}
            arg = management("create_canister", create)

            async def anonymous_create() -> tuple[bytes, bytes]:
                fields = {**content("call", method="create_canister", arg=arg), "canister_id": b""}
                _, answer = await post(ic, f"/api/v4/canister/{Principal(GATE)}/call", envelope(fields))
                path = (b"request_status", hash_of_map(fields))
                status = lookup(answer["certificate"], *path, b"status")
                return status, b"" if status == b"replied" else lookup(answer["certificate"], *path, b"reject_message")

            first, second = Ed25519Identity(), Ed25519Identity()
            assert (await manage(ic, first, "create_canister", create))[0] == "replied"
            fields = {**content("call", first.principal, method="create_canister", arg=arg), "canister_id": b""}
            _, answer = await post(ic, f"/api/v4/canister/{Principal(GATE)}/call", envelope(fields, first))
            path = (b"request_status", hash_of_map(fields))
            assert lookup(answer["certificate"], *path, b"error_code") == b"IC0201"
            assert b"(moxzid --max-created-per-creator 1)" in lookup(answer["certificate"], *path, b"reject_message")
            assert (await manage(ic, second, "create_canister", create))[0] == "replied"
            assert (await anonymous_create())[0] == b"replied"
            status, message = await anonymous_create()  # (another anonymous client: the same creator)
            assert status == b"rejected" and b"2vxsx-fae created 1" in message
    finally:
        await host.stop()


async def test_a_sender_past_its_calls_in_flight_is_refused_and_the_others_are_served():
    """Past --ic-max-calls-per-sender calls in flight (a v2 call is answered 202 and runs on), a sender's
    next call is a non-replicated SYS_TRANSIENT rejection naming the flag, and its query a signed
    SYS_TRANSIENT reject; another sender's call and query are taken, and once the actor's inbox is full
    (--max-queued-calls) a call is rejected as the IC rejects one to a full queue (IC0201). Every call
    taken completes."""
    lab = build_actor("lab")  # its spin loops until the instruction limit: about a second here
    host = Host(
        [ActorSpec("gate", lab.wasm, lab.did)],
        HostConfig(Limits(instructions_per_message=4 * 10**9), max_queued_calls=4),
    )
    await host.start()
    path = f"/api/v2/canister/{Principal(GATE)}/call"
    try:
        async with serving(host, {"/api": build_ic_app}, ic_max_calls_per_sender=3) as (_, ic):
            flooder, other, late = Ed25519Identity(), Ed25519Identity(), Ed25519Identity()
            taken = [content("call", flooder.principal, method=m) for m in ("spin", "inc", "inc")]
            for fields in taken:
                assert (await post(ic, path, envelope(fields, flooder)))[0] == 202
            status, answer = await post(ic, path, envelope(content("call", flooder.principal), flooder))
            assert status == 200 and answer["status"] == "non_replicated_rejection"
            assert (answer["reject_code"], answer["error_code"]) == (2, "IC0201")
            assert "--ic-max-calls-per-sender 3" in answer["reject_message"]
            query = envelope(content("query", flooder.principal, method="get"), flooder)
            status, answer = await post(ic, f"/api/v3/canister/{Principal(GATE)}/query", query)
            assert (answer["status"], answer["reject_code"]) == ("rejected", 2) and answer["signatures"]
            assert await count(ic) == 0  # an anonymous client's query is answered meanwhile

            taken.append(content("call", other.principal))
            assert (await post(ic, path, envelope(taken[-1], other)))[0] == 202
            full = content("call", late.principal)
            assert (await post(ic, path, envelope(full, late)))[0] == 202
            rejected = await request_status(ic, late, full)
            assert (rejected[b"status"], rejected[b"error_code"]) == (b"rejected", b"IC0201")
            assert b"--max-queued-calls 4" in rejected[b"reject_message"]

            statuses = [
                await request_status(ic, signer, fields) for signer, fields in zip([flooder] * 3 + [other], taken)
            ]
            assert [s[b"status"] for s in statuses] == [b"rejected", b"replied", b"replied", b"replied"]
            assert sorted(decode_args(s[b"reply"])[0] for s in statuses[1:]) == [1, 2, 3]
            assert (await post(ic, path, envelope(content("call", flooder.principal), flooder)))[0] == 202
    finally:
        await host.stop()


async def test_a_call_past_an_inbox_bytes_is_rejected_as_one_to_a_full_queue():
    """Past --max-queued-mb of calls from outside in the actor's inbox a call is rejected IC0201 naming
    the flag, as one past --max-queued-calls; those taken complete."""
    lab = build_actor("lab")
    host = Host(
        [ActorSpec("gate", lab.wasm, lab.did)],
        HostConfig(Limits(instructions_per_message=4 * 10**9), max_queued_bytes=1 << 20),
    )
    await host.start()
    path = f"/api/v2/canister/{Principal(GATE)}/call"
    big = encode_args([TEXT], ["x" * (400 << 10)])  # inc ignores it: two fit in 1 MiB, three do not
    try:
        async with serving(host, {"/api": build_ic_app}) as (_, ic):
            calls = [content("call", method="spin")] + [content("call", arg=big) for _ in range(3)]
            for fields in calls:
                assert (await post(ic, path, envelope(fields)))[0] == 202
            statuses = [await request_status(ic, None, fields) for fields in calls]
            assert [s[b"status"] for s in statuses] == [b"rejected", b"replied", b"replied", b"rejected"]
            assert sorted(decode_args(s[b"reply"])[0] for s in statuses[1:3]) == [1, 2]
            assert statuses[3][b"error_code"] == b"IC0201"
            assert b"--max-queued-mb 1" in statuses[3][b"reject_message"]
    finally:
        await host.stop()


async def request_status(ic, signer: Ed25519Identity | None, fields: dict) -> dict:
    """The ``request_status/<id>`` leaves of the call ``fields`` once it ended (polled over read_state)."""
    request_id = hash_of_map(fields)
    sender = ANONYMOUS if signer is None else signer.principal
    read = envelope(content("read_state", sender, paths=[[b"request_status", request_id]]), signer)
    for _ in range(500):
        _, answer = await post(ic, f"/api/v2/canister/{Principal(GATE)}/read_state", read)
        status = lookup(answer["certificate"], b"request_status", request_id, b"status")
        if status not in (None, b"processing"):
            return {
                label: lookup(answer["certificate"], b"request_status", request_id, label)
                for label in (b"status", b"reply", b"reject_code", b"reject_message", b"error_code")
            }
        await asyncio.sleep(0.01)
    raise AssertionError("the call did not end")


def test_request_statuses_past_their_capacity_forget_the_oldest_answered():
    """A sender making calls fast cannot fill the statuses and have everyone's calls refused: past the
    capacity the oldest answered request is forgotten; only requests all processing refuse a new one."""
    statuses = Statuses(capacity=3)
    later = time.time_ns() + 60 * 10**9
    first, second, third = (statuses.add(bytes([i]), ANONYMOUS, later, b"") for i in range(3))
    statuses.replied(first, b"one")
    third.status = "rejected"
    assert statuses.add(b"\x03", ANONYMOUS, later, b"") is not None
    assert statuses.get(b"\x00") is None and statuses.get(b"\x01") is second  # processing: kept
    assert statuses.add(b"\x04", ANONYMOUS, later, b"") is not None and statuses.get(b"\x02") is None
    assert statuses.add(b"\x05", ANONYMOUS, later, b"") is None  # \x01, \x03, \x04 are all processing


def delegated(fields: dict, owner: Ed25519Identity, session: Ed25519Identity, targets: list[bytes]) -> bytes:
    """An envelope ``owner`` sends through a delegation to the key ``session`` for ``targets`` only."""
    delegation = {"pubkey": session.der, "expiration": time.time_ns() + 10 * 60 * 10**9, "targets": targets}
    body = {
        "content": fields,
        "sender_pubkey": owner.der,
        "sender_sig": session.key.sign(b"\x0aic-request" + hash_of_map(fields)),
        "sender_delegation": [
            {"delegation": delegation, "signature": owner.key.sign(DELEGATION_DOMAIN + hash_of_map(delegation))}
        ],
    }
    return cbor2.dumps(body)


async def test_read_state_keeps_to_the_delegations_targets(ic):
    """A session key delegated for another canister reads neither this canister's private metadata nor
    the status of a request to it, as the spec requires; one delegated for it reads both."""
    call = content("call", OWNER.principal)
    assert (await post(ic, f"/api/v4/canister/{Principal(GATE)}/call", envelope(call, OWNER)))[0] == 200
    private = [b"canister", GATE, b"metadata", b"motoko:stable-types"]
    status_path = [b"request_status", hash_of_map(call)]
    other = actor_principal("elsewhere")
    session = Ed25519Identity()
    for url, paths in (
        (f"/api/v3/canister/{Principal(GATE)}/read_state", [private]),
        (f"/api/v3/canister/{Principal(GATE)}/read_state", [status_path]),
        (f"/api/v3/canister/{Principal(other)}/read_state", [status_path]),
    ):
        read = content("read_state", OWNER.principal, paths=paths)
        status, text = await post(ic, url, delegated(read, OWNER, session, [other]))
        assert status == 403 and "delegations do not allow" in text, (url, paths, status, text)
    read = content("read_state", OWNER.principal, paths=[private, status_path])
    url = f"/api/v3/canister/{Principal(GATE)}/read_state"
    status, answer = await post(ic, url, delegated(read, OWNER, session, [GATE]))
    assert status == 200 and lookup(answer["certificate"], *status_path, b"status") == b"replied"
    assert lookup(answer["certificate"], *private) is not None


async def test_a_management_call_runs_once_until_it_expires_restarts_included(host):
    """A captured signed update_settings resent after the IC interface restarted (its statuses gone)
    does not run again: its id is kept with the state until its ingress_expiry."""
    mallory = Ed25519Identity()
    controllers = {"canister_id": Principal(GATE), "sender_canister_version": None}

    def settings(*owners) -> bytes:
        fields = resolve(MANAGEMENT_SERVICE.methods["update_settings"].args[0]).fields
        record = resolve(next(f.type for f in fields if f.name == "settings"))
        given = {"controllers": Some([Principal(o.principal) for o in owners])}
        return management(
            "update_settings", {**controllers, "settings": {f.name: given.get(f.name) for f in record.fields}}
        )

    def captured(arg: bytes) -> tuple[dict, bytes]:
        fields = {**content("call", OWNER.principal, method="update_settings", arg=arg), "canister_id": b""}
        return fields, envelope(fields, OWNER)

    url = f"/api/v4/canister/{Principal(GATE)}/call"
    grant, grant_body = captured(settings(OWNER, mallory))
    async with serving(host, {"/api": build_ic_app}) as (_, ic):
        assert (await post(ic, url, grant_body))[1]["status"] == "replied"
        revoke = captured(settings(OWNER))[1]
        assert (await post(ic, url, revoke))[1]["status"] == "replied"
    assert host.info("gate").controllers == (OWNER.principal,)
    async with serving(host, {"/api": build_ic_app}) as (_, ic):  # a new IC interface: statuses gone
        status, answer = await post(ic, url, grant_body)
        assert (
            status == 200 and lookup(answer["certificate"], b"request_status", hash_of_map(grant), b"status") == b"done"
        )
    assert host.info("gate").controllers == (OWNER.principal,)  # mallory was not put back


async def test_a_management_call_must_name_the_urls_canister(ic):
    other = actor_principal("elsewhere")
    arg = management("canister_status", {"canister_id": Principal(GATE)})
    fields = {**content("call", OWNER.principal, method="canister_status", arg=arg), "canister_id": b""}
    status, text = await post(ic, f"/api/v4/canister/{Principal(other)}/call", envelope(fields, OWNER))
    assert status == 400 and "names canister" in text and "not the URL's effective canister id" in text
    status, answer = await post(ic, f"/api/v4/canister/{Principal(GATE)}/call", envelope(fields, OWNER))
    assert status == 200 and answer["status"] == "replied"


@pytest.mark.slow
def test_a_captured_management_call_does_not_run_again_after_moxzid_restarts(tmp_path):
    """With -s DIR, the ids of management calls are kept in the store: a signed update_settings that
    put a controller in, captured and resent after the controller was taken out and moxzid restarted,
    reads done and changes nothing."""
    owner, mallory = Ed25519Identity(), Ed25519Identity()
    project(tmp_path, "gate")

    def send(url: str, path: str, fields: dict) -> dict:
        sent = urllib.request.Request(
            url + path, data=envelope(fields, owner), headers={"Content-Type": "application/cbor"}
        )
        with urllib.request.urlopen(sent, timeout=60) as answer:
            return cbor2.loads(answer.read())

    def managed(method: str, value: dict, effective: Principal) -> tuple[dict, str]:
        """A management call's content, and the path it is sent to."""
        fields = {**content("call", owner.principal, method=method, arg=management(method, value)), "canister_id": b""}
        return fields, f"/api/v4/canister/{effective}/call"

    def settings(canister: Principal, *controllers: Ed25519Identity) -> dict:
        fields = resolve(MANAGEMENT_SERVICE.methods["update_settings"].args[0]).fields
        record = resolve(next(f.type for f in fields if f.name == "settings"))
        given = {"controllers": Some([Principal(c.principal) for c in controllers])}
        return {
            "canister_id": canister,
            "settings": {f.name: given.get(f.name) for f in record.fields},
            "sender_canister_version": None,
        }

    def status_of(answer: dict, fields: dict) -> bytes:
        return lookup(answer["certificate"], b"request_status", hash_of_map(fields), b"status")

    flags = ("-m", "actors.json", "-s", "state")
    with running_moxzid(*flags, plugins="http,ic,lmdb", cwd=tmp_path) as daemon:
        create, path = managed("create_canister", {"settings": None, "sender_canister_version": None}, Principal(GATE))
        answer = send(daemon.url, path, create)
        reply = lookup(answer["certificate"], b"request_status", hash_of_map(create), b"reply")
        canister = decode_args(reply, list(MANAGEMENT_SERVICE.methods["create_canister"].rets))[0]["canister_id"]
        grant, path = managed("update_settings", settings(canister, owner, mallory), canister)
        assert status_of(send(daemon.url, path, grant), grant) == b"replied"
        revoke, _ = managed("update_settings", settings(canister, owner), canister)
        assert status_of(send(daemon.url, path, revoke), revoke) == b"replied"
        assert daemon.stop() == 0
    with running_moxzid(*flags, plugins="http,ic,lmdb", cwd=tmp_path) as daemon:
        assert status_of(send(daemon.url, path, grant), grant) == b"done"  # the captured one, again
        read = content("read_state", owner.principal, paths=[[b"canister", canister.bytes, b"controllers"]])
        answer = send(daemon.url, f"/api/v3/canister/{canister}/read_state", read)
        assert cbor2.loads(lookup(answer["certificate"], b"canister", canister.bytes, b"controllers")) == [
            owner.principal
        ]
        assert daemon.stop() == 0


async def test_while_the_host_starts_calls_and_queries_answer_503_with_retry_after(monkeypatch):
    """moxzid serves before its actors are back (moxzi_core.runtime.restore): a call or query to one not
    back yet answers 503 with Retry-After and what it restores, nothing runs, and the status says
    ``starting``; once it is back both are served."""
    back, load = threading.Event(), Journal.load
    monkeypatch.setattr(Journal, "load", lambda journal, name: back.wait(60) and load(journal, name))
    built = build_actor("gate")
    host = Host([ActorSpec("gate", built.wasm, built.did)])
    async with serving(host, {"/api": build_ic_app}, max_message_bytes=LIMIT) as (_, ic):
        starting = asyncio.create_task(host.start())
        try:
            assert (await post_get(ic, "/api/v2/status"))[1]["replica_health_status"] == "starting"
            for kind in ("query", "call"):
                async with ic.post(
                    f"/api/v3/canister/{Principal(GATE)}/{kind}",
                    data=envelope(content(kind, method="get" if kind == "query" else "inc")),
                    headers={"content-type": "application/cbor"},
                ) as response:
                    assert response.status == 503 and response.headers["Retry-After"] == "1", kind
                    assert "restoring 1 of 1 actors" in await response.text(), kind
        finally:
            back.set()
            await starting
        try:
            assert (await post_get(ic, "/api/v2/status"))[1]["replica_health_status"] == "healthy"
            assert await count(ic) == 0  # the refused call did not run
        finally:
            await host.stop()
