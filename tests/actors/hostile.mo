// What a hostile (or careless) actor can ask of moxzid: replies that are large to turn into JSON,
// messages that grow memory by a lot, then trap, and a large heap that queries run on. tests/test_hostile.py and bench/hostile.py use it.
import Prim "mo:⛔";

persistent actor {
  var kept : [var Nat8] = [var];
  var count : Nat = 0;

  // A reply of `n` variants (a byte each on the wire, a JSON object each): slow to decode.
  public query func variants(n : Nat) : async [{ #a; #b : Nat8 }] {
    Prim.Array_tabulate<{ #a; #b : Nat8 }>(n, func i = if (i % 2 == 0) #a else #b(1))
  };

  // Grows the heap by about `mib` MiB, then traps: the message leaves nothing behind.
  public func growThenTrap(mib : Nat) : async () {
    let grown = Prim.Array_init<Nat8>(mib * 1024 * 1024 / 8, 1);
    Prim.trap("deliberate trap after growing " # debug_show (grown.size()) # " elements");
  };

  // Keeps about `mib` MiB (8 bytes an element under enhanced persistence).
  public func keep(mib : Nat) : async Nat {
    kept := Prim.Array_init<Nat8>(mib * 1024 * 1024 / 8, 1);
    kept.size()
  };

  // Computes for a while (`n` turns of a loop): queries that run at the same time.
  public query func busy(n : Nat) : async Nat {
    var i = 0;
    while (i < n) { i += 1 };
    count
  };

  public func inc() : async Nat { count += 1; count };
  public query func get() : async Nat { count };
};
