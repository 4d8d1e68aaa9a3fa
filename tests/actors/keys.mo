// A test actor for the management canister's threshold keys: ecdsa_public_key and sign_with_ecdsa,
// schnorr_public_key and sign_with_schnorr (bip340secp256k1, with a bip341 merkle root, and ed25519),
// each answering the key, its chain code and the signature, or the reject's text.
import Error "mo:core/Error";

persistent actor Keys {
  type EcdsaKeyId = { curve : { #secp256k1 }; name : Text };
  type Algorithm = { #bip340secp256k1; #ed25519 };
  type SchnorrKeyId = { algorithm : Algorithm; name : Text };
  type PublicKey = { public_key : Blob; chain_code : Blob };
  type Signed = { public_key : Blob; chain_code : Blob; signature : Blob };

  transient let ic = actor "aaaaa-aa" : actor {
    ecdsa_public_key : { canister_id : ?Principal; derivation_path : [Blob]; key_id : EcdsaKeyId } -> async PublicKey;
    sign_with_ecdsa : { message_hash : Blob; derivation_path : [Blob]; key_id : EcdsaKeyId } -> async { signature : Blob };
    schnorr_public_key : { canister_id : ?Principal; derivation_path : [Blob]; key_id : SchnorrKeyId } -> async PublicKey;
    sign_with_schnorr : {
      message : Blob;
      derivation_path : [Blob];
      key_id : SchnorrKeyId;
      aux : ?{ #bip341 : { merkle_root_hash : Blob } };
    } -> async { signature : Blob };
  };

  func algorithm(name : Text) : Algorithm { if (name == "ed25519") #ed25519 else #bip340secp256k1 };

  // The caller's key at `path` and its signature of `hash`, with `fee` cycles attached.
  public func ecdsa(name : Text, path : [Blob], hash : Blob, fee : Nat) : async { #ok : Signed; #err : Text } {
    let key_id = { curve = #secp256k1; name };
    try {
      let key = await ic.ecdsa_public_key({ canister_id = null; derivation_path = path; key_id });
      let { signature } = await (with cycles = fee) ic.sign_with_ecdsa({ message_hash = hash; derivation_path = path; key_id });
      #ok({ key with signature })
    } catch (e) { #err(Error.message(e)) }
  };

  // As `ecdsa`, for Schnorr keys (`algo` "bip340secp256k1" or "ed25519"); `root`: a bip341 merkle root.
  public func schnorr(algo : Text, name : Text, path : [Blob], message : Blob, root : ?Blob, fee : Nat) : async { #ok : Signed; #err : Text } {
    let key_id = { algorithm = algorithm(algo); name };
    let aux = switch (root) { case null null; case (?merkle_root_hash) ?#bip341({ merkle_root_hash }) };
    try {
      let key = await ic.schnorr_public_key({ canister_id = null; derivation_path = path; key_id });
      let { signature } = await (with cycles = fee) ic.sign_with_schnorr({ message; derivation_path = path; key_id; aux });
      #ok({ key with signature })
    } catch (e) { #err(Error.message(e)) }
  };

  // Another canister's public keys (or the reject's text), as any canister may ask for them.
  public func ecdsaKeyOf(canister : Principal, name : Text, path : [Blob]) : async { #ok : PublicKey; #err : Text } {
    try { #ok(await ic.ecdsa_public_key({ canister_id = ?canister; derivation_path = path; key_id = { curve = #secp256k1; name } })) }
    catch (e) { #err(Error.message(e)) }
  };

  public func schnorrKeyOf(canister : Principal, algo : Text, name : Text, path : [Blob]) : async { #ok : PublicKey; #err : Text } {
    let key_id = { algorithm = algorithm(algo); name };
    try { #ok(await ic.schnorr_public_key({ canister_id = ?canister; derivation_path = path; key_id })) }
    catch (e) { #err(Error.message(e)) }
  };
};
