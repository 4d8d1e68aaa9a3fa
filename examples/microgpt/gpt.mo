// microGPT in Motoko: Andrej Karpathy's microgpt.py (a GPT trained with scalar autograd, no
// libraries) ported to an actor. Every number of the model is a Node; a training step builds the
// model's arithmetic out of Nodes on a tape, walks the tape backwards for the gradients, and takes an
// Adam step. 1 layer, 4 heads, 16-wide embeddings, 16 characters of context: 4,192 parameters for
// the 27 tokens of names.txt (26 letters and the start/end token).
//
// Training runs in the background, 10 steps per timer message, and survives upgrades and crashes
// with no checkpoint code: the actor's variables are its state.
import Array "mo:core/Array";
import Blob "mo:core/Blob";
import Char "mo:core/Char";
import Float "mo:core/Float";
import List "mo:core/List";
import Nat "mo:core/Nat";
import Nat64 "mo:core/Nat64";
import Nat8 "mo:core/Nat8";
import Runtime "mo:core/Runtime";
import Text "mo:core/Text";
import Timer "mo:core/Timer";
import VarArray "mo:core/VarArray";

persistent actor {
  // --- Autograd ---------------------------------------------------------------------------------

  // A number of the model: its value, the gradient of the loss with respect to it, the nodes it
  // was computed from, and the derivative of this node with respect to each of them.
  type Node = { var data : Float; var grad : Float; children : [Node]; localGrads : [Float] };

  // The nodes made since the tape was last cleared, in the order they were made. A node is made
  // after its children, so the tape read backwards is a topological order for the backward pass.
  // Scratch space of one step: nothing on it outlives the message that made it.
  transient var tape = List.empty<Node>();

  func node(data : Float, children : [Node], localGrads : [Float]) : Node {
    let n = { var data; var grad = 0.0; children; localGrads };
    tape.add(n);
    n
  };

  func add(a : Node, b : Node) : Node = node(a.data + b.data, [a, b], [1.0, 1.0]);
  func mul(a : Node, b : Node) : Node = node(a.data * b.data, [a, b], [b.data, a.data]);
  func scale(a : Node, c : Float) : Node = node(a.data * c, [a], [c]);
  func log(a : Node) : Node = node(Float.log(a.data), [a], [1.0 / a.data]);
  func relu(a : Node) : Node = if (a.data > 0.0) node(a.data, [a], [1.0]) else node(0.0, [a], [0.0]);

  // exp(a - shift), the shift a constant (softmax subtracts the largest logit).
  func expShifted(a : Node, shift : Float) : Node {
    let e = Float.exp(a.data - shift);
    node(e, [a], [e])
  };

  // c * (a[0] * b[0] + a[1] * b[1] + ...) as one node. microgpt sums products one `+` at a time;
  // one node per dot product gives the same numbers with a tenth of the nodes, which keeps each
  // message's garbage, and so the actor's memory, small.
  func dot(a : [Node], b : [Node], c : Float) : Node {
    let n = a.size();
    var total = 0.0;
    for (i in Nat.range(0, n)) total += a[i].data * b[i].data;
    node(
      c * total,
      Array.tabulate<Node>(2 * n, func i = if (i < n) a[i] else b[i - n]),
      // c = 1: the local gradients are the other side's values, shared rather than copied
      if (c == 1.0) Array.tabulate<Float>(2 * n, func i = if (i < n) b[i].data else a[i - n].data)
      else Array.tabulate<Float>(2 * n, func i = if (i < n) c * b[i].data else c * a[i - n].data),
    )
  };

  // c * (xs[0] + xs[1] + ...) as one node.
  func sum(xs : [Node], c : Float) : Node {
    var total = 0.0;
    for (x in xs.values()) total += x.data;
    node(c * total, xs, Array.repeat<Float>(c, xs.size()))
  };

  // Set every node's gradient of `loss`: walk the tape backwards, passing each node's gradient to
  // its children through the chain rule.
  func backward(loss : Node) {
    loss.grad := 1.0;
    for (v in tape.reverseValues()) {
      for (i in v.children.keys()) {
        let child = v.children[i];
        child.grad += v.localGrads[i] * v.grad;
      };
    };
  };

  // --- The random generator -----------------------------------------------------------------------

  // A seeded xorshift generator: it shuffles the names, draws the starting weights and samples, so
  // every run gives the same numbers.
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

  // --- The data -----------------------------------------------------------------------------------

  // One name per document; each character is a token, and one more token (bos) marks the start and
  // the end of a name.
  var docs : [Text] = [];
  var uchars : [Char] = [];
  var bos = 0;

  func tokenOf(c : Char) : Nat {
    for (i in uchars.keys()) if (uchars[i] == c) return i;
    Runtime.trap("character " # debug_show c # " is not in the vocabulary")
  };

  // [bos, the name's tokens..., bos]
  func encode(name : Text) : [Nat] {
    let tokens = List.singleton<Nat>(bos);
    for (c in name.chars()) tokens.add(tokenOf(c));
    tokens.add(bos);
    tokens.toArray()
  };

  // --- The model ----------------------------------------------------------------------------------

  let nEmbd = 16;
  let nHead = 4;
  let nLayer = 1;
  let blockSize = 16;
  let headDim = nEmbd / nHead;

  // A matrix is its rows: [out][in]. linear(x, w)[o] = w[o] . x
  type Layer = { wq : [[Node]]; wk : [[Node]]; wv : [[Node]]; wo : [[Node]]; fc1 : [[Node]]; fc2 : [[Node]] };
  var wte : [[Node]] = []; // token embeddings, [vocab][nEmbd]
  var wpe : [[Node]] = []; // position embeddings, [blockSize][nEmbd]
  var lmHead : [[Node]] = []; // [vocab][nEmbd]
  var layers : [Layer] = [];
  var params : [Node] = [];

  func matrix(nout : Nat, nin : Nat) : [[Node]] = Array.tabulate<[Node]>(
    nout,
    func _ = Array.tabulate<Node>(nin, func _ = { var data = gauss(0.08); var grad = 0.0; children = []; localGrads = [] }),
  );

  func initModel() {
    let vocabSize = uchars.size() + 1;
    wte := matrix(vocabSize, nEmbd);
    wpe := matrix(blockSize, nEmbd);
    lmHead := matrix(vocabSize, nEmbd);
    layers := Array.tabulate<Layer>(nLayer, func _ = {
      wq = matrix(nEmbd, nEmbd);
      wk = matrix(nEmbd, nEmbd);
      wv = matrix(nEmbd, nEmbd);
      wo = matrix(nEmbd, nEmbd);
      fc1 = matrix(4 * nEmbd, nEmbd);
      fc2 = matrix(nEmbd, 4 * nEmbd);
    });
    let all = List.empty<Node>();
    func addAll(m : [[Node]]) { for (row in m.values()) for (p in row.values()) all.add(p) };
    addAll(wte);
    addAll(wpe);
    addAll(lmHead);
    for (l in layers.values()) {
      for (m in [l.wq, l.wk, l.wv, l.wo, l.fc1, l.fc2].values()) addAll(m);
    };
    params := all.toArray();
  };

  func linear(x : [Node], w : [[Node]]) : [Node] = w.map(func(row : [Node]) : Node = dot(row, x, 1.0));

  func softmax(logits : [Node]) : [Node] {
    var max = logits[0].data;
    for (l in logits.values()) if (l.data > max) max := l.data;
    let exps = logits.map(func(l : Node) : Node = expShifted(l, max));
    let total = sum(exps, 1.0);
    let t = total.data;
    exps.map(func(e : Node) : Node = node(e.data / t, [e, total], [1.0 / t, -e.data / (t * t)]))
  };

  func rmsnorm(x : [Node]) : [Node] {
    let n = Float.fromInt(x.size());
    var squares = 0.0;
    for (xi in x.values()) squares += xi.data * xi.data;
    let ms = node(squares / n, x, x.map(func(xi : Node) : Float = 2.0 * xi.data / n));
    let s = Float.pow(ms.data + 1e-5, -0.5);
    let scaleNode = node(s, [ms], [-0.5 * s / (ms.data + 1e-5)]);
    x.map(func(xi : Node) : Node = mul(xi, scaleNode))
  };

  // The keys and values of the positions seen so far, per layer: attention looks back at them.
  type Cache = { keys : List.List<[Node]>; values : List.List<[Node]> };
  func newCaches() : [Cache] = Array.tabulate<Cache>(nLayer, func _ = { keys = List.empty<[Node]>(); values = List.empty<[Node]>() });

  // The logits of the token after `token`, which sits at position `pos`.
  func gpt(token : Nat, pos : Nat, caches : [Cache]) : [Node] {
    var x = Array.tabulate<Node>(nEmbd, func i = add(wte[token][i], wpe[pos][i]));
    x := rmsnorm(x);
    for (li in Nat.range(0, nLayer)) {
      let l = layers[li];
      // 1) Multi-head self-attention over this and the earlier positions
      var residual = x;
      x := rmsnorm(x);
      let q = linear(x, l.wq);
      caches[li].keys.add(linear(x, l.wk));
      caches[li].values.add(linear(x, l.wv));
      let seen = caches[li].keys.size();
      let attended = List.empty<Node>();
      for (h in Nat.range(0, nHead)) {
        let hs = h * headDim;
        func head(v : [Node]) : [Node] = Array.tabulate<Node>(headDim, func j = v[hs + j]);
        let qh = head(q);
        let weights = softmax(Array.tabulate<Node>(seen, func t = dot(qh, head(caches[li].keys.at(t)), 1.0 / Float.sqrt(Float.fromInt(headDim)))));
        for (j in Nat.range(0, headDim)) {
          attended.add(dot(weights, Array.tabulate<Node>(seen, func t = caches[li].values.at(t)[hs + j]), 1.0));
        };
      };
      x := linear(attended.toArray(), l.wo);
      x := Array.tabulate<Node>(nEmbd, func i = add(x[i], residual[i]));
      // 2) MLP
      residual := x;
      x := rmsnorm(x);
      x := linear(x, l.fc1).map(relu);
      x := linear(x, l.fc2);
      x := Array.tabulate<Node>(nEmbd, func i = add(x[i], residual[i]));
    };
    linear(x, lmHead)
  };

  // --- Training -----------------------------------------------------------------------------------

  let numSteps = 1000;
  let learningRate = 0.01;
  let beta1 = 0.85;
  let beta2 = 0.99;
  let epsAdam = 1e-8;
  var m : [var Float] = [var]; // Adam's first moment, per parameter
  var v : [var Float] = [var]; // and its second
  var step = 0;

  // One step on the next name: forward, backward, Adam. Returns the step's loss.
  func trainStep() : Float {
    let tokens = encode(docs[step % docs.size()]);
    let n = Nat.min(blockSize, Nat.sub(tokens.size(), 1));
    let caches = newCaches();
    let losses = Array.tabulate<Node>(n, func pos = scale(log(softmax(gpt(tokens[pos], pos, caches))[tokens[pos + 1]]), -1.0));
    let loss = sum(losses, 1.0 / Float.fromInt(n));
    backward(loss);
    tape := List.empty<Node>();

    // Adam, with the learning rate decaying linearly to 0
    let lr = learningRate * (1.0 - Float.fromInt(step) / Float.fromInt(numSteps));
    let t = Float.fromInt(step + 1);
    for (i in params.keys()) {
      let p = params[i];
      m[i] := beta1 * m[i] + (1.0 - beta1) * p.grad;
      v[i] := beta2 * v[i] + (1.0 - beta2) * p.grad * p.grad;
      let mHat = m[i] / (1.0 - beta1 ** t);
      let vHat = v[i] / (1.0 - beta2 ** t);
      p.data -= lr * mHat / (Float.sqrt(vHat) + epsAdam);
      p.grad := 0.0;
    };
    step += 1;
    loss.data
  };

  // Read the names (one per line), build the vocabulary and draw the starting weights.
  public func load(text : Text) : async Text {
    // Lines are cut from the text's bytes: Text.split builds each line a character at a time,
    // which for 32,000 names would leave the actor's memory far larger than the names.
    let bytes = text.encodeUtf8();
    let names = List.empty<Text>();
    var start = 0;
    for (i in Nat.range(0, bytes.size() + 1)) {
      if (i == bytes.size() or bytes[i] == 10) {
        var from = start;
        var to = i;
        while (from < to and bytes[from] <= 32) from += 1; // trim spaces, \r and tabs
        while (to > from and bytes[to - 1] <= 32) to -= 1;
        if (from < to) {
          switch (Text.decodeUtf8(Blob.fromArray(Array.tabulate<Nat8>(to - from, func k = bytes[from + k])))) {
            case (?name) names.add(name);
            case null Runtime.trap("the names are not UTF-8 text");
          };
        };
        start := i + 1;
      };
    };
    let shuffled = names.toVarArray();
    var i = shuffled.size();
    while (i > 1) {
      i -= 1;
      let j = below(i + 1);
      let swap = shuffled[i];
      shuffled[i] := shuffled[j];
      shuffled[j] := swap;
    };
    docs := Array.fromVarArray(shuffled);

    let chars = List.empty<Char>();
    for (name in docs.values()) for (c in name.chars()) if (not chars.contains(Char.equal, c)) chars.add(c);
    uchars := chars.toArray().sort(Char.compare);
    bos := uchars.size();

    initModel();
    m := VarArray.repeat<Float>(0.0, params.size());
    v := VarArray.repeat<Float>(0.0, params.size());
    step := 0;
    "num docs: " # docs.size().toText() # ", vocab size: " # (uchars.size() + 1).toText() # ", num params: " # params.size().toText()
  };

  // Train in the background: a timer runs a few steps per message until `target`.
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
        lastLoss := trainStep();
        k += 1;
      };
      schedule<system>();
    });
  };

  public func trainInBackground(until : Nat) : async () {
    if (params.size() == 0) Runtime.trap("no model yet: call load first");
    target := Nat.min(until, numSteps);
    schedule<system>();
  };

  public query func status() : async Text {
    "step " # step.toText() # " / " # numSteps.toText() # " | loss " # lastLoss.format(#fix 4)
  };

  // --- Sampling -----------------------------------------------------------------------------------

  // `count` new names, each drawn a character at a time from the model's probabilities at
  // `temperature` (lower: safer choices), until it draws the end token.
  public func sample(count : Nat, temperature : Float) : async [Text] {
    let names = List.empty<Text>();
    for (_ in Nat.range(0, count)) {
      let caches = newCaches();
      let chars = List.empty<Char>();
      var token = bos;
      label generate for (pos in Nat.range(0, blockSize)) {
        let probs = softmax(gpt(token, pos, caches).map(func(l : Node) : Node = scale(l, 1.0 / temperature)));
        var u = uniform();
        token := Nat.sub(probs.size(), 1);
        label draw for (i in probs.keys()) {
          if (u < probs[i].data) { token := i; break draw };
          u -= probs[i].data;
        };
        if (token == bos) break generate;
        chars.add(uchars[token]);
      };
      tape := List.empty<Node>();
      names.add(Text.fromIter(chars.values()));
    };
    names.toArray()
  };

  // The model, the optimizer and `target` survive an upgrade. Timers don't, so the actor's body,
  // which runs again after every upgrade, re-arms the loop.
  schedule<system>();
};
