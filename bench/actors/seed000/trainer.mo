// Seed 000's trainer.mo ("Serve and train with several actors") as the tutorial writes it: seed 003's
// gpt.mo as that tutorial writes it (bench/actors/seed003/gpt.mo) named Self, with publish and mix in
// the device type, background training that publishes under live/, and the islands' methods
// (bench/state_size.py's `islands --seed`). examples/islands/trainer.mo is the leaner version.
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

persistent actor Self {
  // The tensor device is the management canister, aaaaa-aa. Declare the operations you use.
  type Op = {
  #input : Nat32;
  #param : Text;
  #narrow : { x : Nat32; dim : Nat32; start : Nat32; len : Nat32 };
  #reshape : { x : Nat32; shape : [Nat32] };
  #transpose : { x : Nat32; a : Nat32; b : Nat32 };
  #embedding : { table : Nat32; ids : Nat32 };
  #linear : { x : Nat32; w : Nat32 };
  #rms_norm : Nat32;
  #rope : Nat32;
  #causal_attention : { q : Nat32; k : Nat32; v : Nat32 };
  #relu : Nat32;
  #add : { a : Nat32; b : Nat32 };
  #cross_entropy : { logits : Nat32; targets : Nat32 };
  };
  type Device = actor {
  moxzi_device_params : ([{ name : Text; shape : [Nat32]; init : { #values : Blob } }]) -> async ();
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
  moxzi_device_publish : ({ names : [Text]; prefix : Text; readers : ?{ #anyone } }) -> async ();
  moxzi_device_mix : ([{ into : Text; terms : [{ owner : ?Principal; name : Text; weight : Float }] }]) -> async ();
  };
  transient let device : Device = actor "aaaaa-aa";
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
  var rng : Nat64 = 1337;
  func next() : Nat64 {
  rng ^= rng >> 12;
  rng ^= rng << 25;
  rng ^= rng >> 27;
  rng *% 0x2545F4914F6CDD1D
  };
  func uniform() : Float = Float.fromInt(Nat64.toNat(next() >> 11)) * 0x1p-53;
  func below(n : Nat) : Nat = Nat64.toNat(next() % Nat64.fromNat(n));
  func gauss(std : Float) : Float {
  var acc = 0.0;
  for (_ in Nat.range(0, 12)) acc += uniform();
  std * (acc - 6.0)
  };
  // The device exchanges tensors as little-endian float32 bytes. Motoko has no bit cast
  // between Float and its bits, so convert by hand.
  func f32Bits(x : Float) : Nat32 {
  if (x == 0.0) return 0;
  let a = Float.abs(x);
  var e = Float.toInt(Float.floor(Float.log(a) / Float.log(2.0)));
  var p = Float.pow(2.0, Float.fromInt(e));
  if (p > a) { e -= 1; p /= 2.0 } else if (p * 2.0 <= a) { e += 1; p *= 2.0 };
  let m = Float.toInt(Float.nearest((a / p - 1.0) * 0x1p23));
  let bits = Nat32.fromIntWrap((e + 127) * 0x800000 + m);
  if (x < 0.0) bits | 0x80000000 else bits
  };
  func f32(b : Blob, at : Nat) : Float {
  let bits = b[at].toNat32() | (b[at + 1].toNat32() << 8) | (b[at + 2].toNat32() << 16) | (b[at + 3].toNat32() << 24);
  let sign = if (bits >> 31 == 1) -1.0 else 1.0;
  let e = (bits >> 23) & 0xFF;
  let m = Float.fromInt((bits & 0x7FFFFF).toNat());
  if (e == 0) sign * m * 0x1p-149 else sign * (1.0 + m * 0x1p-23) * Float.pow(2.0, Float.fromInt(e.toNat()) - 127.0)
  };
  // Parameters live on the device: the actor only knows their names.
  func layer(i : Nat, w : Text) : Text = "h" # i.toText() # "." # w;
  func n32(n : Nat) : Nat32 = Nat32.fromNat(n);
  var paramNames : [Text] = [];
  // Draw `rows` x `cols` weights and send them to the device, one parameter per message.
  func param(name : Text, rows : Nat, cols : Nat, std : Float) : async () {
  let bytes = VarArray.repeat<Nat8>(0, 4 * rows * cols);
  for (i in Nat.range(0, rows * cols)) {
  let bits = f32Bits(gauss(std));
  bytes[4 * i] := Nat8.fromNat((bits & 0xFF).toNat());
  bytes[4 * i + 1] := Nat8.fromNat(((bits >> 8) & 0xFF).toNat());
  bytes[4 * i + 2] := Nat8.fromNat(((bits >> 16) & 0xFF).toNat());
  bytes[4 * i + 3] := Nat8.fromNat((bits >> 24).toNat());
  };
  await device.moxzi_device_params([{ name; shape = [n32(rows), n32(cols)]; init = #values(Blob.fromVarArray(bytes)) }]);
  };
  func initModel() : async () {
  let (v, d) = (vocab.size(), nEmbd);
  let std = 0.02;
  let projStd = std / Float.sqrt(2.0 * Float.fromInt(nLayer)); // nanoGPT scales the residual projections
  let names = List.empty<Text>();
  func add(name : Text) : Text { names.add(name); name };
  await param(add "wte", v, d, std);
  for (i in Nat.range(0, nLayer)) {
  await param(add(layer(i, "qkv")), 3 * d, d, std);
  await param(add(layer(i, "proj")), d, d, projStd);
  await param(add(layer(i, "fc")), 4 * d, d, std);
  await param(add(layer(i, "out")), d, 4 * d, projStd);
  };
  await param(add "head", v, d, std);
  paramNames := names.toArray();
  await device.moxzi_device_optimizer({
  name = "adamw"; params = paramNames; lr = learningRate;
  beta1 = 0.9; beta2 = 0.99; eps = 1e-8; weight_decay = 0.1; kind = ?#adamw;
  });
  };
  // A program is a list of operations. Each result is a register: its position in the list.
  // gpt adds the model's operations: token ids [b, t] in, logits [b, t, vocab] out.
  func gpt(ops : List.List<Op>, tokens : Nat32, b : Nat, t : Nat) : Nat32 {
  func op(o : Op) : Nat32 { ops.add(o); n32(Nat.sub(ops.size(), 1)) };
  let (bb, tt, d, hd) = (n32(b), n32(t), n32(nEmbd), n32(nEmbd / nHead));
  // [b, t, d] -> [b, heads, t, head size]
  func heads(x : Nat32) : Nat32 = op(#transpose { x = op(#reshape { x; shape = [bb, tt, n32(nHead), hd] }); a = 1; b = 2 });
  var x = op(#embedding { table = op(#param "wte"); ids = tokens });
  for (i in Nat.range(0, nLayer)) {
  // 1) Causal self-attention, with rotary position embeddings on the queries and keys
  let qkv = op(#linear { x = op(#rms_norm x); w = op(#param(layer(i, "qkv"))) });
  let q = op(#rope(heads(op(#narrow { x = qkv; dim = 2; start = 0; len = d }))));
  let k = op(#rope(heads(op(#narrow { x = qkv; dim = 2; start = d; len = d }))));
  let v = heads(op(#narrow { x = qkv; dim = 2; start = 2 * d; len = d }));
  let att = op(#causal_attention { q; k; v });
  let merged = op(#reshape { x = op(#transpose { x = att; a = 1; b = 2 }); shape = [bb, tt, d] });
  x := op(#add { a = x; b = op(#linear { x = merged; w = op(#param(layer(i, "proj"))) }) });
  // 2) MLP
  let hidden = op(#relu(op(#linear { x = op(#rms_norm x); w = op(#param(layer(i, "fc"))) })));
  x := op(#add { a = x; b = op(#linear { x = hidden; w = op(#param(layer(i, "out"))) }) });
  };
  op(#linear { x = op(#rms_norm x); w = op(#param "head") })
  };
  // The loss on a batch: input 0 is [batch, block + 1] token ids.
  func lossProgram() : ([Op], Nat32) {
  let ops = List.empty<Op>();
  func op(o : Op) : Nat32 { ops.add(o); n32(Nat.sub(ops.size(), 1)) };
  let (b, t) = (n32(batchSize), n32(blockSize));
  let seq = op(#input 0);
  let inputs = op(#narrow { x = seq; dim = 1; start = 0; len = t });
  let targets = op(#reshape { x = op(#narrow { x = seq; dim = 1; start = 1; len = t }); shape = [b * t] });
  let logits = gpt(ops, inputs, batchSize, blockSize);
  let flat = op(#reshape { x = logits; shape = [b * t, n32(vocab.size())] });
  let loss = op(#cross_entropy { logits = flat; targets });
  (ops.toArray(), loss)
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
  func run(starts : [Nat], train : Bool) : async Float {
  let (program, loss) = lossProgram();
  let r = await device.moxzi_device_run({
  inputs = [{ data = batch(starts); elem = #u8; shape = [n32(batchSize), n32(blockSize + 1)] }];
  program;
  train = if train ?{ loss; optimizer = "adamw"; clip = ?1.0; lr = ?lrAt(step); also = null } else null;
  scalars = [loss];
  tensors = [];
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
  let out = List.empty<Nat8>(); // token ids
  out.add(idOf[10]); // "\n"
  for (_ in Nat.range(0, count)) {
  // The model sees the last blockSize characters.
  let t = Nat.min(out.size(), blockSize);
  let context = Array.tabulate<Nat8>(t, func i = out.at(Nat.sub(out.size(), t) + i));
  let ops = List.empty<Op>();
  func op(o : Op) : Nat32 { ops.add(o); n32(Nat.sub(ops.size(), 1)) };
  let logits = gpt(ops, op(#input 0), 1, t);
  let last = op(#narrow { x = logits; dim = 1; start = n32(Nat.sub(t, 1)); len = 1 });
  let r = await device.moxzi_device_run({
  inputs = [{ data = Blob.fromArray(context); elem = #u8; shape = [1, n32(t)] }];
  program = ops.toArray();
  train = null;
  scalars = [];
  tensors = [last];
  });
  // Softmax at the temperature, then draw a token.
  let scores = Array.tabulate<Float>(vocab.size(), func v = f32(r.tensors[0], 4 * v) / temperature);
  var max = scores[0];
  for (s in scores.values()) if (s > max) max := s;
  var total = 0.0;
  for (s in scores.values()) total += Float.exp(s - max);
  var u = uniform() * total;
  var pick = Nat.sub(vocab.size(), 1);
  label draw for (v in scores.keys()) {
  let p = Float.exp(scores[v] - max);
  if (u < p) { pick := v; break draw };
  u -= p;
  };
  out.add(Nat8.fromNat(pick));
  };
  let bytes = Array.tabulate<Nat8>(Nat.sub(out.size(), 1), func i = vocab[out.at(i + 1).toNat()]);
  switch (Text.decodeUtf8(Blob.fromArray(bytes))) { case (?text) text; case null "" }
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
  // After an upgrade the timer is gone: the actor's body runs again and re-arms it.
  schedule<system>();
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
  let w = 1.0 / Float.fromInt(peers.size() + 1);
  await device.moxzi_device_mix(paramNames.map(func(name : Text) : { into : Text; terms : [{ owner : ?Principal; name : Text; weight : Float }] } = {
  into = name;
  terms = [{ owner = null; name; weight = w }].concat(
  peers.map(func(p : Principal) : { owner : ?Principal; name : Text; weight : Float } = { owner = ?p; name = "island/" # name; weight = w }));
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
};
