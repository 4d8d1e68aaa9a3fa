// learner.mo with one causal self-attention layer (2 heads of 16) and clipped gradients: what a device
// plugin's attention and optimizer kernels run on when moxzid trains it. `learn` runs training steps,
// one device call each, and returns the losses.
import Array "mo:core/Array";
import Text "mo:core/Text";

persistent actor {
  type Op = {
    #input : Nat32;
    #param : Text;
    #narrow : { x : Nat32; dim : Nat32; start : Nat32; len : Nat32 };
    #reshape : { x : Nat32; shape : [Nat32] };
    #transpose : { x : Nat32; a : Nat32; b : Nat32 };
    #embedding : { table : Nat32; ids : Nat32 };
    #linear : { x : Nat32; w : Nat32 };
    #causal_attention : { q : Nat32; k : Nat32; v : Nat32 };
    #add : { a : Nat32; b : Nat32 };
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

  let text = Text.encodeUtf8("hello moxzi, hello actors, hello "); // 33 bytes: 32 positions
  let program : [Op] = [
    #input 0, // [1, 33]
    #narrow { x = 0; dim = 1; start = 0; len = 32 }, // 1: inputs [1, 32]
    #narrow { x = 0; dim = 1; start = 1; len = 32 },
    #reshape { x = 2; shape = [32] }, // 3: targets [32]
    #param "embed",
    #embedding { table = 4; ids = 1 }, // 5: x [1, 32, 32]
    #param "qkv",
    #linear { x = 5; w = 6 }, // 7: [1, 32, 96]
    #narrow { x = 7; dim = 2; start = 0; len = 32 },
    #narrow { x = 7; dim = 2; start = 32; len = 32 },
    #narrow { x = 7; dim = 2; start = 64; len = 32 },
    #reshape { x = 8; shape = [1, 32, 2, 16] },
    #transpose { x = 11; a = 1; b = 2 }, // 12: q [1, 2, 32, 16]
    #reshape { x = 9; shape = [1, 32, 2, 16] },
    #transpose { x = 13; a = 1; b = 2 }, // 14: k
    #reshape { x = 10; shape = [1, 32, 2, 16] },
    #transpose { x = 15; a = 1; b = 2 }, // 16: v
    #causal_attention { q = 12; k = 14; v = 16 }, // 17: [1, 2, 32, 16]
    #transpose { x = 17; a = 1; b = 2 },
    #reshape { x = 18; shape = [1, 32, 32] }, // 19: heads merged
    #add { a = 5; b = 19 }, // 20: x + attention
    #param "head",
    #linear { x = 20; w = 21 }, // 22: [1, 32, 256]
    #reshape { x = 22; shape = [32, 256] },
    #cross_entropy { logits = 23; targets = 3 }, // 24: loss
  ];
  var ready = false;
  var losses : [Float] = [];

  public func learn(steps : Nat) : async [Float] {
    if (not ready) {
      await device.moxzi_device_params([
        { name = "embed"; shape = [256, 32]; init = #normal 0.1 },
        { name = "qkv"; shape = [96, 32]; init = #normal 0.1 },
        { name = "head"; shape = [256, 32]; init = #normal 0.1 },
      ]);
      await device.moxzi_device_optimizer({
        name = "adam"; params = ["embed", "qkv", "head"]; lr = 0.02;
        beta1 = 0.9; beta2 = 0.99; eps = 1e-8; weight_decay = 0.1; kind = ?#adamw;
      });
      ready := true;
    };
    var i = 0;
    while (i < steps) {
      let r = await device.moxzi_device_run({
        inputs = [{ data = text; elem = #u8; shape = [1, 33] }];
        program;
        train = ?{ loss = 24; optimizer = "adam"; clip = ?0.1; lr = null; also = null };
        scalars = [24];
        tensors = [];
      });
      losses := losses.concat([r.scalars[0]]);
      i += 1;
    };
    losses
  };
};
