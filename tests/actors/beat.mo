// An actor with `system func timer`: it beats three times, re-arming the global timer itself.
import Prim "mo:⛔";

persistent actor {
  var beats : Nat = 0;

  system func timer(setGlobalTimer : (Nat64) -> ()) : async () {
    beats += 1;
    if (beats < 3) setGlobalTimer(Prim.time() + 10_000_000);
  };

  public query func getBeats() : async Nat { beats };
};
