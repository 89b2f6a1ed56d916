// Smoke test of the browser test harness itself: playwright-core drives the
// system Chromium through launch.mjs, loads a page from a local server, runs
// script and WebAssembly, clicks, and takes a screenshot. When this fails, the
// toolchain (Chromium / playwright-core versions, flags) is broken, not the
// library.
//
// Run: node --test test/browser/   (./build.sh test does)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from './launch.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const outDir = join(here, 'output');

const page = `<!doctype html>
<meta charset="utf-8">
<title>harness</title>
<button id="b">click</button>
<p id="out">waiting</p>
<script>
  // The smallest valid wasm module: proves WebAssembly is enabled.
  const ok = WebAssembly.validate(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));
  document.getElementById('b').onclick = async () => {
    const r = await fetch('/data');
    const j = await r.json();
    document.getElementById('out').textContent = 'clicked ' + j.hello + ' wasm=' + ok;
  };
</script>`;

function serve() {
  const server = createServer((req, res) => {
    if (req.url === '/data') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ hello: 'world' }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(page);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

test('playwright-core drives system Chromium: load, click, fetch, screenshot', async () => {
  const server = await serve();
  const url = `http://127.0.0.1:${server.address().port}/`;
  const browser = await launchChromium();
  try {
    const p = await browser.newPage();
    p.setDefaultTimeout(120_000); // hang guards, not speed bounds
    const errors = [];
    p.on('pageerror', (e) => errors.push(e.message));
    await p.goto(url);
    await p.click('#b');
    await p.waitForFunction(() => document.getElementById('out').textContent !== 'waiting');
    assert.equal(await p.textContent('#out'), 'clicked world wasm=true');
    assert.deepEqual(errors, []);

    mkdirSync(outDir, { recursive: true });
    const file = join(outDir, 'harness.png');
    await p.screenshot({ path: file });
    const png = readFileSync(file);
    assert.ok(png.length > 100, 'screenshot is not empty');
    assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
  } finally {
    await browser.close();
    server.close();
  }
});
