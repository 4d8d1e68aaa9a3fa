// The low wasm memory hook runs, once, after the message that leaves the canister less free wasm
// memory (its wasm_memory_limit less what it uses) than its wasm_memory_threshold; again only after
// the condition was false in between. A settings change moves the condition as well.
import Prim "mo:⛔";
import Hooked "low_memory/Hooked";

persistent actor {
  type Management = actor {
    update_settings : {
      canister_id : Principal;
      settings : { wasm_memory_limit : ?Nat; wasm_memory_threshold : ?Nat };
    } -> async ();
  };
  transient let ic00 : Management = actor "aaaaa-aa";
  transient let mib = 1024 * 1024;

  func setLimits(child : Hooked.Hooked, limit : Nat, threshold : Nat) : async () {
    await ic00.update_settings({
      canister_id = Prim.principalOfActor child;
      settings = { wasm_memory_limit = ?limit; wasm_memory_threshold = ?threshold };
    });
  };

  public func go() : async () {
    Prim.cyclesAdd<system>(2_000_000_000_000);
    let child = await Hooked.Hooked();
    let used = await child.memory();
    await setLimits(child, used + 64 * mib, 32 * mib);
    Prim.debugPrint("32 MiB free of 64: " # debug_show (await child.hooksRun()));
    await child.grow(40);
    Prim.debugPrint("grown past the threshold: " # debug_show (await child.hooksRun()));
    await child.grow(1);
    Prim.debugPrint("grown again: " # debug_show (await child.hooksRun()));
    await setLimits(child, 0, 32 * mib);
    Prim.debugPrint("no limit (4 GiB): " # debug_show (await child.hooksRun()));
    await setLimits(child, used + 64 * mib, 32 * mib);
    Prim.debugPrint("the limit back: " # debug_show (await child.hooksRun()));
  };
};

//CALL ingress go "DIDL\x00\x00"
