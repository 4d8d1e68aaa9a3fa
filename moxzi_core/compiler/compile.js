// Compile one Motoko actor to IC WebAssembly, fully offline.
//
//   node compile.js ENTRY.mo enhancedOP|classicOP [OPTION ...] [NAME=DIR ...]
//
// Each NAME=DIR is a local package (a mops.toml's `name = "./path"`): `mo:NAME/X` is DIR/X.mo.
// The options are moc's of the same names (build.py checks their values first):
//   --gc copying|marking|generational|incremental   the collector (moc's --copying-gc, --compacting-gc,
//                                                   ...; the npm compiler's own names for them)
//   --force-gc                                      collect after every update message
//   --actor-idl DIR                                 where `ic:ID` imports find ID.did (an absolute path)
//   --actor-alias NAME ID                           `canister:NAME` is `ic:ID`
// mo:moxzi, the device's library, is one too, shipped beside this file (compiler/moxzi/): like
// mo:core, an import of it needs no download.
//
// Prints one JSON object on stdout:
//   {moc, files, diagnostics, wasm (base64, null on error), candid, stable}
// and exits 0 whenever it got that far; any other exit is a crash, explained on stderr.
//
// One compile per process: repeated compiles in one process drift by a few bytes.
'use strict';

const fs = require('fs');
const path = require('path');
const mo = require('motoko');

const CORE = require('motoko/packages/latest/core.json');
// Where loadPackage puts the core library in the virtual file system.
const CORE_DIR = `.node-motoko/${CORE.name}/${CORE.version}/`;
const MODES = ['enhancedOP', 'classicOP'];
const SEVERITIES = { 1: 'error', 2: 'warning', 3: 'info', 4: 'hint' };

const COLLECTORS = ['copying', 'marking', 'generational', 'incremental'];

const [entry, mode, ...rest] = process.argv.slice(2);
if (!entry || !MODES.includes(mode)) {
  console.error(`usage: node compile.js ENTRY.mo ${MODES.join('|')} [OPTION ...] [NAME=DIR ...]`);
  process.exit(2);
}
const gcFlags = [];
const aliases = {};
const localPackages = [];
let actorIdl = null;
for (let i = 0; i < rest.length; i++) {
  const arg = rest[i];
  if (arg === '--gc' && COLLECTORS.includes(rest[i + 1])) gcFlags.push(rest[++i]);
  else if (arg === '--force-gc') gcFlags.push('force');
  else if (arg === '--actor-idl' && rest[i + 1]) actorIdl = rest[++i];
  else if (arg === '--actor-alias' && rest[i + 2]) {
    aliases[rest[i + 1]] = rest[i + 2];
    i += 2;
  } else if (!arg.startsWith('--') && arg.includes('=')) localPackages.push(arg);
  else {
    console.error(`compile.js: bad option ${arg} (or a value missing after it)`);
    process.exit(2);
  }
}

// The compiler only reads its virtual file system. Copy the entry file and the local files it
// imports, transitively, into it, at paths relative to the entry's directory: those paths end up
// in trap messages, so they must not depend on where the project lies on disk.
function writeLocalSources(root, entryFile) {
  const pending = [entryFile];
  const written = new Set();
  while (pending.length) {
    const file = pending.pop();
    if (written.has(file)) continue;
    written.add(file);
    const source = fs.readFileSync(path.join(root, file), 'utf8');
    mo.write(file, source);
    for (const spec of importPaths(source)) {
      const found = resolveLocalImport(root, path.posix.dirname(file), spec);
      if (found) pending.push(found);
    }
  }
}

function importPaths(source) {
  let ast;
  try {
    ast = mo.parseMotoko(source);
  } catch {
    return []; // a syntax error: compileWasm reports it with its position
  }
  const paths = [];
  (function visit(node) {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node && typeof node === 'object') {
      if (node.name === 'ImportE') paths.push(node.args[0]);
      else visit(node.args);
    }
  })(ast);
  return paths;
}

// Motoko resolves `import X "lib/Foo"` to lib/Foo.mo, else lib/Foo/lib.mo, next to the importing
// file. Imports with a scheme (mo:, ic:, canister:, blob:) are not files of this project. An
// import that finds no file is left to the compiler to report.
function resolveLocalImport(root, dir, spec) {
  if (/^[a-z]+:/i.test(spec)) return null;
  const base = path.posix.normalize(path.posix.join(dir, spec));
  return [`${base}.mo`, `${base}/lib.mo`].find((file) => {
    const stat = fs.statSync(path.join(root, file), { throwIfNoEntry: false });
    return stat && stat.isFile();
  });
}

// The paths, relative to DIR and with '/', of the files under DIR (its subdirectories too) whose names
// end in EXTENSION.
function filesUnder(directory, extension) {
  const found = [];
  const pending = [''];
  while (pending.length) {
    const relative = pending.pop();
    for (const item of fs.readdirSync(path.join(directory, relative), { withFileTypes: true })) {
      const file = path.posix.join(relative, item.name);
      if (item.isDirectory()) pending.push(file);
      else if (item.isFile() && item.name.endsWith(extension)) found.push(file);
    }
  }
  return found;
}

// A local package's Motoko files, copied into the virtual file system under LOCAL_DIR/NAME/.
const LOCAL_DIR = '.local-packages/';
function useLocalPackage(name, directory) {
  for (const file of filesUnder(directory, '.mo')) {
    mo.write(`${LOCAL_DIR}${name}/${file}`, fs.readFileSync(path.join(directory, file), 'utf8'));
  }
  mo.usePackage(name, `${LOCAL_DIR}${name}`);
}

// The Candid files of DIR (and its subdirectories: one may import another), at the same paths in the
// virtual file system, so that the compiler's messages about them name the files on disk.
function useCandidFiles(directory) {
  for (const file of filesUnder(directory, '.did')) {
    const onDisk = path.join(directory, file);
    mo.write(onDisk, fs.readFileSync(onDisk, 'utf8'));
  }
  mo.compiler.setCandidPath(directory);
}

// Library files show as `mo:core/Nat.mo` (a local package's as `mo:NAME/X.mo`) rather than their
// place in the virtual file system.
function displayPath(file) {
  if (file.startsWith(CORE_DIR)) return `mo:${CORE.name}/${file.slice(CORE_DIR.length)}`;
  return file.startsWith(LOCAL_DIR) ? `mo:${file.slice(LOCAL_DIR.length)}` : file;
}

// Every Motoko file the entry pulls in, itself included, and the Candid files of its `ic:` imports
// (read, not parsed as Motoko); `@prim` is built into the compiler.
function sourceFiles(entryFile) {
  const seen = new Set([entryFile]);
  const pending = [entryFile];
  while (pending.length) {
    const file = pending.pop();
    for (const dep of mo.parseMotokoWithDeps(file, mo.read(file)).immediateImports) {
      if (!dep.startsWith('@') && !seen.has(dep)) {
        seen.add(dep);
        if (!dep.endsWith('.did')) pending.push(dep);
      }
    }
  }
  return [...seen].map(displayPath).sort();
}

mo.loadPackage(CORE);
useLocalPackage('moxzi', path.join(__dirname, 'moxzi'));
for (const spec of localPackages) {
  const at = spec.indexOf('=');
  useLocalPackage(spec.slice(0, at), spec.slice(at + 1));
}
mo.compiler.gcFlags(mode);
gcFlags.forEach((flag) => mo.compiler.gcFlags(flag));
if (actorIdl !== null) useCandidFiles(actorIdl);
mo.compiler.setActorAliases(Object.entries(aliases));
// As dfx builds Motoko: the interface is public metadata (anyone may read it with read_state, as
// icp-cli does to encode a call), the rest (stable types, compiler, persistence) private: for
// controllers only.
mo.setPublicMetadata(['candid:service', 'candid:args']);
const entryFile = path.basename(entry);
writeLocalSources(path.dirname(entry), entryFile);

// compileWasm reports the same diagnostics as mo.check (warnings included), so one call does both.
const result = mo.compiler.compileWasm('ic', entryFile);
const diagnostics = (result.diagnostics || []).map((d) => ({
  file: displayPath(d.source),
  line: d.range.start.line + 1,
  column: d.range.start.character + 1,
  severity: SEVERITIES[d.severity] || String(d.severity),
  code: d.code,
  message: d.message,
}));
const code = result.code;
process.stdout.write(JSON.stringify({
  moc: mo.version,
  files: code ? sourceFiles(entryFile) : [],
  diagnostics,
  wasm: code ? Buffer.from(code.wasm).toString('base64') : null,
  candid: code ? code.candid : null,
  stable: code ? code.stable : null,
}));
