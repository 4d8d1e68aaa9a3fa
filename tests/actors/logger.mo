// A test actor for the canister log (fetch_canister_logs): it prints as it is installed, in updates
// and in queries, and traps on request.
import Debug "mo:core/Debug";
import Runtime "mo:core/Runtime";

persistent actor {
  var said : Nat = 0;
  Debug.print("installed");

  public func say(text : Text) : async Nat {
    Debug.print(text);
    said += 1;
    said
  };

  public func sayThenTrap(text : Text) : async () {
    Debug.print(text);
    said += 1;
    Runtime.trap("gave up after " # text);
  };

  // Long enough for the host to stop while it runs: it runs again after the restart.
  public func sayThenWork(text : Text, rounds : Nat) : async Nat {
    Debug.print(text);
    var i = 0;
    while (i < rounds) { i += 1 };
    said += 1;
    said
  };

  public query func sayInQuery(text : Text) : async () { Debug.print(text) };

  public query func count() : async Nat { said };
};
