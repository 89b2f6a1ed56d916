// Entity classes, declared as data-client declares them:
//
//   class Todo extends Entity {
//     id = 0;
//     title = '';
//     static key = 'Todo';
//     static schema = { author: User };
//   }
//
// A class is plain JavaScript: nothing here needs the engine, so classes
// are declared at module top level before load(). What the engine needs of
// a class (its declaration: key, pk, defaults, hooks) is read the first
// time a loaded instance uses it (schemas.mjs registers it then); its
// static schema is read then too, so it may be assigned after the class
// and may name classes that name it back.

import { locked, show } from './values.mjs';

// The error of an entity class with neither a name nor a key (data-client's
// words): its key names its table, and there is nothing to take it from.
const ANONYMOUS_KEY = 'Entity classes without a name must define `static key`\nSee: https://dataclient.io/rest/api/Entity#key';

// ENTITY_CLASS marks a class as an entity class: every class that extends
// Entity or comes from EntityMixin inherits it (statics are inherited).
const ENTITY_CLASS = Symbol.for('datafetch.entityClass');

// DEFAULTS holds a class's own instance of defaults (see defaults below).
const DEFAULTS = Symbol('datafetch.defaults');

/** Reports whether s is an entity class (extends Entity, or EntityMixin's). */
export function isEntityClass(s) {
  return typeof s === 'function' && s[ENTITY_CLASS] === true;
}

// The static members every entity class gets, with data-client's
// defaults. A class overrides any of them; the engine calls back into
// JavaScript only for those overridden (declarationOf).
const statics = {
  /** The primary key of value (a record), from the instance method pk. */
  pk(value, parent, key, args) {
    return this.prototype.pk.call(value, parent, key, args);
  },
  /** false keeps the stored entity and drops incoming data. */
  shouldUpdate(existingMeta, incomingMeta, existing, incoming) {
    return true;
  },
  /** true makes the stored entity's fields win the merge. */
  shouldReorder(existingMeta, incomingMeta, existing, incoming) {
    return incomingMeta.fetchedAt < existingMeta.fetchedAt;
  },
  /**
   * The record stored when incoming data meets a stored record: by
   * default shouldUpdate, shouldReorder and merge decide it.
   */
  mergeWithStore(existingMeta, incomingMeta, existing, incoming) {
    if (!this.shouldUpdate(existingMeta, incomingMeta, existing, incoming)) return existing;
    if (typeof incoming !== typeof existing) return incoming;
    return this.shouldReorder(existingMeta, incomingMeta, existing, incoming) ? this.merge(incoming, existing) : this.merge(existing, incoming);
  },
  /** The meta stored with it: the newer side's, by shouldReorder. */
  mergeMetaWithStore(existingMeta, incomingMeta, existing, incoming) {
    return this.shouldReorder(existingMeta, incomingMeta, existing, incoming) ? existingMeta : incomingMeta;
  },
  /** Combines the stored record with incoming data: a shallow merge. */
  merge(existing, incoming) {
    return { ...existing, ...incoming };
  },
  /** Transforms a raw record before it is stored. */
  process(input, parent, key, args) {
    return { ...input };
  },
  /** Returns a message when a processed record is not valid (status 400). */
  validate(processed) {
    return undefined;
  },
  /** An instance with props set over the defaults. */
  fromJS(props = {}) {
    const instance = new this(props);
    Object.assign(instance, props);
    return instance;
  },
  toString() {
    return this.key;
  },
  toJSON() {
    return { key: this.key, schema: this.schema };
  },
};

// defineEntityStatics gives cls the static members an entity class has,
// keeping those it defines itself.
function defineEntityStatics(cls) {
  for (const [name, fn] of Object.entries(statics)) {
    if (!Object.hasOwn(cls, name)) Object.defineProperty(cls, name, { value: fn, writable: true, configurable: true });
  }
  Object.defineProperty(cls, ENTITY_CLASS, { value: true });
  // A class has its base's schema unless it declares one; none at all is
  // no nested field.
  if (cls.schema === undefined) cls.schema = {};
  Object.defineProperty(cls, 'defaults', {
    configurable: true,
    /** An instance made with no arguments: its fields are the defaults. */
    get() {
      if (!Object.hasOwn(this, DEFAULTS)) Object.defineProperty(this, DEFAULTS, { value: new this(), configurable: true });
      return this[DEFAULTS];
    },
  });
  if (!Object.hasOwn(cls, 'key')) {
    // The class's name, read when asked (a subclass has its own), until a
    // key is assigned.
    Object.defineProperty(cls, 'key', {
      configurable: true,
      enumerable: true,
      get() {
        if (this.name === '') throw new TypeError(ANONYMOUS_KEY);
        return this.name;
      },
      set(value) {
        Object.defineProperty(this, 'key', { value, writable: true, enumerable: true, configurable: true });
      },
    });
  }
}

/**
 * The base class of entity classes: a record type with a primary key,
 * stored once per key however many responses hold it, and read as an
 * instance of its class.
 */
export class Entity {
  static {
    defineEntityStatics(Entity);
  }

  /** The primary key of this record: its id field by default. */
  pk(parent, key, args) {
    return this.id;
  }
}

/**
 * data-client's validateRequired, for a class's static validate: a
 * message naming the first field of requiredDefaults (an object whose
 * keys are the required fields, as a class's defaults) that record does
 * not have as its own, else undefined. A record without one is refused
 * on normalize, and read as INVALID (so a read fetches the full record):
 * `static validate(r) { return validateRequired(r, Article.defaults); }`.
 */
export function validateRequired(record, requiredDefaults) {
  for (const field of Object.keys(requiredDefaults ?? {})) {
    if (record === null || typeof record !== 'object' || !Object.hasOwn(record, field)) return `missing required field ${JSON.stringify(field)}`;
  }
  return undefined;
}

/**
 * Turns any class into an entity class (data-client's EntityMixin):
 * options may set pk (a field name or a function of the record), key,
 * schema and any static member.
 */
export function EntityMixin(Base, options = {}) {
  if (typeof Base !== 'function') throw new TypeError(`EntityMixin: Base must be a class, got ${show(Base)}`);
  if (options === null || typeof options !== 'object') throw new TypeError(`EntityMixin: options must be an object, got ${show(options)}`);
  const { pk, key, schema, ...rest } = options;
  const Mixed = class extends Base {};
  Object.defineProperty(Mixed, 'name', { value: Base.name });
  Object.assign(Mixed, rest);
  if (schema !== undefined) Mixed.schema = schema;
  // options.key, else a static key the base class declares itself.
  const own = key ?? (Object.hasOwn(Base, 'key') && typeof Base.key === 'string' ? Base.key : undefined);
  if (own !== undefined) Object.defineProperty(Mixed, 'key', { value: own, writable: true, enumerable: true, configurable: true });
  defineEntityStatics(Mixed);
  if (typeof pk === 'function') {
    Mixed.prototype.pk = function (parent, k) {
      return pk(this, parent, k);
    };
  } else if (typeof pk === 'string') {
    Mixed.prototype.pk = fieldPK(pk);
  } else if (pk !== undefined) {
    throw new TypeError(`EntityMixin ${Base.name}: pk must be a field name or a function, got ${show(pk)}`);
  } else if (typeof Mixed.prototype.pk !== 'function') {
    Mixed.prototype.pk = Entity.prototype.pk;
  }
  return Mixed;
}

// fieldPKs keeps the pk method made for each field name, so that
// declarationOf recognizes it (no call into JavaScript per record).
const fieldPKs = new Map();
const pkFields = new WeakMap([[Entity.prototype.pk, 'id']]);

function fieldPK(field) {
  let fn = fieldPKs.get(field);
  if (fn === undefined) {
    fn = function () {
      return this[field];
    };
    fieldPKs.set(field, fn);
    pkFields.set(fn, field);
  }
  return fn;
}

// A pk method that returns one field of its record, written as
// data-client's docs write one: pk() { return this.username; }.
const FIELD_PK_SOURCE = /^pk\s*\(\s*\)\s*\{\s*return\s+this\.([A-Za-z_$][\w$]*)\s*;?\s*\}$/;

// pkField returns the field that cls's pk returns as it is, or undefined
// when pk computes something (then the engine calls it for each record).
function pkField(cls) {
  if (cls.pk !== statics.pk) return undefined;
  const method = cls.prototype.pk;
  const known = pkFields.get(method);
  if (known !== undefined) return known;
  const m = FIELD_PK_SOURCE.exec(Function.prototype.toString.call(method));
  return m?.[1];
}

// The hooks a class may override, by the name the engine knows them
// under (jsbridge/schema.go entityNew).
const HOOKS = [
  ['merge', 'merge'],
  ['shouldUpdate', 'useIncoming'],
  ['shouldReorder', 'shouldReorder'],
  ['mergeWithStore', 'mergeWithStore'],
  ['mergeMetaWithStore', 'mergeMetaWithStore'],
];

const declarations = new WeakMap();

/**
 * The declaration of an entity class as the engine takes it, read once
 * per class: {key, pk (a field name, or a function of (record, parent,
 * key, args)), defaults (a plain object), hooks ({engine name: function}),
 * process (undefined, or a function of (record, parent, key, args) that
 * also validates), validate (undefined, or a function of a stored record
 * returning why a read may not use it), maxDepth (undefined, or the class's
 * maxEntityDepth)}; args are the endpoint's args, as data-client passes
 * them. Its schema is not part of it: that is read when the class is
 * registered.
 */
export function declarationOf(cls) {
  let d = declarations.get(cls);
  if (d !== undefined) return d;
  const key = cls.key;
  if (typeof key !== 'string' || key === '') throw new TypeError(`Entity ${cls.name}: static key must be a non-empty string, got ${show(key)}`);
  const where = `Entity ${key}`;
  let instance;
  try {
    instance = cls.defaults;
  } catch (err) {
    throw new TypeError(`${where}: constructing it with no arguments, to read its field defaults, failed: ${err?.message ?? err}`, { cause: err });
  }
  const defaults = {};
  for (const [field, v] of Object.entries(instance)) {
    if (typeof v !== 'function' && typeof v !== 'symbol' && typeof v !== 'bigint') defaults[field] = v;
  }
  const field = pkField(cls);
  const pk = field ?? ((record, parent, k, args) => cls.pk(record, parent, k, args));
  const hooks = { useIncomingName: 'shouldUpdate' };
  for (const [name, engineName] of HOOKS) {
    if (cls[name] !== statics[name]) hooks[engineName] = (...args) => cls[name](...args);
  }
  let process;
  const processes = cls.process !== statics.process;
  const validates = cls.validate !== statics.validate;
  // validate may not call the controller, whether a normalize or a read
  // (under the controller's lock) runs it (values.mjs locked).
  const validate = validates ? locked(`${where}: validate`, (record) => cls.validate(record)) : undefined;
  if (processes || validates) {
    process = (record, parent, k, args) => {
      const out = processes ? cls.process(record, parent, k, args) : record;
      if (validates && out !== undefined) {
        const message = validate(out);
        if (message) {
          // As data-client's: status 400 (the engine names the entity and
          // the place).
          const err = new Error(`validate: ${message}`);
          err.status = 400;
          throw err;
        }
      }
      return out;
    };
  }
  // A stored record validate refuses reads as deleted (data-client's
  // createIfValid): asked once per record read, not per read.
  const maxDepth = cls.maxEntityDepth;
  if (maxDepth !== undefined && !(Number.isInteger(maxDepth) && maxDepth >= 1)) {
    throw new TypeError(`${where}: static maxEntityDepth must be a positive integer, got ${show(maxDepth)}`);
  }
  // static indexes: fields ctrl.get looks a record up by, as by its pk.
  const indexes = cls.indexes;
  if (indexes !== undefined && !(Array.isArray(indexes) && indexes.every((f) => typeof f === 'string' && f !== ''))) {
    throw new TypeError(`${where}: static indexes must be a list of field names, got ${show(indexes)}`);
  }
  d = { key, pk, defaults, hooks, process, validate, maxDepth, indexes, where };
  declarations.set(cls, d);
  return d;
}
