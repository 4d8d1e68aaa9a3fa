import Prim "mo:⛔";

persistent actor class Counter() = this {
  var count = 0;

  public func inc() : async Nat { count += 1; count };

  // A canister may not snapshot itself: only its controllers may.
  public func snapshotMyself() : async Text {
    let ic00 = actor "aaaaa-aa" : actor {
      take_canister_snapshot : { canister_id : Principal; replace_snapshot : ?Blob } -> async { id : Blob };
    };
    try {
      ignore await ic00.take_canister_snapshot({ canister_id = Prim.principalOfActor(this); replace_snapshot = null });
      "taken"
    } catch e { debug_show Prim.errorCode(e) };
  };
};
