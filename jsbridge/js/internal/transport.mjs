// The fetch path's JavaScript half: a whole exchange with fetch in one
// function, reported to Go through the module's exports (jsbridge/wake.go)
// and a resume, so that a request crosses between Go and JavaScript a
// handful of times instead of once per property of the Response, and no
// js.FuncOf runs when it completes.

import { takePrestarted } from './prestart.mjs';
import { EXPORT_DECLINED, EXPORT_FAILED, EXPORT_UNHEARD, WAKE_NOT_RESPONSE, WAKE_OK, WAKE_TEXT, WAKE_THROWN } from './protocol.mjs';

// The most UTF-8 bytes one UTF-16 code unit can take.
const MAX_UTF8_PER_UNIT = 3;

// The room first reserved for a text of n UTF-16 code units is n bytes and
// a 64th more (TEXT_SLACK_SHIFT), plus TEXT_SLACK_MIN: JSON text is mostly
// ASCII (one byte a unit); a text with more multi-byte characters than
// that gets a second room for the rest (awaitText).
const TEXT_SLACK_SHIFT = 6;
const TEXT_SLACK_MIN = 64;

// The most room datafetchReserve hands out (its length is an int32): a
// longer text is taken as a string, as await reports it.
const MAX_ROOM = 0x7fffffff;

// The longest arguments (UTF-16 code units) start passes through Go's input
// buffer; longer ones go through the js.FuncOf entry (as in wire.mjs).
const MAX_INPUT = 1 << 16;

/**
 * Transport does fetch exchanges and watches promises for Go. Each is a
 * wait Go registered under an id; the outcome goes into Go's memory
 * (datafetchReserve), Go is told (datafetchWake) and resumed (resume, the
 * wasm_exec.js Go instance's _resume), and Go takes the JavaScript value
 * that goes with it (the Response, or what was thrown) with take.
 */
export class Transport {
  // fail throws the error of an exported call that answered EXPORT_FAILED
  // (the exchangeError entry).
  constructor(wasmExports, resume, fail) {
    this.x = wasmExports;
    this.memory = wasmExports.mem;
    this.resume = resume;
    this.fail = fail;
    this.encoder = new TextEncoder();
    // id → {ac, value}: ac aborts a request; value is what take hands Go.
    this.waits = new Map();
    // id → {resolve, reject} of the calls start made.
    this.calls = new Map();
  }

  /**
   * start starts an asynchronous entry (op, a START_* constant) through the
   * datafetchStart export and returns its Promise (rejected at once when
   * Go found the arguments unusable), or undefined when Go declined or the
   * text is too long for the input buffer (the caller then uses the
   * js.FuncOf entry). bodyText is a fetch's JSON body, or undefined.
   */
  start(op, ctrl, h, paramsText, bodyText) {
    const units = paramsText.length + (bodyText === undefined ? 0 : bodyText.length);
    if (units > MAX_INPUT) return undefined;
    let p = 0;
    let b = bodyText === undefined ? -1 : 0;
    if (units > 0) {
      const room = units * MAX_UTF8_PER_UNIT;
      const at = this.x.datafetchInput(room);
      const view = new Uint8Array(this.memory.buffer, at, room);
      p = this.encoder.encodeInto(paramsText, view).written;
      if (bodyText !== undefined) b = this.encoder.encodeInto(bodyText, view.subarray(p)).written;
    }
    const id = this.x.datafetchStart(op, ctrl, h, p, b);
    if (id === EXPORT_DECLINED) return undefined;
    if (id === EXPORT_FAILED) {
      try {
        this.fail();
      } catch (err) {
        return Promise.reject(err);
      }
    }
    const promise = new Promise((resolve, reject) => this.calls.set(id, { resolve, reject }));
    // Runs the call until it waits: what it does first (an optimistic
    // update) is done when start returns.
    this.resume();
    return promise;
  }

  /** complete settles the Promise of call id (Go calls it). */
  complete(id, ok, value) {
    const call = this.calls.get(id);
    if (call === undefined) return;
    this.calls.delete(id);
    if (ok) call.resolve(value);
    else call.reject(value);
  }

  /**
   * request starts the exchange of wait id: fetch (the controller's fetch
   * option, or globalThis.fetch when undefined) of url with the init Go
   * describes (initText: method and headers as JSON), over the members of
   * extra (getRequestInit's), with body and an AbortSignal. keepBody
   * leaves the body unread, for a parseResponse that reads it.
   */
  request(id, fetch, url, initText, extra, body, keepBody) {
    const ac = new AbortController();
    let init = JSON.parse(initText);
    // What the endpoint computed wins over the extra members.
    if (extra !== undefined) init = Object.assign({}, extra, init);
    if (body !== undefined) init.body = body;
    init.signal = ac.signal;
    const wait = { ac, value: undefined };
    this.waits.set(id, wait);
    this.#exchange(id, wait, fetch, url, init, keepBody).catch((err) => this.#report(id, wait, WAKE_THROWN, err));
  }

  async #exchange(id, wait, fetch, url, init, keepBody) {
    // A request to a URL that was pre-started while the module loaded
    // (prestart.mjs) takes that one's Response, once, and its body when it
    // was read as it arrived.
    const prestarted = fetch === undefined ? takePrestarted(url, init, keepBody) : undefined;
    const resp = await (prestarted?.response ?? (fetch === undefined ? globalThis.fetch(url, init) : fetch(url, init)));
    if (typeof resp !== 'object' || resp === null) {
      this.#report(id, wait, WAKE_NOT_RESPONSE, undefined, undefined, resp === null ? 'null' : `a ${typeof resp}`);
      return;
    }
    const status = resp.status;
    if (typeof status !== 'number' || !Number.isInteger(status)) {
      this.#report(id, wait, WAKE_NOT_RESPONSE, undefined, undefined, `an object whose status is ${status === null ? 'null' : typeof status}`);
      return;
    }
    const statusText = typeof resp.statusText === 'string' ? resp.statusText : '';
    let pairs = [];
    if (typeof resp.headers === 'object' && resp.headers !== null) {
      try {
        pairs = Array.from(resp.headers);
      } catch {
        // Headers that cannot be listed are no headers, as Go read them.
        pairs = [];
      }
    }
    const meta = JSON.stringify([statusText, pairs]);
    if (keepBody) {
      this.#report(id, wait, WAKE_OK, resp, undefined, meta, status);
      return;
    }
    // A response the caller may want to read again (an error status, or a
    // body that is not JSON and will fail to parse) is read from a clone, so
    // that NetworkError.response still has its body; a JSON success is read
    // directly, since cloning a large body costs memory for nothing.
    let reader = resp;
    if (!(status >= 200 && status <= 299) || !contentType(pairs).includes('json')) {
      try {
        reader = resp.clone();
      } catch {
        // A Response-like object without clone is read itself.
        reader = resp;
      }
    }
    const bytes = (await prestarted?.body) ?? new Uint8Array(await reader.arrayBuffer());
    this.#report(id, wait, WAKE_OK, resp, bytes, meta, status);
  }

  // #report hands Go the outcome of wait id: kind, value for take, the body
  // bytes and the meta text (copied into room Go reserves), and the status.
  #report(id, wait, kind, value, bytes, meta, status) {
    if (this.waits.get(id) !== wait) return; // aborted: Go no longer waits
    const bodyLen = bytes === undefined ? 0 : bytes.length;
    const room = bodyLen + (meta === undefined ? 0 : meta.length * MAX_UTF8_PER_UNIT);
    const at = this.x.datafetchReserve(id, room);
    if (at === 0) {
      this.waits.delete(id);
      return;
    }
    // Reserving may have grown the memory: a view made now.
    const view = new Uint8Array(this.memory.buffer, at, room);
    if (bytes !== undefined) view.set(bytes);
    const metaLen = meta === undefined ? 0 : this.encoder.encodeInto(meta, view.subarray(bodyLen)).written;
    wait.value = value;
    if (this.x.datafetchWake(id, kind, status ?? 0, bodyLen, metaLen) === EXPORT_UNHEARD) {
      this.waits.delete(id);
      return;
    }
    this.resume();
  }

  /** await has Go told how promise settles, as wait id. */
  await(promise, id) {
    const wait = { ac: undefined, value: undefined };
    this.waits.set(id, wait);
    Promise.resolve(promise).then(
      (v) => this.#settle(id, wait, WAKE_OK, v),
      (e) => this.#settle(id, wait, WAKE_THROWN, e),
    );
  }

  /**
   * awaitText is await for a promise of JSON text (a hook adapter's
   * result): a non-empty string it resolves to is written as UTF-8 into
   * room Go reserves (WAKE_TEXT), with nothing for Go to take; anything
   * else is reported as await reports it.
   */
  awaitText(promise, id) {
    const wait = { ac: undefined, value: undefined };
    this.waits.set(id, wait);
    Promise.resolve(promise).then(
      (v) => (typeof v === 'string' && v.length > 0 ? this.#text(id, wait, v) : this.#settle(id, wait, WAKE_OK, v)),
      (e) => this.#settle(id, wait, WAKE_THROWN, e),
    );
  }

  // #text writes text into Go's memory for wait id and wakes Go: encodeInto
  // straight into the room, not TextEncoder.encode and a copy.
  #text(id, wait, text) {
    if (this.waits.get(id) !== wait) return;
    const units = text.length;
    let room = units + (units >> TEXT_SLACK_SHIFT) + TEXT_SLACK_MIN;
    if (room > MAX_ROOM) {
      this.#settle(id, wait, WAKE_OK, text);
      return;
    }
    let at = this.x.datafetchReserve(id, room);
    if (at === 0) {
      this.waits.delete(id); // Go no longer waits
      return;
    }
    let { read, written } = this.encoder.encodeInto(text, new Uint8Array(this.memory.buffer, at, room));
    if (read < units) {
      // More multi-byte characters than the slack: room for what is
      // written and the rest at its longest (reserving replaces the first
      // room, and may move the memory: what is written is kept aside).
      room = written + (units - read) * MAX_UTF8_PER_UNIT;
      if (room > MAX_ROOM) {
        this.#settle(id, wait, WAKE_OK, text);
        return;
      }
      const head = new Uint8Array(this.memory.buffer, at, written).slice();
      at = this.x.datafetchReserve(id, room);
      if (at === 0) {
        this.waits.delete(id);
        return;
      }
      const view = new Uint8Array(this.memory.buffer, at, room);
      view.set(head);
      written += this.encoder.encodeInto(text.slice(read), view.subarray(written)).written;
    }
    this.waits.delete(id); // Go takes nothing
    if (this.x.datafetchWake(id, WAKE_TEXT, 0, written, 0) === EXPORT_UNHEARD) return;
    this.resume();
  }

  #settle(id, wait, kind, value) {
    if (this.waits.get(id) !== wait) return;
    wait.value = value;
    if (this.x.datafetchWake(id, kind, 0, 0, 0) === EXPORT_UNHEARD) {
      this.waits.delete(id);
      return;
    }
    this.resume();
  }

  /** take returns (and forgets) the value kept for wait id. */
  take(id) {
    const wait = this.waits.get(id);
    this.waits.delete(id);
    return wait?.value;
  }

  /** abort aborts request id and forgets it (Go no longer waits). */
  abort(id) {
    const wait = this.waits.get(id);
    if (wait === undefined) return;
    this.waits.delete(id);
    wait.ac?.abort();
  }
}

// contentType returns the lower-cased Content-Type of a list of header
// pairs, '' when there is none.
function contentType(pairs) {
  for (const pair of pairs) {
    if (Array.isArray(pair) && String(pair[0]).toLowerCase() === 'content-type') return String(pair[1]).toLowerCase();
  }
  return '';
}
