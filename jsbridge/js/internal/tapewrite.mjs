// Plain data that is already JavaScript (a fetch function's result) crosses
// to Go as a written tape (core/value FromWrittenTape): this walk writes
// the JSON text JSON.stringify would and, as it goes, the tape entries Go
// would otherwise scan that text for, in one buffer Go copies in one go.

// Kinds as Go's value.Kind numbers them, and the entry's flag bits.
const KIND_NULL = 1;
const KIND_BOOL = 2;
const KIND_NUMBER = 3;
const KIND_STRING = 4;
const KIND_ARRAY = 5;
const KIND_OBJECT = 6;
const ESC = 1 << 3;
const COUNT_SHIFT = 4;

// Words an entry takes, and the words before the entries (their count).
const ENTRY_WORDS = 4;
const HEADER_WORDS = 1;

// The depth to which the walk goes (as plainJSON's): deeper data takes the
// careful way (jsonText), which refuses a cycle with its error.
const MAX_DEPTH = 64;
// Strings shorter than this are copied a code unit at a time; longer ones
// with encodeInto.
const SHORT_STRING = 32;
// The most UTF-8 bytes one UTF-16 code unit can take.
const MAX_UTF8_PER_UNIT = 3;
// The most keys whose bytes are kept between walks.
const MAX_KEYS = 1024;

// What JSON.stringify escapes in a string (and surrogates, which encodeInto
// would replace when lone): such strings take JSON.stringify's text.
const SPECIAL = /["\\\u0000-\u001f\ud800-\udfff]/;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const PRINTABLE_MIN = 0x20;
const PRINTABLE_MAX = 0x7e;

// NOT_PLAIN stops a walk that met what only JSON.stringify (or its
// careful way, with its errors) may write.
const NOT_PLAIN = Symbol('not plain');

const encoder = new TextEncoder();
// keys maps an object key to its JSON text's bytes and whether it has
// escapes, for keys met again.
const keys = new Map();

// The walk's buffers, kept between walks: the text and the entries.
let text = new Uint8Array(1 << 16);
let ents = new Uint32Array(1 << 12);
let pos = 0;
let ent = 0;

/**
 * writeTape returns v (an object or an array) as a written tape, or
 * undefined when v is not plain data for the walk (a class instance, a
 * function, a Symbol, a BigInt, something deeper than 64 levels or
 * cyclic...): the caller then takes jsonText's way, which accepts or
 * refuses it with its errors.
 */
export function writeTape(v) {
  if (v === null || typeof v !== 'object') return undefined;
  pos = 0;
  ent = 0;
  try {
    value(v, 0);
  } catch (err) {
    if (err === NOT_PLAIN) return undefined;
    throw err;
  }
  const head = (HEADER_WORDS + ent) * Uint32Array.BYTES_PER_ELEMENT;
  const out = new Uint8Array(head + pos);
  const words = new Uint32Array(out.buffer, 0, HEADER_WORDS + ent);
  words[0] = ent / ENTRY_WORDS;
  words.set(ents.subarray(0, ent), HEADER_WORDS);
  out.set(text.subarray(0, pos), head);
  return out;
}

function room(bytes) {
  if (pos + bytes <= text.length) return;
  const grown = new Uint8Array(Math.max(text.length * 2, pos + bytes));
  grown.set(text.subarray(0, pos));
  text = grown;
}

// entry appends an entry and returns its index (in words).
function entry(start, end, bits) {
  if (ent + ENTRY_WORDS > ents.length) {
    const grown = new Uint32Array(ents.length * 2);
    grown.set(ents);
    ents = grown;
  }
  const at = ent;
  ents[at] = start;
  ents[at + 1] = end;
  ents[at + 2] = bits;
  ent += ENTRY_WORDS;
  return at;
}

function value(v, depth) {
  switch (typeof v) {
    case 'string':
      string(v);
      return;
    case 'number':
      if (Number.isFinite(v)) ascii(String(v), KIND_NUMBER);
      else ascii('null', KIND_NULL);
      return;
    case 'boolean':
      ascii(v ? 'true' : 'false', KIND_BOOL);
      return;
    case 'object':
      break;
    default:
      throw NOT_PLAIN;
  }
  if (v === null) {
    ascii('null', KIND_NULL);
    return;
  }
  if (depth > MAX_DEPTH) throw NOT_PLAIN;
  if (Array.isArray(v)) {
    array(v, depth);
    return;
  }
  if (v instanceof Date) {
    const j = v.toJSON();
    if (j === null) ascii('null', KIND_NULL);
    else if (typeof j === 'string') string(j);
    else throw NOT_PLAIN;
    return;
  }
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) throw NOT_PLAIN;
  object(v, depth);
}

function array(v, depth) {
  room(1);
  const at = entry(pos, 0, 0);
  text[pos++] = OPEN_ARRAY;
  const n = v.length;
  for (let i = 0; i < n; i++) {
    if (i > 0) {
      room(1);
      text[pos++] = COMMA;
    }
    const e = v[i];
    if (e === undefined) ascii('null', KIND_NULL);
    else value(e, depth + 1);
  }
  room(1);
  text[pos++] = CLOSE_ARRAY;
  close(at, KIND_ARRAY, n);
}

function object(v, depth) {
  room(1);
  const at = entry(pos, 0, 0);
  text[pos++] = OPEN_OBJECT;
  let n = 0;
  for (const k in v) {
    const e = v[k];
    // JSON leaves out undefined members.
    if (e === undefined) continue;
    if (typeof e === 'function' || typeof e === 'symbol') throw NOT_PLAIN;
    if (n > 0) {
      room(1);
      text[pos++] = COMMA;
    }
    key(k);
    value(e, depth + 1);
    n++;
  }
  room(1);
  text[pos++] = CLOSE_OBJECT;
  close(at, KIND_OBJECT, n);
}

// close completes the container entry at: its end, kind, count and skip.
function close(at, kind, n) {
  ents[at + 1] = pos;
  ents[at + 2] = kind | (n << COUNT_SHIFT);
  ents[at + 3] = ent / ENTRY_WORDS;
}

function key(k) {
  let known = keys.get(k);
  if (known === undefined) {
    const quoted = JSON.stringify(k);
    known = { bytes: encoder.encode(quoted), esc: quoted.includes('\\') ? ESC : 0 };
    if (keys.size < MAX_KEYS) keys.set(k, known);
  }
  const b = known.bytes;
  room(b.length + 1);
  entry(pos + 1, pos + b.length - 1, KIND_STRING | known.esc);
  text.set(b, pos);
  pos += b.length;
  text[pos++] = COLON;
}

function string(s) {
  const n = s.length;
  room(n * MAX_UTF8_PER_UNIT + 2);
  if (n >= SHORT_STRING && !SPECIAL.test(s)) {
    // Long and nothing to escape: the encoder's native copy.
    const start = pos + 1;
    text[pos] = QUOTE;
    const end = start + encoder.encodeInto(s, text.subarray(start)).written;
    text[end] = QUOTE;
    pos = end + 1;
    entry(start, end, KIND_STRING);
    return;
  }
  const start = pos + 1;
  let p = start;
  let i = 0;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < PRINTABLE_MIN || c > PRINTABLE_MAX || c === QUOTE || c === BACKSLASH) break;
    text[p++] = c;
  }
  text[pos] = QUOTE;
  if (i === n) {
    text[p] = QUOTE;
    pos = p + 1;
    entry(start, p, KIND_STRING);
    return;
  }
  pos = p;
  const esc = escaped(s, i);
  text[pos] = QUOTE;
  entry(start, pos, KIND_STRING | esc);
  pos++;
}

// The escapes JSON.stringify writes for control characters with a short
// form (others are \u00XX).
const SHORT_ESCAPES = { 8: 0x62, 9: 0x74, 10: 0x6e, 12: 0x66, 13: 0x72 };
const HEX = [0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x61, 0x62, 0x63, 0x64, 0x65, 0x66];
const UNICODE_ESCAPE_BYTES = 6;

// escaped writes s from code unit i on as JSON.stringify does (escapes,
// UTF-8, lone surrogates as \uXXXX), after room for the worst case, and
// returns ESC when it wrote an escape.
function escaped(s, i) {
  const n = s.length;
  room((n - i) * UNICODE_ESCAPE_BYTES + 2);
  let p = pos;
  let esc = 0;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      if (c >= PRINTABLE_MIN && c !== QUOTE && c !== BACKSLASH) {
        text[p++] = c;
        continue;
      }
      esc = ESC;
      text[p++] = BACKSLASH;
      if (c === QUOTE || c === BACKSLASH) text[p++] = c;
      else if (SHORT_ESCAPES[c] !== undefined) text[p++] = SHORT_ESCAPES[c];
      else p = unicodeEscape(p, c);
    } else if (c < 0x800) {
      text[p++] = 0xc0 | (c >> 6);
      text[p++] = 0x80 | (c & 0x3f);
    } else if (c >= 0xd800 && c <= 0xdfff) {
      const d = i + 1 < n ? s.charCodeAt(i + 1) : 0;
      if (c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) {
        const u = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        text[p++] = 0xf0 | (u >> 18);
        text[p++] = 0x80 | ((u >> 12) & 0x3f);
        text[p++] = 0x80 | ((u >> 6) & 0x3f);
        text[p++] = 0x80 | (u & 0x3f);
        i++;
      } else {
        // A lone surrogate: JSON.stringify escapes it.
        esc = ESC;
        text[p++] = BACKSLASH;
        p = unicodeEscape(p, c);
      }
    } else {
      text[p++] = 0xe0 | (c >> 12);
      text[p++] = 0x80 | ((c >> 6) & 0x3f);
      text[p++] = 0x80 | (c & 0x3f);
    }
  }
  pos = p;
  return esc;
}

// unicodeEscape writes u and four hex digits of c at p (after a
// backslash), returning the position after.
function unicodeEscape(p, c) {
  text[p++] = 0x75;
  text[p++] = HEX[c >> 12];
  text[p++] = HEX[(c >> 8) & 0xf];
  text[p++] = HEX[(c >> 4) & 0xf];
  text[p++] = HEX[c & 0xf];
  return p;
}

// ascii writes a literal (a number, true, false, null).
function ascii(s, kind) {
  room(s.length);
  const start = pos;
  for (let i = 0; i < s.length; i++) text[pos++] = s.charCodeAt(i);
  entry(start, pos, kind);
}
