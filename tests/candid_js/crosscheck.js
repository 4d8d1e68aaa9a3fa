// Decodes and re-encodes test cases with the official Candid implementation, for tests/test_candid_js.py.
//
// stdin: {defs: {name: type}, cases: [{types: [type], expected?: [type], hex: "<Candid message>", values: [x]}]}
// stdout: a JSON array, per case {decoded: [x]} (its decoding of `hex` at `expected`, by default `types`)
// or {decodeError}, and {hex} (its encoding of `values` at `types`) or {encodeError}.
//
// Types are "nat", ..., ["opt", t], ["vec", t], ["record", [[label, t], ...]], ["tuple", [t, ...]],
// ["variant", [[label, t], ...]], ["func", [t...], [t...], [mode...]], ["service", [[name, func], ...]],
// ["ref", name]; labels are names or "_<id>_". Values x are exchanged in a lossless form: integers as
// decimal strings, floats as the 16 hex digits of their float64 bits, blobs as hex, principals as text,
// opt as [] or [x], func references as [principal, method].
'use strict';
const { IDL } = require('@dfinity/candid');
const { Principal } = require('@dfinity/principal');

const PRIMITIVES = {
  null: IDL.Null, bool: IDL.Bool, nat: IDL.Nat, int: IDL.Int, nat8: IDL.Nat8, nat16: IDL.Nat16,
  nat32: IDL.Nat32, nat64: IDL.Nat64, int8: IDL.Int8, int16: IDL.Int16, int32: IDL.Int32, int64: IDL.Int64,
  float32: IDL.Float32, float64: IDL.Float64, text: IDL.Text, reserved: IDL.Reserved, empty: IDL.Empty,
  principal: IDL.Principal,
};
const BIG = new Set(['nat', 'int', 'nat64', 'int64']);
const SMALL = new Set(['nat8', 'nat16', 'nat32', 'int8', 'int16', 'int32']);

function builder(defs) {
  const recs = {};
  for (const name of Object.keys(defs)) recs[name] = IDL.Rec();
  const build = (t) => {
    if (typeof t === 'string') return PRIMITIVES[t];
    const fields = (list) => Object.fromEntries(list.map(([label, ft]) => [label, build(ft)]));
    switch (t[0]) {
      case 'opt': return IDL.Opt(build(t[1]));
      case 'vec': return IDL.Vec(build(t[1]));
      case 'record': return IDL.Record(fields(t[1]));
      case 'tuple': return IDL.Tuple(...t[1].map(build));
      case 'variant': return IDL.Variant(fields(t[1]));
      case 'func': return IDL.Func(t[1].map(build), t[2].map(build), t[3]);
      case 'service': return IDL.Service(fields(t[1]));
      case 'ref': return recs[t[1]];
    }
    throw new Error(`unknown type ${JSON.stringify(t)}`);
  };
  for (const [name, t] of Object.entries(defs)) recs[name].fill(build(t));
  return build;
}

function bitsOf(f) {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, f);
  return view.getBigUint64(0).toString(16).padStart(16, '0');
}

function floatOf(bits) {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, BigInt('0x' + bits));
  return view.getFloat64(0);
}

const hexOf = (bytes) => Buffer.from(bytes).toString('hex');
// a copy: Buffer.from may hand out a view into a shared pool, which the decoder does not expect
const bytesOf = (hex) => Uint8Array.from(Buffer.from(hex, 'hex'));

// JS value -> exchange form
function toX(t, v, defs) {
  if (typeof t === 'string') {
    if (BIG.has(t) || SMALL.has(t)) return String(v);
    if (t === 'float32' || t === 'float64') return bitsOf(v);
    if (t === 'principal') return v.toText();
    if (t === 'reserved') return null;
    return v;
  }
  switch (t[0]) {
    case 'opt': return v.length ? [toX(t[1], v[0], defs)] : [];
    case 'vec': return t[1] === 'nat8' ? hexOf(v) : Array.from(v, (item) => toX(t[1], item, defs));
    case 'record': return Object.fromEntries(t[1].map(([label, ft]) => [label, toX(ft, v[label], defs)]));
    case 'tuple': return t[1].map((ft, i) => toX(ft, v[i], defs));
    case 'variant': {
      const [label] = Object.keys(v);
      return { [label]: toX(t[1].find(([l]) => l === label)[1], v[label], defs) };
    }
    case 'func': return [v[0].toText(), v[1]];
    case 'service': return v.toText();
    case 'ref': return toX(defs[t[1]], v, defs);
  }
}

// exchange form -> JS value
function fromX(t, x, defs) {
  if (typeof t === 'string') {
    if (BIG.has(t)) return BigInt(x);
    if (SMALL.has(t)) return Number(x);
    if (t === 'float32' || t === 'float64') return floatOf(x);
    if (t === 'principal') return Principal.fromText(x);
    return x;
  }
  switch (t[0]) {
    case 'opt': return x.length ? [fromX(t[1], x[0], defs)] : [];
    case 'vec': return t[1] === 'nat8' ? bytesOf(x) : x.map((item) => fromX(t[1], item, defs));
    case 'record': return Object.fromEntries(t[1].map(([label, ft]) => [label, fromX(ft, x[label], defs)]));
    case 'tuple': return t[1].map((ft, i) => fromX(ft, x[i], defs));
    case 'variant': {
      const [label] = Object.keys(x);
      return { [label]: fromX(t[1].find(([l]) => l === label)[1], x[label], defs) };
    }
    case 'func': return [Principal.fromText(x[0]), x[1]];
    case 'service': return Principal.fromText(x);
    case 'ref': return fromX(defs[t[1]], x, defs);
  }
}

const { defs, cases } = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const build = builder(defs);
function attempt(f) {
  try {
    return [f(), null];
  } catch (e) {
    return [null, String((e && e.stack) || e)];
  }
}

const results = cases.map(({ types, expected = types, hex, values }) => {
  const [decoded, decodeError] = attempt(() =>
    IDL.decode(expected.map(build), bytesOf(hex)).map((v, i) => toX(expected[i], v, defs)));
  const [encoded, encodeError] = attempt(() =>
    hexOf(IDL.encode(types.map(build), values.map((x, i) => fromX(types[i], x, defs)))));
  return { decoded, decodeError, hex: encoded, encodeError };
});
process.stdout.write(JSON.stringify(results));
