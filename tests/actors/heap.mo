// A test actor with a large heap: `fill` grows it once, then `touch` changes a few bytes per message.
// bench/snapshot.py measures what a message costs the host as the heap grows.
import Prim "mo:⛔";

persistent actor {
  var big : [var Nat8] = [var];
  var touches : Nat = 0;

  // Replaces `big` with about `mib` MiB of array (an element takes a word: 8 bytes under enhanced
  // persistence, 4 under classic). Returns the number of elements.
  public func fill(mib : Nat, wordBytes : Nat) : async Nat {
    big := Prim.Array_init<Nat8>(mib * 1024 * 1024 / wordBytes, 1);
    big.size()
  };

  // Changes one element of `big` and the counter: a message that writes a few pages.
  public func touch() : async Nat {
    touches += 1;
    if (big.size() > 0) {
      big[(touches * 7919) % big.size()] := Prim.natToNat8(touches % 256);
    };
    touches
  };

  // A compute-heavy message: `n` stores into a small local array.
  public func churn(n : Nat) : async Nat {
    let scratch = Prim.Array_init<Nat>(4096, 0);
    var i = 0;
    while (i < n) {
      scratch[i % 4096] := i;
      i += 1;
    };
    scratch[(n + 4095) % 4096]
  };
};
