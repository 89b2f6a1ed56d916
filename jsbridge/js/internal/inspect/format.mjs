// How the inspector writes times and records: short durations ("42s",
// "3m", "1h"), and records cut to a line.

const MS_PER_SECOND = 1000;
const SECONDS_PER_MINUTE = 60;
const SECONDS_PER_HOUR = 3600;
// Up to this many seconds a duration is written in seconds, then minutes
// up to NO_MORE_MINUTES, then hours.
const NO_MORE_SECONDS = 120;
const NO_MORE_MINUTES = 7200;
// A time left of this many ms or more is an expiry of Infinity
// (dataExpiryLength: Infinity): about 31 years.
const NEVER_MS = 1e12;

/** The longest record text shown on one line, in UTF-16 code units. */
export const MAX_RECORD_TEXT = 120;

/** duration writes ms as "42s", "3m" or "1h" (never negative). */
export function duration(ms) {
  const s = Math.floor(Math.max(ms, 0) / MS_PER_SECOND);
  if (s < NO_MORE_SECONDS) return `${s}s`;
  if (s < NO_MORE_MINUTES) return `${Math.floor(s / SECONDS_PER_MINUTE)}m`;
  return `${Math.floor(s / SECONDS_PER_HOUR)}h`;
}

/** number writes a count with thousands separators ("10,000"), in any locale. */
export function number(n) {
  return n.toLocaleString('en-US');
}

/** timeLeft writes what is left of a valid result: "42s", or "never". */
export function timeLeft(ms) {
  return ms >= NEVER_MS ? 'never' : duration(ms);
}

/** recordText is a stored record as one line of JSON ("deleted" for null). */
export function recordText(record) {
  if (record === null) return 'deleted';
  const text = JSON.stringify(record) ?? String(record);
  return text.length <= MAX_RECORD_TEXT ? text : `${text.slice(0, MAX_RECORD_TEXT)}…`;
}
