// Memory per body byte of one large read, in Node.js.
//
//   node test/bench/bodymem.mjs [MB ...]     (default: 5 50; ./build.sh bench)
//
// For each size, a fresh Node process (so a fresh wasm instance: its linear
// memory never shrinks) loads dist/datafetch.mjs and runs ctrl.fetch of a
// list endpoint with an Entity schema whose controller `fetch` option answers
// with a Response of an MB-sized JSON list of comments, shaped like the
// fixture server's /bad/huge. It reports:
//
//   - wasm: the growth of the module's WebAssembly.Memory over the fetch
//     (buffer.byteLength after minus before). Linear memory only grows, so
//     this is the peak the read needed, and it stays with the page;
//   - wasm/byte: that growth per body byte;
//   - heap: the JS heap the result keeps (heapUsed after a full GC while the
//     result is held, minus the same before the fetch), per body byte too;
//     for scale, a JSON.parse of the same text keeps `parse` bytes;
//   - fetch: how long ctrl.fetch took to resolve (on a busy machine this
//     moves a lot between runs).
//
// DATAFETCH_DIST=<folder> measures another build. BODYMEM_MAX=<ratio> makes
// the run fail when a size's wasm/byte exceeds it (the bench prints only).

import { execFileSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const DIST = process.env.DATAFETCH_DIST ? resolve(process.env.DATAFETCH_DIST) : join(ROOT, 'dist');
const SELF = fileURLToPath(import.meta.url);

// body returns a JSON list of comments of about mb megabytes, as the fixture
// server's /bad/huge writes it.
function body(mb) {
  const pad = 'A long comment body that pads each record to about a kilobyte. '.repeat(15);
  const parts = [];
  const limit = mb << 20;
  let written = 1;
  for (let id = 1; written < limit; id++) {
    const rec = `{"postId":${(id % 100) + 1},"id":${id},"name":"comment ${id}","email":"c${id}@example.com","body":${JSON.stringify(pad)}}`;
    parts.push(rec);
    written += rec.length + 1;
  }
  return '[' + parts.join(',') + ']';
}

// child measures one size in this process and prints one JSON line.
async function child(mb) {
  // Capture the Go instance: datafetch.mjs imports this same wasm_exec.js,
  // which is evaluated once, so it makes its Go with the class set here.
  await import(pathToFileURL(join(DIST, 'wasm_exec.js')).href);
  let go;
  const Go = globalThis.Go;
  globalThis.Go = class extends Go {
    constructor() {
      super();
      go = this;
      if (process.env.BODYMEM_GODEBUG) this.env = { GODEBUG: process.env.BODYMEM_GODEBUG };
    }
  };
  const { load } = await import(pathToFileURL(join(DIST, 'datafetch.node.mjs')).href);
  const df = await load();
  const memory = go._inst.exports.mem;

  let text = body(mb);
  const bytes = Buffer.byteLength(text);
  const count = (text.match(/"postId"/g) ?? []).length;
  globalThis.gc();
  const parseBefore = process.memoryUsage().heapUsed;
  let parsed = JSON.parse(text);
  globalThis.gc();
  const parse = process.memoryUsage().heapUsed - parseBefore;
  // Read after the measurement, so JSON.parse's result is alive through it.
  if (parsed.length !== count) throw new Error(`JSON.parse gave ${parsed.length} records, want ${count}`);
  parsed = undefined;

  const Comment = df.Entity({ key: 'Comment', defaults: { id: undefined, postId: 0, name: '', email: '', body: '' } });
  const ctrl = new df.Controller({
    fetch: () => {
      // Hand the text over: from here on only the Response holds it.
      const t = text;
      text = undefined;
      return Promise.resolve(new Response(t, { status: 200, headers: { 'content-type': 'application/json' } }));
    },
  });
  const list = new df.RestEndpoint({ urlPrefix: 'http://bodymem.test', path: '/comments', name: 'comments', schema: [Comment] });
  // A small read first, so that what every instance allocates once (the
  // controller, the endpoint's schema) is not counted as the body's.
  const small = new df.Controller({ fetch: () => Promise.resolve(new Response('[{"id":1}]', { headers: { 'content-type': 'application/json' } })) });
  await small.fetch(list, {});

  globalThis.gc();
  const heapBefore = process.memoryUsage().heapUsed;
  const wasmBefore = memory.buffer.byteLength;
  const start = performance.now();
  const result = await ctrl.fetch(list, {});
  const ms = performance.now() - start;
  const wasmAfter = memory.buffer.byteLength;
  // The bridge lets go of the read's text from a timer it sets when it
  // hands the read over (jsbridge/release.go): let that timer run first.
  await new Promise((r) => setTimeout(r, 0));
  globalThis.gc();
  const heap = process.memoryUsage().heapUsed - heapBefore;
  if (!Array.isArray(result) || result.length !== count || result[count - 1].id !== count) {
    throw new Error(`bodymem: the read returned ${Array.isArray(result) ? result.length + ' items' : typeof result}, want ${count} comments`);
  }
  const out = { mb, bytes, records: count, ms, wasmBefore, wasmAfter, wasm: wasmAfter - wasmBefore, heap, parse };
  process.stdout.write(JSON.stringify(out) + '\n');
  process.exit(0);
}

function mib(n) {
  return (n / (1 << 20)).toFixed(1).padStart(7) + ' MiB';
}

function main() {
  const sizes = process.argv.slice(2).map(Number);
  if (sizes.length === 0) sizes.push(5, 50);
  const max = process.env.BODYMEM_MAX ? Number(process.env.BODYMEM_MAX) : undefined;
  console.log('body        wasm growth   wasm/byte   JS heap kept  heap/byte   (JSON.parse keeps)   fetch');
  let failed = false;
  for (const mb of sizes) {
    if (!(mb > 0)) throw new Error(`bodymem: a size is a number of MB, got ${mb}`);
    const line = execFileSync(process.execPath, ['--expose-gc', '--max-old-space-size=4096', SELF, '--child', String(mb)], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const r = JSON.parse(line.trim().split('\n').pop());
    const ratio = r.wasm / r.bytes;
    console.log(
      `${mib(r.bytes)}  ${mib(r.wasm)}  ${ratio.toFixed(2).padStart(8)}x  ${mib(r.heap)}  ${(r.heap / r.bytes).toFixed(2).padStart(8)}x   (${mib(r.parse)})  ${r.ms.toFixed(0).padStart(6)} ms`,
    );
    if (max !== undefined && ratio > max) {
      console.error(`bodymem: ${mb} MB: wasm memory grew ${ratio.toFixed(2)}x the body, more than BODYMEM_MAX=${max}`);
      failed = true;
    }
  }
  if (failed) process.exit(1);
}

if (process.argv[2] === '--child') {
  await child(Number(process.argv[3]));
} else {
  main();
}
