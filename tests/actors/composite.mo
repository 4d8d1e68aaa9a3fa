// A test actor for composite queries: `sum` adds its own number to the numbers other actors' queries
// answer, awaiting each in turn, all within one query that leaves no trace.
import Principal "mo:core/Principal";
import Prim "mo:⛔";

persistent actor {
  var n : Nat = 0;

  public func set(v : Nat) : async () { n := v };

  public query func get() : async Nat { n };

  // A long update that changes state first (or, past its instruction limit, traps): composite queries
  // meanwhile, its own and those calling it, must not see the change.
  public func setThenLoop(v : Nat, rounds : Nat) : async () {
    n := v;
    var i = 0;
    while (i < rounds) { i += 1 };
  };

  public composite query func sum(peers : [Principal]) : async Nat {
    var total = n;
    for (peer in peers.vals()) {
      let other : actor { get : shared query () -> async Nat } = actor (Principal.toText(peer));
      total += await other.get();
    };
    n += 1000; // rolled back, like any query's change
    total
  };

  // What the peer's `version` query answers (lab_v2 has one, lab none).
  public composite query func versionOf(peer : Principal) : async Text {
    let other : actor { version : shared query () -> async Text } = actor (Principal.toText(peer));
    await other.version()
  };

  // Has `there` call `bounce` back here, and so on, `k` calls deep (this actor's replicas answer the
  // calls that come back): `k`.
  public composite query func bounce(here : Principal, there : Principal, k : Nat) : async Nat {
    if (k == 0) return 0;
    let other : actor { bounce : shared composite query (Principal, Principal, Nat) -> async Nat } = actor (Principal.toText(there));
    1 + (await other.bounce(there, here, k - 1 : Nat))
  };

  // A composite query calling composite queries in turn.
  public composite query func sumOfSums(peer : Principal, peers : [Principal]) : async Nat {
    let other : actor { sum : shared composite query [Principal] -> async Nat } = actor (Principal.toText(peer));
    n + (await other.sum(peers))
  };

  type Burner = actor { burn : shared query Nat -> async Nat64; get : shared query () -> async Nat; spin : shared query () -> async () };

  func burner(peer : Principal) : Burner = actor (Principal.toText(peer));

  // Loops `rounds` times; answers the instructions it ran.
  public query func burn(rounds : Nat) : async Nat64 {
    var i = 0;
    while (i < rounds) { i += 1 };
    Prim.performanceCounter(0)
  };

  // Never answers: runs until its instruction limit.
  public query func spin() : async () { loop {} };

  // Calls the peer's `burn` `times` times in turn: one call graph, so one instruction budget for all.
  public composite query func burnAt(peer : Principal, rounds : Nat, times : Nat) : async Nat {
    var k = 0;
    while (k < times) {
      ignore await burner(peer).burn(rounds);
      k += 1;
    };
    times
  };

  // Has `via` call the peer's `burn` (a composite query calling a query), then calls it itself.
  public composite query func burnVia(via : Principal, peer : Principal, rounds : Nat) : async Nat {
    let other : actor { burnAt : shared composite query (Principal, Nat, Nat) -> async Nat } = actor (Principal.toText(via));
    ignore await other.burnAt(peer, rounds, 1);
    ignore await burner(peer).burn(rounds);
    2
  };

  // Makes two calls but awaits only the first, so it answers while the second is outstanding: the
  // second (which would spin to the limit) is then dropped, as the IC drops it.
  public composite query func first(peer : Principal) : async Nat {
    let answer = burner(peer).get();
    ignore burner(peer).spin();
    await answer
  };
};
