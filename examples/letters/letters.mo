// The device API in one small actor (from "GPU math for actors"): two parameters, an optimizer, and one
// training program per step that learns to predict the next letter of a phrase; the loss comes back.
import Nat "mo:core/Nat";
import Text "mo:core/Text";
import Device "mo:moxzi/Device";
import Program "mo:moxzi/Program";

persistent actor {
  transient let device = Device.device(); // the management canister aaaaa-aa, with moxzi_device_*

  // 65 bytes of text: the model reads the first 64 and predicts each next one.
  let text = Text.encodeUtf8("hello moxzi, hello actors, hello tensors on a device. hello again");

  func lossProgram() : ([Device.Op], Device.Reg) {
    let p = Program.Program(); // each call appends an op and returns its register (its position)
    let bytes = p.input(0); // [1, 65]
    let reads = p.narrow(bytes, 1, 0, 64);
    let targets = p.reshape(p.narrow(bytes, 1, 1, 64), [64]);
    let embedded = p.embedding(p.param("embed"), reads); // a vector per byte value: [1, 64, 16]
    let logits = p.linear(embedded, p.param("head")); // a score per byte value: [1, 64, 256]
    let loss = p.crossEntropy(p.reshape(logits, [64, 256]), targets);
    (p.ops(), loss)
  };
  transient let (program, loss) = lossProgram();

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
    for (i in Nat.range(0, steps)) {
      let r = await device.moxzi_device_run({
        inputs = [{ data = text; elem = #u8; shape = [1, 65] }];
        program;
        train = ?{ loss; optimizer = "adam"; clip = null; lr = null; also = null };
        scalars = [loss];
        tensors = [];
        split = null;
      });
      if (i == 0) first := r.scalars[0];
      last := r.scalars[0];
    };
    { first; last };
  };
};
