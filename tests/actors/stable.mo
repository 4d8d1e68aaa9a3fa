// Stable memory through a Region (each 8-byte load or store is one ic0.stable64_read / stable64_write):
// the loops of bench/stable_memory.py, and tests/test_stable_memory.py's writes, traps, queries, growth
// and a timer-driven workload for kill -9 (deterministic: its result depends only on how many steps ran).
import Region "mo:core/Region";
import Nat64 "mo:core/Nat64";
import Runtime "mo:core/Runtime";
import Timer "mo:core/Timer";

persistent actor {
  let region = Region.new();
  let span : Nat64 = 1_000_000; // the bytes the loops and the workload use

  func ensure() { if (Region.size(region) == 0) { ignore Region.grow(region, 16) } };

  public func writes(n : Nat) : async () {
    ensure();
    var i : Nat64 = 0;
    let count = Nat64.fromNat(n);
    while (i < count) { Region.storeNat64(region, (i * 8) % span, i); i += 1 };
  };

  public func reads(n : Nat) : async Nat64 {
    var i : Nat64 = 0;
    var sum : Nat64 = 0;
    let count = Nat64.fromNat(n);
    while (i < count) { sum +%= Region.loadNat64(region, (i * 8) % span); i += 1 };
    sum
  };

  public func put(offset : Nat64, value : Nat64) : async () {
    ensure();
    Region.storeNat64(region, offset, value);
  };

  public func putThenTrap(offset : Nat64, value : Nat64) : async () {
    ensure();
    Region.storeNat64(region, offset, value);
    ignore Region.grow(region, 1);
    Runtime.trap("deliberate trap after writing stable memory");
  };

  // A query that writes: the write must not survive it.
  public query func putInQuery(offset : Nat64, value : Nat64) : async Nat64 {
    Region.storeNat64(region, offset, value);
    Region.loadNat64(region, offset)
  };

  public query func get(offset : Nat64) : async Nat64 { Region.loadNat64(region, offset) };

  public func grow(pages : Nat64) : async Nat64 { Region.grow(region, pages) };

  public query func size() : async Nat64 { Region.size(region) };

  // The workload: each step, a timer callback of its own, folds values into 4096 places.
  var step = 0;
  var target = 0;
  transient var scheduled = false;

  func schedule<system>() {
    if (scheduled or step >= target) return;
    scheduled := true;
    ignore Timer.setTimer<system>(#seconds 0, func() : async () {
      scheduled := false;
      ensure();
      let s = Nat64.fromNat(step);
      var k : Nat64 = 0;
      while (k < 4096) {
        let offset = ((s *% 7919 +% k *% 104_729) % (span / 8)) * 8;
        Region.storeNat64(region, offset, Region.loadNat64(region, offset) *% 31 +% s +% k);
        k += 1;
      };
      step += 1;
      schedule<system>();
    });
  };

  public func run(until : Nat) : async () {
    target := until;
    schedule<system>();
  };

  public query func status() : async (Nat, Nat64) {
    var sum : Nat64 = 0;
    var i : Nat64 = 0;
    if (Region.size(region) > 0) {
      while (i < span / 8) { sum := sum *% 1099511628211 +% Region.loadNat64(region, i * 8); i += 1 };
    };
    (step, sum)
  };

  // After an upgrade the body runs again and re-arms the loop (timers do not survive upgrades).
  schedule<system>();
};
