// An upgrade of lab.mo that cannot take over its state: `count` changes from Nat to Text.
persistent actor {
  var count : Text = "zero";
  var ticks : Nat = 0;
  var log : Text = "";

  public query func get() : async Text { count };
};
