// The device API in one small actor (from "GPU math for actors"): two parameters, an optimizer, and
// one training program per step that learns to predict the next letter of a phrase. Tensors stay on
// the device: each step sends the text and gets the loss back as a number.
import Text "mo:core/Text";

persistent actor {
  // The tensor device is the management canister, aaaaa-aa. Declare the methods and ops you use; the
  // whole interface is moxzi_core/device/interface.did.
  type Op = {
    #input : Nat32;
    #param : Text;
    #narrow : { x : Nat32; dim : Nat32; start : Nat32; len : Nat32 };
    #reshape : { x : Nat32; shape : [Nat32] };
    #embedding : { table : Nat32; ids : Nat32 };
    #linear : { x : Nat32; w : Nat32 };
    #cross_entropy : { logits : Nat32; targets : Nat32 };
  };
  type Device = actor {
    moxzi_device_params : ([{ name : Text; shape : [Nat32]; init : { #normal : Float } }]) -> async ();
    moxzi_device_optimizer : ({
      name : Text; params : [Text]; lr : Float;
      beta1 : Float; beta2 : Float; eps : Float; weight_decay : Float; kind : ?{ #adamw };
    }) -> async ();
    moxzi_device_run : ({
      inputs : [{ data : Blob; elem : { #u8 }; shape : [Nat32] }];
      program : [Op];
      train : ?{ loss : Nat32; optimizer : Text; clip : ?Float; lr : ?Float; also : ?[Text] };
      scalars : [Nat32];
      tensors : [Nat32];
    }) -> async { scalars : [Float] };
  };
  transient let device : Device = actor "aaaaa-aa";

  // 65 bytes of text: the model reads the first 64 and predicts each next one.
  let text = Text.encodeUtf8("hello moxzi, hello actors, hello tensors on a device. hello again");

  // Register numbers below are positions in `program`.
  let program : [Op] = [
    #input 0,                                            // 0: the 65 bytes, [1, 65]
    #narrow { x = 0; dim = 1; start = 0; len = 64 },     // 1: what the model reads
    #narrow { x = 0; dim = 1; start = 1; len = 64 },     // 2: what it should predict
    #reshape { x = 2; shape = [64] },                    // 3
    #param "embed",                                      // 4: a vector per byte value
    #embedding { table = 4; ids = 1 },                   // 5: [1, 64, 16]
    #param "head",                                       // 6
    #linear { x = 5; w = 6 },                            // 7: a score per byte value, [1, 64, 256]
    #reshape { x = 7; shape = [64, 256] },               // 8
    #cross_entropy { logits = 8; targets = 3 },          // 9: the loss
  ];

  public func learn(steps : Nat) : async { first : Float; last : Float } {
    await device.moxzi_device_params([
      { name = "embed"; shape = [256, 16]; init = #normal 0.1 },
      { name = "head"; shape = [256, 16]; init = #normal 0.1 },
    ]);
    await device.moxzi_device_optimizer({
      name = "adam"; params = ["embed", "head"]; lr = 0.05;
      beta1 = 0.9; beta2 = 0.99; eps = 1e-8; weight_decay = 0.0; kind = ?#adamw;
    });
    var first = 0.0;
    var last = 0.0;
    var i = 0;
    while (i < steps) {
      let r = await device.moxzi_device_run({
        inputs = [{ data = text; elem = #u8; shape = [1, 65] }];
        program;
        train = ?{ loss = 9; optimizer = "adam"; clip = null; lr = null; also = null };
        scalars = [9];
        tensors = [];
      });
      if (i == 0) first := r.scalars[0];
      last := r.scalars[0];
      i += 1;
    };
    { first; last };
  };
};
