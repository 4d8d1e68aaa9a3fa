// moxzi's side of the Motoko compiler, run in the V8 that moxzi_core/motoko.py embeds: evaluated first,
// then the compiler (moc.min.js, a js_of_ocaml build for browsers: an in-memory file system, no
// `require`), which sets globalThis.Motoko. Python calls these functions with JSON values (mini-racer's
// MiniRacer.call) and gets JSON values back (null where there is nothing to answer).
'use strict';

// The compiler converts between its strings and JavaScript's with TextEncoder and TextDecoder, which
// browsers and Node.js have and a bare V8 does not: UTF-8 as the WHATWG Encoding standard defines it
// (a lone surrogate encodes as U+FFFD; each maximal invalid subpart decodes as one U+FFFD).
globalThis.TextEncoder = class TextEncoder {
  get encoding() {
    return 'utf-8';
  }
  encode(input = '') {
    const text = String(input);
    const out = new Uint8Array(text.length * 3);
    let n = 0;
    for (let i = 0; i < text.length; i++) {
      let c = text.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
        const low = text.charCodeAt(i + 1);
        if (low >= 0xdc00 && low <= 0xdfff) {
          c = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
          i++;
        }
      }
      if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd;
      if (c < 0x80) out[n++] = c;
      else if (c < 0x800) {
        out[n++] = 0xc0 | (c >> 6);
        out[n++] = 0x80 | (c & 63);
      } else if (c < 0x10000) {
        out[n++] = 0xe0 | (c >> 12);
        out[n++] = 0x80 | ((c >> 6) & 63);
        out[n++] = 0x80 | (c & 63);
      } else {
        out[n++] = 0xf0 | (c >> 18);
        out[n++] = 0x80 | ((c >> 12) & 63);
        out[n++] = 0x80 | ((c >> 6) & 63);
        out[n++] = 0x80 | (c & 63);
      }
    }
    return out.slice(0, n);
  }
};

globalThis.TextDecoder = class TextDecoder {
  get encoding() {
    return 'utf-8';
  }
  decode(input) {
    if (input === undefined) return '';
    const bytes = ArrayBuffer.isView(input)
      ? new Uint8Array(input.buffer, input.byteOffset, input.byteLength)
      : new Uint8Array(input);
    const units = [];
    let text = '';
    let i = 0;
    while (i < bytes.length) {
      const first = bytes[i];
      let c = 0xfffd;
      let length = 1;
      if (first < 0x80) c = first;
      else {
        // the continuation bytes a lead byte takes, and the range its first continuation byte must be in
        let need = 0;
        let lower = 0x80;
        let upper = 0xbf;
        if (first >= 0xc2 && first <= 0xdf) [need, c] = [1, first & 0x1f];
        else if (first >= 0xe0 && first <= 0xef) {
          [need, c] = [2, first & 0xf];
          if (first === 0xe0) lower = 0xa0;
          if (first === 0xed) upper = 0x9f;
        } else if (first >= 0xf0 && first <= 0xf4) {
          [need, c] = [3, first & 7];
          if (first === 0xf0) lower = 0x90;
          if (first === 0xf4) upper = 0x8f;
        }
        if (need === 0) c = 0xfffd;
        else {
          let j = 1;
          for (; j <= need; j++) {
            const next = bytes[i + j];
            if (i + j >= bytes.length || next < lower || next > upper) break;
            c = (c << 6) | (next & 0x3f);
            [lower, upper] = [0x80, 0xbf];
          }
          if (j <= need) [c, length] = [0xfffd, j];
          else length = need + 1;
        }
      }
      i += length;
      if (c >= 0x10000) units.push(0xd800 + ((c - 0x10000) >> 10), 0xdc00 + ((c - 0x10000) & 0x3ff));
      else units.push(c);
      if (units.length >= 8192) {
        text += String.fromCharCode.apply(null, units);
        units.length = 0;
      }
    }
    return text + String.fromCharCode.apply(null, units);
  }
};

const SEVERITIES = { 1: 'error', 2: 'warning', 3: 'info', 4: 'hint' };

globalThis.moxzi = {
  version() {
    return Motoko.version;
  },

  // {path: content, ...} into the compiler's file system.
  write(files) {
    for (const [path, content] of Object.entries(files)) Motoko.saveFile(path, content);
    return null;
  },

  // `mo:NAME/X` is DIRECTORY/X.mo of the compiler's file system.
  usePackage(name, directory) {
    Motoko.addPackage(name, directory);
    return null;
  },

  // The import paths of a Motoko source, as written ([] for a syntax error: compile reports it).
  imports(source) {
    const parsed = Motoko.parseMotoko(false, source);
    const paths = [];
    (function visit(node) {
      if (Array.isArray(node)) node.forEach(visit);
      else if (node && typeof node === 'object') {
        if (node.name === 'ImportE') paths.push(node.args[0]);
        else visit(node.args);
      }
    })(parsed.code);
    return paths;
  },

  // Compile ENTRY (a path in the compiler's file system) for the IC. The request: {entry, flags
  // (gcFlags: the persistence mode, a collector, 'force'), candidPath (null or the directory of
  // `ic:` imports' .did files), aliases ([[NAME, ID], ...]), publicMetadata}. The wasm is kept apart,
  // as an ArrayBuffer (lastWasm), which Python reads as bytes rather than as JSON.
  compile(request) {
    for (const flag of request.flags) Motoko.gcFlags(flag);
    if (request.candidPath !== null) Motoko.setCandidPath(request.candidPath);
    Motoko.setActorAliases(request.aliases);
    Motoko.setPublicMetadata(request.publicMetadata);
    const result = Motoko.compileWasm('ic', request.entry);
    const code = result.code;
    globalThis.moxzi.lastWasm = code ? code.wasm.slice().buffer : null;
    return {
      diagnostics: (result.diagnostics || []).map(diagnostic),
      candid: code ? code.candid : null,
      stable: code ? code.stable : null,
    };
  },

  // The compiler's reasons an actor with stable signature BEFORE cannot be upgraded to AFTER ([]: it can).
  stableCompatible(before, after) {
    Motoko.saveFile('before.most', before);
    Motoko.saveFile('after.most', after);
    const result = Motoko.stableCompatible('before.most', 'after.most');
    return (result.diagnostics || []).filter((d) => d.severity === 1).map((d) => `[${d.code}] ${d.message}`);
  },
};

function diagnostic(d) {
  return {
    file: d.source,
    line: d.range.start.line + 1,
    column: d.range.start.character + 1,
    severity: SEVERITIES[d.severity] || String(d.severity),
    code: d.code,
    message: d.message,
  };
}
