// A test actor for the IC interface: callers (msg.caller and an owner check), a reject and a trap.
import Error "mo:core/Error";
import Runtime "mo:core/Runtime";

persistent actor {
  var count : Nat = 0;
  var owner : ?Principal = null;

  public func inc() : async Nat { count += 1; count };

  public query func get() : async Nat { count };

  public shared query ({ caller }) func whoami() : async Principal { caller };

  public shared ({ caller }) func whoamiUpdate() : async Principal { caller };

  // The first caller becomes the owner; later calls answer who it is.
  public shared ({ caller }) func claim() : async Principal {
    switch owner {
      case (?o) o;
      case null { owner := ?caller; caller };
    };
  };

  // The access control Motoko code usually has: only the owner may.
  public shared ({ caller }) func ownerAdd(n : Nat) : async Nat {
    switch owner {
      case (?o) { if (o != caller) throw Error.reject("only the owner may add") };
      case null throw Error.reject("no owner yet");
    };
    count += n;
    count;
  };

  public func refuse() : async () { throw Error.reject("refused on purpose") };

  public func trapAfterChange() : async () {
    count += 1000;
    Runtime.trap("deliberate trap");
  };
};
