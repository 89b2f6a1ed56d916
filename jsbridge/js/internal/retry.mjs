// Retry (docs/js-api.md 9.2): the checks of the retry and retryDelay
// options of endpoints and controllers. The policy itself is Go's
// (core/controller/retry.go): which errors retry, Retry-After, the waits.

import { ours } from './errors.mjs';
import { MAX_TIMER_MS, showValue, synchronous } from './values.mjs';

// What an endpoint's retry: 0 becomes for Go: no retries, whatever the
// controller's retry option says (Go's 0 is "the controller's").
export const RETRY_NONE = -1;

// The most retries an option may ask for (Go counts them in an int32).
const MAX_RETRIES = 2 ** 31 - 1;

// retryCount checks a retry option: a whole number of retries, 0 or more.
export function retryCount(v, where) {
  if (!Number.isInteger(v) || v < 0 || v > MAX_RETRIES) {
    throw new TypeError(`${where}: retry must be a whole number of retries (0 or more), got ${showValue(v)}`);
  }
  return v;
}

// retryDelayAdapter wraps a retryDelay option in the form Go calls it
// (jsbridge/lifecycle.go, retryDelayHook): (attempt, error) → ms, checked
// here so that a mistake is a TypeError naming the option. hook() names
// the option of its endpoint or controller.
export function retryDelayAdapter(delay, hook) {
  return (attempt, err) => {
    const ms = synchronous(delay(attempt, err), hook());
    if (typeof ms !== 'number' || !(ms >= 0)) {
      throw ours(new TypeError(`${hook()} must return a number of milliseconds (0 or more), got ${showValue(ms)}`));
    }
    // Longer would be a Go timer that fires at once, over and over.
    return Math.min(ms, MAX_TIMER_MS);
  };
}
