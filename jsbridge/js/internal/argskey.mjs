// Keys for a Query's args (ctrl.get's memo, useQuery's source). The args go
// to Go as JSON text, which is all Go needs: Go reads the same data for
// {max: Infinity} and {max: null}. But a Query's process receives the args
// as given, and JSON writes many values alike: NaN, Infinity, -Infinity
// and null are all null; -0 is 0; undefined is null in an array and left
// out of an object; a Date is its ISO string. A memo keyed by the JSON
// text alone would hand the result process made for one of them to a call
// with another. exactKey adds to the text what JSON lost.

// The character between the JSON text and the marks: JSON text never holds
// it raw (JSON.stringify writes U+0000 in a string as \u0000).
const MARKS = '\u0000';

// Depth to which isExact looks: deeper args take the marking way, which
// finds them exact or not at any depth.
const EXACT_MAX_DEPTH = 64;

/**
 * exactKey returns a key for v, whose JSON text (jsonText) is text: text
 * itself when JSON wrote everything v holds (the usual case, which costs a
 * walk of v and no allocation), else text and marks for what JSON lost,
 * each with its path inside v: NaN, Infinity, -Infinity, -0, undefined, an
 * array's hole, a Date (by its time), an object without a prototype, and an
 * instance of a class or an object with a toJSON method (by its prototype;
 * its JSON text stands for the rest of it). Two values share a key only if
 * JSON writes them alike and they differ in none of those.
 */
export function exactKey(v, text) {
  if (isExact(v, 0)) return text;
  const marks = [];
  mark(v, '', marks);
  return `${text}${MARKS}${marks.join(';')}`;
}

// isExact reports whether JSON writes all of v: finite numbers other than
// -0, strings, booleans, null, and arrays (without holes) and plain objects
// (no toJSON) of them.
function isExact(v, depth) {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      // 1 / -0 is -Infinity.
      return Number.isFinite(v) && (v !== 0 || 1 / v > 0);
    case 'object':
      break;
    default:
      return false;
  }
  if (v === null) return true;
  if (depth > EXACT_MAX_DEPTH) return false;
  if (Array.isArray(v)) {
    // A hole reads as undefined, which is not exact.
    for (let i = 0; i < v.length; i++) if (!isExact(v[i], depth + 1)) return false;
    return true;
  }
  if (Object.getPrototypeOf(v) !== Object.prototype || typeof v.toJSON === 'function') return false;
  for (const k in v) if (!isExact(v[k], depth + 1)) return false;
  return true;
}

// mark appends to marks what JSON did not write of v, found at path: the
// same walk as JSON.stringify's (which has run: v holds no cycle where it
// descends).
function mark(v, path, marks) {
  switch (typeof v) {
    case 'number':
      if (!Number.isFinite(v)) marks.push(`${path}=${v}`);
      else if (v === 0 && 1 / v < 0) marks.push(`${path}=-0`);
      return;
    case 'undefined':
      marks.push(`${path}=u`);
      return;
    case 'object':
      break;
    default:
      return;
  }
  if (v === null) return;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      if (i in v) mark(v[i], `${path}[${i}]`, marks);
      else marks.push(`${path}[${i}]=h`);
    }
    return;
  }
  const proto = Object.getPrototypeOf(v);
  if (v instanceof Date) {
    // An invalid Date's JSON is null, as null's is: its time is NaN.
    const sub = proto === Date.prototype ? '' : `P${protoID(proto)}`;
    marks.push(`${path}=D${Date.prototype.getTime.call(v)}${sub}`);
    return;
  }
  if (proto !== Object.prototype && proto !== null) {
    marks.push(`${path}=P${protoID(proto)}`);
    return;
  }
  if (typeof v.toJSON === 'function') {
    marks.push(`${path}=J`);
    return;
  }
  if (proto === null) marks.push(`${path}=N`);
  for (const k in v) mark(v[k], `${path}.${JSON.stringify(k)}`, marks);
}

// protoIDs numbers the prototypes of the class instances met in args, so
// that instances of two classes with one name, or one class and plain
// objects, do not share a key.
const protoIDs = new WeakMap();
let lastProtoID = 0;

function protoID(proto) {
  let id = protoIDs.get(proto);
  if (id === undefined) {
    id = ++lastProtoID;
    protoIDs.set(proto, id);
  }
  return id;
}
