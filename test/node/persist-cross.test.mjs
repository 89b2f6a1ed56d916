// One persistence policy for Go and JavaScript front ends (core/persist):
// df.persist and Go's web/browser/persist run it with their own storage
// I/O and write the same envelope and snapshot, so either restores what
// the other kept. web/browser/persist/testdata/go.json is what
// Go writes for a known controller (its cross_test.go checks it is current
// and restores js.json); this file restores go.json and checks that
// JavaScript writes js.json for the twin controller (UPDATE=1 rewrites it).

import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, fakeClock, importModule, loadDF, setup, test } from './harness.mjs';

setup();

const TESTDATA = join(ROOT, 'web/browser/persist/testdata');
// The clock both sides write at (crossSavedAt in cross_test.go).
const SAVED_AT = 1_735_689_600_000;

// twin declares what cross_test.go's crossEndpoint does: the same name,
// path, prefix and entity, hence the same key and table.
async function twin() {
  const { Entity, RestEndpoint } = await importModule();
  class Article extends Entity {
    id = '';
    title = '';
  }
  return new RestEndpoint({ name: 'article', path: '/articles/:id', urlPrefix: 'http://api.test', schema: Article });
}

// memoryStorage keeps items in a Map.
function memoryStorage(items = {}) {
  const map = new Map(Object.entries(items));
  return { map, getItem: (k) => (map.has(k) ? map.get(k) : null), setItem: (k, v) => void map.set(k, v), removeItem: (k) => void map.delete(k) };
}

test('JavaScript restores what Go persisted', async () => {
  const df = await loadDF();
  const clock = fakeClock(SAVED_AT + 1000);
  const storage = memoryStorage({ datafetch: readFileSync(join(TESTDATA, 'go.json'), 'utf8') });
  const ctrl = new df.Controller({ now: clock.now });
  const p = await df.persist(ctrl, { storage, schedule: () => () => {} });
  const r = ctrl.getResponse(await twin(), { id: '1' });
  assert.equal(r.data?.title, 'Written by Go');
  assert.equal(r.expiryStatus, 'valid', 'restored as fresh as it was written');
  p.stop();
});

test('JavaScript writes what Go restores (web/browser/persist/testdata/js.json)', async () => {
  const df = await loadDF();
  const clock = fakeClock(SAVED_AT);
  const storage = memoryStorage();
  const checks = [];
  const ctrl = new df.Controller({ now: clock.now });
  const schedule = (fn) => {
    checks.push(fn);
    return () => {};
  };
  const p = await df.persist(ctrl, { storage, schedule });
  ctrl.setResponse(await twin(), { id: '1' }, { id: '1', title: 'Written by JavaScript' });
  for (const check of checks.splice(0)) check();
  await new Promise((resolve) => setImmediate(resolve));
  const text = storage.map.get('datafetch');
  assert.equal(typeof text, 'string', 'written after the change');
  const file = join(TESTDATA, 'js.json');
  if (process.env.UPDATE) writeFileSync(file, text);
  assert.equal(text, readFileSync(file, 'utf8'), 'js.json is not current: UPDATE=1 node --test test/node/persist-cross.test.mjs');
  p.stop();
});
