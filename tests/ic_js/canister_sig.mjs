// Internet Identity's login flow against moxzid, with the JS agent's own classes: a session key, a
// delegation to it signed with a canister signature by tests/actors/signer.mo (which certifies the
// delegation's hash as II does: `sign` in an update, then its data certificate from a query), a
// DelegationChain whose public key is the canister signature key, and calls made with the
// DelegationIdentity. Prints what it saw as one JSON object (errors as their messages).
// Usage: node canister_sig.mjs URL SIGNER_ID GATE_ID icp-sdk|dfinity
import { createHash } from "node:crypto";

const [url, signerId, gateId, flavour] = process.argv.slice(2);
const pkg = flavour === "icp-sdk"
  ? { agent: "@icp-sdk/core/agent", identity: "@icp-sdk/core/identity", principal: "@icp-sdk/core/principal" }
  : { agent: "@dfinity/agent", identity: "@dfinity/identity", principal: "@dfinity/principal" };
const { HttpAgent, Actor, Cbor, requestIdOf } = await import(pkg.agent);
const { Ed25519KeyIdentity, Delegation, DelegationChain, DelegationIdentity, wrapDER } = await import(pkg.identity);
const { Principal } = await import(pkg.principal);

// The algorithm identifier of canister signature keys: OID 1.3.6.1.4.1.56387.1.2 (interface spec).
const CANISTER_SIG_OID = Uint8Array.from([0x30, 0x0c, 0x06, 0x0a, 0x2b, 0x06, 0x01, 0x04, 0x01, 0x83, 0xb8, 0x43, 0x01, 0x02]);
const DELEGATION_DOMAIN = new TextEncoder().encode("\x1Aic-request-auth-delegation");
const sha256 = (bytes) => new Uint8Array(createHash("sha256").update(bytes).digest());
const text = (value) => new TextEncoder().encode(value);

async function agentFor(identity) {
  return HttpAgent.create({ host: url, identity, shouldFetchRootKey: true, retryTimes: 0 });
}

async function outcome(promise) {
  try { return { ok: (await promise).toText() }; }
  catch (error) { return { error: String(error.message ?? error) }; }
}

const signer = Actor.createActor(({ IDL }) => IDL.Service({
  sign: IDL.Func([IDL.Vec(IDL.Nat8), IDL.Vec(IDL.Nat8)], [IDL.Vec(IDL.Nat8)], []),
  certificate: IDL.Func([], [IDL.Opt(IDL.Vec(IDL.Nat8))], ["query"]),
}), { agent: await agentFor(undefined), canisterId: signerId });
const gateIdl = ({ IDL }) => IDL.Service({
  whoami: IDL.Func([], [IDL.Principal], ["query"]),
  whoamiUpdate: IDL.Func([], [IDL.Principal], []),
});

const seed = text("user 10000");
const signerBytes = Principal.fromText(signerId).toUint8Array();
const canisterKey = wrapDER(Uint8Array.from([signerBytes.length, ...signerBytes, ...seed]), CANISTER_SIG_OID);
const session = Ed25519KeyIdentity.generate();
const delegation = new Delegation(session.getPublicKey().toDer(), BigInt(Date.now() + 600_000) * 1_000_000n);
const payload = Uint8Array.from([...DELEGATION_DOMAIN, ...new Uint8Array(requestIdOf({ ...delegation }))]);
await signer.sign(seed, payload);
const [certificate] = await signer.certificate();
const tree = [2, text("sig"), [2, sha256(seed), [2, sha256(payload), [3, new Uint8Array()]]]];
const chain = DelegationChain.fromDelegations([{ delegation, signature: Cbor.encode({ certificate, tree }) }], canisterKey);
const identity = DelegationIdentity.fromDelegation(session, chain);
const gate = Actor.createActor(gateIdl, { agent: await agentFor(identity), canisterId: gateId });
const seen = {
  principal: identity.getPrincipal().toText(),
  canisterKey: Buffer.from(canisterKey).toString("hex"),
  whoamiUpdate: await outcome(gate.whoamiUpdate()),
  whoami: await outcome(gate.whoami()),
};
// The same delegation presented for another seed's key: its signature does not hold.
const otherKey = wrapDER(Uint8Array.from([signerBytes.length, ...signerBytes, ...text("user 10001")]), CANISTER_SIG_OID);
const forged = DelegationIdentity.fromDelegation(session, DelegationChain.fromDelegations(chain.delegations, otherKey));
seen.otherSeed = await outcome(Actor.createActor(gateIdl, { agent: await agentFor(forged), canisterId: gateId }).whoamiUpdate());
console.log(JSON.stringify(seen));
