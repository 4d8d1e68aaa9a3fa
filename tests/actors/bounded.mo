// A bounded-wait call to itself that is answered only when the test says so: whether its deadline
// passes across a restart.
import Prim "mo:⛔";

persistent actor Self {
  var outcome = "waiting";
  var spinning = true;

  type Management = actor { raw_rand : () -> async Blob };

  public func spin() : async () {
    while spinning {
      ignore await (actor "aaaaa-aa" : Management).raw_rand();
    };
  };

  public func bounded(seconds : Nat32) : async () {
    try {
      await (with timeout = seconds) Self.spin();
      outcome := "answered";
    } catch e {
      outcome := debug_show Prim.errorCode(e) # " " # Prim.errorMessage(e);
    };
  };

  // Starts the bounded-wait call and returns at once.
  public func begin(seconds : Nat32) : async () { ignore bounded(seconds) };

  public func halt() : async () { spinning := false };

  public query func result() : async Text { outcome };
};
