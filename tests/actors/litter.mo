// A test actor whose collector frees partitions: `litter` allocates arrays of a pseudo-random word and
// keeps one in `keepEvery` (the rest is garbage the incremental collector evacuates and frees between
// messages), `digest` sums what it keeps. tests/test_persistence.py: compaction's zeros in free space.
import Prim "mo:⛔";

persistent actor {
  var kept : [[var Nat64]] = [];
  var rng : Nat64 = 88172645463325252;

  func next() : Nat64 {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    rng
  };

  // About `mib` MiB in arrays of 64 KiB; returns how many arrays it keeps.
  public func litter(mib : Nat, keepEvery : Nat) : async Nat {
    var i = 0;
    while (i < mib * 16) {
      let words = Prim.Array_init<Nat64>(8192, next());
      words[i % 8192] := next();
      if (i % keepEvery == 0) kept := Prim.Array_tabulate<[var Nat64]>(kept.size() + 1, func k = if (k < kept.size()) kept[k] else words);
      i += 1;
    };
    kept.size()
  };

  public query func digest() : async Nat64 {
    var sum : Nat64 = 0;
    for (words in kept.vals()) for (w in words.vals()) sum := sum *% 31 +% w;
    sum
  };
};
