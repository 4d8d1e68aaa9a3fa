// Calls/s to moxzid's counter actor through the JS agent (@icp-sdk/core from tests/ic_js: signed CBOR
// envelopes, certified updates, signed queries whose signatures it verifies) and through the JSON routes
// with plain fetch, the same client runtime side by side. Run by bench/ic_agent.py, which prints the table.
// Usage: node bench/ic_agent.mjs URL CANISTER_ID CALLS CLIENTS ROUNDS
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const require = createRequire(fileURLToPath(new URL("../tests/ic_js/package.json", import.meta.url)));
const { HttpAgent, Actor } = require("@icp-sdk/core/agent");
const { Ed25519KeyIdentity } = require("@icp-sdk/core/identity");
const [url, canisterId, calls, clients, rounds] = process.argv.slice(2).map((v, i) => (i < 2 ? v : Number(v)));

const agent = await HttpAgent.create({ host: url, identity: Ed25519KeyIdentity.generate(), shouldFetchRootKey: true });
const counter = Actor.createActor(({ IDL }) => IDL.Service({
  inc: IDL.Func([], [IDL.Nat], []),
  get: IDL.Func([], [IDL.Nat], ["query"]),
}), { agent, canisterId });

async function json(route, method) {
  const response = await fetch(`${url}/${route}/counter/${method}`, { method: "POST", body: "[]" });
  if (response.status !== 200) throw new Error(await response.text());
  return response.json();
}

async function rate(callOnce) {
  const each = Math.floor(calls / clients);
  const started = performance.now();
  await Promise.all(Array.from({ length: clients }, async () => { for (let i = 0; i < each; i++) await callOnce(); }));
  return (each * clients) / ((performance.now() - started) / 1000);
}

const ways = {
  agent: { update: () => counter.inc(), query: () => counter.get() },
  json: { update: () => json("call-json", "inc"), query: () => json("query-json", "get") },
};
const rates = {};
for (const [way, kinds] of Object.entries(ways)) {
  rates[way] = {};
  for (const [kind, callOnce] of Object.entries(kinds)) {
    await callOnce(); // warm: the agent reads the subnet's node keys once before its first query
    rates[way][kind] = [];
    for (let r = 0; r < rounds; r++) rates[way][kind].push(await rate(callOnce));
  }
}
rates.count = Number(await counter.get());
console.log(JSON.stringify(rates));
