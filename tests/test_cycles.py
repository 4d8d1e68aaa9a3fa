"""Cycles moving between actors, as on the IC, with real compiled Motoko actors in both persistence modes:
a wallet-style bank (tests/actors/bank.mo) and its client (tests/actors/client.mo). Cycles attached to a
call leave the caller's balance, the callee sees them (Cycles.available) and keeps what it accepts; the
rest comes back with the answer (Cycles.refunded); a trap or a call that never runs gives back all of
it. An actor class made with cycles starts with them, deposit_cycles gives them, canister_status shows
the balance, and every number is the ledger's (moxzi_core.billing)."""

import pytest
from kit import host as kit_host
from kit.actorbuild import build_actor

from moxzi_core.billing import MAX_BALANCE, DefaultPrices, Ledger
from moxzi_core.candid import NAT, PRINCIPAL, TEXT, Principal, Some, Vec, decode_args, encode_args
from moxzi_core.runtime.host import Host, actor_principal
from moxzi_core.runtime.management.interface import MANAGEMENT_NAME, SERVICE
from moxzi_core.store import MemoryStore

INITIAL = 10**12  # every manifest actor starts with this many (--cycles)
NATS = Vec(NAT)
BANK = Principal(actor_principal("bank"))
OUTSIDE = bytes(range(1, 30))  # a caller outside, as a signed request has


@pytest.fixture(params=[False, True], ids=["enhanced", "classic"])
def classic(request):
    return request.param


async def started(classic: bool, initial: int = INITIAL) -> Host:
    store = MemoryStore()
    specs = [kit_host.spec(name, name, classic=classic) for name in ("bank", "client")]
    host = Host(specs, store=store, ledger=Ledger(store, DefaultPrices(), initial))
    await host.start()
    return host


async def update(host, actor, method, types=(), values=(), rets=(NATS,)):
    """kit.host.update, whose answers here are most often a vec nat."""
    return await kit_host.update(host, actor, method, types, values, rets)


async def balances(host) -> dict[str, int]:
    """Each actor's balance as its own Cycles.balance() sees it, which must be the ledger's."""
    seen = {}
    for name in ("bank", "client"):
        (seen[name],) = await kit_host.query(host, name, "balance")
        assert seen[name] == host.ledger.balance(name)
    return seen


async def test_the_callee_keeps_what_it_accepts_and_the_rest_is_refunded(classic):
    host = await started(classic)
    try:
        assert await balances(host) == {"bank": INITIAL, "client": INITIAL}
        (answer,) = await update(host, "client", "give", [PRINCIPAL, NAT, NAT], [BANK, 1000, 600])
        # The bank saw 1000 on offer, kept 600 (400 left on offer); 400 came back, after the answer.
        assert answer == [1000, 600, 400, 400, INITIAL, INITIAL - 600]
        assert await balances(host) == {"bank": INITIAL + 600, "client": INITIAL - 600}
        # Offered less than the bank would keep: it keeps all, nothing comes back.
        (answer,) = await update(host, "client", "give", [PRINCIPAL, NAT, NAT], [BANK, 50, 600])
        assert answer == [50, 50, 0, 0, INITIAL - 600, INITIAL - 650]
        # Cycles.add (Prim.cyclesAdd, the old spelling) attaches them the same way.
        (answer,) = await update(host, "client", "giveAdded", [PRINCIPAL, NAT, NAT], [BANK, 500, 100])
        assert answer == [100, 400, INITIAL - 750]
        # The bank pays the client back; the client keeps all it is offered.
        client = Principal(actor_principal("client"))
        assert await update(host, "bank", "pay", [PRINCIPAL, NAT], [client, 250]) == [[250, 0]]
        assert await balances(host) == {"bank": INITIAL + 500, "client": INITIAL - 500}
        assert host.ledger.spent("bank") == host.ledger.spent("client") == 0  # moved, not spent
    finally:
        await host.stop()


async def test_a_trap_or_a_call_that_never_runs_refunds_everything(classic):
    host = await started(classic)
    try:
        # Motoko reports no refund after a failed await (Cycles.refunded() is 0 in the catch: its
        # prelude resets it on an error), but the balance has them back.
        rets = (NATS, TEXT)
        args = [PRINCIPAL, NAT, TEXT, NAT]
        refunded, message = await update(host, "client", "giveRejected", args, [BANK, 700, "trap", 0], rets)
        assert refunded == [0, INITIAL] and "the bank is closed" in message  # its accept went with the trap
        refunded, message = await update(host, "client", "giveRejected", args, [BANK, 700, "missing", 0], rets)
        assert refunded == [0, INITIAL] and "has no method 'nothingHere'" in message
        assert await balances(host) == {"bank": INITIAL, "client": INITIAL}
        # A reject is the callee's answer: what it accepted before rejecting it keeps, as on the IC.
        refunded, message = await update(host, "client", "giveRejected", args, [BANK, 700, "reject", 300], rets)
        assert refunded == [0, INITIAL - 300] and message == "no receipt"
        assert await balances(host) == {"bank": INITIAL + 300, "client": INITIAL - 300}
        # A query method keeps nothing it accepts, as the IC's replicated query (it refunds all).
        assert await update(host, "client", "giveToQuery", [PRINCIPAL, NAT], [BANK, 90]) == [[90, INITIAL - 300]]
        # More than the balance traps in Cycles.add: nothing is sent, nothing moves.
        outcome = await host.call("client", "giveTooMuch", encode_args([PRINCIPAL], [BANK]), query=False)
        assert outcome.reply is None and "call_cycles_add128: adding" in outcome.reject_message
        assert await balances(host) == {"bank": INITIAL + 300, "client": INITIAL - 300}
    finally:
        await host.stop()


async def test_an_actor_class_made_with_cycles_starts_with_them(classic):
    host = await started(classic)
    try:
        kid, shown = await update(host, "client", "spawn", [NAT], [5000], rets=(PRINCIPAL, NAT))
        assert shown == 5000 == host.ledger.balance(kid.to_text())  # canister_status shows the ledger's
        assert host.ledger.balance("client") == INITIAL - 5000
        # deposit_cycles gives the target what is attached; raw_rand takes none and gives them back.
        assert await update(host, "client", "depositTo", [PRINCIPAL, NAT], [kid, 123]) == [[0, INITIAL - 5123]]
        assert host.ledger.balance(kid.to_text()) == 5123
        assert await update(host, "client", "randWithCycles", [NAT], [77]) == [[77, INITIAL - 5123]]
        # Burned cycles leave the balance and count as spent.
        assert await update(host, "client", "burn", [NAT], [10], rets=(NAT,)) == [10]
        assert (host.ledger.balance("client"), host.ledger.spent("client")) == (INITIAL - 5133, 10)
    finally:
        await host.stop()


async def test_a_balance_never_passes_the_most_an_actor_may_hold(classic):
    host = await started(classic)
    try:
        host.ledger.add("bank", MAX_BALANCE - INITIAL - 100)
        (answer,) = await update(host, "client", "give", [PRINCIPAL, NAT, NAT], [BANK, 1000, 1000])
        assert answer[:4] == [1000, 100, 900, 900]  # the bank could take only 100 more
        assert host.ledger.balance("bank") == MAX_BALANCE
        assert host.ledger.balance("client") == INITIAL - 100
    finally:
        await host.stop()


async def test_without_cycles_to_give_nothing_can_be_attached(classic):
    host = await started(classic, initial=0)  # moxzid without --cycles: balances are 0
    try:
        assert await balances(host) == {"bank": 0, "client": 0}
        outcome = await host.call("client", "give", encode_args([PRINCIPAL, NAT, NAT], [BANK, 1, 0]), query=False)
        assert outcome.reply is None and "call_cycles_add128: adding 1 cycles, but the balance is 0" in (
            outcome.reject_message
        )
        assert host.ledger.accounts() == {}
    finally:
        await host.stop()


async def test_cycles_an_upgrade_hook_burns_are_spent(classic):
    host = await started(classic)
    try:
        await host.upgrade("bank", build_actor("bank", classic=classic).wasm)
        assert (host.ledger.balance("bank"), host.ledger.spent("bank")) == (INITIAL - 7, 7)
    finally:
        await host.stop()


async def test_a_canister_made_from_outside_mints_no_cycles(classic):
    """While moxzid charges, a caller outside (who has no balance) creates canisters with none:
    provisional_create_canister_with_cycles naming an amount is refused, and one without starts at 0,
    not at --cycles (else create, deposit, delete would make cycles without end)."""
    host = await started(classic)
    try:
        method = "provisional_create_canister_with_cycles"
        types = list(SERVICE.methods[method].args)

        async def create(amount):
            fields = {"amount": amount, "settings": None, "specified_id": None, "sender_canister_version": None}
            arg = encode_args(types, [fields])
            return await host.call(MANAGEMENT_NAME, method, arg, query=False, caller=OUTSIDE)

        for amount in (Some(777), Some(2**127)):
            refused = await create(amount)
            assert refused.reply is None and "creating a canister does not make them" in refused.reject_message
        (made,) = decode_args((await create(None)).reply, list(SERVICE.methods[method].rets))
        assert host.ledger.balance(made["canister_id"].to_text()) == 0
        plain = encode_args(
            list(SERVICE.methods["create_canister"].args), [{"settings": None, "sender_canister_version": None}]
        )
        outcome = await host.call(MANAGEMENT_NAME, "create_canister", plain, query=False, caller=OUTSIDE)
        (made,) = decode_args(outcome.reply, list(SERVICE.methods["create_canister"].rets))
        assert host.ledger.balance(made["canister_id"].to_text()) == 0
    finally:
        await host.stop()
