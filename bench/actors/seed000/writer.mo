// Seed 000's writer.mo ("Serve and train with several actors") as the tutorial writes it: its code
// blocks joined in order, with what they use from seed 003's gpt.mo (the model's shape, the generator,
// n32, layer, f32). examples/islands/writer.mo is the version on mo:moxzi.
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

persistent actor {
  // The same operations as the trainer's, plus `shared`: a weight another actor published.
  type Op = {
  #input : Nat32;
  #shared_ : { owner : Principal; name : Text };
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
  };
  type Device = actor {
  moxzi_device_run : ({
  inputs : [{ data : Blob; elem : { #u8 }; shape : [Nat32] }];
  program : [Op];
  train : ?{ loss : Nat32; optimizer : Text; clip : ?Float; lr : ?Float; also : ?[Text] };
  scalars : [Nat32];
  tensors : [Nat32];
  }) -> async { scalars : [Float]; tensors : [Blob] };
  };
  transient let device : Device = actor "aaaaa-aa";
  // The trainer's model shape and generator (seed 003's gpt.mo).
  let nLayer = 4;
  let nHead = 4;
  let nEmbd = 128;
  let blockSize = 64;
  var rng : Nat64 = 1337;
  func next() : Nat64 {
  rng ^= rng >> 12;
  rng ^= rng << 25;
  rng ^= rng >> 27;
  rng *% 0x2545F4914F6CDD1D
  };
  func uniform() : Float = Float.fromInt(Nat64.toNat(next() >> 11)) * 0x1p-53;
  func f32(b : Blob, at : Nat) : Float {
  let bits = b[at].toNat32() | (b[at + 1].toNat32() << 8) | (b[at + 2].toNat32() << 16) | (b[at + 3].toNat32() << 24);
  let sign = if (bits >> 31 == 1) -1.0 else 1.0;
  let e = (bits >> 23) & 0xFF;
  let m = Float.fromInt((bits & 0x7FFFFF).toNat());
  if (e == 0) sign * m * 0x1p-149 else sign * (1.0 + m * 0x1p-23) * Float.pow(2.0, Float.fromInt(e.toNat()) - 127.0)
  };
  func layer(i : Nat, w : Text) : Text = "h" # i.toText() # "." # w;
  func n32(n : Nat) : Nat32 = Nat32.fromNat(n);
  type Trainer = actor { vocabulary : query () -> async Blob };
  var trainer : ?Principal = null;
  var vocab : [Nat8] = [];
  public func follow(t : Principal) : async () {
  trainer := ?t;
  vocab := (await (actor (t.toText()) : Trainer).vocabulary()).toArray();
  };
  // The trainer's model, with every weight read from its publication: `live/` + the name.
  func gpt(ops : List.List<Op>, owner : Principal, tokens : Nat32, t : Nat) : Nat32 {
  func op(o : Op) : Nat32 { ops.add(o); n32(Nat.sub(ops.size(), 1)) };
  func w(name : Text) : Nat32 = op(#shared_ { owner; name = "live/" # name });
  let (tt, d, hd) = (n32(t), n32(nEmbd), n32(nEmbd / nHead));
  func heads(x : Nat32) : Nat32 = op(#transpose { x = op(#reshape { x; shape = [1, tt, n32(nHead), hd] }); a = 1; b = 2 });
  var x = op(#embedding { table = w "wte"; ids = tokens });
  for (i in Nat.range(0, nLayer)) {
  let qkv = op(#linear { x = op(#rms_norm x); w = w(layer(i, "qkv")) });
  let q = op(#rope(heads(op(#narrow { x = qkv; dim = 2; start = 0; len = d }))));
  let k = op(#rope(heads(op(#narrow { x = qkv; dim = 2; start = d; len = d }))));
  let v = heads(op(#narrow { x = qkv; dim = 2; start = 2 * d; len = d }));
  let att = op(#causal_attention { q; k; v });
  let merged = op(#reshape { x = op(#transpose { x = att; a = 1; b = 2 }); shape = [1, tt, d] });
  x := op(#add { a = x; b = op(#linear { x = merged; w = w(layer(i, "proj")) }) });
  let hidden = op(#relu(op(#linear { x = op(#rms_norm x); w = w(layer(i, "fc")) })));
  x := op(#add { a = x; b = op(#linear { x = hidden; w = w(layer(i, "out")) }) });
  };
  op(#linear { x = op(#rms_norm x); w = w "head" })
  };
  public func write(count : Nat, temperature : Float) : async Text {
  let owner = switch (trainer) { case (?t) t; case null Runtime.trap("call follow first") };
  let newline = switch (vocab.indexOf(10 : Nat8)) { case (?i) i; case null 0 };
  let out = List.empty<Nat8>();
  out.add(Nat8.fromNat(newline));
  for (_ in Nat.range(0, count)) {
  let t = Nat.min(out.size(), blockSize);
  let context = Array.tabulate<Nat8>(t, func i = out.at(Nat.sub(out.size(), t) + i));
  let ops = List.empty<Op>();
  func op(o : Op) : Nat32 { ops.add(o); n32(Nat.sub(ops.size(), 1)) };
  let logits = gpt(ops, owner, op(#input 0), t);
  let last = op(#narrow { x = logits; dim = 1; start = n32(Nat.sub(t, 1)); len = 1 });
  let r = await device.moxzi_device_run({
  inputs = [{ data = Blob.fromArray(context); elem = #u8; shape = [1, n32(t)] }];
  program = ops.toArray();
  train = null;
  scalars = [];
  tensors = [last];
  });
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
};
