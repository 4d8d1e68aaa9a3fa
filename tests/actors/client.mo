// The bank's client for the cycles tests (tests/test_cycles.py): it attaches cycles to calls (to the
// bank, to an actor class's creation, to the management canister), and sees what came back.
import Cycles "mo:core/Cycles";
import Error "mo:core/Error";
import Principal "mo:core/Principal";
import Prim "mo:⛔";
import Timer "mo:core/Timer";
import Kid "Kid";

persistent actor Client {
  type Bank = actor {
    deposit : Nat -> async [Nat];
    depositThenTrap : () -> async Nat;
    depositThenReject : Nat -> async ();
    nothingHere : () -> async ();
    balance : query () -> async Nat;
  };
  type Management = actor {
    deposit_cycles : { canister_id : Principal } -> async ();
    canister_status : { canister_id : Principal } -> async { cycles : Nat };
    raw_rand : () -> async Blob;
  };
  transient let ic : Management = actor "aaaaa-aa";

  func bank(id : Principal) : Bank = actor (Principal.toText(id));

  // Offers `amount` to the bank, which keeps at most `limit`:
  // [the bank's answer..., Cycles.refunded(), balance before, balance after].
  public func give(to : Principal, amount : Nat, limit : Nat) : async [Nat] {
    let before = Cycles.balance();
    let answer = await (with cycles = amount) bank(to).deposit(limit);
    let refunded = Cycles.refunded();
    [answer[0], answer[1], answer[2], refunded, before, Cycles.balance()]
  };

  // The same with the old spelling, Cycles.add (ExperimentalCycles.add is Prim.cyclesAdd).
  public func giveAdded(to : Principal, amount : Nat, limit : Nat) : async [Nat] {
    Prim.cyclesAdd<system>(amount);
    let answer = await bank(to).deposit(limit);
    [answer[1], Cycles.refunded(), Cycles.balance()]
  };

  // Offers `amount` to a method that traps, rejects after keeping `keep`, or does not exist:
  // [Cycles.refunded(), balance after] and how the call failed.
  public func giveRejected(to : Principal, amount : Nat, how : Text, keep : Nat) : async ([Nat], Text) {
    let b = bank(to);
    let message = try {
      if (how == "trap") { ignore await (with cycles = amount) b.depositThenTrap() }
      else if (how == "reject") { await (with cycles = amount) b.depositThenReject(keep) }
      else { await (with cycles = amount) b.nothingHere() };
      "answered"
    } catch (e) { Error.message(e) };
    ([Cycles.refunded(), Cycles.balance()], message)
  };

  // A query method called from an update runs as a query and keeps nothing: all comes back.
  public func giveToQuery(to : Principal, amount : Nat) : async [Nat] {
    ignore await (with cycles = amount) bank(to).balance();
    [Cycles.refunded(), Cycles.balance()]
  };

  // Attaches more than the balance: traps in Cycles.add, before anything is sent.
  public func giveTooMuch(to : Principal) : async [Nat] {
    let answer = await (with cycles = Cycles.balance() + 1) bank(to).deposit(0);
    answer
  };

  // Keeps everything offered (the bank pays through this).
  public func receive() : async Nat { Cycles.accept<system>(Cycles.available()) };

  // An actor class made with `amount` cycles: its principal, and the cycles canister_status shows.
  public func spawn(amount : Nat) : async (Principal, Nat) {
    let kid = await (with cycles = amount) Kid.Kid(1);
    let id = Principal.fromActor(kid);
    (id, (await ic.canister_status({ canister_id = id })).cycles)
  };

  public func depositTo(to : Principal, amount : Nat) : async [Nat] {
    await (with cycles = amount) ic.deposit_cycles({ canister_id = to });
    [Cycles.refunded(), Cycles.balance()]
  };

  // A management method that takes no cycles gives them all back.
  public func randWithCycles(amount : Nat) : async [Nat] {
    ignore await (with cycles = amount) ic.raw_rand();
    [Cycles.refunded(), Cycles.balance()]
  };

  public func burn(amount : Nat) : async Nat { Cycles.burn<system>(amount) };

  public query func balance() : async Nat { Cycles.balance() };

  // A timer-driven loop for the crash test: each step offers the bank cycles it keeps part of, or
  // offers them to a method that traps (all come back), or deposits some through the management
  // canister. The balances at the end depend only on how many steps ran.
  var step = 0;
  var target = 0;
  var peer : ?Principal = null;
  transient var scheduled = false;

  func schedule<system>() {
    if (scheduled or step >= target) return;
    scheduled := true;
    ignore Timer.setTimer<system>(#seconds 0, func() : async () {
      scheduled := false;
      switch (peer) {
        case (?p) {
          let amount = 1_000 + step;
          if (step % 4 == 3) {
            await (with cycles = amount) ic.deposit_cycles({ canister_id = p });
          } else if (step % 4 == 2) {
            try { ignore await (with cycles = amount) bank(p).depositThenTrap() } catch (_) {};
          } else {
            ignore await (with cycles = amount) bank(p).deposit(step * 7);
          };
        };
        case null {};
      };
      step += 1;
      schedule<system>();
    });
  };

  public func run(until : Nat, p : Principal) : async () {
    target := until;
    peer := ?p;
    schedule<system>();
  };

  public query func status() : async (Nat, Nat) { (step, Cycles.balance()) };

  schedule<system>();
};
