// Smoke test: dist/datafetch.mjs loads in Node.js (reading datafetch.wasm
// from disk) and talks to the fixture server. The full Node suite is
// test/node; this only proves the loader and the JS fetch transport work
// outside a browser.
//
//   ./build.sh build
//   .tools/bin/fixtureserver node jsbridge/testdata/node-smoke.mjs
//
// Prints "1 passed, 0 failed" and exits 0 on success.

import assert from 'node:assert/strict';
import { load } from '../../dist/datafetch.mjs';

const url = process.env.FIXTURE_URL;
if (!url) {
  console.error('FIXTURE_URL is not set: run under .tools/bin/fixtureserver');
  process.exit(2);
}

try {
  const started = performance.now();
  const df = await load();
  const loadMs = performance.now() - started;
  assert.equal(await load(), df, 'load() returns the same instance');
  assert.equal(typeof df.version, 'string');

  const User = df.Entity({ key: 'User', defaults: { id: undefined, name: '' } });
  const Article = df.Entity({
    key: 'Article',
    defaults: { id: undefined, title: '', content: '', published: false, author: null, tags: [] },
    schema: { author: User, createdAt: Date },
  });
  const getArticle = new df.RestEndpoint({ urlPrefix: url, path: '/articles/:id', name: 'getArticle', schema: Article });
  const ctrl = new df.Controller();

  const article = await ctrl.fetch(getArticle, { id: '1' });
  assert.equal(article.id, '1');
  assert.ok(article.createdAt instanceof Date, 'createdAt is a Date');
  assert.equal(ctrl.getResponse(getArticle, { id: '1' }).data, article, 'getResponse returns the fetched object');

  await assert.rejects(ctrl.fetch(getArticle, { id: '999' }), (err) => {
    assert.ok(err instanceof df.NetworkError);
    assert.equal(err.status, 404);
    assert.ok(err.message.includes('getArticle'));
    return true;
  });

  console.log(`load() took ${loadMs.toFixed(1)} ms (datafetch ${df.version}, Node ${process.versions.node})`);
  console.log('1 passed, 0 failed');
} catch (err) {
  console.error(err);
  console.log('0 passed, 1 failed');
  process.exitCode = 1;
}
