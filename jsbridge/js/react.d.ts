// Types of datafetch/react (docs/react.md): React bindings over
// the Controller. React (>= 18) and its types (@types/react) are the
// app's own.

import type { ComponentType, ReactElement, ReactNode } from 'react';
import { Component } from 'react';
import type {
  AllSchema,
  LazyQuery,
  LazyQueryArgs,
  AnyEndpoint,
  Controller,
  Manager,
  StoreState,
  Denormalize,
  EndpointData,
  EndpointParams,
  AnyEntity,
  LoadingState,
  NullableParamsArg,
  ParamsArg,
  QueryArgs,
  QuerySchema,
  QueryableSchema,
} from './datafetch.js';

/** Props of `<DataProvider>`. */
export interface DataProviderProps {
  /** The controller of the hooks below; without one, the default controller (`df.useController()`) once the module is loaded. */
  controller?: Controller;
  /** Without `controller`: managers of a controller the provider makes (and closes when it unmounts). */
  managers?: Manager[];
  /** Without `controller`: the snapshot that controller starts from. */
  initialState?: StoreState;
  children?: ReactNode;
}

/** data-client's name for `DataProviderProps`. */
export type ProviderProps = DataProviderProps;

/** `<DataProvider controller={ctrl}>`: the controller that the hooks below it use. */
export function DataProvider(props: DataProviderProps): ReactElement;

/** The controller in use: the DataProvider's, else the default one (suspends until `load()` has resolved). */
export function useController(): Controller;

/**
 * The endpoint's data. Suspends while it is missing or invalid (and while
 * it is fetched); a failed fetch throws its error to the nearest error
 * boundary; stale data is returned at once and revalidated. Data that goes
 * stale while mounted is not refetched at its expiry: the next render that
 * finds it stale revalidates it. Re-renders when the data changes
 * (optimistic updates and rollbacks included). `null` params: `undefined`,
 * nothing fetched. Does not poll.
 */
export function useSuspense<E extends AnyEndpoint>(endpoint: E, params: null): undefined;
export function useSuspense<E extends AnyEndpoint>(endpoint: E, ...params: ParamsArg<EndpointParams<E>>): EndpointData<E>;
export function useSuspense<E extends AnyEndpoint>(endpoint: E, params: EndpointParams<E> | null): EndpointData<E> | undefined;

/** `useSuspense`, and the endpoint's polling (`pollFrequency`) while mounted. */
export function useLive<E extends AnyEndpoint>(endpoint: E, params: null): undefined;
export function useLive<E extends AnyEndpoint>(endpoint: E, ...params: ParamsArg<EndpointParams<E>>): EndpointData<E>;
export function useLive<E extends AnyEndpoint>(endpoint: E, params: EndpointParams<E> | null): EndpointData<E> | undefined;

/** What `useDLE` returns: the same object while none of these change. */
export interface DataLoadingError<D> {
  data: D | undefined;
  /** True while the result is fetched. */
  loading: boolean;
  /** The error of the last fetch, while it is kept (`errorExpiryLength`). */
  error: Error | undefined;
}

/** `{data, loading, error}` without suspending; fetches as `useSuspense` does, does not poll. */
export function useDLE<E extends AnyEndpoint>(endpoint: E, ...params: NullableParamsArg<EndpointParams<E>>): DataLoadingError<EndpointData<E>>;

/** The cached data (valid or stale), else `undefined`; never fetches. */
export function useCache<E extends AnyEndpoint>(endpoint: E, ...params: NullableParamsArg<EndpointParams<E>>): EndpointData<E> | undefined;

/** `useFetch(endpoint, params)`: fetches a missing, stale or invalid result without suspending; the Promise of that fetch, or `undefined` when nothing needed fetching. */
export function useFetch<E extends AnyEndpoint>(endpoint: E, ...params: NullableParamsArg<EndpointParams<E>>): Promise<EndpointData<E>> | undefined;

/** `ctrl.get(schema, ...args)` (a Query, an Entity by pk, a `schema.All`), re-rendering when it changes; the same object while it does not. Never fetches. */
export function useQuery<S extends QueryableSchema, R, A extends any[]>(schema: QuerySchema<S, R, A>, ...args: QueryArgs<A>): R | undefined;
export function useQuery<E extends AnyEntity>(schema: E, params: { readonly [param: string]: unknown }): Denormalize<E> | undefined;
export function useQuery<E extends AnyEntity>(schema: AllSchema<E>): Denormalize<E>[] | undefined;
/** A Lazy's relationship (`useQuery(Dept.schema.buildings.query, dept.buildings)`). */
export function useQuery<S>(schema: LazyQuery<S>, ...args: LazyQueryArgs<S>): Denormalize<S> | undefined;

/** Fetches and polls (`pollFrequency`) while mounted; returns nothing. */
export function useSubscription<E extends AnyEndpoint>(endpoint: E, ...params: NullableParamsArg<EndpointParams<E>>): void;

/**
 * `[handler, loading, error]`: `handler(...args)` runs `fn` and resolves
 * with its result, or `undefined` when it fails (the error is exposed, not
 * thrown). `handler` keeps its identity while `deps` (default `[fn]`) do
 * not change.
 */
export function useLoading<A extends any[], R>(fn: (...args: A) => Promise<R>, deps?: readonly unknown[]): LoadingState<A, R>;

/** Props of an `AsyncBoundary`'s `errorComponent`. */
export interface ErrorComponentProps {
  error: Error;
  /** Renders the boundary's children again. */
  resetErrorBoundary: () => void;
}

/** Props of `<AsyncBoundary>`. */
export interface AsyncBoundaryProps {
  /** Shown while a component below suspends. */
  fallback?: ReactNode;
  /** Shown when a component below throws; default: the error's message. */
  errorComponent?: ComponentType<ErrorComponentProps>;
  children?: ReactNode;
}

/** A Suspense boundary and an error boundary in one. */
export function AsyncBoundary(props: AsyncBoundaryProps): ReactElement;

/** `<ErrorBoundary errorComponent={C}>`: the error boundary of `AsyncBoundary`, alone. */
export class ErrorBoundary extends Component<{ errorComponent?: ComponentType<ErrorComponentProps>; children?: ReactNode }> {}

/** The package's top-level `Controller` (a `DataProvider`'s controller may be made before `load()`). */
export { Controller, actionTypes, getDefaultManagers } from './datafetch.js';
