// mo:moxzi's modules, each behind a method tests/test_motoko_library.py calls.
import Array "mo:core/Array";
import Blob "mo:core/Blob";
import Float "mo:core/Float";
import Nat32 "mo:core/Nat32";
import Time "mo:core/Time";
import Device "mo:moxzi/Device";
import F32 "mo:moxzi/F32";
import Gpt "mo:moxzi/Gpt";
import Program "mo:moxzi/Program";

persistent actor {
  transient let device = Device.device();

  public query func toBits(xs : [Float]) : async [Nat32] { xs.map(F32.toBits) };
  public query func fromBits(bits : [Nat32]) : async [Float] { bits.map(F32.fromBits) };
  public query func toBlob(xs : [Float]) : async Blob { F32.toBlob(xs) };
  public query func fromBlob(b : Blob) : async [Float] { F32.fromBlob(b) };

  // F32.tabulateInParts's bytes, F32.tabulate's, and in how many messages the first were computed (a
  // message's time is its own: moxzid's strictly increases from message to message).
  public func tabulateInParts(n : Nat, part : Nat) : async (Blob, Blob, Nat) {
    var last : Int = -1;
    var messages = 0;
    let parts = await* F32.tabulateInParts(n, part, func i {
      if (Time.now() != last) { last := Time.now(); messages += 1 };
      Float.fromInt(i) / 3.0
    });
    (parts, F32.tabulate(n, func i = Float.fromInt(i) / 3.0), messages)
  };

  public query func nanoGpt() : async [Device.Op] {
    let p = Program.Program();
    let x = p.input(0);
    ignore p.linear(p.rmsNorm(x), p.param("head"));
    p.ops()
  };

  public query func lossProgram(c : Gpt.Config, b : Nat, t : Nat) : async ([Device.Op], Nat32) {
    let p = Program.Program();
    let loss = Gpt.loss(p, c, #params, p.input(0), b, t);
    (p.ops(), loss)
  };

  public query func paramNames(c : Gpt.Config) : async [Text] { Gpt.paramNames(c) };

  public func createModel(c : Gpt.Config) : async () {
    await device.moxzi_device_params(Gpt.params(c).map(func(w : Gpt.Weight) : Device.Param = {
      name = w.name; shape = [Nat32.fromNat(w.rows), Nat32.fromNat(w.cols)]; init = #normal(w.std * 10.0);
    }));
  };

  // The logits of every position of `tokens` [1, t], all at once.
  public func logits(c : Gpt.Config, tokens : Blob) : async Blob {
    let p = Program.Program();
    let t = tokens.size();
    let out = Gpt.logits(p, c, #params, p.input(0), 1, t);
    await* run(p, tokens, out)
  };

  // The same logits from the cache: the first `prefill` tokens in one run, then one run per token.
  public func cachedLogits(c : Gpt.Config, tokens : Blob, prefill : Nat) : async [Blob] {
    let bytes = tokens.toArray();
    var start = 0;
    var results : [Blob] = [];
    while (start < bytes.size()) {
      let t = if (start == 0) prefill else 1;
      let p = Program.Program();
      let out = Gpt.cachedLogits(p, c, #params, p.input(0), 1, t, start, "cache/");
      results := results.concat([await* run(p, Blob.fromArray(bytes.sliceToArray(start, start + t)), out)]);
      start += t;
    };
    results
  };

  public func generate(c : Gpt.Config, first : Nat, count : Nat) : async [Nat] {
    var u = 0.0;
    await* Gpt.generate(device, c, #params, 4, first, count, 1.0, func() : Float { u := (u + 0.37) % 1.0; u })
  };

  // generate's tokens (the same draws) from the sliding key/value cache.
  public func generateCached(c : Gpt.Config, first : Nat, count : Nat) : async [Nat] {
    var u = 0.0;
    await* Gpt.generateCached(device, c, #params, 4, first, count, 1.0, func() : Float { u := (u + 0.37) % 1.0; u }, "window/")
  };

  public query func sample(scores : [Float], temperature : Float, u : Float) : async Nat {
    Gpt.sample(scores, temperature, u)
  };

  func run(p : Program.Program, tokens : Blob, out : Device.Reg) : async* Blob {
    let r = await device.moxzi_device_run({
      inputs = [{ data = tokens; elem = #u8; shape = [1, Nat32.fromNat(tokens.size())] }];
      program = p.ops(); train = null; scalars = []; tensors = [out]; split = null;
    });
    r.tensors[0]
  };
};
