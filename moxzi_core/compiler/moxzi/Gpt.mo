// mo:moxzi/Gpt: the seeds' GPT ("Train a Shakespeare GPT on the GPU"), nanoGPT's model with RMSNorm,
// rotary positions and a ReLU MLP, no biases, as ops of a Program. The weights are named as the seeds
// name them (wte, h0.qkv, h0.proj, h0.fc, h0.out, ..., head): the actor's own parameters, or another
// actor's publications of them.
import Array "mo:core/Array";
import Blob "mo:core/Blob";
import Float "mo:core/Float";
import List "mo:core/List";
import Nat "mo:core/Nat";
import Nat8 "mo:core/Nat8";
import Nat32 "mo:core/Nat32";
import Device "Device";
import F32 "F32";
import Program "Program";

module {
  public type Config = {
    nLayer : Nat;
    nHead : Nat;
    nEmbd : Nat; // the width; nEmbd / nHead per head
    vocab : Nat;
  };
  type Reg = Program.Reg;

  /// Where the weights are: the caller's parameters, or `owner`'s publications `prefix # name`.
  public type Weights = { #params; #published : { owner : Principal; prefix : Text } };

  func reader(p : Program.Program, ws : Weights) : Text -> Reg = switch ws {
    case (#params) p.param;
    case (#published { owner; prefix }) func(name : Text) : Reg = p.shared_(owner, prefix # name);
  };

  public func layer(i : Nat, w : Text) : Text = "h" # i.toText() # "." # w;

  /// A weight [rows, cols] and the std of its starting values.
  public type Weight = { name : Text; rows : Nat; cols : Nat; std : Float };

  /// Every weight, with nanoGPT's starting std (0.02, the residual projections 0.02 / sqrt(2 nLayer)),
  /// in the order the seeds draw them.
  public func params(c : Config) : [Weight] {
    let (v, d, std) = (c.vocab, c.nEmbd, 0.02);
    let projStd = std / Float.sqrt(2.0 * Float.fromInt(c.nLayer));
    let layers = Array.tabulate<[Weight]>(c.nLayer, func i = [
      { name = layer(i, "qkv"); rows = 3 * d; cols = d; std },
      { name = layer(i, "proj"); rows = d; cols = d; std = projStd },
      { name = layer(i, "fc"); rows = 4 * d; cols = d; std },
      { name = layer(i, "out"); rows = d; cols = 4 * d; std = projStd },
    ]);
    Array.flatten([[{ name = "wte"; rows = v; cols = d; std }], Array.flatten(layers), [{ name = "head"; rows = v; cols = d; std }]])
  };

  /// The weights' names, in `params` order.
  public func paramNames(c : Config) : [Text] = params(c).map(func(q : Weight) : Text = q.name);

  /// Token ids [b, t] -> logits [b, t, vocab], positions 0..t-1.
  public func logits(p : Program.Program, c : Config, ws : Weights, tokens : Reg, b : Nat, t : Nat) : Reg {
    blocks(p, c, reader(p, ws), tokens, b, t, p.rope, func(_ : Nat, q : Reg, k : Reg, v : Reg) : Reg = p.causalAttention(q, k, v))
  };

  /// The mean cross-entropy of predicting each next token: `seq` is [b, t + 1] token ids.
  public func loss(p : Program.Program, c : Config, ws : Weights, seq : Reg, b : Nat, t : Nat) : Reg {
    let inputs = p.narrow(seq, 1, 0, t);
    let targets = p.reshape(p.narrow(seq, 1, 1, t), [b * t]);
    p.crossEntropy(p.reshape(logits(p, c, ws, inputs, b, t), [b * t, c.vocab]), targets)
  };

  /// `logits` with a key/value cache, for generation: `tokens` [b, t] sit at positions
  /// start..start+t-1; the keys and values of positions 0..start-1 are the ones the run before stored
  /// under `cache` # layer(i, "k") and "v" (none when start = 0), and this run stores them for
  /// 0..start+t-1 there, once it succeeds. Positions beyond the model's training context are the
  /// caller's to avoid.
  public func cachedLogits(p : Program.Program, c : Config, ws : Weights, tokens : Reg, b : Nat, t : Nat, start : Nat, cache : Text) : Reg {
    func extend(name : Text, x : Reg) : Reg =
      p.store(if (start == 0) x else p.concat([p.load(name), x], 2), name);
    func positions(x : Reg) : Reg = p.ropeFrom(x, start);
    blocks(p, c, reader(p, ws), tokens, b, t, positions, func(i : Nat, q : Reg, k : Reg, v : Reg) : Reg {
      p.attention(q, extend(cache # layer(i, "k"), k), extend(cache # layer(i, "v"), v), true)
    })
  };

  /// Step `i` (from 0) of generation with a sliding key/value cache: `token` [1, 1] is the `i`th
  /// token, and its logits [1, 1, vocab] come from attending to the last t = min(i + 1, context)
  /// positions. Each layer's keys and values are kept under `cache` # layer(l, "k") and "v" (stored
  /// by this run once it succeeds), the oldest dropped once there are `context` of them; keys are kept
  /// without rotation, and the window gets positions 0..t-1 (the query t - 1) in every step, the
  /// positions `generate`'s window has. So every step from `context` on is the same program over
  /// tensors of the same shapes, whatever the length of the text, and until then the logits are
  /// `logits`' for the whole text so far.
  public func windowLogits(p : Program.Program, c : Config, ws : Weights, token : Reg, i : Nat, context : Nat, cache : Text) : Reg {
    let t = Nat.min(i + 1, context);
    // The window with x, this position's keys or values [1, heads, 1, head size], appended.
    func extend(name : Text, x : Reg) : Reg {
      if (i == 0) return p.store(x, name);
      let kept = p.load(name);
      let window = if (i < context) kept else p.narrow(kept, 2, 1, Nat.sub(context, 1));
      p.store(p.concat([window, x], 2), name)
    };
    func unrotated(x : Reg) : Reg = x;
    blocks(p, c, reader(p, ws), token, 1, 1, unrotated, func(l : Nat, q : Reg, k : Reg, v : Reg) : Reg {
      let keys = p.rope(extend(cache # layer(l, "k"), k));
      p.attention(p.ropeFrom(q, Nat.sub(t, 1)), keys, extend(cache # layer(l, "v"), v), true)
    })
  };

  // The model around its attention: `positions` rotates queries and keys [b, heads, t, head size],
  // `attend(layer, q, k, v)` gives the attention's output in that shape. (The ops come in the order
  // the seeds' actors wrote them, so a run computes exactly what theirs did.)
  func blocks(p : Program.Program, c : Config, w : Text -> Reg, tokens : Reg, b : Nat, t : Nat, positions : Reg -> Reg, attend : (Nat, Reg, Reg, Reg) -> Reg) : Reg {
    let d = c.nEmbd;
    // [b, t, d] -> [b, heads, t, head size]
    func heads(x : Reg) : Reg = p.transpose(p.reshape(x, [b, t, c.nHead, d / c.nHead]), 1, 2);
    var x = p.embedding(w "wte", tokens);
    for (i in Nat.range(0, c.nLayer)) {
      // 1) causal self-attention
      let qkv = p.linear(p.rmsNorm(x), w(layer(i, "qkv")));
      let q = positions(heads(p.narrow(qkv, 2, 0, d)));
      let k = positions(heads(p.narrow(qkv, 2, d, d)));
      let att = attend(i, q, k, heads(p.narrow(qkv, 2, 2 * d, d)));
      let merged = p.reshape(p.transpose(att, 1, 2), [b, t, d]);
      x := p.add(x, p.linear(merged, w(layer(i, "proj"))));
      // 2) MLP
      let hidden = p.relu(p.linear(p.rmsNorm(x), w(layer(i, "fc"))));
      x := p.add(x, p.linear(hidden, w(layer(i, "out"))));
    };
    p.linear(p.rmsNorm(x), w "head")
  };

  /// A token drawn from `scores` (logits) at `temperature`, `u` uniform in [0, 1): the seeds' sampling.
  public func sample(scores : [Float], temperature : Float, u : Float) : Nat {
    let s = scores.map(func(x : Float) : Float = x / temperature);
    var max = s[0];
    for (x in s.values()) if (x > max) max := x;
    var total = 0.0;
    for (x in s.values()) total += Float.exp(x - max);
    var left = u * total;
    for (i in s.keys()) {
      let e = Float.exp(s[i] - max);
      if (left < e) return i;
      left -= e;
    };
    Nat.sub(s.size(), 1)
  };

  /// `count` tokens after `first`, each drawn by `sample` from the logits of the last `context` tokens
  /// (at most the model's training context) with `uniform()` (in [0, 1)): the seeds' generation.
  public func generate(device : Device.Device, c : Config, ws : Weights, context : Nat, first : Nat, count : Nat, temperature : Float, uniform : () -> Float) : async* [Nat] {
    let out = List.singleton<Nat>(first);
    for (_ in Nat.range(0, count)) {
      let t = Nat.min(out.size(), context);
      let window = Blob.fromArray(Array.tabulate<Nat8>(t, func i = Nat8.fromNat(out.at(Nat.sub(out.size(), t) + i))));
      let p = Program.Program();
      let last = p.narrow(logits(p, c, ws, p.input(0), 1, t), 1, Nat.sub(t, 1), 1);
      let r = await device.moxzi_device_run({
        inputs = [{ data = window; elem = #u8; shape = [1, Nat32.fromNat(t)] }];
        program = p.ops();
        train = null;
        scalars = [];
        tensors = [last];
        split = null;
      });
      out.add(sample(F32.fromBlob(r.tensors[0]), temperature, uniform()));
    };
    Array.tabulate<Nat>(count, func i = out.at(i + 1))
  };

  /// `generate` with a key/value cache on the device (`windowLogits`, kept under `cache`): one token
  /// in per run, so a token costs the same however long the text grows. The first `context` tokens are
  /// `generate`'s (the same logits, up to rounding); after that the oldest cached keys and values were
  /// computed with the tokens before them in view, where `generate`'s window starts afresh each time.
  public func generateCached(device : Device.Device, c : Config, ws : Weights, context : Nat, first : Nat, count : Nat, temperature : Float, uniform : () -> Float, cache : Text) : async* [Nat] {
    let out = List.empty<Nat>();
    var last = first;
    for (i in Nat.range(0, count)) {
      let p = Program.Program();
      let logits = windowLogits(p, c, ws, p.input(0), i, context, cache);
      let r = await device.moxzi_device_run({
        inputs = [{ data = Blob.fromArray([Nat8.fromNat(last)]); elem = #u8; shape = [1, 1] }];
        program = p.ops();
        train = null;
        scalars = [];
        tensors = [logits];
        split = null;
      });
      last := sample(F32.fromBlob(r.tensors[0]), temperature, uniform());
      out.add(last);
    };
    out.toArray()
  };
};
