// The page of the React binding tests (react.spec.mjs), bundled by esbuild
// with React 19 from npm (development build, so <StrictMode> doubles
// renders and effects as it does for developers) and datafetch/react from
// dist/. datafetch itself (dist/datafetch.mjs) is left out of the bundle and
// loaded by URL, so it finds datafetch.wasm beside it as in an app.
//
// The tests drive the page through window.T: React, the bindings, the
// loaded module, fixtures, a fake clock, controllers that count their open
// subscriptions, and mount(), which renders an element into a fresh root.

import * as React from 'react';
import { createRoot } from 'react-dom/client';
import { load } from 'datafetch';
import * as bindings from 'datafetch/react';

const { AsyncBoundary, useSuspense, useLive, useDLE, useCache } = bindings;
// The hooks Show can read with, by name.
const READS = { useSuspense, useLive, useDLE, useCache };

const h = React.createElement;

/** Renders per component name, counted by the components that call counted(). */
const renders = {};
function counted(name) {
  renders[name] = (renders[name] ?? 0) + 1;
}

/** A fake clock for a Controller's now option. */
function fakeClock(start = 1_700_000_000_000) {
  const clock = {
    t: start,
    now: () => clock.t,
    advance(ms) {
      clock.t += ms;
    },
  };
  return clock;
}

/**
 * A controller whose subscriptions are counted while open
 * (ctrl.openSubscriptions()): how a test sees that unmounting left none;
 * and whose requests are counted as they start (ctrl.started(part): those
 * whose URL contains part), so a request doubled in the same commit is
 * seen before any response arrives.
 */
function countingController(df, options) {
  const urls = [];
  const ctrl = new df.Controller({
    ...options,
    fetch: (url, init) => {
      urls.push(String(url));
      return globalThis.fetch(url, init);
    },
  });
  ctrl.started = (part = '') => urls.filter((u) => u.includes(part)).length;
  const subscribe = ctrl.subscribe.bind(ctrl);
  let open = 0;
  ctrl.subscribe = (...args) => {
    const unsubscribe = subscribe(...args);
    open++;
    let done = false;
    return () => {
      if (!done) open--;
      done = true;
      unsubscribe();
    };
  };
  ctrl.openSubscriptions = () => open;
  return ctrl;
}

/** The seed's articles on the fixture server at base. */
function fixtures(df, base) {
  const User = df.Entity({ key: 'User', defaults: { id: undefined, name: '' } });
  const Article = df.Entity({
    key: 'Article',
    defaults: { id: undefined, title: '', content: '', published: false, author: null },
    schema: { author: User, createdAt: Date },
  });
  const articles = df.resource({ urlPrefix: base, path: '/articles/:id', schema: Article });
  const rename = articles.partialUpdate.extend({
    name: 'rename',
    getOptimisticResponse: (snap, params, body) => ({ ...snap.getResponse(articles.get, params).data, ...body, id: params.id }),
  });
  return { User, Article, articles, rename };
}

/**
 * Renders element into a new root in a new element of the page, inside
 * <StrictMode> when strict. Returns {el, render(element), unmount()}.
 */
function mount(element, { strict = false } = {}) {
  const el = document.createElement('div');
  document.body.append(el);
  const root = createRoot(el);
  const wrap = (e) => (strict ? h(React.StrictMode, null, e) : e);
  root.render(wrap(element));
  return {
    el,
    render: (e) => root.render(wrap(e)),
    unmount() {
      root.unmount();
      el.remove();
    },
  };
}

const fixture = new URLSearchParams(location.search).get('fixture');

/**
 * The loaded module, the fixtures, a fake clock and a counting controller
 * on it (options are the controller's).
 */
async function setup(options = {}) {
  const df = await load();
  const clock = fakeClock();
  const ctrl = countingController(df, { now: clock.now, ...options });
  return { df, fx: fixtures(df, fixture), clock, ctrl };
}

/** What Show renders for a hook's value. */
function describe(v) {
  if (v === undefined) return 'undefined';
  if (Array.isArray(v)) return `${v.length} articles, first: ${v[0]?.title}`;
  if ('loading' in v) return `data: ${v.data?.title}; loading: ${v.loading}; error: ${v.error?.status}`;
  return v.title;
}

/** What each Show rendered, by name, in order. */
const seen = {};

/**
 * <Show hook="useSuspense" ep={...} params={...} name="x">: renders
 * describe(hook(ep, params)) in <p id={name}>, counting its renders and
 * keeping what it rendered in seen[name].
 */
function Show({ hook = 'useSuspense', ep, params, name }) {
  counted(name);
  const text = describe(READS[hook](ep, params));
  (seen[name] ??= []).push(text);
  return h('p', { id: name }, text);
}

/**
 * <Boundary name="x">: an AsyncBoundary whose fallback is <p
 * id="x-fallback"> and whose errorComponent shows the error's status in <p
 * id="x-error"> with a retry button (resetErrorBoundary) #x-retry.
 */
function Boundary({ name, children }) {
  const ErrorView = React.useCallback(
    ({ error, resetErrorBoundary }) =>
      h('div', null, h('p', { id: `${name}-error` }, `error ${error.status}`), h('button', { id: `${name}-retry`, onClick: resetErrorBoundary }, 'retry')),
    [name],
  );
  return h(AsyncBoundary, { fallback: h('p', { id: `${name}-fallback` }, 'loading'), errorComponent: ErrorView }, children);
}

window.T = { React, h, bindings, load, renders, seen, counted, fakeClock, countingController, fixtures, mount, fixture, setup, Show, Boundary, state: {} };
window.T.ready = true;
