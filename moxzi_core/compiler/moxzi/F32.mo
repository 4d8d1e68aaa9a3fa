// mo:moxzi/F32: the device's tensors as Motoko values. The device takes and returns float32 values as
// blobs of little-endian bytes; Motoko computes in Float (64-bit).
//
// Motoko has no bit cast between a float and its bits, but its Candid encoder writes a float32 as
// exactly those bits, little-endian, after a fixed header: `to_candid` and `from_candid` are the bit
// cast (rounding to nearest, ties to even; subnormals, infinities and NaN included), and they convert
// a whole array in the compiler's own code.
import Array "mo:core/Array";
import Blob "mo:core/Blob";
import Float32 "mo:core/Float32";
import Nat "mo:core/Nat";
import Nat8 "mo:core/Nat8";
import Nat32 "mo:core/Nat32";
import Runtime "mo:core/Runtime";
import VarArray "mo:core/VarArray";

module {
  // "DIDL", no type table, one value of type float32 (opcode -13).
  let scalarHeader : [Nat8] = [0x44, 0x49, 0x44, 0x4C, 0x00, 0x01, 0x73];
  // "DIDL", one type (vec float32), one value of type 0, then the element count (LEB128).
  let vectorHeader : [Nat8] = [0x44, 0x49, 0x44, 0x4C, 0x01, 0x6D, 0x73, 0x01, 0x00];

  /// The float32 nearest to `x`, as its 32 bits.
  public func toBits(x : Float) : Nat32 {
    let b = to_candid (Float32.fromFloat(x));
    Nat32.fromNat8(b[7]) | Nat32.fromNat8(b[8]) << 8 | Nat32.fromNat8(b[9]) << 16 | Nat32.fromNat8(b[10]) << 24
  };

  /// The float32 with these bits, as a Float (exactly).
  public func fromBits(bits : Nat32) : Float {
    let bytes = Array.tabulate<Nat8>(11, func i = if (i < 7) scalarHeader[i] else Nat8.fromNat32((bits >> Nat32.fromNat(8 * (i - 7))) & 0xFF));
    let ?x : ?Float32 = from_candid (Blob.fromArray(bytes)) else Runtime.trap("F32.fromBits: not a float32");
    Float32.toFloat(x)
  };

  /// `xs` as the device's bytes: 4 per value, little-endian float32, each the nearest to its Float.
  public func toBlob(xs : [Float]) : Blob {
    let encoded = to_candid (Array.map<Float, Float32>(xs, Float32.fromFloat));
    let start = encoded.size() - 4 * xs.size(); // past the header and the count
    Blob.fromArray(Array.tabulate<Nat8>(4 * xs.size(), func i = encoded[start + i]))
  };

  /// `n` values made by `f(0)`, `f(1)`, ... (in that order) as the device's bytes.
  public func tabulate(n : Nat, f : Nat -> Float) : Blob = toBlob(Array.tabulate<Float>(n, f));

  /// The same bytes as `tabulate(n, f)`, `f` called `part` values per message: after each part but
  /// the last it awaits a message to itself. Motoko's incremental GC runs only between messages, so
  /// the garbage `f` makes (every Float it computes is boxed) piles up while one message draws a
  /// large tensor, and wasm memory never gives back what it grew by; in parts, the GC collects it
  /// as it goes.
  public func tabulateInParts(n : Nat, part : Nat, f : Nat -> Float) : async* Blob {
    if (part == 0) Runtime.trap("F32.tabulateInParts: a part of 0 values");
    let xs = VarArray.repeat<Float>(0.0, n);
    var at = 0;
    while (at < n) {
      let end = Nat.min(n, at + part);
      for (i in Nat.range(at, end)) xs[i] := f(i);
      at := end;
      if (at < n) await async ();
    };
    toBlob(xs.toArray())
  };

  /// The values of the device's bytes (a tensor of `tensors` in a run's result), in order; traps unless
  /// the blob holds a whole number of float32 values.
  public func fromBlob(b : Blob) : [Float] {
    if (b.size() % 4 != 0) Runtime.trap("F32.fromBlob: " # debug_show (b.size()) # " bytes are not float32 values");
    let header = leb128(vectorHeader, b.size() / 4);
    let bytes = Array.tabulate<Nat8>(header.size() + b.size(), func i = if (i < header.size()) header[i] else b[i - header.size()]);
    let ?xs : ?[Float32] = from_candid (Blob.fromArray(bytes)) else Runtime.trap("F32.fromBlob: not float32 values");
    Array.map<Float32, Float>(xs, Float32.toFloat)
  };

  // `prefix` followed by `n` in unsigned LEB128.
  func leb128(prefix : [Nat8], n : Nat) : [Nat8] {
    var digits : [Nat8] = [];
    var rest = n;
    loop {
      let low = Nat8.fromNat(rest % 128);
      rest /= 128;
      digits := Array.concat(digits, [if (rest == 0) low else low | 0x80]);
      if (rest == 0) return Array.concat(prefix, digits);
    };
  };
};
