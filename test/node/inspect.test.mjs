// df.inspect under Node.js (docs/js-api.md, "Inspector"): free when unused
// (importing the package and working with a controller starts no timer,
// frame or listener of the inspector's modules), its bad arguments, and,
// over a minimal fake DOM, that it watches only while open, reads without
// changing the store, and stop() undoes it. The panel itself is tested in
// Chromium (test/browser/inspect.spec.mjs).

import assert from 'node:assert/strict';
import { importModule, test } from './harness.mjs';

// Every timer, frame and listener started from now on, with the stack that
// started it: installed before the package is imported, so its modules'
// top level is watched too.
const started = [];
function spy(owner, name) {
  const real = owner[name];
  owner[name] = function (...args) {
    started.push({ what: name, stack: new Error().stack });
    return real?.apply(this, args);
  };
}
for (const name of ['setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask', 'requestAnimationFrame', 'addEventListener']) {
  spy(globalThis, name);
}
spy(EventTarget.prototype, 'addEventListener');

// The inspector's modules, as they appear in stacks.
const INSPECT_MODULES = /[/\\]internal[/\\]inspect[/\\]/;
const fromInspector = () => started.filter((s) => INSPECT_MODULES.test(s.stack));

const mod = await importModule();
const df = await mod.load();
const Note = df.Entity({ key: 'Note', defaults: { id: undefined, text: '' } });
const getNote = new df.RestEndpoint({ urlPrefix: 'http://127.0.0.1:1', path: '/notes/:id', schema: Note });

test('unused, the inspector costs nothing: no timer, frame or listener from its modules', async () => {
  const ctrl = new df.Controller();
  await ctrl.setResponse(getNote, { id: 1 }, { id: 1, text: 'one' });
  ctrl.getResponse(getNote, { id: 1 });
  const unsubscribe = ctrl.subscribe(getNote, { id: 1 }, () => {}, { fetch: false });
  unsubscribe();
  ctrl.getState();
  assert.ok(started.length > 0, 'the spies see the timers others start (the Go runtime), so they work');
  assert.deepEqual(fromInspector(), [], 'nothing started by internal/inspect/');
});

test('inspect: bad arguments are errors that say what was wrong', () => {
  const ctrl = new df.Controller();
  assert.throws(() => df.inspect({}), { name: 'TypeError', message: /inspect: expected a Controller/ });
  assert.throws(() => df.inspect(undefined), { name: 'TypeError', message: /inspect: expected a Controller/ });
  assert.throws(() => df.inspect(ctrl), { message: /inspect: there is no document\.body.*pass an element/ });
  assert.throws(() => df.inspect(ctrl, 'body'), { name: 'TypeError', message: /inspect: element must be a DOM element, got string/ });
  assert.deepEqual(fromInspector(), [], 'a refused call starts nothing');
});

// fakeDocument is the least of a DOM that the panel uses, recording frames
// and listeners; performance, when given, is its window's clock.
function fakeDocument({ performance } = {}) {
  const frames = new Map();
  let nextFrame = 1;
  const listeners = [];
  class Node {
    constructor(tag) {
      this.tag = tag;
      this.children = [];
      this.attributes = {};
      this.classList = { toggle: () => {} };
      this.ownerDocument = doc;
      this.parent = undefined;
      this.textContent = '';
    }
    setAttribute(k, v) {
      this.attributes[k] = String(v);
    }
    append(...nodes) {
      for (const n of nodes) {
        if (n instanceof Node) n.parent = this;
        this.children.push(n);
      }
    }
    replaceChildren(...nodes) {
      this.children = [];
      this.append(...nodes);
    }
    remove() {
      if (this.parent) this.parent.children = this.parent.children.filter((c) => c !== this);
      this.parent = undefined;
    }
    addEventListener(type, fn) {
      listeners.push({ node: this, type, fn });
    }
    attachShadow() {
      this.shadowRoot = new Node('#shadow-root');
      return this.shadowRoot;
    }
    // find returns the first node under this one that test accepts.
    find(test) {
      for (const c of this.children) {
        if (!(c instanceof Node)) continue;
        if (test(c)) return c;
        const found = c.find(test) ?? c.shadowRoot?.find(test);
        if (found) return found;
      }
      return this.shadowRoot?.find(test);
    }
  }
  const doc = {
    createElement: (tag) => new Node(tag),
    defaultView: {
      performance,
      requestAnimationFrame(fn) {
        frames.set(nextFrame, fn);
        return nextFrame++;
      },
      cancelAnimationFrame(id) {
        frames.delete(id);
      },
    },
  };
  // runFrame runs the frames waiting, as a browser would at time t.
  const runFrame = (t) => {
    const waiting = [...frames.values()];
    frames.clear();
    for (const fn of waiting) fn(t);
  };
  return { doc, element: new Node('div'), frames, listeners, runFrame };
}

test('inspect over a fake DOM: watches per frame while open, reads only, stop() undoes it', async () => {
  const clock = { t: 1_700_000_000_000 };
  const ctrl = new df.Controller({ now: () => clock.t, dataExpiryLength: 10_000 });
  await ctrl.setResponse(getNote, { id: 1 }, { id: 1, text: 'one' });
  const before = ctrl.getState();
  const { element, frames, listeners, runFrame } = fakeDocument();

  const stop = df.inspect(ctrl, element);
  assert.equal(element.children.length, 1, 'one host element added');
  const host = element.children[0];
  assert.equal(host.tag, 'datafetch-inspector');
  assert.ok(host.shadowRoot, 'the panel lives in a shadow root');
  assert.equal(frames.size, 1, 'one frame requested');
  const summary = host.find((n) => n.className === 'summary');
  assert.match(summary.textContent, /^1 entity · 1 result · 0 optimistic · 0 in flight · 0 errors$/);
  const result = host.find((n) => n.attributes['data-status'] !== undefined);
  assert.equal(result.attributes['data-status'], 'valid', 'valid by the controller clock');

  // Time passes on the controller's clock; the next tick shows it stale.
  clock.t += 20_000;
  runFrame(performance.now() + 10_000);
  assert.equal(host.find((n) => n.attributes['data-status'] !== undefined).attributes['data-status'], 'stale');
  assert.equal(frames.size, 1, 'one frame at a time');

  assert.deepEqual(ctrl.getState(), before, 'inspecting changed nothing in the store');

  stop();
  assert.equal(element.children.length, 0, 'stop() removed the host');
  assert.equal(frames.size, 0, 'stop() cancelled the frame: nothing runs any more');
  stop();
  assert.ok(
    listeners.every((l) => l.node === host || isUnder(l.node, host)),
    'every listener is on the removed panel',
  );
  assert.deepEqual(fromInspector(), [], 'no global timer or listener either: frames come from the element’s window');
});

function isUnder(node, host) {
  for (let n = node; n; n = n.parent) if (n === host || n === host.shadowRoot) return true;
  return false;
}

test('inspect rests after each read in proportion to its cost, but reads at once what the user asks for', async () => {
  // A read that costs READ_MS by the window's clock: the controller's now,
  // which a read calls, moves that clock while a frame runs.
  const READ_MS = 1_000;
  const FRAME_MS = 16;
  const win = { t: 0 };
  let inFrame = false;
  const ctrl = new df.Controller({
    now: () => {
      if (inFrame) win.t += READ_MS;
      return 1_700_000_000_000;
    },
  });
  await ctrl.setResponse(getNote, { id: 0 }, { id: 0, text: 'zero' });
  const { element, listeners, runFrame } = fakeDocument({ performance: { now: () => win.t } });
  const stop = df.inspect(ctrl, element);
  const host = element.children[0];

  // frame runs one frame FRAME_MS after the last and says whether it read.
  const frame = () => {
    win.t += FRAME_MS;
    const before = win.t;
    inFrame = true;
    try {
      runFrame(win.t);
    } finally {
      inFrame = false;
    }
    return win.t !== before;
  };

  // The store changes before every frame, for 60 s of frames.
  let reads = 0;
  let id = 1;
  const until = win.t + 60_000;
  while (win.t < until) {
    await ctrl.setResponse(getNote, { id }, { id, text: String(id) });
    id++;
    if (frame()) reads++;
  }
  // Each read is followed by REST_FACTOR (4) reads' time of rest: one read
  // in every 5 s at most, not one a frame.
  assert.ok(reads >= 2 && reads <= 60_000 / (5 * READ_MS) + 1, `reads in 60 s of changes: ${reads}`);

  // Straight after a read, a click on "show more" is read at the next frame.
  for (let i = id; i < id + 150; i++) await ctrl.setResponse(getNote, { id: i }, { id: i, text: String(i) });
  while (!frame());
  const results = () => host.find((n) => n.attributes['data-section'] === 'results');
  const button = results().find((n) => n.tag === 'button');
  assert.ok(button, 'a show more button');
  listeners.find((l) => l.node === button && l.type === 'click').fn();
  assert.equal(frame(), true, 'the next frame reads');
  stop();
});
