// useQuery: a Query (or an Entity by pk, a schema.All) read from the cache
// with ctrl.get, which is memoized by what it read: React's snapshot is the
// same object until an entity the query read changes. The source listens
// to the controller's changes to the stored data (every change: ctrl.get
// answers the same object for those the query does not see, and React
// then does not re-render).

import { useMemo, useSyncExternalStore } from 'react';
import { exactKey } from '../argskey.mjs';
import { jsonText } from '../values.mjs';
import { useController } from './provider.mjs';

// The controller's listen method (internal/controller.mjs, LISTEN): a
// registered symbol, the same in any copy of that module.
const LISTEN = Symbol.for('datafetch.controller.listen');
// And its hold method (HOLD there): while mounted, the query's entities are
// held against garbage collection.
const HOLD = Symbol.for('datafetch.controller.hold');

/**
 * useQuery(schema, ...args): ctrl.get(schema, ...args), re-rendering when
 * it changes. Never fetches.
 */
export function useQuery(schema, ...args) {
  const ctrl = useController();
  // The key ctrl.get's memo uses: args that JSON writes alike but the
  // Query's process could tell apart (NaN and null, a Date and its ISO
  // string) are other args, with a source of their own.
  const argsKey = exactKey(args, jsonText(args, 'useQuery: args'));
  // biome-ignore lint/correctness/useExhaustiveDependencies: argsKey stands for args (equal args, equal key), which are a new array each render
  const source = useMemo(() => {
    const getSnapshot = () => ctrl.get(schema, ...args);
    const subscribe = (onChange) => {
      const stop = ctrl[LISTEN](onChange);
      const release = ctrl[HOLD](schema, ...args);
      return () => {
        release();
        stop();
      };
    };
    return { subscribe, getSnapshot };
  }, [ctrl, schema, argsKey]);
  return useSyncExternalStore(source.subscribe, source.getSnapshot, source.getSnapshot);
}
