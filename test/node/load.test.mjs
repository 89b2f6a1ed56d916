// Loading (docs/js-api.md, Loading the module): load(), dist/ contents, the
// API surface.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DIST, MODULE_PATH, env, importModule, loadDF, setup, test } from './harness.mjs';

setup();

const WASM = join(DIST, 'datafetch.wasm');

// The Go instances load() makes: datafetch.mjs imports this same
// wasm_exec.js, evaluated once, so it makes its Go with the class set here.
const gos = [];
await import(pathToFileURL(join(DIST, 'wasm_exec.js')).href);
globalThis.Go = class extends globalThis.Go {
  constructor() {
    super();
    gos.push(this);
  }
};

test('load() resolves to the API; a second load() returns the same instance', async () => {
  const m = await importModule();
  assert.equal(typeof m.load, 'function');
  const a = await m.load();
  const b = await m.load();
  assert.ok(a && typeof a === 'object', 'load() resolves to an object');
  assert.equal(a, b, 'load() twice must return the same instance');
  assert.equal(await loadDF(), a);
});

test("load() starts datafetch.wasm with its collector settings in the Go runtime's environment", async () => {
  await loadDF();
  assert.equal(gos.length, 1, 'one Go instance');
  // wasm/main.go sets none itself: without these the runtime collects at
  // GOGC=100 with no memory limit.
  assert.equal(gos[0].env.GOGC, '1000');
  assert.equal(gos[0].env.GOMEMLIMIT, '1GiB');
});

test('load(bytes) after load() returns the same instance', async () => {
  const m = await importModule();
  const a = await m.load();
  const b = await m.load(new Uint8Array(readFileSync(WASM)));
  assert.equal(a, b);
});

test('df.version is a non-empty string', async () => {
  const df = await loadDF();
  assert.equal(typeof df.version, 'string');
  assert.ok(df.version.length > 0);
  assert.match(df.version, /\d/, 'a version has a number in it');
});

test('the API has every documented name', async () => {
  const df = await loadDF();
  for (const name of [
    'Entity',
    'normalize',
    'denormalize',
    'RestEndpoint',
    'resource',
    'createResource',
    'Controller',
    'useController',
    'useSuspense',
    'useResource',
    'useLoading',
    'Resource',
    'NetworkError',
    'AbortOptimistic',
  ]) {
    assert.equal(typeof df[name], 'function', `df.${name} should be a function`);
  }
  assert.ok(df.schema && typeof df.schema === 'object', 'df.schema');
  for (const name of ['Array', 'Object', 'Values', 'Union', 'Invalidate']) {
    assert.equal(typeof df.schema[name], 'function', `df.schema.${name} should be a constructor`);
  }
  assert.ok(new df.AbortOptimistic() instanceof Error, 'AbortOptimistic is an Error');
});

test('NetworkError and AbortOptimistic are Error subclasses', async () => {
  const df = await loadDF();
  assert.ok(Object.create(df.NetworkError.prototype) instanceof Error, 'NetworkError.prototype inherits from Error');
  assert.ok(Object.create(df.AbortOptimistic.prototype) instanceof Error, 'AbortOptimistic.prototype inherits from Error');
  assert.ok(new df.AbortOptimistic('x') instanceof df.AbortOptimistic);
});

test('dist/ holds datafetch.wasm, wasm_exec.js, datafetch.mjs, datafetch.node.mjs, datafetch.d.ts and package.json', () => {
  for (const f of ['datafetch.wasm', 'wasm_exec.js', 'datafetch.mjs', 'datafetch.node.mjs', 'datafetch.d.ts', 'package.json']) {
    assert.ok(existsSync(join(DIST, f)), `dist/${f} should exist`);
  }
});

test('dist/package.json makes dist/ an installable package pointing at the module and its types', () => {
  const pkg = JSON.parse(readFileSync(join(DIST, 'package.json'), 'utf8'));
  assert.equal(typeof pkg.name, 'string', 'package.json has a name');
  assert.equal(typeof pkg.version, 'string', 'package.json has a version');
  const targets = [];
  if (typeof pkg.main === 'string') targets.push(pkg.main);
  const collect = (v) => {
    if (typeof v === 'string') targets.push(v);
    else if (v && typeof v === 'object') Object.values(v).forEach(collect);
  };
  collect(pkg.exports);
  assert.ok(targets.length > 0, 'package.json has main or exports');
  assert.ok(
    targets.some((t) => t.replace(/^\.\//, '') === 'datafetch.mjs'),
    `main/exports should name datafetch.mjs, got ${JSON.stringify(targets)}`,
  );
  for (const t of targets) {
    assert.ok(existsSync(join(DIST, t)), `package.json names ${t}, which should exist in dist/`);
  }
  const types = pkg.types ?? pkg.typings;
  const exportTypes = JSON.stringify(pkg.exports ?? {}).includes('datafetch.d.ts');
  assert.ok(types === './datafetch.d.ts' || types === 'datafetch.d.ts' || exportTypes, 'package.json points at datafetch.d.ts');
});

test('df.version matches dist/package.json version', async () => {
  const df = await loadDF();
  const pkg = JSON.parse(readFileSync(join(DIST, 'package.json'), 'utf8'));
  assert.equal(df.version, pkg.version);
});

// Each source kind is loaded in a fresh process, since a second load in this
// one returns the instance already loaded.
function loadInChild(kind, url = '', modulePath = MODULE_PATH) {
  const script = `
    import { readFileSync } from 'node:fs';
    const m = await import(${JSON.stringify(pathToFileURL(modulePath).href)});
    const bytes = readFileSync(${JSON.stringify(WASM)});
    const kind = ${JSON.stringify(kind)};
    let src;
    if (kind === 'uint8array') src = new Uint8Array(bytes);
    else if (kind === 'arraybuffer') src = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    else if (kind === 'response') src = new Response(bytes, { headers: { 'content-type': 'application/wasm' } });
    else if (kind === 'url-string') src = ${JSON.stringify(url)};
    else if (kind === 'url-object') src = new URL(${JSON.stringify(url)});
    else if (kind === 'path') src = ${JSON.stringify(WASM)};
    // 'default': no source, datafetch.wasm beside the module.
    const df = await m.load(src);
    const again = await m.load();
    const Thing = df.Entity({ key: 'Thing', defaults: { id: undefined, n: 0 } });
    const { result, entities } = df.normalize([Thing], [{ id: 1, n: 2 }]);
    process.stdout.write(JSON.stringify({ version: df.version, same: df === again, n: entities.Thing['1'].n, result: result.map(String) }));
    process.exit(0);
  `;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--input-type=module', '-e', script], { timeout: 120_000 } /* a hang guard, not a speed bound */, (err, stdout, stderr) => {
      if (err) reject(new Error(`load(${kind}) in a child process failed: ${err.message}\n${stderr}`));
      else resolve(JSON.parse(stdout));
    });
  });
}

for (const kind of ['uint8array', 'arraybuffer', 'response']) {
  test(`load(${kind}) works in a fresh process`, async () => {
    const out = await loadInChild(kind);
    assert.deepEqual(out.result, ['1']);
    assert.equal(out.n, 2);
    assert.equal(out.same, true, 'load() after load(source) returns the same instance');
    assert.equal(typeof out.version, 'string');
  });
}

for (const kind of ['url-string', 'url-object']) {
  test(`load(${kind}) fetches the module over HTTP in a fresh process`, async () => {
    const bytes = readFileSync(WASM);
    let hits = 0;
    const srv = createServer((req, res) => {
      hits++;
      res.writeHead(200, { 'content-type': 'application/wasm' });
      res.end(bytes);
    });
    await new Promise((r) => srv.listen(0, '127.0.0.1', r));
    try {
      const out = await loadInChild(kind, `http://127.0.0.1:${srv.address().port}/datafetch.wasm`);
      assert.equal(out.n, 2);
      assert.ok(hits >= 1, 'the module was fetched from the URL');
    } finally {
      await new Promise((r) => srv.close(r));
    }
  });
}

test("load(path) reads the file under the package's Node.js entry", async () => {
  const out = await loadInChild('path');
  assert.equal(out.n, 2);
});

test('the browser entry imported by path under Node.js: load(path), load() and load(bytes) read the module', async () => {
  const browserEntry = join(DIST, 'datafetch.mjs');
  for (const kind of ['path', 'default', 'uint8array']) {
    const out = await loadInChild(kind, '', browserEntry);
    assert.equal(out.n, 2, kind);
  }
});

test('load(url) of a server that answers an HTML page says so, not a WebAssembly magic-word error', async () => {
  const srv = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>app</title>');
  });
  await new Promise((r) => srv.listen(0, '127.0.0.1', r));
  try {
    const url = `http://127.0.0.1:${srv.address().port}/assets/datafetch.wasm`;
    await assert.rejects(loadInChild('url-string', url), (err) => {
      assert.match(err.message, /datafetch load: http:\/\/127\.0\.0\.1:\d+\/assets\/datafetch\.wasm answered an HTML page, not datafetch\.wasm/);
      return true;
    });
  } finally {
    await new Promise((r) => srv.close(r));
  }
});

test('the default controller is one shared instance', async () => {
  const { df } = await env();
  assert.equal(df.useController(), df.useController());
  assert.ok(df.useController() instanceof df.Controller, 'useController() is a Controller');
});

// datafetch.bundle.mjs: datafetch.mjs and its modules in one file, for
// pages without a bundler (test/browser/bundle.spec.mjs counts its requests).
const BUNDLE = join(DIST, 'datafetch.bundle.mjs');

test('datafetch.bundle.mjs exports what datafetch.mjs exports', async () => {
  const bundle = await import(pathToFileURL(BUNDLE).href);
  const modules = await import(pathToFileURL(join(DIST, 'datafetch.mjs')).href);
  assert.deepEqual(Object.keys(bundle).sort(), Object.keys(modules).sort());
  const pkg = JSON.parse(readFileSync(join(DIST, 'package.json'), 'utf8'));
  assert.equal(pkg.exports['./bundle'].default, './datafetch.bundle.mjs');
  assert.ok(pkg.files.includes('datafetch.bundle.mjs'), 'the bundle ships in the package');
});

test('datafetch.bundle.mjs loads datafetch.wasm beside itself in a fresh process', async () => {
  const out = await loadInChild('default', '', BUNDLE);
  assert.deepEqual(out.result, ['1']);
  assert.equal(out.n, 2);
  assert.equal(out.same, true);
});
