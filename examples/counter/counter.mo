// The example actor `scripts/demo` serves: a counter that remembers its value across upgrades.
persistent actor {
  var count : Nat = 0;

  // Adds one and returns the new count.
  public func inc() : async Nat {
    count += 1;
    count
  };

  // The current count. A query: it cannot change state.
  public query func get() : async Nat { count };
};
