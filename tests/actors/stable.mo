// Stable memory read and written in small pieces (each one ic0.stable64_read / stable64_write), for
// bench/stable_memory.py.
import Region "mo:core/Region";
import Nat64 "mo:core/Nat64";

persistent actor {
  let region = Region.new();

  public func writes(n : Nat) : async () {
    if (Region.size(region) == 0) { ignore Region.grow(region, 16) };
    var i : Nat64 = 0;
    let count = Nat64.fromNat(n);
    while (i < count) { Region.storeNat64(region, (i * 8) % 1_000_000, i); i += 1 };
  };

  public func reads(n : Nat) : async Nat64 {
    var i : Nat64 = 0;
    var sum : Nat64 = 0;
    let count = Nat64.fromNat(n);
    while (i < count) { sum +%= Region.loadNat64(region, (i * 8) % 1_000_000); i += 1 };
    sum
  };
};
