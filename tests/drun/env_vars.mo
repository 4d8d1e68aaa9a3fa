// A canister's environment variables (its settings') through ic0.env_var_*, in the order of their
// names, changing as update_settings changes them. drun's canister controls itself, so it may.
import Prim "mo:⛔";

persistent actor Self {
  type Management = actor {
    update_settings : {
      canister_id : Principal;
      settings : { environment_variables : ?[{ name : Text; value : Text }] };
    } -> async ();
  };
  transient let ic00 : Management = actor "aaaaa-aa";

  func show<system>() {
    Prim.debugPrint(debug_show (Prim.envVarNames<system>(), Prim.envVar<system>("b"), Prim.envVar<system>("none")));
  };

  public func go() : async () {
    show<system>();
    let id = Prim.principalOfActor Self;
    await ic00.update_settings({ canister_id = id; settings = { environment_variables = ?[{ name = "b"; value = "2" }, { name = "a"; value = "1" }] } });
    show<system>();
    await ic00.update_settings({ canister_id = id; settings = { environment_variables = ?[] } });
    show<system>();
  };
};

//CALL ingress go "DIDL\x00\x00"
