// The differential test of the read output format (jsbridge/wire/SPEC.md):
// the JavaScript decoder as shipped (dist/internal/wire.mjs) runs over
// every output of the corpus that jsbridge's TestWireCorpus writes with the
// real encoder, and must build what Go's reference decoder built: the same
// values (-0, big numbers, escapes, lone surrogates, __proto__ as an own
// key, non-ASCII, empty containers), Dates where Go has them, the same
// header, and the same objects (===) wherever Go's has the same node.

import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { DIST, ROOT } from './harness.mjs';

const CORPUS = join(ROOT, 'jsbridge/wire/testdata/corpus');
const wire = await import(pathToFileURL(join(DIST, 'internal/wire.mjs')).href);
const ops = await import(pathToFileURL(join(DIST, 'internal/wireops.mjs')).href);

const sessions = readdirSync(CORPUS)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => JSON.parse(readFileSync(join(CORPUS, f), 'utf8')));

function bytesOf(base64) {
  return new Uint8Array(Buffer.from(base64, 'base64'));
}

// same checks that got is expected (JSON.parse of Go's JSON) except at the
// Date paths, which must hold Dates of the expected value, and the paths of
// undefined members and elements (null in the JSON), which must hold
// undefined.
function same(got, want, path, marks, where) {
  const { dates, undefs } = marks;
  const key = JSON.stringify(path);
  if (undefs.has(key)) {
    assert.equal(got, undefined, `${where} ${key}: want undefined`);
    return;
  }
  if (dates.has(key)) {
    assert.ok(got instanceof Date, `${where} ${key}: want a Date, got ${String(got)}`);
    assert.ok(Object.is(got.getTime(), new Date(want).getTime()), `${where} ${key}: Date ${got.getTime()}, want new Date(${JSON.stringify(want)})`);
    return;
  }
  if (typeof want !== 'object' || want === null) {
    assert.ok(Object.is(got, want), `${where} ${key}: got ${typeof got} ${String(got)}, want ${typeof want} ${String(want)}`);
    return;
  }
  if (Array.isArray(want)) {
    assert.ok(Array.isArray(got), `${where} ${key}: want an array`);
    assert.equal(got.length, want.length, `${where} ${key}: length`);
    for (let i = 0; i < want.length; i++) same(got[i], want[i], [...path, i], marks, where);
    return;
  }
  assert.ok(typeof got === 'object' && got !== null && !Array.isArray(got), `${where} ${key}: want an object`);
  assert.equal(Object.getPrototypeOf(got), Object.prototype, `${where} ${key}: prototype changed (a __proto__ key set it?)`);
  assert.deepEqual(Reflect.ownKeys(got), Reflect.ownKeys(want), `${where} ${key}: keys`);
  for (const k of Object.keys(want)) {
    const d = Object.getOwnPropertyDescriptor(got, k);
    assert.ok(d.enumerable && d.writable && d.configurable && 'value' in d, `${where} ${key}: ${k} is not a plain data property`);
    same(got[k], want[k], [...path, k], marks, where);
  }
}

// classes groups the positions [step, ...path] of every object and array of
// results by identity, each class sorted, classes of one dropped, as
// JSON text for comparison.
function classes(results) {
  const byObject = new Map();
  const walk = (x, path) => {
    if (typeof x !== 'object' || x === null || x instanceof Date) return;
    let positions = byObject.get(x);
    if (positions === undefined) byObject.set(x, (positions = []));
    positions.push(JSON.stringify(path));
    if (Array.isArray(x)) {
      for (let i = 0; i < x.length; i++) walk(x[i], [...path, i]);
    } else {
      for (const k of Object.keys(x)) walk(x[k], [...path, k]);
    }
  };
  for (let step = 0; step < results.length; step++) walk(results[step], [step]);
  return [...byObject.values()]
    .filter((c) => c.length > 1)
    .map((c) => c.sort())
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

function runSession(s) {
  const objs = s.identity ? new wire.IdentityTable() : null;
  const results = [];
  s.steps.forEach((step, i) => {
    const where = `${s.name} step ${i}`;
    const bytes = bytesOf(step.stream);
    if (step.reset) objs.clear(); // as Go reset its half before this output
    let got;
    if (step.header) {
      wire.lastRead.afterExpiry = 'unset';
      const answer = wire.response(objs, bytes);
      got = answer.data;
      assert.equal(answer.expiryStatus, step.header.expiryStatus, `${where}: expiryStatus`);
      assert.equal(answer.expiresAt, step.header.expiresAt, `${where}: expiresAt`);
      assert.equal(wire.lastRead.afterExpiry, step.header.afterExpiry ?? undefined, `${where}: afterExpiry`);
      assert.equal(wire.lastRead.errorKept, step.header.errorKept, `${where}: errorKept`);
    } else {
      got = wire.decode(objs, bytes);
    }
    if (step.undefined) assert.equal(got, undefined, `${where}: want undefined`);
    else {
      const paths = (list) => new Set((list ?? []).map((p) => JSON.stringify(p)));
      same(got, JSON.parse(step.value), [], { dates: paths(step.dates), undefs: paths(step.undefs) }, where);
    }
    results.push(got);
  });
  const want = s.same.map((c) => c.map((p) => JSON.stringify(p)).sort()).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  assert.deepEqual(classes(results), want, `${s.name}: the objects that are === differ from Go's`);
}

test('the corpus holds sessions of every kind', () => {
  const names = sessions.map((s) => s.name);
  for (const name of ['values', 'values-plain', 'articles']) assert.ok(names.includes(name), `corpus lacks ${name}`);
  assert.ok(
    sessions.some((s) => s.name.startsWith('protocol-') && s.steps.length > 3),
    'corpus lacks random protocol sessions',
  );
});

for (const compile of [true, false]) {
  const how = compile ? 'compiled shapes' : 'shapes built by a loop (no new Function, as under CSP)';
  for (const s of sessions) {
    test(`wire corpus ${s.name}, ${how}: the JavaScript decoder builds what Go's reference decoder built`, () => {
      const before = wire.shaping.compile;
      wire.shaping.compile = compile;
      try {
        runSession(s);
      } finally {
        wire.shaping.compile = before;
      }
    });
  }
}

test('an output naming an object this side does not hold is UnknownObject', () => {
  const s = sessions.find((x) => x.name === 'values');
  // The second step is one REF to the first's result: alone, it names an
  // unknown object.
  assert.throws(() => wire.decode(new wire.IdentityTable(), bytesOf(s.steps[1].stream)), wire.UnknownObject);
  // A shape this side lacks too.
  const shaped = new Uint8Array(ops.HEADER_SIZE + 2);
  shaped[0] = ops.VERSION;
  shaped.set([ops.OP_SHAPED, 0], ops.HEADER_SIZE);
  assert.throws(() => wire.decode(new wire.IdentityTable(), shaped), wire.UnknownObject);
});

test('a corrupt output is an Error saying where, not a wrong value', () => {
  const s = sessions.find((x) => x.name === 'values-plain');
  const good = bytesOf(s.steps[0].stream);
  const version = good.slice();
  version[0] = 99;
  assert.throws(() => wire.decode(null, version), /not of wire version/);
  const badOp = good.slice();
  badOp[16] = 200; // the first op
  assert.throws(() => wire.decode(null, badOp), /op 200 where a value belongs at byte 16/);
  // An array longer than the bytes left for its elements.
  const long = new Uint8Array(ops.HEADER_SIZE + 4);
  long[0] = ops.VERSION;
  long.set([ops.OP_ARRAY, 0xe8, 0x07, ops.OP_NULL], ops.HEADER_SIZE); // 1000 elements
  assert.throws(() => wire.decode(null, long), /an array of 1000 elements in 1 bytes at byte 18/);
});

test('clearing the identity table clears its shapes with its objects', () => {
  const s = sessions.find((x) => x.name === 'articles');
  const objs = new wire.IdentityTable();
  wire.decode(objs, bytesOf(s.steps[0].stream));
  assert.ok(objs.size > 0 && objs.shapes.length > 0);
  objs.clear();
  assert.equal(objs.size, 0);
  assert.equal(objs.shapes.length, 0);
});

test('an output not decoded to its end leaves no object held: a later reference is UnknownObject, never a stale object', () => {
  const s = sessions.find((x) => x.name === 'articles');
  const objs = new wire.IdentityTable();
  wire.decode(objs, bytesOf(s.steps[0].stream));
  assert.ok(objs.size > 0);
  const corrupt = bytesOf(s.steps[1].stream).slice();
  corrupt[ops.HEADER_SIZE] = 200; // its first op
  assert.throws(() => wire.decode(objs, corrupt), /op 200 where a value belongs/);
  assert.equal(objs.size, 0);
  // The unchanged re-read (one REF to the first step's result) now names an
  // object this side has forgotten.
  const again = s.steps.findIndex((st, i) => i > 0 && bytesOf(st.stream)[ops.HEADER_SIZE] === ops.OP_REF);
  assert.ok(again > 0, 'the articles session has no step that starts with a REF');
  assert.throws(() => wire.decode(objs, bytesOf(s.steps[again].stream)), wire.UnknownObject);
});

// output assembles an output of ops (bytes after the header) and the
// strings its string ops take, in op order (SPEC.md section 7: the area
// holds them last first).
function output(opBytes, strings = []) {
  const area = new TextEncoder().encode([...strings].reverse().join(''));
  const out = new Uint8Array(ops.HEADER_SIZE + opBytes.length + area.length);
  out[0] = ops.VERSION;
  new DataView(out.buffer).setUint32(4, area.length, true);
  out.set(opBytes, ops.HEADER_SIZE);
  out.set(area, ops.HEADER_SIZE + opBytes.length);
  return out;
}

for (const compile of [true, false]) {
  test(`a back-reference is the object being built around it: a cycle (${compile ? 'compiled shapes' : 'shapes by a loop'})`, () => {
    const before = wire.shaping.compile;
    wire.shaping.compile = compile;
    try {
      const { OP_REGISTER: R, OP_ARRAY: A, OP_INT: I, OP_BACKREF: B, OP_OBJECT: O, OP_STRING: S, OP_DEFINE_SHAPE: D, OP_SHAPED: H, OP_REF: F } = ops;
      // REGISTER 0 [1, REGISTER 1 {self: BACKREF 1, up: BACKREF 0}, REGISTER 2 SHAPED(self) {self: BACKREF 2}, REF 1]
      const bytes = output([R, 0, A, 4, I, 2, R, 1, O, 2, S, 4, B, 1, S, 2, B, 0, R, 2, D, 0, 1, S, 4, H, 0, B, 2, F, 1], ['self', 'up', 'self']);
      const objs = new wire.IdentityTable();
      const a = wire.decode(objs, bytes);
      assert.equal(a[0], 1);
      assert.equal(a[1].self, a[1], 'o.self === o');
      assert.equal(a[1].up, a, 'o.up is the array around it');
      assert.equal(a[2].self, a[2], 'a shaped object refers to itself');
      assert.equal(a[3], a[1], 'a REF after it is built');
      assert.deepEqual(Object.keys(a[1]), ['self', 'up']);
      assert.equal(objs.size, 3);
    } finally {
      wire.shaping.compile = before;
    }
  });
}

test('a back-reference to no object being built is an Error, and the table is emptied', () => {
  const { OP_REGISTER: R, OP_ARRAY: A, OP_BACKREF: B, OP_NULL: N } = ops;
  const objs = new wire.IdentityTable();
  // [REGISTER 0 [null], BACKREF 0]: 0 is built when the reference comes.
  assert.throws(() => wire.decode(objs, output([A, 2, R, 0, A, 1, N, B, 0])), /back-references? to no object built/);
  assert.equal(objs.size, 0);
  assert.throws(() => wire.decode(null, output([A, 1, B, 0])), /back-references? to no object built/);
});

test('an output for no table (a snapshot, denormalize) has ids of its own: back-references work there too', () => {
  const { OP_REGISTER: R, OP_ARRAY: A, OP_BACKREF: B, OP_REF: F } = ops;
  // [REGISTER 0 [BACKREF 0], REF 0]
  const a = wire.decode(null, output([A, 2, R, 0, A, 1, B, 0, F, 0]));
  assert.equal(a[0][0], a[0]);
  assert.equal(a[1], a[0]);
  // Nothing is kept for the next one.
  assert.throws(() => wire.decode(null, output([F, 0])), wire.UnknownObject);
});
