// Endpoint: data-client's generic endpoint, any async function of its
// args with options (docs/js-api.md, Endpoint). It has no URL: its key is
// a function of the args (by default its name and the args' JSON), its
// fetch is the function. An engine registers it as an endpoint whose key
// and fetch are these (endpoints.mjs, registerGeneric); everything else
// (schema, expiry, optimistic updates) is the engine's as for a
// RestEndpoint.

import { show } from './values.mjs';

// NAME holds the name an endpoint was given (the name option or a later
// assignment). It is enumerable, so that extend carries it over with the
// endpoint's other own options.
const NAME = Symbol('datafetch.endpointName');

/**
 * A generic endpoint: new Endpoint(fetchFunction, options). It is a
 * function (calling it calls its fetch); its options become its own
 * properties; subclasses may define fetch, key and options as methods and
 * class fields.
 */
export class Endpoint {
  constructor(fetchFunction, options) {
    if (fetchFunction !== undefined && fetchFunction !== null && typeof fetchFunction !== 'function') {
      throw new TypeError(`Endpoint: the fetch function must be a function, got ${show(fetchFunction)}`);
    }
    if (options !== undefined && options !== null && typeof options !== 'object') {
      throw new TypeError(`Endpoint: options must be an object, got ${show(options)}`);
    }
    const self = (...args) => self.fetch(...args);
    Object.setPrototypeOf(self, new.target.prototype);
    if (fetchFunction) self.fetch = fetchFunction;
    // The name: the fetch function's own unless the options name one; a
    // name assigned later is kept under NAME and read when there is no
    // function name.
    const fnName = !(options && 'name' in options) && fetchFunction?.name && fetchFunction.name !== 'anonymous' ? fetchFunction.name : undefined;
    Object.defineProperty(self, 'name', {
      configurable: true,
      get() {
        const name = fnName ?? this[NAME];
        if (name === undefined && this.key === Endpoint.prototype.key) {
          console.error(
            'Endpoint: no name: an Endpoint of an anonymous function with the default key needs a name option (or a named function), as its keys start with it',
          );
        }
        return name;
      },
      set(v) {
        Object.defineProperty(this, NAME, { value: v, writable: true, enumerable: true, configurable: true });
      },
    });
    if (options) Object.assign(self, options);
    // biome-ignore lint/correctness/noConstructorReturn: the instance is a function, so that endpoints are callable (data-client's form).
    return self;
  }

  /** The store key for args: the name and the args as JSON. */
  key(...args) {
    return `${this.name} ${JSON.stringify(args)}`;
  }

  /** Whether key is a key of this endpoint (it starts with its name). */
  testKey(key) {
    return typeof key === 'string' && key.startsWith(this.name);
  }

  /** An endpoint of no args that fetches and keys with these args. */
  bind(thisArg, ...args) {
    const fetch = this.fetch;
    const key = this.key;
    return this.extend({
      fetch() {
        return fetch.apply(thisArg ?? this, args);
      },
      key() {
        return key.apply(this, args);
      },
    });
  }

  /**
   * A new endpoint of this one's class, with this one's own options and
   * these over them; this one is unchanged. A new fetch names it, unless
   * options name it.
   */
  extend(options) {
    if (!options || typeof options !== 'object') throw new TypeError(`${this.name}: extend: options must be an object, got ${show(options)}`);
    // The base's own options are the new endpoint's defaults: they sit on
    // a prototype between it and the class, so that options and class
    // fields override them.
    const defaults = Object.create(Object.getPrototypeOf(this));
    for (const k of Reflect.ownKeys(this)) {
      const d = Object.getOwnPropertyDescriptor(this, k);
      if (d.enumerable) defaults[k] = d.value;
    }
    // A constructor (not an arrow) whose prototype the new endpoint gets.
    const target = function Extended() {
      // Only its prototype is used: Reflect.construct runs the class's constructor.
    };
    target.prototype = defaults;
    return Reflect.construct(this.constructor, [options.fetch, options], target);
  }
}

// Endpoints are functions: call and apply work on them.
Object.setPrototypeOf(Endpoint.prototype, Function.prototype);
