// The smallest useful actor: one update, one query, state that must survive both.
persistent actor {
  var count : Nat = 0;

  public func inc() : async Nat {
    count += 1;
    count
  };

  public query func get() : async Nat { count };
};
