// A bounded-wait call (`with timeout`) whose callee does not answer in time is answered
// SYS_UNKNOWN "Call deadline has expired." when its deadline passes; the callee's late answer is
// dropped. One answered in time is answered as any call.
import Prim "mo:⛔";

persistent actor {
  transient var spinning = true;
  transient var rounds = 0;

  type Management = actor { raw_rand : () -> async Blob };

  public func inTime() : async () {
    await (with timeout = 5) async {
      Prim.debugPrint("deadline set: " # debug_show (Prim.replyDeadline() != 0));
    };
    Prim.debugPrint("answered in time");
  };

  public func tooLate() : async () {
    try {
      await (with timeout = 1) async {
        while spinning {
          ignore await (actor "aaaaa-aa" : Management).raw_rand();
          rounds += 1;
        };
      };
      Prim.debugPrint("not expired");
    } catch e {
      Prim.debugPrint("caught: " # debug_show Prim.errorCode(e) # " " # debug_show Prim.errorMessage(e));
    };
  };

  public func halt() : async () {
    Prim.debugPrint("still spinning after the deadline: " # debug_show (rounds > 0));
    spinning := false;
  };
};

//CALL ingress inTime "DIDL\x00\x00"
//CALL ingress tooLate "DIDL\x00\x00"
//CALL ingress halt "DIDL\x00\x00"
