// The package as an app gets it: dist/ packed with `npm pack`, unpacked into
// a tiny app's node_modules (test/bundlers/app), then built and served by
// Vite 7 (dev server and production build) and webpack 5, each with no
// configuration at all, and by esbuild with datafetch.wasm copied beside
// the bundle, and run in headless Chromium: the page and a module Web
// Worker both load datafetch.wasm (load() with no argument) and read
// through a Controller. Node.js imports the same unpacked package by its
// name. Vite, webpack and esbuild come from the repository's
// devDependencies (found by walking up from the app).

import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../browser/launch.mjs';
import { serveFiles } from '../browser/serve.mjs';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const ROOT = join(HERE, '..', '..');
const DIST = join(ROOT, 'dist');
const OUT = join(HERE, 'out');

// Every wait is bounded by HANG_MS: a guard against hangs, never a check of
// speed.
const HANG_MS = 180_000;

// What the app's readArticles (app/read.js) returns when datafetch works.
const EXPECTED = 'Hello by Ada, Again by Ada; author shared: true';

let browser;
let tarball;

before(async () => {
  assert.ok(existsSync(join(DIST, 'datafetch.wasm')), 'dist/ is not built: run ./build.sh build');
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const name = execFileSync('npm', ['pack', DIST, '--pack-destination', OUT, '--loglevel=error'], { encoding: 'utf8' }).trim();
  tarball = join(OUT, name.split('\n').pop());
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
});

// makeApp copies the app into OUT/name with the packed package unpacked into
// its node_modules, as npm would install it, and returns its folder.
function makeApp(name) {
  const dir = join(OUT, name);
  cpSync(join(HERE, 'app'), dir, { recursive: true });
  const pkg = join(dir, 'node_modules', 'datafetch');
  mkdirSync(pkg, { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', pkg, '--strip-components=1']);
  return dir;
}

// openApp loads url in a fresh page and returns what the page and its
// worker showed, with the page's errors.
async function openApp(url) {
  const page = await browser.newPage();
  page.setDefaultTimeout(HANG_MS);
  const errors = [];
  page.on('pageerror', (err) => errors.push(err.message));
  try {
    await page.goto(url);
    const settled = (id) => `document.getElementById('${id}').textContent !== 'loading'`;
    await page.waitForFunction(`${settled('page')} && ${settled('worker')}`);
    return { page: await page.textContent('#page'), worker: await page.textContent('#worker'), errors };
  } finally {
    await page.close();
  }
}

function assertWorks(got, where) {
  assert.deepEqual(got, { page: EXPECTED, worker: EXPECTED, errors: [] }, `the app under ${where}`);
}

// A Vite logger that keeps every warning and error, for the tests to show.
function keepingLogger(kept) {
  const keep = (msg) => kept.push(msg);
  return {
    info() {},
    warn: keep,
    warnOnce: keep,
    error: keep,
    clearScreen() {},
    hasErrorLogged: () => false,
    hasWarned: false,
  };
}

test('Vite 7 dev server, no configuration: page and module worker load datafetch', async () => {
  const { createServer } = await import('vite');
  const root = makeApp('vite-dev');
  const logged = [];
  const server = await createServer({ root, customLogger: keepingLogger(logged), server: { host: '127.0.0.1', port: 0 } });
  try {
    await server.listen();
    const got = await openApp(server.resolvedUrls.local[0]);
    // The case that used to fail: the pre-bundler moved the package into
    // node_modules/.vite/deps, away from datafetch.wasm.
    assert.ok(existsSync(join(root, 'node_modules', '.vite', 'deps', 'datafetch.js')), 'Vite pre-bundled datafetch');
    assertWorks(got, 'vite dev');
    assert.deepEqual(logged, [], 'the dev server logged no warnings or errors');
  } finally {
    await server.close();
  }
});

test('Vite 7 production build, no configuration: no warnings, and the built app works', async () => {
  const { build, preview } = await import('vite');
  const root = makeApp('vite-build');
  const logged = [];
  await build({ root, logLevel: 'warn', customLogger: keepingLogger(logged) });
  assert.deepEqual(logged, [], 'vite build warned (a node: import reaching the browser bundle would)');
  const bundle = readFileSync(join(root, 'dist', 'index.html'), 'utf8');
  assert.match(bundle, /<script type="module"/, 'vite build wrote the page');
  const server = await preview({ root, logLevel: 'silent', preview: { host: '127.0.0.1', port: 0 } });
  try {
    assertWorks(await openApp(server.resolvedUrls.local[0]), 'vite build');
  } finally {
    await new Promise((resolve) => server.httpServer.close(resolve));
  }
});

test('webpack 5, no configuration but the entry: no warnings about the package, and the built app works', async () => {
  const { default: webpack } = await import('webpack');
  const dir = makeApp('webpack');
  const out = join(dir, 'public');
  const stats = await new Promise((resolve, reject) => {
    const compiler = webpack({ mode: 'production', context: dir, entry: './main.js', output: { path: out } });
    compiler.run((err, result) => compiler.close(() => (err ? reject(err) : resolve(result))));
  });
  const info = stats.toJson({ all: false, errors: true, warnings: true });
  assert.deepEqual(
    info.errors.map((e) => e.message),
    [],
    'webpack errors',
  );
  // Size hints are webpack's advice about any 4 MB asset, not a problem of
  // the package's.
  const warnings = info.warnings.map((w) => w.message).filter((m) => !/size limit|limit the size/i.test(m));
  assert.deepEqual(warnings, [], 'webpack warnings');
  cpSync(join(dir, 'index.html'), join(out, 'index.html'));
  const server = await serveFiles({ dirs: { '/': out } });
  try {
    assertWorks(await openApp(server.url), 'webpack');
  } finally {
    await server.close();
  }
});

test('esbuild, with datafetch.wasm copied beside the bundle: page and module worker load it with no argument', async () => {
  const { build } = await import('esbuild');
  const dir = makeApp('esbuild');
  // The bundles go one folder down from where the page is served, so that
  // a default one folder above the bundle (the old one) would miss the file.
  const out = join(dir, 'public');
  const result = await build({
    absWorkingDir: dir,
    // The worker is an entry of its own: esbuild leaves main.js's
    // new URL('./worker.js', import.meta.url) as it is, which then names
    // the worker's bundle beside it.
    entryPoints: ['main.js', 'worker.js'],
    outdir: out,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    logLevel: 'silent',
  });
  assert.deepEqual(
    [...result.errors, ...result.warnings].map((m) => m.text),
    [],
    'esbuild errors and warnings',
  );
  for (const f of ['main.js', 'worker.js']) {
    const text = readFileSync(join(out, f), 'utf8');
    assert.doesNotMatch(text, /\b(?:from|import)\s*\(?\s*['"]node:/, `the ${f} bundle imports no node: module`);
  }
  // What the package asks of an esbuild app: copy datafetch.wasm beside
  // the bundle.
  cpSync(join(dir, 'node_modules', 'datafetch', 'datafetch.wasm'), join(out, 'datafetch.wasm'));
  cpSync(join(dir, 'index.html'), join(out, 'index.html'));
  const server = await serveFiles({ dirs: { '/app/': out } });
  try {
    assertWorks(await openApp(`${server.url}app/`), 'esbuild');
  } finally {
    await server.close();
  }
});

test('Node.js imports the package by its name (the "node" entry) and loads datafetch.wasm from its folder', async () => {
  const dir = makeApp('node');
  const script = "import { readArticles } from './read.js'; process.stdout.write(await readArticles());";
  const stdout = await new Promise((resolve, reject) => {
    execFile(process.execPath, ['--input-type=module', '-e', script], { cwd: dir, timeout: HANG_MS }, (err, out, stderr) =>
      err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(out),
    );
  });
  assert.equal(stdout, EXPECTED);
});

test('no module a browser loads from the package imports a node: module', () => {
  // The browser entry and every module it reaches by static or dynamic import.
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/\b(?:import|export)\s*(?:[^'"();]*?from\s*)?\(?\s*['"]([^'"]+)['"]/g)) {
      const spec = m[1];
      assert.ok(!spec.startsWith('node:'), `${file.slice(DIST.length + 1)} imports ${spec}`);
      if (spec.startsWith('.')) visit(join(file, '..', spec));
    }
  };
  visit(join(DIST, 'datafetch.mjs'));
  assert.ok(seen.has(join(DIST, 'internal', 'load.mjs')), 'the walk reached internal/load.mjs');
  assert.ok(seen.has(join(DIST, 'wasm_exec.js')), 'the walk reached wasm_exec.js');
});
