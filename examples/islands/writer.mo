// The writer of "Serve and train with several actors": it writes Shakespeare with a trainer's
// latest published weights while the trainer keeps training. It has no weights of its own: every
// weight of its model is a `shared` op that reads the trainer's publication.
import Array "mo:core/Array";
import Blob "mo:core/Blob";
import Float "mo:core/Float";
import Nat8 "mo:core/Nat8";
import Nat64 "mo:core/Nat64";
import Principal "mo:core/Principal";
import Runtime "mo:core/Runtime";
import Text "mo:core/Text";
import Device "mo:moxzi/Device";
import Gpt "mo:moxzi/Gpt";

persistent actor {
  transient let device = Device.device();

  // The trainer's model shape (examples/islands/trainer.mo).
  let nLayer = 4;
  let nHead = 4;
  let nEmbd = 128;
  let blockSize = 64;

  // The seeded generator of the trainer: it draws the characters.
  var rng : Nat64 = 1337;
  func next() : Nat64 {
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    rng *% 0x2545F4914F6CDD1D
  };
  func uniform() : Float = Float.fromInt(Nat64.toNat(next() >> 11)) * 0x1p-53;

  type Trainer = actor { vocabulary : query () -> async Blob };

  var trainer : ?Principal = null;
  var vocab : [Nat8] = [];

  public func follow(t : Principal) : async () {
    trainer := ?t;
    vocab := (await (actor (t.toText()) : Trainer).vocabulary()).toArray();
  };

  // The Shakespeare GPT's generate, with every weight read from the trainer's publication `live/` + name.
  public func write(count : Nat, temperature : Float) : async Text {
    let owner = switch (trainer) { case (?t) t; case null Runtime.trap("call follow first") };
    let newline = switch (vocab.indexOf(10 : Nat8)) { case (?i) i; case null 0 };
    let config = { nLayer; nHead; nEmbd; vocab = vocab.size() };
    let weights = #published { owner; prefix = "live/" };
    let ids = await* Gpt.generate(device, config, weights, blockSize, newline, count, temperature, uniform);
    let bytes = ids.map(func(id : Nat) : Nat8 = vocab[id]);
    switch (Text.decodeUtf8(Blob.fromArray(bytes))) { case (?text) text; case null "" }
  };
};
