// Issue 23: callbacks the controller runs while it reads or writes its
// store under its lock (an Entity's validate, a Scalar's lens, a union's
// schemaAttribute, a Collection's createCollectionFilter,
// nonFilterArgumentKeys and nestKey, a moveWith merge) cannot call the
// controller. Before, such a call deadlocked Go, which in WebAssembly is
// Go's fatal "all goroutines are asleep": the instance exited and every
// later call failed. Now the call throws at once, an Error naming the
// callback and the method; the read or write that ran the callback goes
// on (the callback caught the throw here) and the controller stays usable.

import assert from 'node:assert/strict';
import { env, importModule, server, setup, test } from './harness.mjs';

setup();

const { Entity, Scalar } = await importModule();

// The calls a callback tries: a read and a write.
const CALLS = [
  { method: 'getResponse', call: (ctrl, ep, params) => ctrl.getResponse(ep, params) },
  { method: 'invalidate', call: (ctrl, ep, params) => ctrl.invalidate(ep, params) },
];

const todoDefaults = { id: 0, userId: 0, title: '', completed: false };

/**
 * The cases: hook names the callback (as the Error must); make(df, base,
 * hook, n) (n makes its keys its own) returns {ep, params, run?}: the
 * endpoint the callback calls with params, and what runs the callback
 * (run(ctrl, arm); by default a fetch of ep, which stores and reads),
 * where the callback calls hook() once armed.
 */
const CASES = [
  {
    hook: 'validate',
    make: (df, base, hook, n) => {
      class Item extends Entity {
        id = '';
        name = '';
        static key = `LockedValid${n}`;
        static validate() {
          hook();
        }
      }
      const ep = new df.Endpoint(async () => [{ id: '1', name: 'one' }], { name: `lockedValid${n}`, schema: [Item] });
      return { ep, params: {} };
    },
  },
  {
    hook: 'lens',
    make: (df, base, hook, n) => {
      class Row extends Entity {
        id = '';
        pct = 0;
        static key = `LockedLens${n}`;
      }
      Row.schema = { pct: new Scalar({ key: `lockedLens${n}`, lens: (args) => (hook(), args[0]?.p), entity: Row }) };
      const ep = new df.Endpoint(async () => [{ id: '1', pct: 0.5 }], { name: `lockedLens${n}`, schema: [Row] });
      return { ep, params: { p: 'A' } };
    },
  },
  {
    hook: 'schemaAttribute',
    make: (df, base, hook, n) => {
      const Cat = df.Entity({ key: `LockedCat${n}`, defaults: { id: '', type: 'cat' } });
      const union = new df.schema.Union({ cat: Cat }, (rec) => (hook(), rec.type));
      const ep = new df.Endpoint(async () => [{ id: '1', type: 'cat' }], { name: `lockedUnion${n}`, schema: [union] });
      return { ep, params: {} };
    },
  },
  ...['createCollectionFilter', 'nonFilterArgumentKeys'].map((hook) => ({
    hook,
    make: (df, base, call, n) => {
      const Todo = df.Entity({ key: 'Todo', defaults: todoDefaults });
      const options =
        hook === 'createCollectionFilter'
          ? { createCollectionFilter: (params) => (call(), (args) => `${params.userId}` === args.userId) }
          : { nonFilterArgumentKeys: (key) => (call(), key === 'ignored') };
      const ep = new df.RestEndpoint({ urlPrefix: base, path: '/todos', name: `todos${hook}${n}`, schema: new df.schema.Collection([Todo], options) });
      return {
        ep,
        params: { userId: 1 },
        // The filter decides which stored lists a push changes.
        run: async (ctrl, arm) => {
          await ctrl.fetch(ep, { userId: 1 });
          arm();
          await ctrl.fetch(ep.push, {}, { userId: 1, title: 'pushed' });
        },
      };
    },
  })),
];

let n = 0;
for (const c of CASES) {
  for (const { method, call } of CALLS) {
    n++;
    const k = n;
    test(`${c.hook} calling ctrl.${method}: an Error naming both, and the controller goes on`, async () => {
      const { df, base } = await env();
      await server.reset();
      const ctrl = new df.Controller();
      let armed = false;
      const seen = [];
      let ep;
      let params;
      const hook = () => {
        if (!armed) return;
        try {
          seen.push({ ok: call(ctrl, ep, params) });
        } catch (err) {
          seen.push({ err });
        }
      };
      const made = c.make(df, base, hook, k);
      ({ ep, params } = made);
      const arm = () => {
        armed = true;
      };
      await (made.run ?? ((ctrl) => (arm(), ctrl.fetch(ep, params))))(ctrl, arm);
      armed = false;
      assert.ok(seen.length > 0, `${c.hook} was called`);
      for (const { err } of seen) {
        assert.ok(err instanceof Error, `ctrl.${method} from ${c.hook} throws an Error`);
        assert.match(err.message, new RegExp(`ctrl\\.${method}.*${c.hook}`));
      }
      // The instance lives on: the controller still reads and writes.
      assert.equal(ctrl.getResponse(ep, params).expiryStatus, 'valid');
      ctrl.invalidate(ep, params);
      assert.equal(ctrl.getResponse(ep, params).expiryStatus, 'invalid');
    });
  }
}
