// Makes a copy of a built dist/ whose loading path calls performance.mark
// at each step, for firstrequest.mjs to print where a first visit's time
// goes between datafetch.wasm's arrival and the data shown (its marks
// table). A benchmark tool, not part of the package.
//
//   node test/bench/marks-dist.mjs dist /tmp/marks-dist [datafetch.wasm]
//   FIRSTREQ_DIST=/tmp/marks-dist node test/bench/firstrequest.mjs
//
// The marks are put in by text: each anchor must be found once in the
// module it names, or the copy fails (the code moved: update the anchor).
// The optional third argument replaces the copy's datafetch.wasm: a build
// of a main that marks too ("go: main" as main starts, after the runtime
// and every package's initialization; "go: registered" after
// jsbridge.Register), see test/bench/README.md, "Start sooner".

import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// [module, anchor, marks put before it]
const MARKS = [
  ['load.mjs', '  const go = new globalThis.Go();', 'js: load()'],
  ['load.mjs', '  const before = globalThis[GO_GLOBAL];', 'js: instantiated'],
  ['load.mjs', '  const bridge = globalThis[GO_GLOBAL];', 'js: go.run returned'],
  ['load.mjs', '  return attach(bridge, instance.exports, go);', 'js: attaching'],
  ['pending.mjs', '        this.#inner = inner;', 'js: controller made'],
  ['transport.mjs', '    const status = resp.status;', 'js: response'],
  ['transport.mjs', '    const bytes = ', 'js: reading body'],
  ['transport.mjs', '    this.#report(id, wait, WAKE_OK, resp, bytes, meta, status);\n  }', 'js: body read'],
  ['transport.mjs', '    if (ok) call.resolve(value);', 'js: call complete'],
];

function main() {
  const [from, to, wasm] = process.argv.slice(2);
  if (from === undefined || to === undefined) {
    console.error('usage: node test/bench/marks-dist.mjs <dist> <out> [datafetch.wasm]');
    process.exit(2);
  }
  cpSync(from, to, { recursive: true });
  for (const [module, anchor, name] of MARKS) {
    const path = join(to, 'internal', module);
    const text = readFileSync(path, 'utf8');
    const at = text.indexOf(anchor);
    if (at < 0 || text.indexOf(anchor, at + 1) >= 0) throw new Error(`${module}: the anchor of "${name}" is not found exactly once: ${JSON.stringify(anchor)}`);
    const indent = anchor.match(/^ */)[0];
    writeFileSync(path, `${text.slice(0, at)}${indent}performance.mark(${JSON.stringify(name)});\n${text.slice(at)}`);
  }
  if (wasm !== undefined) cpSync(wasm, join(to, 'datafetch.wasm'));
  console.log(`${to}: ${MARKS.length} marks`);
}

main();
