import Prim "mo:⛔";

persistent actor class Hooked() {
  var hooks = 0;
  var kept : [[var Nat8]] = [];

  system func lowmemory() : async* () {
    hooks += 1;
  };

  public func grow(mebibytes : Nat) : async () {
    kept := Prim.Array_tabulate<[var Nat8]>(kept.size() + 1, func i = if (i < kept.size()) kept[i] else Prim.Array_init<Nat8>(mebibytes * 1024 * 1024, 0));
  };

  public func hooksRun() : async Nat { hooks };

  public func memory() : async Nat { Prim.rts_memory_size() };
};
