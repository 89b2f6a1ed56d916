// The Go collector's pacing (jsbridge/pacer.go, and load()'s GO_ENV): a
// large cold read from a small heap runs without a collection in its
// middle, and the bridge collects after it, at idle; a large heap may grow
// to five times what is live between collections, not more. Observed through
// the runtime's own trace (GODEBUG=gctrace=1, added to the environment
// load() gives the runtime), which prints one line per collection and
// marks the ones runtime.GC() asked for "(forced)": counts, not time.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DIST, loadDF, test } from './harness.mjs';

// Articles in the cold read: about 4.2 MB of JSON, and about 26 MB of
// allocations in Go (the body, its records, the read), from a heap of about
// 2 MB after a reset. At GOGC=400 the runtime collected in the middle of
// it (its smallest target is 16 MB); at GOGC=1000 (40 MB) it does not.
const ARTICLES = 8000;

// The collections the runtime reports, as gctrace's lines; wasm_exec.js
// writes the runtime's stderr with console.log when there is no
// globalThis.fs (Node.js).
const traced = [];
const GC_LINE = /^gc \d+ @/;
const log = console.log;
console.log = (...args) => {
  if (typeof args[0] === 'string' && GC_LINE.test(args[0])) traced.push(...args[0].split('\n').filter((l) => GC_LINE.test(l)));
  else log(...args);
};

// The Go load() makes gets GODEBUG=gctrace=1 on top of the environment
// load() assigns it (after construction, hence the accessor).
await import(pathToFileURL(join(DIST, 'wasm_exec.js')).href);
const gos = [];
globalThis.Go = class extends globalThis.Go {
  constructor() {
    super();
    gos.push(this);
    let env = this.env;
    Object.defineProperty(this, 'env', {
      get: () => env,
      set: (e) => {
        env = { ...e, GODEBUG: 'gctrace=1' };
      },
      configurable: true,
    });
  }
};

// articlesJSON returns a list of n articles, each with one of 20 authors,
// about 520 bytes each (the shape of test/bench's data).
function articlesJSON(n) {
  const content = 'Lorem ipsum dolor sit amet, "quoted" \\ café — '.repeat(8);
  const list = [];
  for (let i = 1; i <= n; i++) {
    list.push({
      id: i,
      title: `Article ${i}`,
      content,
      published: i % 3 !== 0,
      author: { id: (i % 20) + 1, name: `User ${(i % 20) + 1}` },
      tags: ['a', `t${i % 7}`],
    });
  }
  return JSON.stringify(list);
}

// idle lets the collection the bridge asked for at idle run (Node.js has no
// requestIdleCallback: it runs from a setTimeout(0), queued before this
// one): an ordering wait, not a bet on speed.
const idle = () => new Promise((resolve) => setTimeout(resolve, 0));

const paced = (lines) => lines.filter((l) => !l.includes('(forced)'));

test("a cold read of 8,000 articles runs no collection of the runtime's own; the bridge collects after it", async () => {
  const df = await loadDF();
  assert.equal(gos.length, 1, 'one Go instance, the one load() made');
  const User = new df.Entity({ key: 'User', defaults: { id: undefined, name: '' } });
  const Article = new df.Entity({
    key: 'Article',
    defaults: { id: undefined, title: '', content: '', published: false, author: null, tags: [] },
    schema: { author: User },
  });
  const list = new df.RestEndpoint({ urlPrefix: 'http://pacing.test', path: '/articles', name: 'getArticles', schema: [Article] });
  const bytes = new TextEncoder().encode(articlesJSON(ARTICLES));
  const respond = () => new Response(bytes, { headers: { 'Content-Type': 'application/json' } });

  // Twice: the first read also grows the heap from the module's start.
  for (const round of [1, 2]) {
    const ctrl = new df.Controller({ fetch: respond });
    await idle();
    await idle();
    const before = traced.length;
    const data = await ctrl.fetch(list);
    const during = traced.slice(before);
    assert.equal(data.length, ARTICLES, `round ${round}: the read`);
    assert.deepEqual(paced(during), [], `round ${round}: collections the runtime started itself during the read`);
    await ctrl.resetEntireStore();
    await idle();
    await idle();
    assert.ok(traced.length > before, `round ${round}: the bridge collects after the read and the reset`);
    assert.deepEqual(paced(traced.slice(before)), [], `round ${round}: only forced collections`);
    ctrl.close();
  }
});

// heap parses a gctrace line: the heap left live (MB) and the target the
// collection ran under ("X->Y->Z MB, G MB goal").
function heap(line) {
  const m = /->(\d+) MB, (\d+) MB goal/.exec(line);
  assert.ok(m, `a gctrace line with the heap and its goal: ${line}`);
  return { live: Number(m[1]), goal: Number(m[2]) };
}

test('with a read held in the store, the heap may grow to five times what is live, not eleven (GOGC=1000 alone)', async () => {
  const df = await loadDF();
  const User = new df.Entity({ key: 'User', defaults: { id: undefined, name: '' } });
  const Article = new df.Entity({
    key: 'Article',
    defaults: { id: undefined, title: '', content: '', published: false, author: null, tags: [] },
    schema: { author: User },
  });
  const list = new df.RestEndpoint({ urlPrefix: 'http://pacing.test', path: '/held', name: 'getHeld', schema: [Article] });
  const bytes = new TextEncoder().encode(articlesJSON(ARTICLES));
  const ctrl = new df.Controller({ fetch: () => new Response(bytes, { headers: { 'Content-Type': 'application/json' } }) });
  assert.equal((await ctrl.fetch(list)).length, ARTICLES);
  // A reset of another (empty) controller makes the bridge collect
  // (jsbridge/release.go, collectSoon) with the read held, and set the
  // pacing from what is live; the second such collection runs under the
  // target that set.
  const other = new df.Controller({ fetch: () => Promise.reject(new Error('no fetch here')) });
  const lines = [];
  for (let i = 0; i < 2; i++) {
    const before = traced.length;
    await other.resetEntireStore();
    await idle();
    await idle();
    const forced = traced.slice(before).filter((l) => l.includes('(forced)'));
    assert.ok(forced.length > 0, `reset ${i + 1}: the bridge collected after it`);
    lines.push(forced.at(-1));
  }
  const { live } = heap(lines[0]);
  const { goal } = heap(lines[1]);
  assert.ok(live >= 10, `the store holds the read: ${live} MB live`);
  assert.ok(goal <= live * 6, `the target after ${live} MB live is ${goal} MB: want about five times it (GOGC=400), not eleven (GOGC=1000)`);
  assert.ok(goal >= live * 4, `the target after ${live} MB live is ${goal} MB: want about five times it`);
  other.close();
  ctrl.close();
  console.log = log;
});
