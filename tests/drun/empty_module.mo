// The IC installs a module without memory: the smallest module there is, only its header, makes a
// canister with no methods.
import Prim "mo:⛔";

persistent actor {
  public func go() : async () {
    Prim.cyclesAdd<system>(2_000_000_000_000);
    let empty = await Prim.createActor("\00\61\73\6D\01\00\00\00", "");
    Prim.debugPrint("created " # debug_show empty);
    let callee = actor (debug_show empty) : actor { hello : () -> async () };
    try {
      await callee.hello();
    } catch e {
      Prim.debugPrint("hello: " # debug_show Prim.errorCode(e));
    };
  };
};

//CALL ingress go "DIDL\x00\x00"
