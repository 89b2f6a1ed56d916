// useLoading: an async function's state as React state.

import { useCallback, useEffect, useRef, useState } from 'react';

const IDLE = Object.freeze({ loading: false, error: undefined });
const BUSY = Object.freeze({ loading: true, error: undefined });

/**
 * useLoading(fn, deps?) returns [handler, loading, error]: handler(...args)
 * runs fn and resolves with its result (undefined when it fails); loading is
 * true while the last call runs, error its error. The error is exposed, not
 * thrown. handler keeps its identity while deps (default [fn]) do not change.
 */
export function useLoading(fn, deps) {
  const [state, setState] = useState(IDLE);
  // Only the latest call and a mounted component update the state.
  const latest = useRef(0);
  const mounted = useRef(false);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  const run = async (...args) => {
    const call = ++latest.current;
    const settle = (next) => {
      if (mounted.current && call === latest.current) setState(next);
    };
    setState(BUSY);
    try {
      const result = await fn(...args);
      settle(IDLE);
      return result;
    } catch (error) {
      settle({ loading: false, error });
      return undefined;
    }
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller's deps (default [fn]) say when fn is new, as with useCallback
  const handler = useCallback(run, deps ?? [fn]);
  return [handler, state.loading, state.error];
}
