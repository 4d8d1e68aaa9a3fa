// Cycles sent with one-way calls: the callee sees them (a Motoko one-way method replies first and
// then runs its body, so they stay on offer after the reply), keeps what it accepts, and the rest
// goes back to the caller.
import Prim "mo:⛔";

persistent actor Self {
  transient var before = 0;

  public func oneshot() : () {
    Prim.debugPrint("oneshot available: " # debug_show Prim.cyclesAvailable());
    ignore Prim.cyclesAccept<system>(1_000);
    Prim.debugPrint("oneshot took up to 1_000, still available: " # debug_show Prim.cyclesAvailable());
  };

  public func send() : async () {
    before := Prim.cyclesBalance();
    oneshot();
    (with cycles = 3_456) oneshot();
    (with timeout = 5; cycles = 4_567) Self.oneshot();
  };

  // Sent 8_023, accepted 2_000 of them here, had the other 6_023 back: nothing lost.
  public func lost() : async () {
    Prim.debugPrint("lost: " # debug_show (before - Prim.cyclesBalance() : Int));
  };
};

//CALL ingress send "DIDL\x00\x00"
//CALL ingress lost "DIDL\x00\x00"
