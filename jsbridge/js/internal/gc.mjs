// Garbage collection (docs/js-api.md 9.1): the gc option of a Controller
// and the timer of its periodic sweeps. The sweep itself is Go's
// (Controller.GC): what a result reaches is the schema's business.

import { MAX_TIMER_MS, isPlainObject, show, showValue } from './values.mjs';

// The defaults of the gc option's members.
export const GC_INTERVAL = 300000;
export const GC_EXPIRY_MULTIPLIER = 2;

// gcOptions checks the gc option of a Controller and returns it complete,
// {interval, expiryMultiplier}, or undefined when it is absent. Each
// mistake is a TypeError naming the member.
export function gcOptions(gc) {
  if (gc === undefined) return undefined;
  if (!isPlainObject(gc)) {
    throw new TypeError(`Controller: gc must be an object {interval, expiryMultiplier}, got ${show(gc)}`);
  }
  const { interval = GC_INTERVAL, expiryMultiplier = GC_EXPIRY_MULTIPLIER } = gc;
  if (typeof interval !== 'number' || !(interval > 0 && interval <= MAX_TIMER_MS)) {
    throw new TypeError(`Controller: gc.interval must be a number of milliseconds above 0 and at most ${MAX_TIMER_MS}, got ${showValue(interval)}`);
  }
  if (typeof expiryMultiplier !== 'number' || !(expiryMultiplier >= 1) || expiryMultiplier === Infinity) {
    throw new TypeError(`Controller: gc.expiryMultiplier must be a finite number of at least 1, got ${showValue(expiryMultiplier)}`);
  }
  return { interval, expiryMultiplier };
}

// scheduleGC calls sweep(ctrl) every interval ms and returns the function
// that stops it. The timer holds ctrl weakly, so that a controller nobody
// closed can still be collected (the next tick after that stops it), and
// in Node it does not keep the process alive.
export function scheduleGC(ctrl, interval, sweep) {
  const ref = new WeakRef(ctrl);
  const id = setInterval(() => {
    const c = ref.deref();
    if (c === undefined) {
      clearInterval(id);
      return;
    }
    try {
      sweep(c);
    } catch (err) {
      // Nobody awaits a periodic sweep: a failure is reported, not lost.
      if (typeof globalThis.reportError === 'function') globalThis.reportError(err);
      else console.error(err);
    }
  }, interval);
  id?.unref?.();
  return () => clearInterval(id);
}
