// dist/datafetch.bundle.mjs in Chromium, as a page without a bundler uses
// it: one module request in place of the module graph of datafetch.mjs,
// datafetch.wasm found beside it, and the API working. Counted at the
// server that serves the page.
//
// Run: node --test test/browser/bundle.spec.mjs

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from './launch.mjs';
import { serveFiles } from './serve.mjs';

const dist = join(dirname(fileURLToPath(import.meta.url)), '../../dist');

// page imports entry, loads datafetch.wasm from where the entry finds it and
// normalizes a list through the bridge.
const page = (entry) => `<!doctype html>
<meta charset="utf-8">
<script type="module">
  try {
    const { load } = await import('${entry}');
    const df = await load();
    const Thing = df.Entity({ key: 'Thing', defaults: { id: undefined, n: 0 } });
    const { result, entities } = df.normalize([Thing], [{ id: 1, n: 2 }, { id: 3, n: 4 }]);
    window.__result = { result: result.map(String), n: entities.Thing['3'].n };
  } catch (err) {
    window.__result = { error: String(err?.stack ?? err) };
  }
</script>`;

let browser;
before(async () => {
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
});

// visit opens a page that imports entry and returns what it computed and
// the paths the server was asked for.
async function visit(entry) {
  const seen = [];
  const web = await serveFiles({ pages: { '/': page(entry) }, dirs: { '/dist/': dist }, seen });
  const context = await browser.newContext();
  try {
    const tab = await context.newPage();
    await tab.goto(web.url);
    const got = await tab.waitForFunction(() => window.__result, null, { timeout: 120_000 }).then((h) => h.jsonValue());
    return { got, seen };
  } finally {
    await context.close();
    await web.close();
  }
}

const scripts = (seen) => seen.filter((p) => p.endsWith('.mjs') || p.endsWith('.js'));

test('datafetch.bundle.mjs: one module request, datafetch.wasm beside it, the API working', { timeout: 300_000 }, async () => {
  const { got, seen } = await visit('/dist/datafetch.bundle.mjs');
  assert.equal(got.error, undefined, got.error);
  assert.deepEqual(got.result, ['1', '3']);
  assert.equal(got.n, 4);
  assert.deepEqual(scripts(seen), ['/dist/datafetch.bundle.mjs'], 'the bundle is the only script fetched');
  assert.ok(seen.includes('/dist/datafetch.wasm'), 'datafetch.wasm is fetched from beside the bundle');

  // The module graph it replaces: the same page through datafetch.mjs.
  const graph = await visit('/dist/datafetch.mjs');
  assert.deepEqual(graph.got, got, 'the same result through datafetch.mjs');
  assert.ok(scripts(graph.seen).length > 10, `datafetch.mjs is a module graph (${scripts(graph.seen).length} scripts)`);
});
