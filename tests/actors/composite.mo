// A test actor for composite queries: `sum` adds its own number to the numbers other actors' queries
// answer, awaiting each in turn, all within one query that leaves no trace.
import Principal "mo:core/Principal";

persistent actor {
  var n : Nat = 0;

  public func set(v : Nat) : async () { n := v };

  public query func get() : async Nat { n };

  public composite query func sum(peers : [Principal]) : async Nat {
    var total = n;
    for (peer in peers.vals()) {
      let other : actor { get : shared query () -> async Nat } = actor (Principal.toText(peer));
      total += await other.get();
    };
    n += 1000; // rolled back, like any query's change
    total
  };

  // A composite query calling composite queries in turn.
  public composite query func sumOfSums(peer : Principal, peers : [Principal]) : async Nat {
    let other : actor { sum : shared composite query [Principal] -> async Nat } = actor (Principal.toText(peer));
    n + (await other.sum(peers))
  };
};
