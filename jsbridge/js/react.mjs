// datafetch/react: React bindings (docs/react.md), in the style of
// @data-client/react. React (>= 18) is a peer dependency, imported, never
// bundled.
//
//   import { DataProvider, useSuspense } from 'datafetch/react';
//
// The hooks are built on the controller's subscribe and getResponse with
// useSyncExternalStore (internal/react/result.mjs); the controller is the
// DataProvider's or the loaded module's default one
// (internal/react/provider.mjs).

export { AsyncBoundary, ErrorBoundary } from './internal/react/boundary.mjs';
export { useLoading } from './internal/react/loading.mjs';
export { DataProvider, useController } from './internal/react/provider.mjs';
export { useQuery } from './internal/react/query.mjs';
export { useCache, useDLE, useFetch, useLive, useSubscription, useSuspense } from './internal/react/result.mjs';
export { Controller } from './internal/pending.mjs';
export { actionTypes, getDefaultManagers } from './internal/managers.mjs';
