// The read protocol's JavaScript half: decode and response turn a read's
// output (package jsbridge/wire, specified in jsbridge/wire/SPEC.md) into
// data; Exchange calls the module's exported entries; Reads keeps a
// controller's answers while nothing changed.

import {
  FLAG_AFTER_EXPIRY,
  FLAG_ERROR_KEPT,
  HEADER_SIZE,
  OP_ARRAY,
  OP_BACKREF,
  OP_CLASS,
  OP_CONVERT,
  OP_DATE,
  OP_DEFINE_SHAPE,
  OP_DROP,
  OP_FALSE,
  OP_FLOAT,
  OP_INT,
  OP_KEEP,
  OP_KEPT_LIST,
  OP_NULL,
  OP_OBJECT,
  OP_OVER,
  OP_REF,
  OP_REGISTER,
  OP_SHAPED,
  OP_STRING,
  OP_STRING_JSON,
  OP_TRUE,
  OP_UNDEFINED,
  STATUS_NAMES,
  VERSION,
} from './wireops.mjs';
import { classPrototypes, converters } from './classes.mjs';
import { EXPORT_DECLINED as DECLINED, EXPORT_DONE as DONE, EXPORT_FAILED as FAILED } from './protocol.mjs';

/** Reads.version before any read; given to Reads.keep, it keeps nothing. */
export const NO_VERSION = -1;

// The most UTF-8 bytes one UTF-16 code unit can take.
const MAX_UTF8_PER_UNIT = 3;

// The longest text (UTF-16 code units) passed through Go's input buffer.
// Longer text goes through the js.FuncOf entry: the crossing is small beside
// parsing it, and the buffer, which Go keeps, stays small (a wasm memory
// never shrinks). This, and a change to a controller with a subscription
// open, are the only calls an exported entry declines (CALLS.md).
const MAX_INPUT = 1 << 16;

/**
 * A controller's half of the identity table (jsbridge/encode/identity.go): the
 * objects it holds by id, and the shapes the outputs defined
 * (SPEC.md section 5). Clearing it clears both, as Go resets its half.
 */
export class IdentityTable {
  /**
   * Id → the object held under it; undefined where none is. Go hands out
   * ids densely (the least unused, or one dropped earlier), so a plain
   * array indexed by id holds them, which V8 reads and writes several times
   * faster than a Map.
   */
  objects = [];
  /** Shape id → constructor of an object of that shape (see shapeOf). */
  shapes = [];

  /** The number of objects held. */
  get size() {
    let n = 0;
    for (const obj of this.objects) if (obj !== undefined) n++;
    return n;
  }

  clear() {
    this.objects.length = 0;
    this.shapes.length = 0;
  }
}

// decode turns a read's output (a Uint8Array) into data. objs is the
// controller's IdentityTable (null for reads outside a controller, whose
// ids are their own).
export function decode(objs, bytes) {
  begin(objs, bytes);
  return end();
}

// response decodes a getResponse output into {data, expiryStatus, expiresAt}.
// The status a valid result turns to at expiresAt goes to
// lastRead.afterExpiry, and whether an error of its last fetch is kept to
// lastRead.errorKept, for the caller of the Go entry to take (Reads), not
// into the answer.
export function response(objs, bytes) {
  begin(objs, bytes);
  const flags = bytes[1];
  lastRead.afterExpiry = flags & FLAG_AFTER_EXPIRY ? STATUS_NAMES[bytes[3]] : undefined;
  lastRead.errorKept = (flags & FLAG_ERROR_KEPT) !== 0;
  const expiryStatus = STATUS_NAMES[bytes[2]];
  const expiresAt = view.getFloat64(8, true);
  return { data: end(), expiryStatus, expiresAt };
}

/** What the last getResponse output said besides its answer (see response). */
export const lastRead = { afterExpiry: undefined, errorKept: false };

// Exchange calls the module's exported entries (jsbridge/exports.go),
// passing text through its linear memory. An entry that failed has its
// error thrown by fail (the exchangeError entry), as the js.FuncOf entry
// would have thrown it; a method returns undefined (or false) only when
// the entry declined, for the caller to use the js.FuncOf entry.
export class Exchange {
  constructor(wasmExports, fail) {
    this.x = wasmExports;
    this.fail = fail;
    this.memory = wasmExports.mem;
    this.bytes = new Uint8Array(this.memory.buffer);
    this.encoder = new TextEncoder();
    this.decoder = new TextDecoder();
  }

  // view returns the memory as bytes; a grown memory detaches the old
  // buffer, which leaves the view empty.
  view() {
    if (this.bytes.byteLength === 0) this.bytes = new Uint8Array(this.memory.buffer);
    return this.bytes;
  }

  // getResponse returns the answer of a getResponse read, decoded with
  // objs (see response), or undefined when the params are too long for the
  // input buffer.
  getResponse(ctrl, endpoint, paramsText, objs) {
    const n = this.input(paramsText);
    if (n === DECLINED) return undefined;
    const len = this.length(this.x.datafetchGetResponse(ctrl, endpoint, n));
    const at = this.x.datafetchOutput();
    try {
      // Decoded in place: nothing runs Go, so the bytes stay as they are.
      return response(objs, this.view().subarray(at, at + len));
    } finally {
      this.x.datafetchRelease();
    }
  }

  // setResponse stores data (JSON text) for params and reports whether Go
  // did; it declines (false) a controller with a subscription open, and
  // text too long for the input buffer.
  setResponse(ctrl, endpoint, paramsText, dataText) {
    if (paramsText.length + dataText.length > MAX_INPUT) return false;
    const room = (paramsText.length + dataText.length) * MAX_UTF8_PER_UNIT;
    if (room === 0) return this.done(this.x.datafetchSetResponse(ctrl, endpoint, 0, 0));
    const at = this.x.datafetchInput(room);
    const view = this.view();
    const p = this.encoder.encodeInto(paramsText, view.subarray(at, at + room)).written;
    const d = this.encoder.encodeInto(dataText, view.subarray(at + p, at + room)).written;
    return this.done(this.x.datafetchSetResponse(ctrl, endpoint, p, d));
  }

  // invalidate invalidates the result for params, and reports whether Go
  // did (see setResponse).
  invalidate(ctrl, endpoint, paramsText) {
    const n = this.input(paramsText);
    return n !== DECLINED && this.done(this.x.datafetchInvalidate(ctrl, endpoint, n));
  }

  // resetEntireStore empties the controller's store and Go's half of its
  // identity table, and reports whether Go did (see setResponse); when it
  // did, the caller clears this side's half.
  resetEntireStore(ctrl) {
    return this.done(this.x.datafetchResetEntireStore(ctrl));
  }

  // keys returns the keys of the controller's stored results, or undefined
  // when Go declined (a subscription is open) or they are too many to pass
  // back; expire says which of invalidateAll and expireAll asks, for Go's
  // errors.
  keys(ctrl, expire) {
    const len = this.x.datafetchKeys(ctrl, expire ? 1 : 0);
    if (len === DECLINED) return undefined;
    const text = this.output(len);
    // The chosen keys must fit the input buffer (updateKeys).
    if (text.length > MAX_INPUT) return undefined;
    return JSON.parse(text);
  }

  // updateKeys invalidates (or, with expire, marks stale) the results under
  // keys, and reports whether Go did (see setResponse).
  updateKeys(ctrl, keys, expire) {
    const n = this.input(JSON.stringify(keys));
    return n !== DECLINED && this.done(this.x.datafetchUpdateKeys(ctrl, n, expire ? 1 : 0));
  }

  // key returns an endpoint's store key for params, or undefined when the
  // params are too long for the input buffer.
  key(endpoint, paramsText) {
    const n = this.input(paramsText);
    return n === DECLINED ? undefined : this.output(this.x.datafetchKey(endpoint, n));
  }

  // url returns an endpoint's URL for params (see key).
  url(endpoint, paramsText) {
    const n = this.input(paramsText);
    return n === DECLINED ? undefined : this.output(this.x.datafetchURL(endpoint, n));
  }

  // input writes text into Go's input buffer and returns its length in
  // bytes; for text longer than MAX_INPUT, DECLINED, for the caller to
  // decline.
  input(text) {
    if (text.length === 0) return 0;
    if (text.length > MAX_INPUT) return DECLINED;
    const room = text.length * MAX_UTF8_PER_UNIT;
    const at = this.x.datafetchInput(room);
    return this.encoder.encodeInto(text, this.view().subarray(at, at + room)).written;
  }

  // length returns an entry's answer, the length of its output, or throws
  // its error when it failed.
  length(len) {
    if (len === FAILED) this.fail();
    return len;
  }

  // done reports whether a change entry answered done (false: declined),
  // or throws its error when it failed.
  done(r) {
    if (r === FAILED) this.fail();
    return r === DONE;
  }

  // output returns the text of an entry's output of len bytes, or throws
  // the entry's error, and lets Go release it.
  output(len) {
    const at = this.x.datafetchOutput();
    const text = this.decoder.decode(this.view().subarray(at, at + this.length(len)));
    this.x.datafetchRelease();
    return text;
  }
}

// Reads keeps a controller's getResponse answers while its change counter,
// which Go bumps on every change a read could see and which lives in the
// module's linear memory, stays the same: an unchanged re-read is a Map
// lookup and a memory load, with no call into Go. Time alone changes only a
// valid result's status, which the kept answer recomputes from expiresAt.
export class Reads {
  constructor(memory, addr, clock) {
    this.memory = memory;
    // clock is the controller's (its now option), so that a kept answer
    // turns stale when the controller's time says so.
    this.clock = clock;
    this.addr = addr;
    this.cell = new Uint32Array(memory.buffer, addr, 1);
    this.version = NO_VERSION;
    // endpoint handle -> params JSON -> kept answer
    this.byEndpoint = new Map();
  }

  // changes reads the counter; a grown memory detaches the old buffer,
  // which leaves the view empty.
  changes() {
    let cell = this.cell;
    if (cell.length === 0) cell = this.cell = new Uint32Array(this.memory.buffer, this.addr, 1);
    return cell[0];
  }

  // kept returns the kept answer, if the counter still allows it.
  kept(h, paramsText) {
    const v = this.changes();
    if (v !== this.version) {
      this.byEndpoint.clear();
      this.version = v;
      return undefined;
    }
    return this.byEndpoint.get(h)?.get(paramsText);
  }

  get(h, paramsText) {
    const kept = this.kept(h, paramsText);
    if (kept === undefined) return undefined;
    const expiryStatus = statusAt(kept, this.clock());
    // A read inferred from an entity turns missing when the entity
    // expires, and its data goes with it: Go answers that.
    if (expiryStatus === 'missing' && kept.expiryStatus !== 'missing') return undefined;
    return { data: kept.data, expiryStatus, expiresAt: kept.expiresAt };
  }

  // fresh returns the data when useSuspense would answer it at once without
  // a request: a valid result with no kept error; undefined otherwise.
  fresh(h, paramsText) {
    const kept = this.kept(h, paramsText);
    return kept !== undefined && !kept.err && statusAt(kept, this.clock()) === 'valid' ? kept.data : undefined;
  }

  // clear forgets every kept answer, so that what a reset frees in Go is not
  // held here until the next read.
  clear() {
    this.byEndpoint.clear();
    this.version = NO_VERSION;
  }

  // keep stores an answer read at version v (read before the call into Go,
  // so that a change during the call leaves it unused).
  keep(v, h, paramsText, answer, later, err) {
    if (v !== this.version) return;
    let byParams = this.byEndpoint.get(h);
    if (byParams === undefined) this.byEndpoint.set(h, (byParams = new Map()));
    byParams.set(paramsText, { data: answer.data, expiryStatus: answer.expiryStatus, expiresAt: answer.expiresAt, later, err });
  }
}

// statusAt is a kept answer's status at time now (epoch ms).
function statusAt(kept, now) {
  return kept.later !== undefined && now >= kept.expiresAt ? kept.later : kept.expiryStatus;
}

// ------------------------------------------------------------ the decoder
// One output is decoded at a time: begin sets this state, value() walks the
// ops in prefix order, end() reads what follows the value. Decoding runs
// no code but this module's and the shape constructors (which call value),
// so nothing re-enters it.

const text = new TextDecoder();
const EMPTY = new Uint8Array(0);

/** The output's bytes, a DataView over them, the next op, the ops' end. */
let buf = EMPTY;
let view = new DataView(EMPTY.buffer);
let pos = 0;
let opsEnd = 0;
/**
 * The string area, decoded once, and where the strings taken so far start
 * in it: they are in it last first (SPEC.md section 1).
 */
let strs = '';
let cur = 0;
/** The identity table's objects (null: none) and its shape constructors. */
let held = null;
let shapes = [];

/**
 * Back-references (OP_BACKREF, SPEC.md section 4a): open counts those not
 * yet set in place; fixes holds, per id, the containers and keys of those
 * whose container is built, to be set to the object once it is built.
 * Objects are built bottom-up, so a reference back to one being built is
 * a Hole until then.
 */
let open = 0;
const fixes = new Map();

// Hole stands for an object under construction, in the container built
// around it until that object is built.
class Hole {
  constructor(id) {
    this.id = id;
  }
}

// built returns c, a container just built, having noted the holes in it:
// called only while some are open.
function built(c) {
  for (const k of Object.keys(c)) {
    const h = c[k];
    if (!(h instanceof Hole)) continue;
    let at = fixes.get(h.id);
    if (at === undefined) fixes.set(h.id, (at = []));
    at.push(c, k);
  }
  return c;
}

// close sets obj, just built and registered as id, where back-references
// to it wait.
function close(id, obj) {
  const at = fixes.get(id);
  if (at === undefined) return;
  fixes.delete(id);
  for (let i = 0; i < at.length; i += 2) at[i][at[i + 1]] = obj;
  open -= at.length / 2;
}

function begin(objs, bytes) {
  if (bytes.length < HEADER_SIZE || bytes[0] !== VERSION) {
    throw new Error(`datafetch: a read's output is not of wire version ${VERSION} (${bytes.length} bytes, version ${bytes[0]})`);
  }
  buf = bytes;
  view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const strLen = view.getUint32(4, true);
  opsEnd = bytes.length - strLen;
  strs = strLen === 0 ? '' : text.decode(bytes.subarray(opsEnd));
  cur = strs.length;
  pos = HEADER_SIZE;
  // Without a table (a snapshot, denormalize), the output's own ids.
  held = objs === null ? [] : objs.objects;
  shapes = objs === null ? [] : objs.shapes;
}

// end reads the value and the ids to forget after it, and lets the
// output's bytes go. An output not decoded to its end leaves this side's
// objects out of step with Go's (its registrations half done, its drops
// undone, and Go may hand a dropped id out again): they are forgotten, so
// that an id Go sends next is one this side lacks (UnknownObject, which
// resets both halves), never a stale object.
function end() {
  try {
    const data = value();
    if (pos < opsEnd) {
      if (buf[pos++] !== OP_DROP) throw fault('an op after the value');
      for (let n = uint(); n > 0; n--) held[uint()] = undefined;
    }
    if (pos !== opsEnd) throw fault('the ops end inside an op');
    if (open !== 0) throw fault(`${open} back-references to no object built`);
    return data;
  } catch (err) {
    if (held !== null) held.length = 0;
    throw err;
  } finally {
    if (open !== 0) {
      open = 0;
      fixes.clear();
    }
    buf = EMPTY;
    strs = '';
    held = null;
    shapes = [];
  }
}

// fault is the error of an output that breaks the format: a bug on one
// side or the other, reported with where it was met.
function fault(what) {
  return new Error(`datafetch: read output: ${what} at byte ${pos - 1}`);
}

// uint reads an unsigned LEB128 operand (exact up to 2^53).
function uint() {
  let b = buf[pos++];
  if (b < 0x80) return b;
  let x = b & 0x7f;
  let scale = 0x80;
  for (;;) {
    b = buf[pos++];
    x += (b & 0x7f) * scale;
    if (b < 0x80) return x;
    scale *= 0x80;
  }
}

// str takes the n code units of the string area before those taken so far.
function str(n) {
  const to = cur;
  cur -= n;
  return strs.slice(cur, to);
}

// key reads an object key: a string op.
function key() {
  const op = buf[pos++];
  if (op === OP_STRING) return str(uint());
  if (op === OP_STRING_JSON) return JSON.parse(str(uint()));
  throw fault(`op ${op} where a key belongs`);
}

// put sets obj[k] = v as JSON.parse would: an own data property, even for
// __proto__.
function put(obj, k, v) {
  if (k === PROTO) Object.defineProperty(obj, k, { value: v, writable: true, enumerable: true, configurable: true });
  else obj[k] = v;
}

const PROTO = '__proto__';

// value reads one value.
function value() {
  const op = buf[pos++];
  switch (op) {
    case OP_SHAPED: {
      const id = uint();
      const make = shapes[id];
      if (make === undefined) throw new UnknownObject(`datafetch: shape ${id} is unknown`);
      const obj = make(value);
      return open === 0 ? obj : built(obj);
    }
    case OP_STRING:
      return str(uint());
    case OP_INT: {
      const z = uint();
      return (z >>> 1) ^ -(z & 1);
    }
    case OP_REF:
      return known(uint());
    case OP_REGISTER: {
      const id = uint();
      const v = value();
      held[id] = v;
      if (open !== 0) close(id, v);
      return v;
    }
    case OP_BACKREF:
      open++;
      return new Hole(uint());
    case OP_ARRAY: {
      // Grown by push, not allocated at its length: new Array(n) would be
      // a holey array for good, which every later read of it pays for,
      // where JSON.parse gives a packed one. Every element takes a byte
      // at least.
      const n = uint();
      if (n > opsEnd - pos) throw fault(`an array of ${n} elements in ${opsEnd - pos} bytes`);
      const a = [];
      for (let i = 0; i < n; i++) a.push(value());
      return open === 0 ? a : built(a);
    }
    case OP_NULL:
      return null;
    case OP_TRUE:
      return true;
    case OP_FALSE:
      return false;
    case OP_FLOAT: {
      const f = view.getFloat64(pos, true);
      pos += 8;
      return f;
    }
    case OP_STRING_JSON:
      return JSON.parse(str(uint()));
    case OP_DATE:
      return new Date(value());
    case OP_DEFINE_SHAPE:
      defineShape();
      return value();
    case OP_OBJECT: {
      const obj = {};
      for (let n = uint(); n > 0; n--) put(obj, key(), value());
      return open === 0 ? obj : built(obj);
    }
    case OP_KEPT_LIST: {
      const a = keptList();
      return open === 0 ? a : built(a);
    }
    case OP_CLASS: {
      const obj = instance();
      return open === 0 ? obj : built(obj);
    }
    case OP_CONVERT: {
      const convert = converters[uint()];
      if (convert === undefined) throw fault('a conversion this side does not have');
      return convert(value());
    }
    case OP_OVER: {
      const obj = copyOf(known(uint()));
      const id = uint();
      for (let n = uint(); n > 0; n--) put(obj, key(), value());
      held[id] = obj;
      if (open !== 0) close(id, built(obj));
      return obj;
    }
    case OP_UNDEFINED:
      return undefined;
    default:
      throw fault(`op ${op} where a value belongs`);
  }
}

// defineShape reads an OP_DEFINE_SHAPE's operands (its op taken) and
// enters the shape in the table.
function defineShape() {
  const id = uint();
  const keys = [];
  for (let n = uint(); n > 0; n--) keys.push(key());
  shapes[id] = shapeOf(keys);
}

// instance reads an OP_CLASS's operand and the object after it, built as
// an instance of that class: with its prototype from the start (by a
// constructor per class and shape), never changed after, which would cost
// every later access to the object.
function instance() {
  const proto = classPrototypes[uint()];
  if (proto === undefined) throw fault('a class this side does not have');
  for (;;) {
    const op = buf[pos++];
    switch (op) {
      case OP_SHAPED: {
        const id = uint();
        const make = shapes[id];
        if (make === undefined) throw new UnknownObject(`datafetch: shape ${id} is unknown`);
        return classMake(proto, make)(value);
      }
      case OP_DEFINE_SHAPE:
        defineShape();
        continue; // the object follows
      case OP_OBJECT: {
        const obj = Object.create(proto);
        for (let n = uint(); n > 0; n--) defineOwn(obj, key(), value());
        return obj;
      }
      default:
        throw fault(`op ${op} after a class, not an object`);
    }
  }
}

// copyOf returns a shallow copy of obj with obj's prototype (an entity's
// class, or Object's).
function copyOf(obj) {
  const proto = Object.getPrototypeOf(obj);
  if (proto === Object.prototype) return { ...obj };
  return Object.defineProperties(Object.create(proto), Object.getOwnPropertyDescriptors(obj));
}

// The last classMake looked up: a list's entities are of one class and
// shape, so most lookups are this one.
let lastProto;
let lastShape;
let lastMake;

// classMakes holds, per prototype, the constructor of each shape's
// instances.
const classMakes = new WeakMap();

// classMake returns the function that builds an object of shape (a
// shapeOf result) as an instance with prototype proto.
function classMake(proto, shape) {
  if (proto === lastProto && shape === lastShape) return lastMake;
  let byShape = classMakes.get(proto);
  if (byShape === undefined) classMakes.set(proto, (byShape = new Map()));
  let make = byShape.get(shape);
  if (make === undefined) byShape.set(shape, (make = instanceShapeOf(proto, shape.keys)));
  lastProto = proto;
  lastShape = shape;
  lastMake = make;
  return make;
}

// instanceShapeOf returns the function that builds an object with keys as
// an instance with prototype proto: a compiled constructor when the page
// allows compiling code and an assignment to each key makes an own data
// property (not so for __proto__, or a key the class has an accessor for:
// data read under a getter's name shadows the getter, as an own property
// of JSON.parse's would), members defined in order otherwise.
function instanceShapeOf(proto, keys) {
  if (shaping.compile && !keys.some((k) => k === PROTO || hasAccessor(proto, k))) {
    try {
      const Ctor = new Function('v', keys.map((k) => `this[${JSON.stringify(k)}]=v();`).join(''));
      Ctor.prototype = proto;
      return (v) => new Ctor(v);
    } catch (err) {
      if (!(err instanceof EvalError)) throw err;
      shaping.compile = false;
    }
  }
  return (v) => {
    const obj = Object.create(proto);
    for (let i = 0; i < keys.length; i++) defineOwn(obj, keys[i], v());
    return obj;
  };
}

// hasAccessor reports whether proto or its prototypes define k as an
// accessor (get or set).
function hasAccessor(proto, k) {
  for (let p = proto; p !== null && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
    const d = Object.getOwnPropertyDescriptor(p, k);
    if (d !== undefined) return d.get !== undefined || d.set !== undefined;
  }
  return false;
}

// defineOwn sets obj[k] = v as an own data property, whatever obj's
// prototype defines under k (a getter of its class, __proto__).
function defineOwn(obj, k, v) {
  Object.defineProperty(obj, k, { value: v, writable: true, enumerable: true, configurable: true });
}

// keptList reads an OP_KEPT_LIST: an array whose runs of OP_KEEP take the
// elements of its previous emission at the same indices (jsbridge/encode/listdiff.go).
function keptList() {
  let prev = known(uint());
  for (let depth = uint(); depth > 0; depth--) prev = prev?.[key()];
  if (!Array.isArray(prev)) throw new UnknownObject('datafetch: a kept list has no previous array');
  const n = uint();
  // Each element not kept takes a byte at least.
  if (n > prev.length + (opsEnd - pos)) throw fault(`a kept list of ${n} elements in ${opsEnd - pos} bytes`);
  const a = [];
  while (a.length < n) {
    if (buf[pos] !== OP_KEEP) {
      a.push(value());
      continue;
    }
    pos++;
    const to = a.length + uint();
    if (to > prev.length || to > n) throw fault('a kept run past the previous array');
    for (let i = a.length; i < to; i++) a.push(prev[i]);
  }
  return a;
}

// known returns the object this side holds as id.
function known(id) {
  const obj = held?.[id];
  // Go resets both halves and sends the value in full when this throws.
  if (obj === undefined) throw new UnknownObject(`datafetch: object ${id} is unknown`);
  return obj;
}

/**
 * How shapes are built: compiled (a function with an object literal per
 * shape, as fast as a literal in code) unless the page forbids compiling
 * code (a Content-Security-Policy without 'unsafe-eval'), which the first
 * attempt finds out. Tests set compile to false to check the fallback.
 */
export const shaping = { compile: true };

// compiled keeps the compiled constructors by key list (its JSON), shared
// by every table: a new controller's reads reuse functions the engine has
// already optimized instead of compiling and warming up their own.
const compiled = new Map();

// shapeOf returns the constructor of objects with keys: called with value,
// it reads one value per key, in order, and returns the object.
function shapeOf(keys) {
  if (shaping.compile) {
    const id = JSON.stringify(keys);
    let make = compiled.get(id);
    if (make !== undefined) return make;
    // Each key is a string literal (JSON.stringify's is one), __proto__ a
    // computed one so that it is an own property as JSON.parse makes it;
    // members are evaluated in order, as the ops come.
    const members = keys.map((k) => `${k === PROTO ? `[${JSON.stringify(k)}]` : JSON.stringify(k)}:v()`);
    try {
      make = new Function('v', `return {${members.join(',')}};`);
      make.keys = keys;
      if (compiled.size < MAX_COMPILED) compiled.set(id, make);
      return make;
    } catch (err) {
      if (!(err instanceof EvalError)) throw err;
      shaping.compile = false; // forbidden here: build them by hand
    }
  }
  const make = (v) => {
    const obj = {};
    for (let i = 0; i < keys.length; i++) put(obj, keys[i], v());
    return obj;
  };
  make.keys = keys;
  return make;
}

// The most constructors kept compiled for reuse (each table holds at most
// 4096 shapes of its own: jsbridge/wire.MaxShapes).
const MAX_COMPILED = 4096;

/**
 * The error of an output that names an object this side does not hold:
 * the two halves of the identity table disagree, and the caller starts
 * them afresh.
 */
export class UnknownObject extends Error {}
