// The IC's public key derivation as @dfinity/ic-pub-key implements it, for checking moxzid's: reads a
// JSON list of requests on stdin, each { scheme: "ecdsa:secp256k1" | "schnorr:bip340secp256k1" |
// "schnorr:ed25519", public_key, chain_code (the master key's, hex), path: [hex components, the
// canister's principal first] }, and prints the JSON list of derived { public_key, chain_code } (hex).
// Usage: node derive_keys.mjs < requests.json
import { ecdsa, schnorr } from "@dfinity/ic-pub-key";

const fromHex = (hex) => Uint8Array.from(Buffer.from(hex, "hex"));
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);

const answers = JSON.parse(Buffer.concat(chunks).toString()).map(({ scheme, public_key, chain_code, path }) => {
  const components = path.map(fromHex);
  if (scheme === "schnorr:ed25519") {
    const { ed25519 } = schnorr;
    const master = ed25519.PublicKeyWithChainCode.fromHex(public_key, chain_code);
    const derived = master.deriveSubkeyWithChainCode(new ed25519.DerivationPath(components));
    return { public_key: derived.public_key.toHex(), chain_code: derived.chain_code.toHex() };
  }
  const curve = scheme === "ecdsa:secp256k1" ? ecdsa.secp256k1 : schnorr.bip340secp256k1;
  const master = curve.PublicKeyWithChainCode.fromHex({ public_key, chain_code });
  return master.deriveSubkeyWithChainCode(new curve.DerivationPath(components)).toHex();
});
console.log(JSON.stringify(answers));
