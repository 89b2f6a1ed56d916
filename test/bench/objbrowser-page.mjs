// objbrowser.mjs's page: objfetch.mjs in Chromium. Two builds of dist/
// (?dists=url,url: each a folder the server serves) loaded side by side,
// each with its own datafetch.wasm; window.run(mode, n, samples) times
// their samples interleaved (the first alternating) and returns the
// medians.

import { articlesText } from '/bench/data.mjs';

// The controller's method useDLE starts a fetch with (controller.mjs).
const PREFETCH = Symbol.for('datafetch.controller.prefetch');
const WARMUP = 30;

const DISTS = new URLSearchParams(location.search).get('dists').split(',');
const MAX_N = 1000;
const source = JSON.parse(articlesText(MAX_N));
const copy = (n) => source.slice(0, n).map((a) => ({ ...a, author: { ...a.author }, tags: [...a.tags] }));
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

const sides = [];
for (const dist of DISTS) {
  const { load } = await import(`${dist}/datafetch.mjs`);
  const df = await load(`${dist}/datafetch.wasm`);
  const User = new df.Entity({ key: 'User', defaults: { id: undefined, name: '' } });
  const Article = new df.Entity({
    key: 'Article',
    defaults: { id: undefined, title: '', content: '', published: false, author: null, tags: [] },
    schema: { author: User },
  });
  const s = { dist, prepared: undefined, ctrl: new df.Controller() };
  const fetch = () => Promise.resolve(s.prepared);
  s.list = new df.RestEndpoint({ urlPrefix: 'http://bench.invalid', path: '/articles', name: 'getArticles', schema: [Article], fetch });
  s.plain = new df.RestEndpoint({ urlPrefix: 'http://bench.invalid', path: '/plain', name: 'plain', fetch });
  sides.push(s);
}

// sample times one fetch of n articles on side s: the crossing alone
// (an endpoint without a schema, fetched as useDLE starts it, nothing
// handed back) or, for 'read', the list fetched and read.
async function sample(s, mode, n) {
  await s.ctrl.resetEntireStore();
  // What the reset queued (Go's collection) runs before, untimed.
  await new Promise((resolve) => setTimeout(resolve, 0));
  s.prepared = copy(n);
  globalThis.gc?.({ type: 'minor' });
  const t0 = performance.now();
  if (mode === 'crossing') await s.ctrl[PREFETCH](s.plain, { count: n });
  else {
    await s.ctrl.fetch(s.list, { count: n });
    s.ctrl.getResponse(s.list, { count: n });
  }
  return performance.now() - t0;
}

window.run = async (mode, n, samples) => {
  const times = sides.map(() => []);
  for (let i = 0; i < WARMUP + samples; i++) {
    for (const k of i % 2 === 0 ? sides.keys() : [...sides.keys()].reverse()) {
      const dt = await sample(sides[k], mode, n);
      if (i >= WARMUP) times[k].push(dt);
    }
  }
  return { isolated: crossOriginIsolated, medians: times.map(median) };
};
document.title = 'ready';
