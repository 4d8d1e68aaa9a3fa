// learner.mo's model trained data parallel: a batch of four rows whose first dim the run splits across
// the device's ranks (`split = ?[0]`). For tests of a device on several ranks kept across restarts.
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
      split : ?[Nat32];
    }) -> async { scalars : [Float]; tensors : [Blob] };
  };
  transient let device : Device = actor "aaaaa-aa";

  // Four rows of 33 bytes: each row predicts its own next bytes.
  let text = Text.encodeUtf8("hello moxzi, hello actors, hello rows go to ranks and come back ok"
    # "every rank steps the same weightsone batch of four rows, two ranks");
  let program : [Op] = [
    #input 0,                                            // [4, 33]
    #narrow { x = 0; dim = 1; start = 0; len = 32 },     // ids [4, 32]
    #narrow { x = 0; dim = 1; start = 1; len = 32 },     // next bytes [4, 32]
    #reshape { x = 2; shape = [128] },                   // targets [128]
    #param "embed",
    #embedding { table = 4; ids = 1 },                   // [4, 32, 8]
    #param "head",
    #linear { x = 5; w = 6 },                            // [4, 32, 256]
    #reshape { x = 7; shape = [128, 256] },
    #cross_entropy { logits = 8; targets = 3 },          // the mean over all 128 positions
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
        inputs = [{ data = text; elem = #u8; shape = [4, 33] }];
        program;
        train = ?{ loss = 9; optimizer = "adam"; clip = ?1.0; lr = null; also = null };
        scalars = [9];
        tensors = [];
        split = ?[0];
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
      inputs = []; program = [#param "head"]; train = null; scalars = []; tensors = [0]; split = null;
    });
    r.tensors[0]
  };
};
