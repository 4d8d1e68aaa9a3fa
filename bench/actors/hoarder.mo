// bench/held.py --daemon's attacker (issue 37): `fill` makes 20,000 zero-element device parameters with
// 250-byte names (2,000 a call) and SGD optimizers over all it made, each until the device's budget refuses
// one; `clear` deletes all it holds on the device; `noise` fills its stable memory (a Region grown as
// needed) with pseudo-random bytes, for snapshots as incompressible as trained weights.
import Array "mo:core/Array";
import Error "mo:core/Error";
import Nat "mo:core/Nat";
import Nat32 "mo:core/Nat32";
import Nat64 "mo:core/Nat64";
import Region "mo:core/Region";
import Runtime "mo:core/Runtime";
import Text "mo:core/Text";

persistent actor {
  type Kind = { #param; #optimizer; #stored; #publication };
  type Device = actor {
    moxzi_device_params : ([{ name : Text; shape : [Nat32]; init : { #zeros } }]) -> async ();
    moxzi_device_optimizer : ({
      name : Text; params : [Text]; lr : Float;
      beta1 : Float; beta2 : Float; eps : Float; weight_decay : Float; kind : ?{ #sgd };
    }) -> async ();
    moxzi_device_list : () -> async [{ kind : Kind; name : Text }];
    moxzi_device_delete : ([{ kind : Kind; name : Text }]) -> async ();
  };
  transient let device : Device = actor "aaaaa-aa";
  let region = Region.new();

  // "p", six digits and 243 bytes of padding: 250 bytes.
  transient let padding = Text.join(Array.repeat<Text>("x", 243).values(), "");
  func name(i : Nat) : Text { "p" # Nat.toText(100_000 + i) # padding };

  // (parameters made, optimizers made, why the last was refused)
  public func fill() : async (Nat, Nat, Text) {
    let names = Array.tabulate<Text>(20_000, name);
    var kept = 0;
    var refused = "";
    label params while (kept < 20_000) {
      let batch = Array.tabulate<{ name : Text; shape : [Nat32]; init : { #zeros } }>(
        2_000, func i = { name = names[kept + i]; shape = [0 : Nat32]; init = #zeros });
      try { await device.moxzi_device_params(batch) } catch e { refused := Error.message(e); break params };
      kept += 2_000;
    };
    let over = Array.tabulate<Text>(kept, func i = names[i]);
    var made = 0;
    label optimizers while (made < 100) {
      try {
        await device.moxzi_device_optimizer({
          name = "o" # Nat.toText(made); params = over; lr = 0.1;
          beta1 = 0.0; beta2 = 0.99; eps = 1e-8; weight_decay = 0.0; kind = ?#sgd;
        });
      } catch e { refused := Error.message(e); break optimizers };
      made += 1;
    };
    (kept, made, refused)
  };

  public func clear() : async Nat {
    let held = await device.moxzi_device_list();
    await device.moxzi_device_delete(held);
    held.size()
  };

  // Writes `mib` MiB of pseudo-random bytes (xorshift64: incompressible) from MiB `from` of its stable memory,
  // 8 bytes a store, so the heap keeps nothing.
  public func noise(from : Nat64, mib : Nat64) : async () {
    let end = (from + mib) * 1_048_576;
    let pages = end / 65_536;
    if (Region.size(region) < pages) {
      if (Region.grow(region, pages - Region.size(region)) == 0xFFFF_FFFF_FFFF_FFFF) {
        Runtime.trap("stable memory refused")
      };
    };
    var state : Nat64 = 0x9E37_79B9_7F4A_7C15 +% from;
    var at = from * 1_048_576;
    while (at < end) {
      state ^= state << 13;
      state ^= state >> 7;
      state ^= state << 17;
      Region.storeNat64(region, at, state);
      at += 8;
    };
  };
};
