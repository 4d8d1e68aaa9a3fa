// A test actor for the output queue's limit: it sends calls without awaiting them until sending fails
// (Motoko throws when ic0.call_perform refuses a call), and answers calls slowly enough to fill a queue.
import Error "mo:core/Error";
import Principal "mo:core/Principal";

persistent actor {
  var pings : Nat = 0;

  public func ping() : async () { pings += 1 };

  public query func count() : async Nat { pings };

  // Sends up to `n` pings to `peer` in one message; how many were sent, and why sending stopped.
  public func flood(peer : Principal, n : Nat) : async (Nat, Text) {
    let other : actor { ping : () -> async () } = actor (Principal.toText(peer));
    var sent = 0;
    try {
      while (sent < n) { ignore other.ping(); sent += 1 };
      (sent, "")
    } catch (e) {
      (sent, debug_show (Error.code(e)) # ": " # Error.message(e))
    };
  };
};
