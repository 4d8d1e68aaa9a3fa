// The manual clock's actor: `arm` sets a 60-second Motoko timer (the runtime's own timers, on the
// global timer), and a heartbeat counts the heartbeats.
import Prim "mo:⛔";
import { setTimer } = "mo:⛔";

persistent actor Alarm {
  var fired : Nat = 0;
  var beats : Nat = 0;
  var armedAt : Nat64 = 0;
  var firedAt : Nat64 = 0;

  public func arm() : async Nat64 {
    armedAt := Prim.time();
    ignore setTimer<system>(60_000_000_000, false, func() : async () {
      fired += 1;
      firedAt := Prim.time();
    });
    armedAt
  };

  // Two reads of ic0.time in one message, for the check that they are equal.
  public func twoTimes() : async (Nat64, Nat64) {
    let first = Prim.time();
    var i = 0;
    while (i < 1000) { i += 1 };
    (first, Prim.time())
  };

  system func heartbeat() : async () { beats += 1 };

  // (fired, beats, armedAt, firedAt, now)
  public query func state() : async (Nat, Nat, Nat64, Nat64, Nat64) {
    (fired, beats, armedAt, firedAt, Prim.time())
  };
};
