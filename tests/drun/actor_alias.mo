//MOC-FLAG --actor-idl actor_alias --actor-alias self 5v3p4-iyaaa-aaaaa-qaaaa-cai
// An actor imported by an alias, typed by the Candid file of its id: here the canister itself (the
// host's first canister id, drun's rwlgt-iiaaa-aaaaa-aaaaa-cai as the harness prints it).
import Prim "mo:prim";
import Self "canister:self";
import Same "ic:5v3p4-iyaaa-aaaaa-qaaaa-cai";

persistent actor {
  public func name() : async Text { "self" };

  public func viaAlias() : async (Text, Principal) {
    (await Self.name(), Prim.principalOfActor(Same));
  };
};

//CALL ingress viaAlias "DIDL\x00\x00"
