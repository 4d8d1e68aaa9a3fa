// The trainer of "Serve and train with several actors": the Shakespeare GPT of
// examples/shakespeare/gpt.mo, training in the background (10 steps per timer message) and publishing
// its weights under live/ after each batch so other actors (writer.mo) can read them. Hosted four more
// times as islands that train on their own batches and average their weights every few steps.
import Array "mo:core/Array";
import Blob "mo:core/Blob";
import Float "mo:core/Float";
import List "mo:core/List";
import Nat "mo:core/Nat";
import Nat8 "mo:core/Nat8";
import Nat32 "mo:core/Nat32";
import Nat64 "mo:core/Nat64";
import Principal "mo:core/Principal";
import Runtime "mo:core/Runtime";
import Text "mo:core/Text";
import Timer "mo:core/Timer";
import VarArray "mo:core/VarArray";
import Device "mo:moxzi/Device";
import F32 "mo:moxzi/F32";
import Gpt "mo:moxzi/Gpt";
import Program "mo:moxzi/Program";

persistent actor Self {
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

  // The loss on a batch: input 0 is [batch, block + 1] token ids.
  func run(starts : [Nat], train : Bool) : async Float {
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
        loss := await run(starts, true);
        step += 1;
      };
    };
    "step " # step.toText() # " | loss " # loss.format(#fix 4)
  };

  // Train in the background, 10 steps per timer callback, and publish the weights after each
  // batch so other actors can read them.
  var target = 0;
  var lastLoss = 0.0;
  transient var scheduled = false;

  func schedule<system>() {
    if (scheduled or step >= target) return;
    scheduled := true;
    ignore Timer.setTimer<system>(#seconds 0, func() : async () {
      scheduled := false;
      var k = 0;
      while (k < 10 and step < target) {
        let starts = Array.tabulate<Nat>(batchSize, func _ = below(Nat.sub(nTrain, blockSize + 1)));
        lastLoss := await run(starts, true);
        step += 1;
        k += 1;
      };
      await device.moxzi_device_publish({ names = paramNames; prefix = "live/"; readers = ?#anyone });
      schedule<system>();
    });
  };

  public func trainInBackground(until : Nat) : async () {
    target := Nat.min(until, maxIters);
    schedule<system>();
  };

  public query func status() : async Text {
    "step " # step.toText() # " | loss " # lastLoss.format(#fix 4)
  };

  public query func vocabulary() : async Blob { Blob.fromArray(vocab) };

  public query func id() : async Principal { Principal.fromActor(Self) };

  // Average loss over 20 fixed batches from each split, the numbers nanoGPT reports.
  func estimate(from : Nat, to : Nat) : async Float {
    let span = Nat.sub(to, from + blockSize + 1);
    var total = 0.0;
    for (k in Nat.range(0, 20)) {
      let starts = Array.tabulate<Nat>(batchSize, func j = from + (k * batchSize + j) * span / (20 * batchSize));
      total += await run(starts, false);
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
    let bytes = ids.map(func(id : Nat) : Nat8 = vocab[id]);
    switch (Text.decodeUtf8(Blob.fromArray(bytes))) { case (?text) text; case null "" }
  };

  // Islands: several trainers learn from different random batches and average their weights
  // every few steps. Each one starts from the same weights (the same seed); `island` changes
  // which batches it draws.
  public func setIsland(island : Nat) : async () {
    rng ^= Nat64.fromNat(island) *% 0x9E3779B97F4A7C15;
  };

  public func share() : async () {
    await device.moxzi_device_publish({ names = paramNames; prefix = "island/"; readers = ?#anyone });
  };

  // Set every parameter to the mean of this trainer's and its peers' published copies.
  public func average(peers : [Principal]) : async () {
    await* averageOf(peers.map(func(p : Principal) : Copy = { owner = p; prefix = "island/" }));
  };

  // Across machines: this island's shared copy as a URL that `uses` islands on other moxzids fetch.
  public func offer(uses : Nat) : async Text {
    await device.moxzi_device_export({ names = paramNames; prefix = "island/"; uses = ?uses; seconds = null })
  };

  // Fetch other machines' islands' offers (into this trainer's own publications far<i>/), then set
  // every parameter to the mean of this trainer's, its peers' here and the fetched copies.
  public func averageAcross(peers : [Principal], offers : [Text]) : async () {
    let me = Principal.fromActor(Self);
    let far = offers.mapEntries(func(_ : Text, i : Nat) : Copy = { owner = me; prefix = "far" # i.toText() # "/" });
    for (i in offers.keys()) await device.moxzi_device_fetch({ url = offers[i]; prefix = far[i].prefix });
    await* averageOf(peers.map(func(p : Principal) : Copy = { owner = p; prefix = "island/" }).concat(far));
  };

  // Each parameter := the mean of its own value and the publications `prefix # name` of each owner.
  type Copy = { owner : Principal; prefix : Text };
  func averageOf(copies : [Copy]) : async* () {
    let w = 1.0 / Float.fromInt(copies.size() + 1);
    await device.moxzi_device_mix(paramNames.map(func(name : Text) : Device.Mix = {
      into = name;
      terms = [{ owner = null; name; weight = w }].concat(copies.map(func(c : Copy) : Device.Term = { owner = ?c.owner; name = c.prefix # name; weight = w }));
    }));
  };

  // Run `rounds` rounds: every island trains `every` steps, shares, and averages with the others.
  public func lead(peers : [Principal], rounds : Nat, every : Nat) : async Text {
    type Island = actor { train : Nat -> async Text; share : () -> async (); average : [Principal] -> async () };
    let me = Principal.fromActor(Self);
    let all = [me].concat(peers);
    for (_ in Nat.range(0, rounds)) {
      let trained = List.empty<async Text>();
      for (p in all.values()) trained.add((actor (p.toText()) : Island).train(every));
      for (f in trained.values()) ignore await f;
      for (p in all.values()) await (actor (p.toText()) : Island).share();
      for (p in all.values()) {
        await (actor (p.toText()) : Island).average(all.filter(func(q : Principal) : Bool = q != p));
      };
    };
    await evaluate()
  };

  // After an upgrade the timer is gone: the actor's body runs again and re-arms it.
  schedule<system>();
};
