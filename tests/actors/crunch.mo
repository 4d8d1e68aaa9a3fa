// A timer-driven workload for crash tests: each timer callback does a batch of arithmetic, then
// (if it has a peer) awaits a call to the peer and folds the answer in. Deterministic: the final
// numbers depend only on how many batches ran, never on when.
import Timer "mo:core/Timer";
import Principal "mo:core/Principal";

persistent actor {
  var acc : Nat64 = 1;
  var step = 0;
  var target = 0;
  var peer : ?Principal = null;
  transient var scheduled = false;

  type Peer = actor { bump : (Nat64) -> async Nat64 };

  func schedule<system>() {
    if (scheduled or step >= target) return;
    scheduled := true;
    ignore Timer.setTimer<system>(#seconds 0, func() : async () {
      scheduled := false;
      var k = 0;
      while (k < 20_000) {
        acc := acc *% 6364136223846793005 +% 1442695040888963407;
        k += 1;
      };
      switch (peer) {
        case (?p) { acc ^= await (actor (Principal.toText(p)) : Peer).bump(acc) };
        case null {};
      };
      step += 1;
      schedule<system>();
    });
  };

  public func run(until : Nat, p : ?Principal) : async () {
    target := until;
    peer := p;
    schedule<system>();
  };

  // The peer's side: fold the caller's number into this actor's own.
  public func bump(x : Nat64) : async Nat64 {
    acc := (acc ^ x) *% 1099511628211;
    acc
  };

  public query func status() : async (Nat, Nat64) { (step, acc) };

  // After an upgrade the body runs again and re-arms the loop (timers do not survive upgrades).
  schedule<system>();
};
