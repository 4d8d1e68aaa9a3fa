import Prim "mo:⛔";

persistent actor class Child(watcher : Principal) {
  Prim.debugPrint("watcher controls the child: " # debug_show Prim.isController(watcher));

  public func ping() : async () {};
};
