// Decide whether an upgrade may keep an actor's stable variables, by the Motoko compiler's own rule.
//
//   node stable_compatible.js OLD.most NEW.most
//
// Prints one JSON array on stdout: the compiler's reasons the upgrade is incompatible (empty: it is
// compatible). The .most files are the `motoko:stable-types` signatures the compiler embeds in wasm.
'use strict';

const fs = require('fs');
const mo = require('motoko');

const [before, after] = process.argv.slice(2);
mo.write('before.most', fs.readFileSync(before, 'utf8'));
mo.write('after.most', fs.readFileSync(after, 'utf8'));
const result = mo.compiler.stableCompatible('before.most', 'after.most');
const errors = (result.diagnostics || []).filter((d) => d.severity === 1).map((d) => `[${d.code}] ${d.message}`);
process.stdout.write(JSON.stringify(errors));
