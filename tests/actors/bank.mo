// A wallet-style bank for the cycles tests (tests/test_cycles.py): it keeps part of what a call offers
// (Cycles.available / Cycles.accept), gives cycles away with calls, and shows its balance.
import Cycles "mo:core/Cycles";
import Error "mo:core/Error";
import Principal "mo:core/Principal";
import Runtime "mo:core/Runtime";

persistent actor Bank {
  var kept : Nat = 0; // what deposits kept, in all

  // Keeps at most `limit` of what the caller offers; the rest goes back to the caller with the answer.
  // Answers [what was on offer, what it kept, what is left on offer after keeping it].
  public func deposit(limit : Nat) : async [Nat] {
    let offered = Cycles.available();
    let took = Cycles.accept<system>(if (offered < limit) offered else limit);
    kept += took;
    [offered, took, Cycles.available()]
  };

  // Keeps everything offered in two steps, then traps: a trap keeps nothing, so all goes back.
  public func depositThenTrap() : async Nat {
    ignore Cycles.accept<system>(Cycles.available());
    Runtime.trap("the bank is closed")
  };

  // Keeps `n` of the offer, then rejects the call: what it kept stays kept (the reject is the code's
  // answer, not a trap), the rest goes back.
  public func depositThenReject(n : Nat) : async () {
    kept += Cycles.accept<system>(n);
    throw Error.reject("no receipt")
  };

  // Sends `amount` to the client's `receive`: [what it kept, what came back].
  public func pay(client : Principal, amount : Nat) : async [Nat] {
    let to : actor { receive : () -> async Nat } = actor (Principal.toText(client));
    let took = await (with cycles = amount) to.receive();
    [took, Cycles.refunded()]
  };

  public query func balance() : async Nat { Cycles.balance() };

  public query func keptInAll() : async Nat { kept };

  // An upgrade's hook may burn cycles too.
  system func postupgrade() { ignore Cycles.burn<system>(7) };
};
