// A Shakespeare GPT trained on moxzid's tensor device (from "Train a Shakespeare GPT on the GPU"):
// nanoGPT's character-level Shakespeare model with its laptop settings, 4 layers, 4 heads, 128-wide
// embeddings, 64 characters of context, about 800,000 parameters. The actor decides what to train on;
// the device holds the weights and does the arithmetic; mo:moxzi/Gpt writes the model's program.
import Array "mo:core/Array";
import Blob "mo:core/Blob";
import Float "mo:core/Float";
import Nat "mo:core/Nat";
import Nat8 "mo:core/Nat8";
import Nat32 "mo:core/Nat32";
import Nat64 "mo:core/Nat64";
import Runtime "mo:core/Runtime";
import Text "mo:core/Text";
import VarArray "mo:core/VarArray";
import Device "mo:moxzi/Device";
import F32 "mo:moxzi/F32";
import Gpt "mo:moxzi/Gpt";
import Program "mo:moxzi/Program";

persistent actor {
  transient let device = Device.device();

  // nanoGPT's shakespeare_char settings for a laptop.
  let nLayer = 4;
  let nHead = 4;
  let nEmbd = 128;
  let blockSize = 64; // characters of context
  let batchSize = 12; // sequences per step
  let maxIters = 2000;
  let learningRate = 1e-3;
  let minLr = 1e-4;
  let warmupIters = 100;

  // The text's bytes, and a token id for each distinct byte. The first 90% trains the model;
  // the rest checks it on text it hasn't seen.
  var data : Blob = "";
  var vocab : [Nat8] = []; // token id -> byte
  var idOf : [Nat8] = []; // byte -> token id
  var nTrain = 0;

  public func load(text : Text) : async Text {
    data := text.encodeUtf8();
    let seen = VarArray.repeat<Bool>(false, 256);
    for (b in data.values()) seen[b.toNat()] := true;
    vocab := Array.tabulate<Nat>(256, func b = b).filter(func(b : Nat) : Bool = seen[b]).map(Nat8.fromNat);
    if (vocab[Nat.sub(vocab.size(), 1)] >= 128) Runtime.trap("this tokenizer handles ASCII text only");
    let ids = VarArray.repeat<Nat8>(0, 256);
    for (i in vocab.keys()) ids[vocab[i].toNat()] := Nat8.fromNat(i);
    idOf := ids.toArray();
    nTrain := data.size() * 9 / 10;
    await initModel();
    "characters: " # data.size().toText() # ", vocabulary: " # vocab.size().toText()
  };

  func token(i : Nat) : Nat8 = idOf[data[i].toNat()];

  // The same seeded generator as microGPT: it draws the starting weights, picks training
  // windows and samples text, so every run on the CPU gives the same numbers.
  // Written to make little garbage, since the starting weights take 12 draws each: a Nat64 or Float
  // that a function returns or a `var` holds is boxed on the heap, a Nat below 2^62 is not (2 KB of
  // garbage a weight written plainly, 0.4 KB so).
  var rng : Nat64 = 1337;
  func advance() {
    let a = rng ^ (rng >> 12);
    let b = a ^ (a << 25);
    rng := b ^ (b >> 27);
  };
  func next() : Nat64 { advance(); rng *% 0x2545F4914F6CDD1D };
  func bits() : Nat { advance(); Nat64.toNat((rng *% 0x2545F4914F6CDD1D) >> 11) }; // next() >> 11
  func uniform() : Float = Float.fromInt(bits()) * 0x1p-53;
  func below(n : Nat) : Nat = Nat64.toNat(next() % Nat64.fromNat(n));
  func gauss(std : Float) : Float {
    let u = 0x1p-53; // twelve uniform() in order, as a sum from 0.0
    let sum = 0.0 + Float.fromInt(bits()) * u + Float.fromInt(bits()) * u + Float.fromInt(bits()) * u
      + Float.fromInt(bits()) * u + Float.fromInt(bits()) * u + Float.fromInt(bits()) * u + Float.fromInt(bits()) * u
      + Float.fromInt(bits()) * u + Float.fromInt(bits()) * u + Float.fromInt(bits()) * u + Float.fromInt(bits()) * u
      + Float.fromInt(bits()) * u;
    std * (sum - 6.0)
  };

  // The model: its weights live on the device, the actor only knows their names.
  func config() : Gpt.Config = { nLayer; nHead; nEmbd; vocab = vocab.size() };
  func n32(n : Nat) : Nat32 = Nat32.fromNat(n);
  var paramNames : [Text] = [];

  // Draw every weight (in the seeds' order) and send it to the device, a parameter per device call,
  // drawn 4,096 values per message (the GC collects what drawing them leaves between messages).
  let drawPart = 4096;
  func initModel() : async () {
    for (w in Gpt.params(config()).values()) {
      let init = #values(await* F32.tabulateInParts(w.rows * w.cols, drawPart, func _ = gauss(w.std)));
      await device.moxzi_device_params([{ name = w.name; shape = [n32(w.rows), n32(w.cols)]; init }]);
    };
    paramNames := Gpt.paramNames(config());
    await device.moxzi_device_optimizer({
      name = "adamw"; params = paramNames; lr = learningRate;
      beta1 = 0.9; beta2 = 0.99; eps = 1e-8; weight_decay = 0.1; kind = ?#adamw;
    });
  };

  var step = 0;

  // Learning rate: linear warmup, then cosine decay to minLr (nanoGPT's get_lr).
  func lrAt(it : Nat) : Float {
    if (it < warmupIters) return learningRate * Float.fromInt(it + 1) / Float.fromInt(warmupIters + 1);
    let ratio = Float.fromInt(Nat.sub(it, warmupIters)) / Float.fromInt(Nat.sub(maxIters, warmupIters));
    minLr + 0.5 * (1.0 + Float.cos(Float.pi * ratio)) * (learningRate - minLr)
  };

  // Windows of block + 1 tokens starting at the given offsets: [batch, block + 1].
  func batch(starts : [Nat]) : Blob =
    Blob.fromArray(Array.tabulate<Nat8>(starts.size() * (blockSize + 1), func i =
      token(starts[i / (blockSize + 1)] + i % (blockSize + 1))));

  // The loss on a batch: input 0 is [batch, block + 1] token ids. An async* function: awaiting it runs
  // it within the caller's message (a plain async one would be a call to the actor itself, two more
  // messages for every device call).
  func run(starts : [Nat], train : Bool) : async* Float {
    let p = Program.Program();
    let loss = Gpt.loss(p, config(), #params, p.input(0), batchSize, blockSize);
    let r = await device.moxzi_device_run({
      inputs = [{ data = batch(starts); elem = #u8; shape = [n32(batchSize), n32(blockSize + 1)] }];
      program = p.ops();
      train = if train ?{ loss; optimizer = "adamw"; clip = ?1.0; lr = ?lrAt(step); also = null } else null;
      scalars = [loss];
      tensors = [];
      split = null;
    });
    r.scalars[0]
  };

  public func train(steps : Nat) : async Text {
    var loss = 0.0;
    for (_ in Nat.range(0, steps)) {
      if (step < maxIters) {
        let starts = Array.tabulate<Nat>(batchSize, func _ = below(Nat.sub(nTrain, blockSize + 1)));
        loss := await* run(starts, true);
        step += 1;
      };
    };
    "step " # step.toText() # " | loss " # loss.format(#fix 4)
  };

  // Average loss over 20 fixed batches from each split, the numbers nanoGPT reports.
  func estimate(from : Nat, to : Nat) : async Float {
    let span = Nat.sub(to, from + blockSize + 1);
    var total = 0.0;
    for (k in Nat.range(0, 20)) {
      let starts = Array.tabulate<Nat>(batchSize, func j = from + (k * batchSize + j) * span / (20 * batchSize));
      total += await* run(starts, false);
    };
    total / 20.0
  };

  public func evaluate() : async Text {
    let trainLoss = await estimate(0, nTrain);
    let valLoss = await estimate(nTrain, data.size());
    "step " # step.toText() # ": train loss " # trainLoss.format(#fix 4) # ", val loss " # valLoss.format(#fix 4)
  };

  // Generate `count` characters after a newline, as nanoGPT's sample.py does.
  public func generate(count : Nat, temperature : Float) : async Text {
    let ids = await* Gpt.generate(device, config(), #params, blockSize, idOf[10].toNat(), count, temperature, uniform);
    text(ids)
  };

  // generate with a key/value cache on the device (kept as the stored tensors gen/h0.k, ...): one
  // character in per device call, so each costs the same however long the text grows.
  public func generateCached(count : Nat, temperature : Float) : async Text {
    text(await* Gpt.generateCached(device, config(), #params, blockSize, idOf[10].toNat(), count, temperature, uniform, "gen/"))
  };

  func text(ids : [Nat]) : Text {
    let bytes = ids.map(func(id : Nat) : Nat8 = vocab[id]);
    switch (Text.decodeUtf8(Blob.fromArray(bytes))) { case (?text) text; case null "" }
  };
};
