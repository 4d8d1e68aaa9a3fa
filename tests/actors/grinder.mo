// A test actor whose device programs are long by their size: a stack of `layers` square layers (linear
// by one shared weight, then rms_norm) over a [batch, width] parameter, reduced to its mean. For the
// device's scheduling (another actor's short call while this one trains) and its per-call time limit.
import Array "mo:core/Array";
import Nat32 "mo:core/Nat32";

persistent actor {
  type Op = {
    #param : Text;
    #linear : { x : Nat32; w : Nat32 };
    #rms_norm : Nat32;
    #mul : { a : Nat32; b : Nat32 };
    #sum : { x : Nat32; dim : ?Nat32 };
    #mean : { x : Nat32; dim : ?Nat32 };
  };
  type Device = actor {
    moxzi_device_params : ([{ name : Text; shape : [Nat32]; init : { #normal : Float } }]) -> async ();
    moxzi_device_optimizer : ({
      name : Text; params : [Text]; lr : Float;
      beta1 : Float; beta2 : Float; eps : Float; weight_decay : Float; kind : ?{ #adamw };
    }) -> async ();
    moxzi_device_run : ({
      inputs : [{ data : Blob; elem : { #f32 }; shape : [Nat32] }];
      program : [Op];
      train : ?{ loss : Nat32; optimizer : Text; clip : ?Float; lr : ?Float; also : ?[Text] };
      scalars : [Nat32];
      tensors : [Nat32];
    }) -> async { scalars : [Float]; tensors : [Blob] };
  };
  transient let device : Device = actor "aaaaa-aa";

  // x [batch, width] (never trained) and w [width, width], with an AdamW optimizer over w.
  public func setup(width : Nat, batch : Nat) : async () {
    await device.moxzi_device_params([
      { name = "x"; shape = [Nat32.fromNat(batch), Nat32.fromNat(width)]; init = #normal 1.0 },
      { name = "w"; shape = [Nat32.fromNat(width), Nat32.fromNat(width)]; init = #normal 0.1 },
    ]);
    await device.moxzi_device_optimizer({
      name = "adam"; params = ["w"]; lr = 0.01;
      beta1 = 0.9; beta2 = 0.99; eps = 1e-8; weight_decay = 0.0; kind = ?#adamw;
    });
  };

  // Registers: 0 x, 1 w, then linear and rms_norm per layer, then the mean (the last register).
  func stack(layers : Nat) : [Op] {
    let last = 2 + 2 * layers;
    Array.tabulate<Op>(last + 1, func i {
      if (i == 0) { #param "x" }
      else if (i == 1) { #param "w" }
      else if (i == last) { #mean { x = Nat32.fromNat(i - 1); dim = null } }
      else if (i % 2 == 0) { #linear { x = Nat32.fromNat(if (i == 2) 0 else i - 1); w = 1 } }
      else { #rms_norm (Nat32.fromNat(i - 1)) }
    })
  };

  var stopping = false;

  // `steps` training steps of the stack, one device call each, or fewer if `stop` is called
  // meanwhile; the losses.
  public func train(layers : Nat, steps : Nat) : async [Float] {
    let program = stack(layers);
    let loss = Nat32.fromNat(program.size() - 1);
    var losses : [Float] = [];
    var i = 0;
    stopping := false;
    while (i < steps and not stopping) {
      let r = await device.moxzi_device_run({
        inputs = []; program;
        train = ?{ loss; optimizer = "adam"; clip = null; lr = null; also = null };
        scalars = [loss]; tensors = [];
      });
      losses := losses.concat([r.scalars[0]]);
      i += 1;
    };
    losses
  };

  // Ends the training under way after its current step.
  public func stop() : async () { stopping := true };

  // sum(w) and sum(w * w): a small reply that changes with any step (the test compares it exactly).
  public func fingerprint() : async [Float] {
    let r = await device.moxzi_device_run({
      inputs = [];
      program = [#param "w", #sum { x = 0; dim = null }, #mul { a = 0; b = 0 }, #sum { x = 2; dim = null }];
      train = null; scalars = [1, 3]; tensors = [];
    });
    r.scalars
  };
};
