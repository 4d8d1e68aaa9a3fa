// An actor class instance created with settings is controlled by the settings' controllers from its
// canister_init on; canister_info tells a canister's history as the IC keeps it.
import Prim "mo:⛔";
import Children "class_settings/Child";

persistent actor Self {
  type Origin = {
    #from_user : { user_id : Principal };
    #from_canister : { canister_id : Principal; canister_version : ?Nat64 };
  };
  type Details = {
    #creation : { controllers : [Principal] };
    #code_uninstall;
    #code_deployment : { mode : { #install; #reinstall; #upgrade } };
    #controllers_change : { controllers : [Principal] };
  };
  type Change = { canister_version : Nat64; origin : Origin; details : Details };
  type Settings = {
    controllers : ?[Principal];
    compute_allocation : ?Nat;
    memory_allocation : ?Nat;
    freezing_threshold : ?Nat;
  };
  type Management = actor {
    update_settings : { canister_id : Principal; settings : Settings } -> async ();
    canister_info : { canister_id : Principal; num_requested_changes : ?Nat64 } -> async {
      total_num_changes : Nat64;
      recent_changes : [Change];
      controllers : [Principal];
    };
  };
  transient let ic00 : Management = actor "aaaaa-aa";

  public func go() : async () {
    let me = Prim.principalOfActor Self;
    let watcher = Prim.principalOfBlob "\04";
    let plain = await (with cycles = 1_000_000_000_000) Children.Child(watcher);
    let settings = { controllers = ?[me, watcher]; compute_allocation = null; memory_allocation = null; freezing_threshold = null };
    let child = await (with cycles = 1_000_000_000_000) (system Children.Child)(#new { settings = ?settings })(watcher);
    await child.ping();
    ignore await (system Children.Child)(#upgrade child)(watcher);
    let id = Prim.principalOfActor child;
    await ic00.update_settings({ canister_id = id; settings = { settings with controllers = ?[me] } });
    Prim.debugPrint(debug_show (await ic00.canister_info({ canister_id = id; num_requested_changes = ?10 })));
    let last = await ic00.canister_info({ canister_id = id; num_requested_changes = ?1 });
    Prim.debugPrint(debug_show (last.total_num_changes, last.recent_changes.size()));
    let none = await ic00.canister_info({ canister_id = Prim.principalOfActor plain; num_requested_changes = null });
    Prim.debugPrint(debug_show none);
  };
};

//CALL ingress go "DIDL\x00\x00"
