//MOC-FLAG --force-gc
// With the collector forced after every message, an object only a weak reference holds is gone
// once a message has ended: after the await, not before it.
import Prim "mo:prim";

persistent actor {
  var held = Prim.Array_init<Nat>(13, 0);

  public func test() : async () {
    let ref = Prim.allocWeakRef(held);
    held := Prim.Array_init<Nat>(1_000, 1);
    Prim.debugPrint(debug_show (Prim.isLive(ref), Prim.weakGet(ref)));
    await async {};
    Prim.debugPrint(debug_show (Prim.isLive(ref), Prim.weakGet(ref)));
  };
};

//CALL ingress test "DIDL\x00\x00"
