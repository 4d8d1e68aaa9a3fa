// A test actor that signs as Internet Identity does (canister signatures): `sign` puts
// sig/<sha256(seed)>/<sha256(payload)> into a hash tree and sets the tree's root hash as its certified
// data; the query `certificate` hands back the data certificate that certifies it. The client
// assembles the signature (CBOR {certificate, tree}) from the certificate and the same tree. Its
// initialisation (canister_init, canister_post_upgrade) certifies the leaf hash of "signer ready".
import Array "mo:core/Array";
import Blob "mo:core/Blob";
import CertifiedData "mo:core/CertifiedData";
import Nat8 "mo:core/Nat8";
import Nat32 "mo:core/Nat32";
import Nat64 "mo:core/Nat64";
import Text "mo:core/Text";
import VarArray "mo:core/VarArray";

persistent actor {
  // The one-signature tree's root hash, as the spec's reconstruct computes it.
  public func sign(seed : Blob, payload : Blob) : async Blob {
    let root = labeled("sig", labeled(sha256(seed), labeled(sha256(payload), leaf(""))));
    CertifiedData.set(root);
    root;
  };

  public query func certificate() : async ?Blob { CertifiedData.getCertificate() };

  // A query called as an update is replicated: it has no data certificate.
  public query func hasCertificate() : async Bool { CertifiedData.getCertificate() != null };

  public composite query func compositeHasCertificate() : async Bool { CertifiedData.getCertificate() != null };

  func leaf(value : Blob) : Blob = domainHash("ic-hashtree-leaf", [value]);

  func labeled(name : Blob, subtree : Blob) : Blob = domainHash("ic-hashtree-labeled", [name, subtree]);

  func domainHash(domain : Text, parts : [Blob]) : Blob {
    let name = Blob.toArray(Text.encodeUtf8(domain));
    let all = Array.flatten<Nat8>([[Nat8.fromNat(name.size())], name, Array.flatten(Array.map(parts, Blob.toArray))]);
    sha256(Blob.fromArray(all));
  };

  transient let K : [Nat32] = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
  ];

  // SHA-256 (FIPS 180-4).
  func sha256(data : Blob) : Blob {
    let bytes = Blob.toArray(data);
    let n = bytes.size();
    let total = (n + 9 + 63) / 64 * 64;
    let msg = VarArray.repeat<Nat8>(0, total);
    var i = 0;
    while (i < n) { msg[i] := bytes[i]; i += 1 };
    msg[n] := 0x80;
    let bits = Nat64.fromNat(n) * 8;
    i := 0;
    while (i < 8) {
      msg[total - 1 - i] := Nat8.fromNat(Nat64.toNat((bits >> Nat64.fromNat(i * 8)) & 0xff));
      i += 1;
    };
    let h = VarArray.fromArray<Nat32>([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
    let w = VarArray.repeat<Nat32>(0, 64);
    var block = 0;
    while (block < total) {
      var t = 0;
      while (t < 16) {
        let o = block + t * 4;
        w[t] := (word(msg[o]) << 24) | (word(msg[o + 1]) << 16) | (word(msg[o + 2]) << 8) | word(msg[o + 3]);
        t += 1;
      };
      while (t < 64) {
        let s0 = (w[t - 15] <>> 7) ^ (w[t - 15] <>> 18) ^ (w[t - 15] >> 3);
        let s1 = (w[t - 2] <>> 17) ^ (w[t - 2] <>> 19) ^ (w[t - 2] >> 10);
        w[t] := w[t - 16] +% s0 +% w[t - 7] +% s1;
        t += 1;
      };
      var a = h[0]; var b = h[1]; var c = h[2]; var d = h[3];
      var e = h[4]; var f = h[5]; var g = h[6]; var hh = h[7];
      t := 0;
      while (t < 64) {
        let t1 = hh +% ((e <>> 6) ^ (e <>> 11) ^ (e <>> 25)) +% ((e & f) ^ ((^ e) & g)) +% K[t] +% w[t];
        let t2 = ((a <>> 2) ^ (a <>> 13) ^ (a <>> 22)) +% ((a & b) ^ (a & c) ^ (b & c));
        hh := g; g := f; f := e; e := d +% t1; d := c; c := b; b := a; a := t1 +% t2;
        t += 1;
      };
      h[0] := h[0] +% a; h[1] := h[1] +% b; h[2] := h[2] +% c; h[3] := h[3] +% d;
      h[4] := h[4] +% e; h[5] := h[5] +% f; h[6] := h[6] +% g; h[7] := h[7] +% hh;
      block += 64;
    };
    Blob.fromArray(Array.tabulate<Nat8>(32, func j = Nat8.fromNat(Nat32.toNat((h[j / 4] >> Nat32.fromNat(24 - j % 4 * 8)) & 0xff))));
  };

  func word(byte : Nat8) : Nat32 = Nat32.fromNat(Nat8.toNat(byte));

  // Runs in canister_init, and again in canister_post_upgrade (as II re-certifies after an upgrade).
  CertifiedData.set(leaf("signer ready"));
};
