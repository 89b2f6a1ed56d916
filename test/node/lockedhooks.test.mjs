// Issue 23: callbacks and the controller (docs/js-api.md, "Calling the
// controller from a hook"). An Entity's validate, a Scalar's lens, a
// union's schemaAttribute and a custom schema's denormalize run while the controller reads its store, under its
// lock: a call to the controller from one throws at once, an Error naming
// the method and the callback. A Collection's createCollectionFilter,
// nonFilterArgumentKeys and a moveWith merge run while a push or a move is
// stored, with the lock released as for an entity's merge: a call from
// one is served. Before, either deadlocked Go, which in WebAssembly is
// Go's fatal "all goroutines are asleep": the instance exited and every
// later call failed. The read or write that ran the callback goes on (the
// callback caught the throw here) and the controller stays usable.

import assert from 'node:assert/strict';
import { env, importModule, server, setup, test } from './harness.mjs';

setup();

const { Entity, Scalar } = await importModule();

// The calls a callback tries: a read and a write.
const CALLS = [
  { method: 'getResponse', call: (ctrl, ep, params) => ctrl.getResponse(ep, params) },
  { method: 'invalidate', call: (ctrl, ep, params) => ctrl.invalidate(ep, params) },
];

// after calls f and returns v: a callback that calls the hook first.
const after = (f, v) => {
  f();
  return v;
};

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
      Row.schema = { pct: new Scalar({ key: `lockedLens${n}`, lens: (args) => after(hook, args[0]?.p), entity: Row }) };
      const ep = new df.Endpoint(async () => [{ id: '1', pct: 0.5 }], { name: `lockedLens${n}`, schema: [Row] });
      return { ep, params: { p: 'A' } };
    },
  },
  {
    hook: 'schemaAttribute',
    make: (df, base, hook, n) => {
      const Cat = df.Entity({ key: `LockedCat${n}`, defaults: { id: '', type: 'cat' } });
      const union = new df.schema.Union({ cat: Cat }, (rec) => after(hook, rec.type));
      const ep = new df.Endpoint(async () => [{ id: '1', type: 'cat' }], { name: `lockedUnion${n}`, schema: [union] });
      return { ep, params: {} };
    },
  },
  {
    hook: 'denormalize',
    make: (df, base, hook, n) => {
      // A custom schema (data-client's SchemaSimple): its denormalize runs
      // at every read of the result.
      const custom = {
        normalize: (input) => input,
        denormalize: (input) => after(hook, input),
      };
      const ep = new df.Endpoint(async () => ({ n: 1 }), { name: `lockedCustom${n}`, schema: custom });
      return { ep, params: {} };
    },
  },
  ...['createCollectionFilter', 'nonFilterArgumentKeys', 'moveWith merge'].map((hook) => ({
    hook,
    served: true,
    make: (df, base, call, n) => {
      const Todo = df.Entity({ key: 'Todo', defaults: todoDefaults });
      const options = {
        createCollectionFilter: { createCollectionFilter: (params) => after(call, (args) => `${params.userId}` === args.userId) },
        nonFilterArgumentKeys: { nonFilterArgumentKeys: (key) => after(call, key === 'ignored') },
      }[hook];
      const collection = new df.schema.Collection([Todo], options);
      const ep = new df.RestEndpoint({ urlPrefix: base, path: '/todos', name: `todos${n}`, schema: collection });
      return {
        ep,
        params: { userId: 1 },
        // The filter decides which stored lists a push changes.
        run: async (ctrl, arm) => {
          await ctrl.fetch(ep, { userId: 1 });
          await ctrl.fetch(ep, { userId: 2 });
          arm();
          if (hook !== 'moveWith merge') return ctrl.fetch(ep.push, {}, { userId: 1, title: 'pushed' });
          const move = new df.RestEndpoint({
            urlPrefix: base,
            path: '/todos/:id',
            method: 'PATCH',
            name: `move${n}`,
            schema: collection.moveWith((existing, incoming) => after(call, [...existing, ...incoming])),
          });
          return ctrl.fetch(move, { id: 5 }, { userId: 1 });
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
    const what = c.served ? 'served' : 'an Error naming both';
    test(`${c.hook} calling ctrl.${method}: ${what}, and the controller goes on`, async () => {
      const { df, base } = await env();
      await server.reset();
      const ctrl = new df.Controller();
      let armed = false;
      const seen = [];
      let ep;
      let params;
      const hook = () => {
        if (!armed) return;
        // A served write would run the callback again: once. A refused
        // call is made every time, at a normalize and at the read under
        // the lock (where it deadlocked before).
        if (c.served) armed = false;
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
      await (made.run ?? ((ctrl) => after(arm, ctrl).fetch(ep, params)))(ctrl, arm);
      armed = false;
      if (c.served) {
        assert.deepEqual(seen, [{ ok: seen[0].ok }], `ctrl.${method} from ${c.hook} is served`);
      } else {
        assert.ok(seen.length > 0, `${c.hook} was called`);
        for (const { err } of seen) {
          assert.ok(err instanceof Error, `ctrl.${method} from ${c.hook} throws an Error`);
          assert.match(err.message, new RegExp(`ctrl\\.${method}.*${c.hook}`));
        }
      }
      // The instance lives on: the controller still reads and writes.
      // (A served invalidate from the callback invalidated the list.)
      assert.equal(ctrl.getResponse(ep, params).expiryStatus, c.served && method === 'invalidate' ? 'invalid' : 'valid');
      ctrl.invalidate(ep, params);
      assert.equal(ctrl.getResponse(ep, params).expiryStatus, 'invalid');
    });
  }
}
