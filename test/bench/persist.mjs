// Persistence benchmark (Node.js, dist/): df.persist writing a snapshot of
// 10,000 articles with 100 authors (10,100 entities) to an in-memory
// storage, and restoring it into a new controller (then reading the list
// once). Prints the median and the spread of RUNS runs after WARMUP.
//
//   node test/bench/persist.mjs        (after ./build.sh build)

import { load } from '../../dist/datafetch.node.mjs';

const N = 10_000;
const WARMUP = 3;
const RUNS = 15;

const df = await load();
const Author = df.Entity({ key: 'Author', defaults: { id: undefined, name: '' } });
const Article = df.Entity({
  key: 'Article',
  defaults: { id: undefined, title: '', body: '', author: null },
  schema: { author: Author, createdAt: Date },
});
const list = new df.RestEndpoint({ urlPrefix: 'https://example.com', path: '/articles', schema: [Article] });
const data = Array.from({ length: N }, (_, i) => ({
  id: String(i),
  title: `article number ${i}`,
  body: 'lorem ipsum dolor sit amet '.repeat(2),
  createdAt: new Date(1_700_000_000_000 + i * 1000).toISOString(),
  author: { id: `a${i % 100}`, name: `author ${i % 100}` },
}));

function memoryStorage() {
  const map = new Map();
  return { map, getItem: (k) => map.get(k) ?? null, setItem: (k, v) => void map.set(k, v), removeItem: (k) => void map.delete(k) };
}
// Nothing is scheduled: the benchmark writes with flush only.
const schedule = () => () => {};

const ctrl = new df.Controller({ dataExpiryLength: 3_600_000 });
await ctrl.setResponse(list, {}, data);
const storage = memoryStorage();
const writer = await df.persist(ctrl, { storage, schedule });

async function measure(name, once) {
  const times = [];
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const t = await once();
    if (i >= WARMUP) times.push(t);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  console.log(`${name.padEnd(44)} median ${median.toFixed(1)} ms  (min ${times[0].toFixed(1)}, max ${times.at(-1).toFixed(1)})`);
}

let flip = false;
await measure('write (flush) 10,100 entities', async () => {
  // A change for flush to write: the same data under alternating params.
  flip = !flip;
  await ctrl.setResponse(list, { flip: String(flip) }, []);
  const t0 = performance.now();
  await writer.flush();
  return performance.now() - t0;
});
console.log(`stored snapshot: ${(storage.map.get('datafetch').length / 1024).toFixed(0)} KiB`);

await measure('restore into a new controller', async () => {
  const c = new df.Controller();
  const t0 = performance.now();
  const p = await df.persist(c, { storage, schedule });
  const t = performance.now() - t0;
  p.stop();
  return t;
});

await measure('restore, then read the list (denormalize)', async () => {
  const c = new df.Controller();
  const t0 = performance.now();
  const p = await df.persist(c, { storage, schedule });
  const r = c.getResponse(list);
  const t = performance.now() - t0;
  if (r.data.length !== N || !(r.data[0].createdAt instanceof Date)) throw new Error('restore read back wrong data');
  p.stop();
  return t;
});
process.exit(0);
