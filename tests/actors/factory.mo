// A test actor for the management canister: actor classes (create_canister + install_code), raw_rand,
// controllers (ic0.is_controller, update_settings), canister_status, stop/start/delete, upgrades.
import Kid "Kid";
import Principal "mo:core/Principal";
import Random "mo:core/Random";
import Error "mo:core/Error";

persistent actor Factory {
  type Status = { #running; #stopping; #stopped };
  type CanisterStatus = {
    status : Status;
    settings : { controllers : [Principal]; freezing_threshold : Nat };
    module_hash : ?Blob;
    memory_size : Nat;
    cycles : Nat;
  };
  type Id = { canister_id : Principal };
  transient let ic = actor "aaaaa-aa" : actor {
    canister_status : Id -> async CanisterStatus;
    update_settings : { canister_id : Principal; settings : { controllers : ?[Principal] } } -> async ();
    stop_canister : Id -> async ();
    start_canister : Id -> async ();
    delete_canister : Id -> async ();
  };

  var made : Nat = 0;

  public func make(start : Nat) : async Principal {
    let kid = await Kid.Kid(start);
    made += 1;
    Principal.fromActor(kid)
  };

  public query func count() : async Nat { made };

  public func bump(id : Principal) : async Nat {
    let kid : Kid.Kid = actor (Principal.toText(id));
    await kid.inc()
  };

  public func rand() : async Blob { await Random.blob() };

  public shared ({ caller }) func callerIsController() : async Bool { Principal.isController(caller) };

  // The status as the caller sees it, or the reject's text.
  public func status(id : Principal) : async Text {
    try {
      let s = await ic.canister_status({ canister_id = id });
      let state = switch (s.status) { case (#running) "running"; case (#stopping) "stopping"; case (#stopped) "stopped" };
      let code = switch (s.module_hash) { case null "empty"; case (?_) "code" };
      state # " " # code # " controllers=" # debug_show (s.settings.controllers) # " freezing=" # debug_show (s.settings.freezing_threshold)
    } catch (e) { "rejected: " # Error.message(e) }
  };

  public func setControllers(id : Principal, controllers : [Principal]) : async Text {
    try { await ic.update_settings({ canister_id = id; settings = { controllers = ?controllers } }); "ok" }
    catch (e) { "rejected: " # Error.message(e) }
  };

  public func stop(id : Principal) : async Text {
    try { await ic.stop_canister({ canister_id = id }); "ok" } catch (e) { "rejected: " # Error.message(e) }
  };

  public func start(id : Principal) : async Text {
    try { await ic.start_canister({ canister_id = id }); "ok" } catch (e) { "rejected: " # Error.message(e) }
  };

  public func delete(id : Principal) : async Text {
    try { await ic.delete_canister({ canister_id = id }); "ok" } catch (e) { "rejected: " # Error.message(e) }
  };

  // Upgrade a kid to the same class (its state stays), or reinstall it (its state goes).
  public func upgrade(id : Principal) : async () {
    let kid : Kid.Kid = actor (Principal.toText(id));
    ignore await (system Kid.Kid)(#upgrade kid)(1000);
  };

  public func reinstall(id : Principal, start : Nat) : async () {
    let kid : Kid.Kid = actor (Principal.toText(id));
    ignore await (system Kid.Kid)(#reinstall kid)(start);
  };

  public func tryBump(id : Principal) : async Text {
    let kid : Kid.Kid = actor (Principal.toText(id));
    try { debug_show (await kid.inc()) } catch (e) { "rejected: " # Error.message(e) }
  };
};
