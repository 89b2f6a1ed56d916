// Starts and stops the demo server (web/demo/server) for the end-to-end tests.
//
// ./build.sh test (stage_e2e) builds the server, app.wasm and the React
// example and passes the binary in DEMO_SERVER. Run alone (node --test
// test/e2e), the tests build what is missing themselves: the server binary
// always (seconds, with Go's build cache), app.wasm only when
// web/build/app.wasm does not exist, the React example (from dist/) only
// when web/build/react/ has no index.html.

import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** The repository root. */
export const ROOT = process.env.DEMO_ROOT ?? resolve(here, '..', '..');

/** Where the tests save screenshots and measurements (git-ignored). */
export const OUT = join(here, 'out');
mkdirSync(OUT, { recursive: true });

/** The demo's app.wasm. */
export const APP_WASM = join(ROOT, 'web', 'build', 'app.wasm');

/** The built React example, which the server serves at /react/. */
export const REACT_EXAMPLE = join(ROOT, 'web', 'build', 'react');

// buildServer returns the server binary and, when it built one, the
// temporary directory to remove afterwards.
function buildServer() {
  if (process.env.DEMO_SERVER) return { bin: process.env.DEMO_SERVER };
  const dir = mkdtempSync(join(tmpdir(), 'demo-server-'));
  const bin = join(dir, 'demo-server');
  const env = { ...process.env, GOOS: '', GOARCH: '' };
  execFileSync('go', ['build', '-o', bin, './web/demo/server'], { cwd: ROOT, env, stdio: 'inherit' });
  if (!existsSync(APP_WASM)) {
    execFileSync('go', ['build', '-trimpath', '-ldflags=-s -w', '-o', APP_WASM, './web/demo/app'], {
      cwd: ROOT,
      env: { ...process.env, GOOS: 'js', GOARCH: 'wasm' },
      stdio: 'inherit',
    });
  }
  if (!existsSync(join(REACT_EXAMPLE, 'index.html')) && existsSync(join(ROOT, 'dist', 'react.mjs'))) {
    execFileSync(process.execPath, [join(ROOT, 'examples', 'react', 'build.mjs'), '--out', REACT_EXAMPLE], { cwd: ROOT, stdio: 'inherit' });
  }
  return { bin, dir };
}

/**
 * startServer runs the demo server on a random port of 127.0.0.1 and
 * resolves to {url, stop}: url ends in "/", stop() ends the server.
 */
export async function startServer() {
  const { bin, dir } = buildServer();
  const child = spawn(bin, ['-addr', '127.0.0.1:0', '-root', ROOT, '-tick', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Never outlive the test process, whatever way it ends.
  const kill = () => child.kill('SIGKILL');
  process.on('exit', kill);
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  const url = await new Promise((resolveURL, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`demo server printed no URL in 3 minutes (a hang guard): ${out}${stderr}`)), 180_000);
    child.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/(http:\/\/127\.0\.0\.1:\d+\/)/);
      if (m) {
        clearTimeout(timer);
        resolveURL(m[1]);
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`demo server exited with ${code}: ${stderr}`));
    });
  });
  const exited = new Promise((r) => child.on('exit', r));
  return {
    url,
    async stop() {
      process.off('exit', kill);
      child.kill('SIGTERM');
      await exited;
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** control POSTs to the REST API's test controls, as "reset" or "delay?ms=0". */
export async function control(url, what) {
  const r = await fetch(new URL(`rest/_control/${what}`, url), { method: 'POST' });
  if (!r.ok) throw new Error(`POST /rest/_control/${what}: ${r.status} ${await r.text()}`);
}

/**
 * held waits until at least n requests are held at the REST API (it asks
 * /_control/held?wait=n, which is never held itself) and returns them, as
 * [{seq, method, path, stage}].
 */
export async function held(url, n) {
  const r = await fetch(new URL(`rest/_control/held?wait=${n}`, url));
  if (!r.ok) throw new Error(`GET /rest/_control/held?wait=${n}: ${r.status} ${await r.text()}`);
  return r.json();
}

/** api GETs a REST API path as JSON. It is held like any API request. */
export async function api(url, path) {
  const r = await fetch(new URL(`rest/${path}`, url));
  if (!r.ok) throw new Error(`GET /rest/${path}: ${r.status} ${await r.text()}`);
  return r.json();
}

/** watchErrors collects a page's uncaught errors and console errors. */
export function watchErrors(page) {
  const errors = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  return errors;
}
