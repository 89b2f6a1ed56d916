// StreamManager (docs/js-api.md, "Live updates"): a manager that writes
// what a server pushes into the cache. It listens to a message source (an
// EventSource for Server-Sent Events, a WebSocket, or anything with
// addEventListener('message')), reads each message's data as JSON
// {type, args?, data}, and stores data as the entity named type, read with
// args: controller.set(entities[type], ...args, data). Every result that
// shows that entity changes with it, as after a fetch. A message it cannot
// use (not JSON, an unknown type, data the entity refuses) is reported to
// onError (console.error by default) and changes nothing.

import { show } from './values.mjs';

export class StreamManager {
  #source;
  #entities;
  #onError;
  #controller;
  #listener;

  /**
   * source is the message source, or a function that opens one when the
   * controller starts the manager (so a manager can be made before its
   * connection is wanted); entities maps a message's type to its Entity.
   */
  constructor(source, entities, { onError = (err) => console.error(err) } = {}) {
    if (source === null || (typeof source !== 'object' && typeof source !== 'function')) {
      throw new TypeError(`StreamManager: source must be an EventSource, a WebSocket or a function opening one, got ${show(source)}`);
    }
    if (entities === null || typeof entities !== 'object')
      throw new TypeError(`StreamManager: entities must be an object of entity classes by type, got ${show(entities)}`);
    if (typeof onError !== 'function') throw new TypeError(`StreamManager: onError must be a function, got ${show(onError)}`);
    this.#source = source;
    this.#entities = entities;
    this.#onError = onError;
    this.middleware = (controller) => {
      this.#controller = controller;
      this.#listen();
      return (next) => (action) => next(action);
    };
  }

  #listen() {
    if (typeof this.#source === 'function') this.#source = this.#source();
    const source = this.#source;
    if (typeof source?.addEventListener !== 'function') {
      this.#onError(new TypeError(`StreamManager: the source has no addEventListener: ${show(source)}`));
      return;
    }
    this.#listener = (event) => this.#receive(event);
    source.addEventListener('message', this.#listener);
  }

  #receive(event) {
    let msg;
    try {
      msg = JSON.parse(event.data);
    } catch (err) {
      this.#onError(new Error(`StreamManager: a message that is not JSON: ${show(event.data)}`, { cause: err }));
      return;
    }
    const entity = msg !== null && typeof msg === 'object' ? this.#entities[msg.type] : undefined;
    if (entity === undefined) {
      this.#onError(new Error(`StreamManager: a message of no known type (${Object.keys(this.#entities).join(', ')}): ${show(msg)}`));
      return;
    }
    const args = Array.isArray(msg.args) ? msg.args : [];
    this.#controller.set(entity, ...args, msg.data).catch((err) => this.#onError(err));
  }

  /** Stops listening and closes the source. */
  cleanup() {
    const source = this.#source;
    if (this.#listener !== undefined) source?.removeEventListener?.('message', this.#listener);
    this.#listener = undefined;
    if (typeof source?.close === 'function') source.close();
  }
}
