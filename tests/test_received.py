"""The tables of signed requests' ids (moxzi_core.received): kept until they expire, so none runs twice,
and shared fairly, so that one key's flood, or an actor's controllers changed to key after key, cannot
have another's requests refused; an id forgotten to make room still never runs again."""

import time
from types import SimpleNamespace

import pytest
from aiohttp.test_utils import make_mocked_request
from cryptography.hazmat.primitives.asymmetric import ed25519
from kit.actorbuild import build_actor

from moxzi_core import signed_http
from moxzi_core.received import NotReceived, Received
from moxzi_core.runtime.host import ActorSpec, Host
from moxzi_core.signatures import Identity
from moxzi_core.store import MemoryStore
from moxzi_gateway_http.controllers import RECEIVED, Controllers, TooManySigned

PREFIX = b"ic/received/"


def _refused(received: Received, request_id: bytes, expiry_ns: int, key: bytes) -> str:
    """Why ``received`` does not keep the request (it must refuse it)."""
    with pytest.raises(NotReceived) as refused:
        received.receive(request_id, expiry_ns, key)
    return str(refused.value)


@pytest.fixture
def clock(monkeypatch) -> list[int]:
    """moxzi_core.received's time (ns), which moves only when the test moves it: an id that expires in
    0.2 s must not expire earlier because a busy machine paused the test for that long."""
    now = [time.time_ns()]
    monkeypatch.setattr("moxzi_core.received.time", SimpleNamespace(time_ns=lambda: now[0]))
    return now


def test_unexpired_ids_are_never_forgotten_but_a_key_holding_little_gets_its_share(clock):
    store = MemoryStore()
    received = Received(store, PREFIX, "management calls", capacity=6, per_key=4)
    soon, later = clock[0] + 2 * 10**8, clock[0] + 60 * 10**9
    received.receive(b"a", soon, b"x")
    for request_id in (b"b", b"c", b"d"):
        received.receive(request_id, later, b"x")
    assert "this sender has made 4" in _refused(received, b"e", later, b"x")  # x's quota is taken
    received.receive(b"e", later, b"y")
    received.receive(b"f", later, b"z")  # full
    # w holds nothing, less than its share: x, holding the most, loses its two oldest ids (its mark, the
    # last one's expiry, takes one entry) and w's request is kept.
    received.receive(b"g", later, b"w")
    assert not received.known(b"a") and not received.known(b"b") and received.known(b"c")
    assert "were forgotten to make room for others'" in _refused(received, b"b", later, b"x")  # b never runs again
    assert "holds its share of them (1)" in _refused(received, b"h", later, b"y")  # y holds its share
    restarted = Received(store, PREFIX, "management calls", capacity=6, per_key=4)  # read from the store
    assert restarted.known(b"g") and "were forgotten" in _refused(restarted, b"b", later, b"x")


def test_expired_ids_make_room(clock):
    store = MemoryStore()
    received = Received(store, PREFIX, "management calls", capacity=2)
    soon, later = clock[0] + 2 * 10**8, clock[0] + 60 * 10**9
    received.receive(b"a", soon, b"x")
    received.receive(b"b", later, b"y")
    assert "keeps the ids of 2" in _refused(received, b"c", later, b"z")  # no key holds more than z would
    clock[0] += 3 * 10**8
    received.receive(b"c", later, b"z")
    assert not received.known(b"a")  # "a" expired: room again
    assert store.get(PREFIX + b"a") is None


def _key() -> Identity:
    return Identity(ed25519.Ed25519PrivateKey.generate())


async def test_an_actors_controllers_cannot_crowd_out_another_actors_signed_requests():
    """The attack: one actor's controllers changed through key after key, each sending signed weights
    requests, filled the table, and another actor's controller got 429s for minutes. The ids count
    against the actor named: its own controllers' flood fills only its share."""
    flooders, owner = [_key() for _ in range(10)], _key()
    built = build_actor("counter")
    host = Host(
        [
            ActorSpec("a", built.wasm, built.did, controllers=tuple(k.principal for k in flooders)),
            ActorSpec("b", built.wasm, built.did, controllers=(owner.principal,)),
        ]
    )
    await host.start()
    try:
        controllers = Controllers(host)
        controllers.received = Received(host.store, RECEIVED, "signed requests", "actor", capacity=10)

        def request(identity: Identity, actor: str):
            auth = signed_http.authorization(identity, "GET", f"/weights/{actor}", {}, moxzid=controllers.moxzid_id)
            return make_mocked_request("GET", f"/weights/{actor}", headers={"Authorization": auth})

        first = request(flooders[0], "a")
        for n, identity in enumerate(flooders):  # one key each: no key holds more than another
            controllers.admit(first if n == 0 else request(identity, "a"), "a", "GET /weights/a")
        assert controllers.admit(request(owner, "b"), "b", "GET /weights/b").sender == owner.principal
        with pytest.raises(TooManySigned, match="this actor holds its share"):
            controllers.admit(request(flooders[3], "a"), "a", "GET /weights/a")
        with pytest.raises(TooManySigned, match="were forgotten to make room"):  # and still refused
            controllers.admit(first, "a", "GET /weights/a")
    finally:
        await host.stop()
