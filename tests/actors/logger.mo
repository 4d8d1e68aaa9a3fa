// A test actor for the canister log (fetch_canister_logs): it prints as it is installed, in updates
// and in queries, and traps on request.
import Debug "mo:core/Debug";
import Error "mo:core/Error";
import Principal "mo:core/Principal";
import Runtime "mo:core/Runtime";

persistent actor Self {
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

  // fetch_canister_logs from a canister, which the IC refuses: the reject's message.
  public func fetchOwnLogs() : async Text {
    let ic = actor "aaaaa-aa" : actor {
      fetch_canister_logs : ({ canister_id : Principal; filter : ?{ #by_idx : { start : Nat64; end : Nat64 } } }) -> async {
        canister_log_records : [{ idx : Nat64; timestamp_nanos : Nat64; content : Blob }];
      };
    };
    try {
      ignore await ic.fetch_canister_logs({ canister_id = Principal.fromActor(Self); filter = null });
      "answered"
    } catch (e) { Error.message(e) };
  };

  public query func count() : async Nat { said };
};
