// Deterministic article data for the browser benchmark, shaped like Go's
// core/value/valuetest.Articles: a JSON array of n articles
//
//   {"id":1,"title":"…","content":"…","published":true,
//    "author":{"id":7,"name":"…"},"tags":["go","wasm"]}
//
// about 500 bytes each (content ≈ 370 characters), ids 1..n, authors drawn
// from 20 shared ones, some strings with escapes (\" and \n) and non-ASCII
// text. The same n and seed always give the same text. The generator is a
// small seeded PRNG (sfc32), not Go's PCG, so the bytes differ from Go's
// while the shape, sizes and sharing are the same.

export const AUTHORS = 20;

export const AUTHOR_NAMES = [
  'Ada Lovelace',
  'Alan Turing',
  'Grace Hopper',
  'Edsger Dijkstra',
  'Barbara Liskov',
  'Donald Knuth',
  'Frances Allen',
  'Ken Thompson',
  'Margaret Hamilton',
  'Dennis Ritchie',
  'Radia Perlman',
  'John McCarthy',
  'Hedy Lamarr',
  'Tony Hoare',
  'Karen Spärck Jones',
  'Niklaus Wirth',
  'Sophie Wilson',
  'Rob Pike',
  'Adele Goldberg',
  'Leslie Lamport',
];

const TAGS = ['go', 'wasm', 'json', 'cache', 'react', 'graphql', 'rest', 'performance', 'tutorial', 'release', 'opinion', 'security'];

const WORDS = [
  'the',
  'data',
  'cache',
  'request',
  'response',
  'entity',
  'normalized',
  'client',
  'server',
  'fetch',
  'render',
  'component',
  'state',
  'update',
  'query',
  'mutation',
  'list',
  'detail',
  'author',
  'article',
  'fast',
  'simple',
  'memory',
  'network',
  'latency',
  'schema',
  'value',
  'store',
  'of',
  'and',
  'to',
  'in',
  'with',
  'for',
  'a',
  'is',
  'on',
  'that',
];

// sfc32, seeded from one integer: returns intN(n) in [0, n).
function rng(seed) {
  let a = 0x9e3779b9 ^ seed;
  let b = 0x243f6a88;
  let c = 0xb7e15162;
  let d = seed | 0;
  const next = () => {
    a |= 0;
    b |= 0;
    c |= 0;
    d |= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  for (let i = 0; i < 15; i++) next();
  return (n) => Math.floor((next() / 4294967296) * n);
}

// sentence returns about size characters of words, already JSON-escaped.
// With rich set, it sprinkles in escapes and non-ASCII text.
function sentence(intN, size, rich) {
  let s = '';
  while (s.length < size) {
    if (s.length > 0) s += ' ';
    if (rich) {
      const r = intN(40);
      if (r === 0) {
        s += '\\"quoted\\"';
        continue;
      }
      if (r === 1) {
        s += 'end.\\n\\nNew';
        continue;
      }
      if (r === 2) {
        s += 'café';
        continue;
      }
    }
    s += WORDS[intN(WORDS.length)];
  }
  return s;
}

/** articlesText returns the JSON text of n articles (see above). */
export function articlesText(n, seed = 1) {
  const intN = rng(seed);
  const parts = new Array(n);
  for (let i = 0; i < n; i++) {
    const title = sentence(intN, 20 + intN(20), false);
    const content = sentence(intN, 330 + intN(60), true);
    const published = intN(4) !== 0;
    const a = intN(AUTHORS);
    const tags = [];
    const nt = 1 + intN(4);
    for (let t = 0; t < nt; t++) tags.push('"' + TAGS[intN(TAGS.length)] + '"');
    parts[i] =
      `{"id":${i + 1},"title":"${title}","content":"${content}","published":${published},` +
      `"author":{"id":${a + 1},"name":"${AUTHOR_NAMES[a]}"},"tags":[${tags.join(',')}]}`;
  }
  return '[' + parts.join(',') + ']';
}
