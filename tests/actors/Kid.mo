// An actor class, made by tests/actors/factory.mo through the management canister (`await Kid(n)`).
import Principal "mo:core/Principal";
import Prim "mo:prim";

shared (install) persistent actor class Kid(start : Nat) {
  var n : Nat = start;
  let installer : Principal = install.caller;

  public func inc() : async Nat { n += 1; n };

  public query func get() : async Nat { n };

  public query func creator() : async Principal { installer };

  public shared ({ caller }) func callerIsController() : async Bool { Principal.isController(caller) };

  public query func version() : async Nat64 { Prim.canisterVersion() };
};
