// A composite query calling its own actor's queries: each call sees the actor's committed state, not
// what the composite query changed so far, and the composite query keeps its own changes across its
// awaits; none of it is kept after.
import Prim "mo:⛔";

persistent actor {
  var state = 0;

  public func set(n : Nat) : async () { state := n };

  public query func peek() : async Nat {
    let seen = state;
    state += 10;
    seen
  };

  public composite query func peekTwice() : async (Nat, Nat) {
    state += 100;
    let first = await peek();
    (first, await peek())
  };

  public composite query func show() : async () {
    state += 1;
    let a = await peek();
    state += 1;
    let (b, c) = await peekTwice();
    Prim.debugPrint(debug_show { a; b; c; mine = state });
  };
};

//CALL ingress set 0x4449444C00017D05
//CALL query show 0x4449444C0000
//CALL query peek 0x4449444C0000
