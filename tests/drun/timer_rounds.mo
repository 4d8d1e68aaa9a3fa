// Timers come due as drun's clock moves: its test-runner moves the clock a second after each round
// while a call is unanswered, so a call that awaits raw_rand round after round sees a recurring
// one-second timer and a one-and-a-half-second one-off timer run, in the order they come due.
import { debugPrint; error; setTimer; cancelTimer } = "mo:⛔";

persistent actor {
  var ticks = 0;
  var once = 0;
  var recurring = 0;
  transient let raw_rand = (actor "aaaaa-aa" : actor { raw_rand : () -> async Blob }).raw_rand;

  public func go() : async () {
    recurring := setTimer<system>(1_000_000_000, true, func() : async () {
      ticks += 1;
      debugPrint("tick " # debug_show ticks);
      if (ticks == 2) cancelTimer recurring;
    });
    ignore setTimer<system>(1_500_000_000, false, func() : async () { once += 1; debugPrint "once" });
    var rounds = 0;
    while (ticks < 2 or once < 1) {
      ignore await raw_rand();
      rounds += 1;
      if (rounds >= 200) throw error("no timer ran in 200 rounds");
    };
    debugPrint("done");
  };
};

//CALL ingress go "DIDL\x00\x00"
