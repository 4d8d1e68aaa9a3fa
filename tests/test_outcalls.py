"""HTTPS outcalls (the management canister's http_request) from a compiled Motoko actor
(tests/actors/outcaller.mo) to a small aiohttp server on 127.0.0.1, which moxzid reaches only where
the test allows it (``--http-outcalls-allow``): GET, HEAD and POST, transforms, the IC's rejects, the
bounds, the fee, and an answer recorded so that a restart never asks the server again."""

import asyncio
import socket
import threading

import pytest
from aiohttp import web
from kit.actorbuild import build_actor
from kit.crashing import call
from kit.daemon import project, running_moxzid
from kit.host import eventually, query

from moxzi_core.billing import DefaultPrices, Ledger
from moxzi_core.candid import BLOB, NAT, NAT64, NULL, TEXT, Opt, Some, Variant, decode_args, encode_args
from moxzi_core.runtime.engine import Limits
from moxzi_core.runtime.host import ActorSpec, Host, HostConfig
from moxzi_core.runtime.journal import Journal
from moxzi_core.runtime.management.interface import MANAGEMENT_NAME, SERVICE
from moxzi_core.runtime.management.outcalls import fee
from moxzi_core.runtime.management.web import OutcallConfig, OutcallFailed, Web
from moxzi_core.runtime.messages import Reject
from moxzi_core.store import MemoryStore

ALLOWED = OutcallConfig(allow=frozenset({"127.0.0.1"}))
FETCH = [TEXT, Variant({"get": NULL, "head": NULL, "post": NULL}), Opt(BLOB), Opt(NAT64), TEXT, NAT]


class Site:
    """A web server on 127.0.0.1 that records the requests it gets: /page says hello, /echo answers
    what was posted, /big is 5000 bytes, /headers has 70 headers, /slow takes 10 s, /held waits for ``release``."""

    def __init__(self):
        self.hits: list[tuple[str, str, str | None, bytes]] = []
        self.release = asyncio.Event()

    async def __aenter__(self):
        app = web.Application()
        app.router.add_route("*", "/{path:.*}", self.handle)
        self.runner = web.AppRunner(app)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        self.url = f"http://127.0.0.1:{self.runner.addresses[0][1]}"
        return self

    async def __aexit__(self, *_):
        self.release.set()
        await self.runner.cleanup()

    async def handle(self, request: web.Request) -> web.Response:
        body = await request.read()
        self.hits.append((request.method, request.path, request.headers.get("x-test"), body))
        if request.path == "/big":
            return web.Response(body=b"x" * 5000)
        if request.path == "/slow":
            await asyncio.sleep(10)
        if request.path == "/held":
            await self.release.wait()
        if request.path == "/headers":
            return web.Response(text="many", headers={f"x-{i}": "y" for i in range(70)})
        if request.path == "/echo":
            return web.Response(text=f"posted {body.decode()}")
        return web.Response(text="hello")


async def started(config=ALLOWED, store=None, ledger=None, limits=Limits()) -> Host:
    built = build_actor("outcaller")
    store = store or (ledger.store if ledger else MemoryStore())
    spec = ActorSpec("outcaller", built.wasm, built.did)
    host = Host([spec], HostConfig(limits, outcalls=config), store=store, ledger=ledger)
    await host.start()
    return host


async def fetch(host, url, method="get", body=None, limit=None, transform="", cycles=0) -> str:
    values = [url, {method: None}, None if body is None else Some(body), None if limit is None else Some(limit)]
    arg = encode_args(FETCH, [*values, transform, cycles])
    outcome = await host.call("outcaller", "fetch", arg, query=False)
    assert outcome.reply is not None, outcome.reject_message
    return decode_args(outcome.reply, [TEXT])[0]


async def test_get_head_and_post_reach_the_page_through_a_transform_that_strips_headers():
    async with Site() as site:
        host = await started()
        try:
            assert await fetch(host, site.url + "/page", transform="strip") == "200 0 ctx:hello"
            plain = (await fetch(host, site.url + "/page")).split(" ")
            assert plain[0] == "200" and int(plain[1]) >= 3 and plain[2] == "hello"  # the server's headers
            assert (await fetch(host, site.url + "/page", "head")).endswith(" ")  # a HEAD has no body
            assert await fetch(host, site.url + "/echo", "post", b"some data", transform="strip") == (
                "200 0 ctx:posted some data"
            )
            assert [hit[:3] for hit in site.hits] == [
                ("GET", "/page", "moxzi"),
                ("GET", "/page", "moxzi"),
                ("HEAD", "/page", "moxzi"),
                ("POST", "/echo", "moxzi"),
            ]
            assert site.hits[3][3] == b"some data"
        finally:
            await host.stop()


async def test_the_ics_rejects():
    async with Site() as site:
        host = await started(OutcallConfig(allow=frozenset({"127.0.0.1"}), timeout_secs=1))
        try:
            too_large = await fetch(host, site.url + "/big", limit=1000)
            assert too_large == "reject #system_fatal: Http body exceeds size limit of 1000 bytes."
            ceiling = await fetch(host, site.url + "/big", limit=2_000_001)
            assert ceiling.startswith("reject #canister_reject: max_response_bytes expected to be in the range")
            headers = await fetch(host, site.url + "/headers")
            assert headers.startswith("reject #system_fatal: the response has 7") and "limits are 64 headers" in headers
            traps = await fetch(host, site.url + "/page", transform="boom")
            assert traps.startswith("reject #canister_error: ") and "the transform trapped" in traps
            assert await fetch(host, site.url + "/slow") == "reject #system_transient: Timeout expired (1 s)"
            with socket.socket() as closed:  # bound, not listening: nothing answers, nor may bind it meanwhile
                closed.bind(("127.0.0.1", 0))
                unreachable = await fetch(host, f"http://127.0.0.1:{closed.getsockname()[1]}/")
            assert unreachable.startswith("reject #system_transient: Connecting to 127.0.0.1 failed")
            long_url = await fetch(host, site.url + "/" + "a" * 8200)
            assert long_url.startswith("reject #canister_reject: url is too long")
            not_http = await fetch(host, "ftp://127.0.0.1/file")
            assert not_http.startswith("reject #system_fatal: the URL must be http:// or https://")
            assert [hit[1] for hit in site.hits] == ["/big", "/headers", "/page", "/slow"]  # not those refused first
        finally:
            await host.stop()


async def test_private_addresses_are_refused_unless_allowed_and_off_refuses_all():
    async with Site() as site:
        for config, code in ((OutcallConfig(), "system_fatal"), (OutcallConfig(enabled=False), "canister_reject")):
            host = await started(config)
            try:
                for url in (site.url + "/page", site.url.replace("127.0.0.1", "localhost") + "/page"):
                    assert (await fetch(host, url)).startswith(f"reject #{code}: ")
            finally:
                await host.stop()
        host = await started()
        try:
            refused = await fetch(host, "http://[::1]:1/page")  # 127.0.0.1 is allowed, not ::1
            assert (
                refused.startswith("reject #system_fatal: ::1 resolves to ::1") and "--http-outcalls-allow" in refused
            )
        finally:
            await host.stop()
        assert site.hits == []


async def test_only_canisters_make_outcalls_and_each_is_bounded_in_number():
    async with Site() as site:
        host = await started(OutcallConfig(allow=frozenset({"127.0.0.1"}), max_in_flight_per_actor=1))
        try:
            argument = {
                "url": site.url,
                "max_response_bytes": None,
                "method": {"get": None},
                "headers": [],
                "body": None,
                "transform": None,
                "is_replicated": None,
            }
            arg = encode_args(list(SERVICE.methods["http_request"].args), [argument])
            outside = await host.call(MANAGEMENT_NAME, "http_request", arg, query=False)
            assert outside.reject_code == Reject.CANISTER_REJECT
            assert outside.reject_message == "http_request can be called by canisters only"
            held = asyncio.create_task(fetch(host, site.url + "/held"))
            await eventually(lambda: _true(len(site.hits) == 1))
            busy = await fetch(host, site.url + "/page")
            assert busy.startswith("reject #system_transient: too many HTTPS outcalls in flight")
            site.release.set()
            assert (await held).startswith("200 ")
            assert (await fetch(host, site.url + "/page")).startswith("200 ")  # its slot is free again
        finally:
            await host.stop()


async def _true(value: bool) -> bool:
    return value


async def test_the_fee_is_the_ics_and_what_is_left_goes_back():
    async with Site() as site:
        store = MemoryStore()
        host = await started(ledger=Ledger(store, DefaultPrices(), 10**12))
        try:
            url = site.url + "/page"
            cost = fee(len(url) + len("x-test") + len("moxzi") + len("strip") + len("ctx:"), 2_000_000)
            assert cost == 49_140_000 + 5_200 * (len(url) + 20) + 10_400 * 2_000_000
            short = await fetch(host, url, transform="strip", cycles=cost - 1)
            assert (
                short
                == f"reject #canister_reject: http_request request sent with {cost - 1} cycles, but {cost} cycles are required."
            )
            assert host.ledger.balance("outcaller") == 10**12 and site.hits == []
            assert await fetch(host, url, transform="strip", cycles=cost + 12345) == "200 0 ctx:hello"
            assert host.ledger.balance("outcaller") == 10**12 - cost
            assert host.ledger.spent("outcaller") == cost
            # A request made costs its fee whatever comes back, as on the IC: here a response too large.
            small = fee(len(site.url + "/big") + len("x-test") + len("moxzi"), 1000)
            too_large = await fetch(host, site.url + "/big", limit=1000, cycles=small)
            assert too_large == "reject #system_fatal: Http body exceeds size limit of 1000 bytes."
            assert host.ledger.balance("outcaller") == 10**12 - cost - small
        finally:
            await host.stop()


async def test_an_answer_is_recorded_and_a_restart_never_fetches_again():
    """The outcall's answer waits in the actor's inbox behind a long message when moxzid stops (as after
    a crash); the restarted actor runs it from the record, and the server is asked once."""
    long = Limits(instructions_per_message=6_000_000_000)  # after the restart, the long message: ~2 s, then a trap
    async with Site() as site:
        store = MemoryStore()
        # Before the stop, a limit of hours: on a machine quick enough to reach 6e9 instructions in the 0.3 s
        # below, the message would have ended (trapped) before the stop, taking the answer out of the inbox.
        host = await started(store=store, limits=Limits(instructions_per_message=10**15))
        try:
            asyncio.create_task(fetch(host, site.url + "/held", transform="strip"))
            await eventually(lambda: _true(len(site.hits) == 1))
            spin = asyncio.create_task(host.call("outcaller", "spin", encode_args([NAT], [10**13]), query=False))
            await asyncio.sleep(0.3)  # the long message runs
            site.release.set()
            await eventually(lambda: _true(not Journal(store).load("outcaller").pending))
        finally:
            await host.stop()
        spin.cancel()
        saved = Journal(store).load("outcaller")
        assert [record[0] for _, record in saved.inbox] == ["call", "response"]
        host = await started(store=store, limits=long)
        try:
            await eventually(lambda: _last_is(host, "200 0 ctx:hello"), seconds=60)
        finally:
            await host.stop()
        assert len(site.hits) == 1


async def _last_is(host, expected: str) -> bool:
    return (await query(host, "outcaller", "lastResult", rets=(TEXT,)))[0] == expected


@pytest.mark.parametrize("value", ["maybe", ""])
def test_the_switch_takes_on_or_off(value):
    from moxzi_core.runtime.management.outcalls_settings import SETTINGS

    assert SETTINGS[0].check(value) == "give on or off"
    assert SETTINGS[0].check("off") is None


def _resolving(monkeypatch, *answers: list[str]):
    """Make the event loop's name lookups answer ``answers`` in turn (the last one from then on)."""
    loop, left = asyncio.get_running_loop(), list(answers)

    async def getaddrinfo(host, port, **_):
        addresses = left.pop(0) if len(left) > 1 else left[0]
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port)) for address in addresses]

    monkeypatch.setattr(loop, "getaddrinfo", getaddrinfo)


async def test_every_address_a_name_resolves_to_is_checked(monkeypatch):
    _resolving(monkeypatch, ["93.184.216.34", "10.1.2.3"])
    with pytest.raises(OutcallFailed) as refused:
        await Web(OutcallConfig()).fetch("GET", "http://two-faced.test/", [], b"", 1000)
    assert refused.value.code == Reject.SYS_FATAL and "resolves to 10.1.2.3" in refused.value.message


async def test_the_connection_goes_to_the_address_checked(monkeypatch):
    """A name that resolves to an allowed address when checked and to another one afterwards (DNS
    rebinding) is still fetched from the address checked."""
    async with Site() as site:
        _resolving(monkeypatch, ["127.0.0.1"], ["10.9.9.9"])
        port = site.url.rsplit(":", 1)[1]
        web_ = Web(OutcallConfig(allow=frozenset({"127.0.0.1"}), timeout_secs=5))
        fetched = await web_.fetch("GET", f"http://rebinding.test:{port}/page", [], b"", 10_000)
        assert (fetched.status, fetched.body) == (200, b"hello")
        assert [hit[1] for hit in site.hits] == ["/page"]


@pytest.mark.slow
def test_moxzid_makes_outcalls_to_the_hosts_allowed(tmp_path):
    """One daemon: --http-outcalls-allow 127.0.0.1 lets the actor reach the test's server."""

    async def serve(ready: asyncio.Future, done: asyncio.Event):
        async with Site() as site:
            ready.set_result(site)
            await done.wait()

    loop = asyncio.new_event_loop()
    ready, done = loop.create_future(), asyncio.Event()
    serving = threading.Thread(target=loop.run_until_complete, args=(serve(ready, done),))
    serving.start()
    try:
        site = asyncio.run_coroutine_threadsafe(asyncio.wait_for(asyncio.shield(ready), 10), loop).result()
        project(tmp_path, "outcaller")
        flags = ("-m", "actors.json", "--http-outcalls-allow", "127.0.0.1")
        with running_moxzid(*flags, cwd=tmp_path) as daemon:
            args = [site.url + "/echo", {"post": None}, "aGk=", None, "strip", 0]  # "hi", base64
            assert call(daemon, "call-json/outcaller/fetch", args) == ["200 0 ctx:posted hi"]
            daemon.process.terminate()
    finally:
        loop.call_soon_threadsafe(done.set)
        serving.join(10)
    assert [hit[:2] for hit in site.hits] == [("POST", "/echo")]
