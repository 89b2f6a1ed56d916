// The read protocol's JavaScript half: decode and response turn a read's
// output (jsbridge/encode.go) into data; Exchange calls the module's
// exported entries; Reads keeps a controller's answers while nothing
// changed.

import { EXPORT_DECLINED as DECLINED, OP_DATE, OP_KEPT, OP_OVER, OP_REF, OP_REGISTER } from './protocol.mjs';

/** Reads.version before any read; given to Reads.keep, it keeps nothing. */
export const NO_VERSION = -1;

// The most UTF-8 bytes one UTF-16 code unit can take.
const MAX_UTF8_PER_UNIT = 3;

// The longest text (UTF-16 code units) passed through Go's input buffer.
// Longer text goes through the js.FuncOf entry: the crossing is small beside
// parsing it, and the buffer, which Go keeps, stays small (a wasm memory
// never shrinks).
const MAX_INPUT = 1 << 16;

// decode turns a read's output into data; see jsbridge/encode.go for the
// format. objs is the controller's Map from id to the objects this side
// holds (null for reads without identity).
export function decode(objs, text) {
  return apply(objs, JSON.parse(text));
}

// response decodes a getResponse output into {data, expiryStatus, expiresAt}.
// The status a valid result turns to at expiresAt goes to
// lastRead.afterExpiry, and whether an error of its last fetch is kept to
// lastRead.errorKept, for the caller of the Go entry to take (Reads), not
// into the answer.
export function response(objs, text) {
  const out = JSON.parse(text);
  lastRead.afterExpiry = out.f;
  lastRead.errorKept = out.k === 1; // k is 1 or absent
  return { data: apply(objs, out), expiryStatus: out.s, expiresAt: out.e };
}

/** What the last getResponse output said besides its answer (see response). */
export const lastRead = { afterExpiry: undefined, errorKept: false };

// Exchange calls the module's exported entries (jsbridge/exports.go),
// passing text through its linear memory.
export class Exchange {
  constructor(wasmExports) {
    this.x = wasmExports;
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

  // getResponse returns the output text of a getResponse read, or undefined
  // when Go declined (errors are reported by the js.FuncOf entry).
  getResponse(ctrl, endpoint, paramsText) {
    return this.output(this.x.datafetchGetResponse(ctrl, endpoint, this.input(paramsText)));
  }

  // setResponse stores data (JSON text) for params and returns what Go
  // answered: EXPORT_DONE, EXPORT_FAILED (exchangeError throws why) or
  // EXPORT_DECLINED, for the js.FuncOf entry to make the call.
  setResponse(ctrl, endpoint, paramsText, dataText) {
    if (paramsText.length + dataText.length > MAX_INPUT) return DECLINED;
    const room = (paramsText.length + dataText.length) * MAX_UTF8_PER_UNIT;
    if (room === 0) return this.x.datafetchSetResponse(ctrl, endpoint, 0, 0);
    const at = this.x.datafetchInput(room);
    const view = this.view();
    const p = this.encoder.encodeInto(paramsText, view.subarray(at, at + room)).written;
    const d = this.encoder.encodeInto(dataText, view.subarray(at + p, at + room)).written;
    return this.x.datafetchSetResponse(ctrl, endpoint, p, d);
  }

  // invalidate invalidates the result for params, and reports whether Go
  // did (see setResponse).
  invalidate(ctrl, endpoint, paramsText) {
    return this.x.datafetchInvalidate(ctrl, endpoint, this.input(paramsText)) !== DECLINED;
  }

  // resetEntireStore empties the controller's store and Go's half of its
  // identity table, and reports whether Go did (see setResponse); when it
  // did, the caller clears this side's half.
  resetEntireStore(ctrl) {
    return this.x.datafetchResetEntireStore(ctrl) !== DECLINED;
  }

  // keys returns the keys of the controller's stored results, or undefined
  // when Go declined (a subscription is open).
  keys(ctrl) {
    const len = this.x.datafetchKeys(ctrl);
    // The chosen keys must fit the input buffer (updateKeys).
    if (len > MAX_INPUT) {
      this.x.datafetchRelease();
      return undefined;
    }
    const text = this.output(len);
    return text === undefined ? undefined : JSON.parse(text);
  }

  // updateKeys invalidates (or, with expire, marks stale) the results under
  // keys, and reports whether Go did (see setResponse).
  updateKeys(ctrl, keys, expire) {
    return this.x.datafetchUpdateKeys(ctrl, this.input(JSON.stringify(keys)), expire ? 1 : 0) !== DECLINED;
  }

  // key returns an endpoint's store key for params, or undefined when Go
  // declined (see getResponse).
  key(endpoint, paramsText) {
    return this.output(this.x.datafetchKey(endpoint, this.input(paramsText)));
  }

  // url returns an endpoint's URL for params, or undefined when Go
  // declined (see getResponse).
  url(endpoint, paramsText) {
    return this.output(this.x.datafetchURL(endpoint, this.input(paramsText)));
  }

  // input writes text into Go's input buffer and returns its length in
  // bytes; for text longer than MAX_INPUT, DECLINED, which makes the entry
  // decline.
  input(text) {
    if (text.length === 0) return 0;
    if (text.length > MAX_INPUT) return DECLINED;
    const room = text.length * MAX_UTF8_PER_UNIT;
    const at = this.x.datafetchInput(room);
    return this.encoder.encodeInto(text, this.view().subarray(at, at + room)).written;
  }

  // output returns the text of an entry's output of len bytes, or undefined
  // when the entry declined, and lets Go release it.
  output(len) {
    if (len === DECLINED) return undefined;
    const at = this.x.datafetchOutput();
    const text = this.decoder.decode(this.view().subarray(at, at + len));
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
    return { data: kept.data, expiryStatus: statusAt(kept, this.clock()), expiresAt: kept.expiresAt };
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

// apply turns a decoded output into its data: out.r names an object this
// side holds; otherwise out.d is the data and out.o its ops (see
// protocol.mjs), and out.x lists the ids to forget.
function apply(objs, out) {
  let data;
  if (out.r !== undefined) {
    data = known(objs, out.r);
  } else {
    data = out.d;
    const ops = out.o;
    if (ops !== undefined) {
      for (let i = 0; i < ops.length; i++) {
        const op = ops[i];
        const kind = op[0];
        const n = op.length;
        if (kind === OP_OVER) {
          // [OP_OVER, id, new, path...]: the object at path holds some
          // members only; they go over a shallow copy of the object id, which takes
          // its place and is registered as new.
          const merged = { ...known(objs, op[1]) };
          if (n === 3) {
            data = Object.assign(merged, data);
          } else {
            let parent = data;
            for (let j = 3; j < n - 1; j++) parent = parent[op[j]];
            const key = op[n - 1];
            parent[key] = Object.assign(merged, parent[key]);
          }
          objs.set(op[2], merged);
          continue;
        }
        if (kind === OP_KEPT) {
          // [OP_KEPT, id, ranges, path...]: the array at path keeps, in the
          // index ranges [from, to) listed, the elements of the array at the
          // same path in the object id.
          let list = data;
          let prev = known(objs, op[1]);
          for (let j = 3; j < n; j++) {
            list = list[op[j]];
            prev = prev[op[j]];
          }
          const ranges = op[2];
          for (let r = 0; r < ranges.length; r += 2) {
            for (let k = ranges[r]; k < ranges[r + 1]; k++) list[k] = prev[k];
          }
          continue;
        }
        if (n === 2) {
          // [kind, id]: the op names data itself.
          if (kind === OP_REGISTER) objs.set(op[1], data);
          else if (kind === OP_REF) data = known(objs, op[1]);
          else if (kind === OP_DATE) data = new Date(data);
          else throw new Error(`datafetch: unknown op ${kind}`);
          continue;
        }
        let parent = data;
        for (let j = 2; j < n - 1; j++) parent = parent[op[j]];
        const key = op[n - 1];
        if (kind === OP_REGISTER) objs.set(op[1], parent[key]);
        else if (kind === OP_REF) parent[key] = known(objs, op[1]);
        else if (kind === OP_DATE) parent[key] = new Date(parent[key]);
        else throw new Error(`datafetch: unknown op ${kind}`);
      }
    }
  }
  const dropped = out.x;
  if (dropped !== undefined) for (let i = 0; i < dropped.length; i++) objs.delete(dropped[i]);
  return data;
}

// known returns the object this side holds as id.
function known(objs, id) {
  const obj = objs.get(id);
  // Go resets both halves and sends the value in full when this throws.
  if (obj === undefined) throw new UnknownObject(`datafetch: object ${id} is unknown`);
  return obj;
}

/**
 * The error of an output that names an object this side does not hold:
 * the two halves of the identity table disagree, and the caller starts
 * them afresh.
 */
export class UnknownObject extends Error {}
