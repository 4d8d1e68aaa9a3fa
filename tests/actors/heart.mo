// An actor with `system func heartbeat`: the host runs it about once a second, each beat a message.
persistent actor {
  var beats : Nat = 0;
  system func heartbeat() : async () { beats += 1 };
  public query func count() : async Nat { beats };
};
