// Canister snapshots as the IC's management canister keeps them: a controller takes one, loads it back
// (the canister runs as it was then, its version moves on and its history records the load), lists,
// replaces and deletes them; a canister holds 10 at most.
import Prim "mo:⛔";
import Counters "snapshots/Counter";

persistent actor {
  type Snapshot = { id : Blob; taken_at_timestamp : Nat64; total_size : Nat64 };
  type Change = {
    canister_version : Nat64;
    details : {
      #creation : { controllers : [Principal] };
      #code_uninstall;
      #code_deployment : { mode : { #install; #reinstall; #upgrade } };
      #load_snapshot : { canister_version : Nat64; snapshot_id : Blob };
      #controllers_change : { controllers : [Principal] };
    };
  };
  type Management = actor {
    take_canister_snapshot : { canister_id : Principal; replace_snapshot : ?Blob } -> async Snapshot;
    load_canister_snapshot : { canister_id : Principal; snapshot_id : Blob } -> async ();
    list_canister_snapshots : { canister_id : Principal } -> async [Snapshot];
    delete_canister_snapshot : { canister_id : Principal; snapshot_id : Blob } -> async ();
    canister_info : { canister_id : Principal; num_requested_changes : ?Nat64 } -> async { recent_changes : [Change] };
  };
  transient let ic00 : Management = actor "aaaaa-aa";

  func tryLoad(canister_id : Principal, snapshot_id : Blob) : async Text {
    try { await ic00.load_canister_snapshot({ canister_id; snapshot_id }); "done" } catch e { debug_show Prim.errorCode(e) };
  };

  func tryDelete(canister_id : Principal, snapshot_id : Blob) : async Text {
    try { await ic00.delete_canister_snapshot({ canister_id; snapshot_id }); "done" } catch e { debug_show Prim.errorCode(e) };
  };

  public func go() : async () {
    Prim.cyclesAdd<system>(2_000_000_000_000);
    let counter = await Counters.Counter();
    let id = Prim.principalOfActor counter;
    ignore await counter.inc();
    let first = await ic00.take_canister_snapshot({ canister_id = id; replace_snapshot = null });
    Prim.debugPrint("after the snapshot: " # debug_show (await counter.inc()));
    await ic00.load_canister_snapshot({ canister_id = id; snapshot_id = first.id });
    Prim.debugPrint("after loading it: " # debug_show (await counter.inc()));
    let info = await ic00.canister_info({ canister_id = id; num_requested_changes = ?1 });
    switch (info.recent_changes[0].details) {
      case (#load_snapshot { snapshot_id }) Prim.debugPrint("history: loaded the first: " # debug_show (snapshot_id == first.id));
      case _ Prim.debugPrint("history: no load");
    };
    Prim.debugPrint("itself: " # (await counter.snapshotMyself()));
    let second = await ic00.take_canister_snapshot({ canister_id = id; replace_snapshot = ?first.id });
    let listed = await ic00.list_canister_snapshots({ canister_id = id });
    Prim.debugPrint("replaced: " # debug_show (listed.size(), listed[0].id == second.id, second.id != first.id));
    Prim.debugPrint("load the replaced one: " # (await tryLoad(id, first.id)));
    var taken = 1;
    label filling loop {
      try {
        ignore await ic00.take_canister_snapshot({ canister_id = id; replace_snapshot = null });
        taken += 1;
      } catch e {
        Prim.debugPrint("at most " # debug_show taken # ": " # debug_show Prim.errorCode(e));
        break filling;
      };
    };
    for (snapshot in (await ic00.list_canister_snapshots({ canister_id = id })).vals()) {
      await ic00.delete_canister_snapshot({ canister_id = id; snapshot_id = snapshot.id });
    };
    Prim.debugPrint("all deleted: " # debug_show (await ic00.list_canister_snapshots({ canister_id = id })).size());
    Prim.debugPrint("delete again: " # (await tryDelete(id, second.id)));
  };
};

//CALL ingress go "DIDL\x00\x00"
