// A small actor that trains on the tensor device (letters.mo's model, smaller): for tests of device
// state kept across restarts. `learn` runs training steps, one device call each, and returns the losses.
import Array "mo:core/Array";
import Text "mo:core/Text";

persistent actor {
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
    }) -> async { scalars : [Float]; tensors : [Blob] };
  };
  transient let device : Device = actor "aaaaa-aa";

  let text = Text.encodeUtf8("hello moxzi, hello actors, hello "); // 33 bytes
  let program : [Op] = [
    #input 0,
    #narrow { x = 0; dim = 1; start = 0; len = 32 },
    #narrow { x = 0; dim = 1; start = 1; len = 32 },
    #reshape { x = 2; shape = [32] },
    #param "embed",
    #embedding { table = 4; ids = 1 },
    #param "head",
    #linear { x = 5; w = 6 },
    #reshape { x = 7; shape = [32, 256] },
    #cross_entropy { logits = 8; targets = 3 },
  ];
  var ready = false;
  var losses : [Float] = [];

  public func learn(steps : Nat) : async [Float] {
    if (not ready) {
      await device.moxzi_device_params([
        { name = "embed"; shape = [256, 8]; init = #normal 0.1 },
        { name = "head"; shape = [256, 8]; init = #normal 0.1 },
      ]);
      await device.moxzi_device_optimizer({
        name = "adam"; params = ["embed", "head"]; lr = 0.05;
        beta1 = 0.9; beta2 = 0.99; eps = 1e-8; weight_decay = 0.0; kind = ?#adamw;
      });
      ready := true;
    };
    var i = 0;
    while (i < steps) {
      let r = await device.moxzi_device_run({
        inputs = [{ data = text; elem = #u8; shape = [1, 33] }];
        program;
        train = ?{ loss = 9; optimizer = "adam"; clip = null; lr = null; also = null };
        scalars = [9];
        tensors = [];
      });
      losses := losses.concat([r.scalars[0]]);
      i += 1;
    };
    losses
  };

  // The losses so far (one per training step).
  public query func progress() : async [Float] { losses };

  // The head parameter's bytes (float32, little-endian), read back from the device.
  public func weights() : async Blob {
    let r = await device.moxzi_device_run({
      inputs = []; program = [#param "head"]; train = null; scalars = []; tensors = [0];
    });
    r.tensors[0]
  };
};
