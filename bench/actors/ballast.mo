// bench/restart.py's stand-in for a trained model's actor: `fill` adds `mib` MiB of pseudo-random bytes
// (as incompressible as float weights), a blob per MiB; `parts` counts them.
import Prim "mo:⛔";

persistent actor {
  var parts : [Blob] = [];
  var seed : Nat32 = 1;

  func byte(_ : Nat) : Nat8 {
    seed := seed *% 1664525 +% 1013904223;
    Prim.natToNat8(Prim.nat32ToNat(seed >> 24))
  };

  public func fill(mib : Nat) : async Nat {
    var i = 0;
    while (i < mib) {
      let part = Prim.arrayToBlob(Prim.Array_tabulate<Nat8>(1048576, byte));
      let before = parts;
      parts := Prim.Array_tabulate<Blob>(before.size() + 1, func j = if (j < before.size()) before[j] else part);
      i += 1;
    };
    parts.size()
  };

  public query func size() : async Nat { parts.size() };
};
