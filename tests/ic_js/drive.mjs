// Drives an actor of tests/actors/gate.mo on moxzid through a real IC JavaScript agent, as a front-end
// would, and prints what it saw as one JSON object (errors as their messages).
// Usage: node drive.mjs URL CANISTER_ID icp-sdk|dfinity
const [url, canisterId, flavour] = process.argv.slice(2);
const pkg = flavour === "icp-sdk"
  ? { agent: "@icp-sdk/core/agent", candid: "@icp-sdk/core/candid", identity: "@icp-sdk/core/identity",
      secp: "@icp-sdk/core/identity/secp256k1" }
  : { agent: "@dfinity/agent", candid: "@dfinity/candid", identity: "@dfinity/identity", secp: null };
const { HttpAgent, Actor } = await import(pkg.agent);
const { IDL } = await import(pkg.candid);
const { Ed25519KeyIdentity, ECDSAKeyIdentity, DelegationChain, DelegationIdentity } = await import(pkg.identity);

const idlFactory = ({ IDL }) => IDL.Service({
  inc: IDL.Func([], [IDL.Nat], []),
  get: IDL.Func([], [IDL.Nat], ["query"]),
  whoami: IDL.Func([], [IDL.Principal], ["query"]),
  whoamiUpdate: IDL.Func([], [IDL.Principal], []),
  claim: IDL.Func([], [IDL.Principal], []),
  ownerAdd: IDL.Func([IDL.Nat], [IDL.Nat], []),
  refuse: IDL.Func([], [], []),
  trapAfterChange: IDL.Func([], [], []),
});

async function actorFor(identity) {
  // shouldFetchRootKey: the root key comes from GET /api/v2/status; query signatures are verified
  // (the agents' default) against the node keys read from the subnet's read_state.
  const agent = await HttpAgent.create({ host: url, identity, shouldFetchRootKey: true, retryTimes: 0 });
  return Actor.createActor(idlFactory, { agent, canisterId });
}

async function outcome(promise) {
  try { const value = await promise; return { ok: typeof value === "bigint" ? Number(value) : value?.toText?.() ?? value ?? null }; }
  catch (error) { return { error: String(error.message ?? error) }; }
}

const seen = {};
const anonymous = await actorFor(undefined);
seen.inc1 = await outcome(anonymous.inc());
seen.inc2 = await outcome(anonymous.inc());
seen.get = await outcome(anonymous.get());
seen.anonymousWhoami = await outcome(anonymous.whoami());
seen.refuse = await outcome(anonymous.refuse());
seen.trap = await outcome(anonymous.trapAfterChange());
seen.getAfterTrap = await outcome(anonymous.get());

const ed25519 = Ed25519KeyIdentity.generate();
seen.ed25519Principal = ed25519.getPrincipal().toText();
const signed = await actorFor(ed25519);
seen.ed25519Whoami = await outcome(signed.whoami());
seen.ed25519WhoamiUpdate = await outcome(signed.whoamiUpdate());
seen.claim = await outcome(signed.claim());
seen.ownerAdd = await outcome(signed.ownerAdd(10n));
seen.anonymousOwnerAdd = await outcome(anonymous.ownerAdd(10n));

const p256 = await ECDSAKeyIdentity.generate();
seen.p256Principal = p256.getPrincipal().toText();
seen.p256WhoamiUpdate = await outcome((await actorFor(p256)).whoamiUpdate());
if (pkg.secp) {
  const { Secp256k1KeyIdentity } = await import(pkg.secp);
  const secp = Secp256k1KeyIdentity.generate();
  seen.secp256k1Principal = secp.getPrincipal().toText();
  seen.secp256k1WhoamiUpdate = await outcome((await actorFor(secp)).whoamiUpdate());
}
// A session key acting for the Ed25519 identity through a delegation, as a login flow hands out.
const session = Ed25519KeyIdentity.generate();
const chain = await DelegationChain.create(ed25519, session.getPublicKey(), new Date(Date.now() + 3600_000));
const delegated = DelegationIdentity.fromDelegation(session, chain);
seen.delegatedWhoamiUpdate = await outcome((await actorFor(delegated)).whoamiUpdate());
seen.delegatedOwnerAdd = await outcome((await actorFor(delegated)).ownerAdd(5n));
console.log(JSON.stringify(seen));
