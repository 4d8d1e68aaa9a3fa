// provisional_top_up_canister mints cycles where moxzid does not charge, as on a local replica.
import Prim "mo:⛔";

persistent actor Self {
  type Management = actor {
    provisional_top_up_canister : { canister_id : Principal; amount : Nat } -> async ();
  };
  transient let ic00 : Management = actor "aaaaa-aa";

  public func go() : async () {
    let before = Prim.cyclesBalance();
    await ic00.provisional_top_up_canister({ canister_id = Prim.principalOfActor Self; amount = 1_234_567 });
    Prim.debugPrint("topped up: " # debug_show (Prim.cyclesBalance() - before : Int));
    // Past the most a canister may hold (2^128 - 1) the excess is lost, as on the IC.
    await ic00.provisional_top_up_canister({ canister_id = Prim.principalOfActor Self; amount = 2 ** 128 });
    Prim.debugPrint("balance: " # debug_show Prim.cyclesBalance());
    try {
      await ic00.provisional_top_up_canister({ canister_id = Prim.principalOfBlob "\FF"; amount = 1 });
    } catch e {
      Prim.debugPrint("no such canister: " # debug_show Prim.errorCode(e));
    };
  };
};

//CALL ingress go "DIDL\x00\x00"
