// Revalidation on focus and reconnect (docs/js-api.md 9.3): the platform's
// events that make a Controller fetch again what its subscriptions hold,
// and their removal by close(). The choice of what to refetch is Go's
// (Controller.RevalidateActive).

// The event a page shown again fires on document, with the state it has then.
const VISIBILITY_EVENT = 'visibilitychange';
const VISIBLE = 'visible';
// The event a browser (or a worker) back online fires on its global object.
const ONLINE_EVENT = 'online';

// The boolean options that turn the listeners on.
export const LIFECYCLE_FLAGS = ['revalidateOnFocus', 'revalidateOnReconnect'];

// listenLifecycle adds the listeners the options ask for and returns the
// function that removes them. revalidate(ctrl) is called on ctrl for each
// event. Where there is no document (Node, workers) focus is not listened
// for, and where the global object takes no listeners (Node) neither is
// reconnection: the options then do nothing. The listeners hold ctrl
// weakly, so that a controller nobody closed can still be collected; the
// first event after that removes them.
export function listenLifecycle(ctrl, options, revalidate) {
  const removers = [];
  const remove = () => {
    for (const r of removers.splice(0)) r();
  };
  const ref = new WeakRef(ctrl);
  const run = () => {
    const c = ref.deref();
    if (c === undefined) remove();
    else revalidate(c);
  };
  const listen = (target, type, handler) => {
    target.addEventListener(type, handler);
    removers.push(() => target.removeEventListener(type, handler));
  };
  const doc = globalThis.document;
  if (options.revalidateOnFocus && typeof doc?.addEventListener === 'function') {
    listen(doc, VISIBILITY_EVENT, () => {
      if (doc.visibilityState === VISIBLE) run();
    });
  }
  if (options.revalidateOnReconnect && typeof globalThis.addEventListener === 'function') {
    listen(globalThis, ONLINE_EVENT, run);
  }
  return remove;
}
