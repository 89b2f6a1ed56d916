// TypeScript types of the datafetch JavaScript API (dist/datafetch.mjs).
//
// The reference is docs/js-api.md (in the package: docs/js-api.md beside
// this file). Names follow data-client (rest-hooks) 6.x: where a React hook exists
// there, the same name here returns a Promise or takes a listener.
//
//   import { load } from 'datafetch';
//   const df = await load();
//   const Article = df.Entity({ key: 'Article', defaults: { id: '', title: '' } });
//   const getArticle = new df.RestEndpoint({ path: '/articles/:id', schema: Article });
//   const article = await df.useSuspense(getArticle, { id: '1' }); // typed { id: string; title: string }
//
// data-client's forms type as data-client types them (docs/js-api.md,
// "Types of data-client's forms"):
//
//   import { Entity, resource } from 'datafetch';
//   class Todo extends Entity { id = 0; title = ''; completed = false; }
//   const TodoResource = resource({ path: '/todos/:id', schema: Todo });
//   const todo = useSuspense(TodoResource.get, { id: 1 }); // a Todo (datafetch/react)
//
// What the types check:
//
// - Records are inferred from `defaults` and `schema`, and shown flat
//   (`{ id: string; title: string }`, see Simplify).
// - Params come from the path template: `'/articles/:id'` requires `id` (a
//   string or number), in every controller method, `url` and `key`. Other
//   params go in the query string and may be anything, unless the endpoint
//   declares them with the types-only `searchParams` option
//   (`searchParams: {} as { page?: number }`); then others are errors.
// - A resource's `create`, `update` and `partialUpdate` bodies name the
//   entity's fields (EntityBody): a misspelled field is an error.
//
// Types from defaults. A default of `undefined`, `null` or `[]` says nothing
// about what the server puts there, so such a field reads as `any` (or
// `any[]`) and mistakes with it compile. Give the default its type with `as`:
//
//   const Article = df.Entity({
//     key: 'Article',
//     defaults: { id: undefined as number | undefined, title: '', tags: [] as string[],
//                 author: null, createdAt: new Date(0) },
//     schema: { author: User, createdAt: Date }, // a field with a schema is typed by it
//   });
//
// or declare the whole record once: `defaults: { id: undefined, title: '',
// tags: [] } as ArticleFields`, with `interface ArticleFields { id: number |
// undefined; title: string; tags: string[] }`.

// ------------------------------------------------------------ Loading

/** What `load` accepts as the WebAssembly module: a URL (or a path, in Node.js), its bytes, a fetch Response, or a compiled module. */
export type LoadSource = string | URL | ArrayBuffer | ArrayBufferView | Response | WebAssembly.Module;

/**
 * Loads datafetch.wasm and returns the API. The default source is the
 * datafetch.wasm beside the module (read from disk in Node.js). Calling it
 * again returns the same instance.
 */
export declare function load(source?: LoadSource): Promise<DataFetch>;

/**
 * Returns the API over a bridge that a Go program registered with
 * jsbridge.Register (globalThis.__datafetchGo); `load` does this for
 * datafetch.wasm. With the instance's exports, reads use its linear memory
 * and exported entries, and unchanged re-reads do not call into Go. With
 * go too, the wasm_exec.js `Go` instance running the module, a request's
 * completion wakes Go through the exports rather than a js.FuncOf call.
 */
export declare function attach(bridge: object, wasmExports?: WebAssembly.Exports, go?: { _resume(): void }): DataFetch;

/** The API object `load` resolves to. */
export interface DataFetch {
  /** The library version. */
  readonly version: string;

  // Schemas
  /** Declares an entity: a record normalized by its primary key. */
  Entity: EntityFactory;
  /** The schema classes. */
  readonly schema: SchemaClasses;
  /**
   * Normalizes `data` by `schema` (for tests and tools), as data-client's
   * normalize: `args` are the endpoint's args (Collections, and entities'
   * pk and process get them); the records merge into `store`'s tables by
   * their entity's merge rules (a record kept as it was is the same object);
   * `meta` is theirs (default `{date: Date.now(), fetchedAt: 0, expiresAt: Infinity}`).
   */
  normalize<S extends Schema>(
    schema: S,
    data: unknown,
    args?: readonly unknown[],
    store?: { entities?: EntityTables | ImmutableLike; entitiesMeta?: EntitiesMeta; indexes?: Record<string, unknown> | ImmutableLike },
    meta?: Partial<EntityMeta>,
  ): NormalizedData;
  /**
   * Reads a normalized `result` back (for tests and tools); `INVALID` when
   * a required entity is deleted (the entity itself, or one an entity's
   * truthy-default field or an object schema's member holds).
   */
  denormalize<S extends Schema>(schema: S, result: unknown, entities: EntityTables | ImmutableLike): Denormalize<S> | undefined | typeof INVALID;
  /** `MemoCache` (the module's export): denormalize with identity across calls. */
  readonly MemoCache: MemoCacheConstructor;
  /** What `denormalize` returns for data that requires a deleted entity. */
  readonly INVALID: typeof INVALID;

  // Endpoints
  RestEndpoint: RestEndpointConstructor;
  /** data-client's generic endpoint of any async function. */
  Endpoint: EndpointConstructor;
  /** The six built-in endpoints of a REST resource. */
  resource: ResourceFactory;
  /** Alias of `resource`. */
  createResource: ResourceFactory;

  // Controller
  Controller: ControllerConstructor;
  /** getResponse's `expiryStatus` values, named. */
  ExpiryStatus: ExpiryStatusNames;
  /** The default controller, shared by the page. */
  useController(): Controller;
  /** `useSuspense` of the default controller. */
  useSuspense: Controller['useSuspense'];

  // Other operations
  useLoading: UseLoading;
  /** Restores `ctrl`'s snapshot from a storage, then keeps writing it there after changes. */
  persist(ctrl: Controller, options?: PersistOptions): Promise<Persisted>;
  /** A storage over an IndexedDB database (default `'datafetch'`): persist's default in browsers. */
  indexedDBStorage(dbName?: string): PersistStorage;
  /** Syncs `ctrl` with the controllers on a BroadcastChannel (other tabs, workers); returns the function that stops it. */
  syncTabs(ctrl: Controller, options?: SyncTabsOptions): () => void;
  /** Legacy (6.0) resource class form: an entity with endpoint factories. */
  Resource: LegacyResourceFactory;
  /** Legacy name of `useSuspense` (default controller). */
  useResource: Controller['useSuspense'];

  // Errors
  NetworkError: NetworkErrorConstructor;
  AbortOptimistic: AbortOptimisticConstructor;

  // Managers
  /** The types of the actions managers see, as data-client names them. */
  actionTypes: ActionTypes;
  /** The managers every controller should have: none (datafetch's own policies run in its engine). */
  getDefaultManagers(): Manager[];
  /** A manager that writes messages pushed by a server into the cache (see the class). */
  StreamManager: StreamManagerConstructor;

  // Cache lifecycle
  /**
   * Renders a live view of `ctrl` (entities by type, results with their
   * expiry status and time left, the optimistic queue, requests in flight,
   * the last errors) into `element`, or into a floating, collapsed panel
   * added to `document.body`. Read-only. Returns a function that removes
   * the view and stops watching.
   */
  inspect(ctrl: Controller, element?: Element | null): () => void;
}

// ------------------------------------------------------------ Schemas

/**
 * `T` as one flat object type, so that editors show its fields (`{ id: number;
 * title: string }`) rather than the name of the type that computed it. Records
 * and params are given in this form.
 */
export type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** A primary key as a pk function returns it; keys compare as strings. */
export type PK = string | number;

/** `{date, fetchedAt, expiresAt}` of a stored entity, in epoch milliseconds. */
export interface EntityMeta {
  date: number;
  fetchedAt: number;
  expiresAt: number;
}

// Phantom members: they exist only in the types, to carry what a schema
// reads as and to tell schema kinds apart. Not exported.
declare const entityData: unique symbol;
declare const schemaKind: unique symbol;
declare const endpointTypes: unique symbol;

/**
 * An entity schema, as `df.Entity` returns it. `T` is what a record reads
 * as (dates as `Date`, nested entities as objects).
 */
export interface Entity<T = any> {
  /** The entity's key, as given in the options (the table name in the store). */
  readonly key: string;
  /** The primary key of a raw record, as a string; undefined when it has none. */
  pk(value: any, parent?: any, key?: string): string | undefined;
  readonly [entityData]: T;
}

/** A record of an entity class (`class Todo extends Entity`): reads are instances of the class. */
export interface EntityInstance {
  /** The record's primary key: its `id` unless the class overrides it. */
  pk(parent?: unknown, key?: string, args?: readonly unknown[]): PK | undefined;
}

/** The statics every entity class has (data-client's), which a class may override. */
export interface EntityStatics {
  /** The table's name: the class's name unless set. */
  key: string;
  /** Field schemas, read when the class is first used. */
  schema: { readonly [field: string]: Schema | DateConstructor | FieldConversion };
  /** The primary key of a record, from the instance method `pk`. */
  pk(value: any, parent?: unknown, key?: string, args?: readonly unknown[]): PK | undefined;
  /** Transforms a raw record before it is stored. */
  process(input: any, parent: any, key: string | undefined, args: readonly unknown[]): any;
  /** Merges a stored record with an incoming one. Default: shallow, incoming wins. */
  merge(existing: any, incoming: any): any;
  /** Return false to keep the stored entity and drop incoming data. */
  shouldUpdate(existingMeta: EntityMeta, incomingMeta: EntityMeta, existing: any, incoming: any): boolean;
  /** Return true to let the stored fields win the merge. */
  shouldReorder(existingMeta: EntityMeta, incomingMeta: EntityMeta, existing: any, incoming: any): boolean;
  /**
   * A message when a record is not valid: a processed record refused is
   * normalize's Error (status 400); a stored record refused on a read
   * reads as `INVALID` (as deleted: what requires it is `INVALID` too).
   */
  validate(processed: any): string | undefined;
  /**
   * How many entities deep a read resolves this entity's nested entities
   * (data-client's `maxEntityDepth`); deeper, they stay primary keys and
   * the read reports it once with `console.error`. Default and most: 128.
   */
  maxEntityDepth?: number;
  /** Fields that tell records apart as the pk does: `ctrl.get(User, {username: 'bob'})` reads the record whose `username` is `'bob'` (data-client's `indexes`). */
  indexes?: readonly string[];
  /** The record stored when incoming data meets a stored one (overridden, it decides alone). */
  mergeWithStore(existingMeta: EntityMeta, incomingMeta: EntityMeta, existing: any, incoming: any): any;
  /** The meta stored with it. */
  mergeMetaWithStore(existingMeta: EntityMeta, incomingMeta: EntityMeta, existing: any, incoming: any): EntityMeta;
  /** An instance made with no arguments: its fields are the defaults. */
  readonly defaults: EntityInstance;
  /** An instance with `props` set over the defaults. */
  fromJS<T extends abstract new (...args: any[]) => EntityInstance>(this: T, props?: Partial<InstanceType<T>>): InstanceType<T>;
}

/** An entity class: its instances are the records reads give. */
export type EntityClass<I extends EntityInstance = EntityInstance> = (abstract new (...args: any[]) => I) & EntityStatics;

/** Either form of entity: `df.Entity(options)`'s, or a class. */
export type AnyEntity = Entity | EntityClass;

/**
 * The base class of entity classes (data-client's `Entity`), usable at
 * module top level before `load()`:
 * `class Todo extends Entity { id = 0; title = ''; static key = 'Todo' }`.
 */
export declare const Entity: EntityStatics & {
  new (): EntityInstance;
  readonly prototype: EntityInstance;
};

/** Options of `EntityMixin`: `pk` a field name or a function of the record, and any static. */
export interface EntityMixinOptions<I> extends Partial<Omit<EntityStatics, 'pk' | 'defaults' | 'fromJS'>> {
  pk?: (keyof I & string) | ((record: I, parent?: unknown, key?: string) => PK | undefined);
}

/** Turns any class into an entity class (data-client's `EntityMixin`). */
export declare function EntityMixin<B extends abstract new (...args: any[]) => object>(
  Base: B,
  options?: EntityMixinOptions<InstanceType<B>>,
): Omit<B, 'prototype'> & EntityStatics & (new (...args: ConstructorParameters<B>) => InstanceType<B> & EntityInstance);

/** `schema.Array(S)`: a list of S. */
export interface ArraySchema<S = Schema> {
  readonly [schemaKind]: { array: S };
}
/** `schema.Object({...})`: an object with schema members and defaults. */
export interface ObjectSchema<M = SchemaObjectDefinition> {
  readonly [schemaKind]: { object: M };
}
/** `schema.Values(S)`: a string-keyed map of S. */
export interface ValuesSchema<S = Schema> {
  readonly [schemaKind]: { values: S };
}
/** `schema.Union({...}, attribute)`: one of several entities (or other schemas, as `schema.Object` for values that are not entities). */
export interface UnionSchema<M = { readonly [type: string]: Schema }> {
  readonly [schemaKind]: { union: M };
}
/** `schema.Invalidate(Entity)` (or of a union of entities): marks the entity deleted. */
export interface InvalidateSchema<E = AnyEntity> {
  readonly [schemaKind]: { invalidate: E };
  /** data-client's queryKey: always undefined (an Invalidate is not read from the cache by args). */
  queryKey(args?: readonly unknown[], unvisit?: unknown, delegate?: unknown): undefined;
}

/** `schema.All(Entity)`: every stored entity of that type (not deleted), as a list; of a union, of each of its entities. */
export interface AllSchema<E = AnyEntity> {
  readonly [schemaKind]: { all: E };
}
/** Options of `Scalar`. */
export interface ScalarOptions {
  /**
   * Selects the lens (a portfolio, a currency, a locale) from the
   * endpoint's args; undefined: none (a read's fields are then undefined,
   * a response is refused). It is part of the cells' keys: no `|` in it.
   */
  lens: (args: readonly any[]) => string | undefined;
  /** Names the cells' table, `Scalar(key)`. */
  key: string;
  /** The entity standalone cells belong to (in `schema.Values`, `[Scalar]`, a Collection); an `Entity.schema` field's is its entity. */
  entity?: AnyEntity;
}
/** The delegate of `Scalar.denormalize`, as data-client's schemas get it. */
export interface ScalarDenormalizeDelegate {
  unvisit(schema: any, input: any): any;
  argsKey(fn: (args: readonly any[]) => string | undefined): string | undefined;
}
/**
 * `new Scalar({lens, key, entity?})`: entity fields whose values depend on
 * a lens of the endpoint's args, stored in cells of the table `Scalar(key)`
 * (one per record and lens: `entityKey|pk|lens`). Standalone it reads as a
 * cell. Its methods are data-client's, for code that calls them.
 */
export interface ScalarSchema {
  readonly [schemaKind]: { scalar: true };
  /** `Scalar(key)`: the cells' table. */
  readonly key: string;
  readonly lensSelector: (args: readonly any[]) => string | undefined;
  readonly entity: AnyEntity | undefined;
  readonly entityKey: string | undefined;
  /** The pk of the record a standalone cell belongs to: the map key holding it, else the bound entity's pk of it. A subclass may override it. */
  entityPk(input: any, parent: any, key: string | undefined, args: readonly any[]): PK | undefined;
  createIfValid(props: object): object;
  merge(existing: any, incoming: any): any;
  shouldReorder(existingMeta: EntityMeta, incomingMeta: EntityMeta, existing: any, incoming: any): boolean;
  mergeWithStore(existingMeta: EntityMeta, incomingMeta: EntityMeta, existing: any, incoming: any): any;
  mergeMetaWithStore(existingMeta: EntityMeta, incomingMeta: EntityMeta, existing: any, incoming: any): EntityMeta;
  denormalize(input: unknown, delegate: ScalarDenormalizeDelegate): unknown;
  /** The keys of the stored cells of the lens `args` select; undefined when there is none. */
  queryKey(
    args: readonly any[],
    unvisit: unknown,
    delegate: { getEntities(key: string): { entries(): Iterable<[string, any]> } | undefined },
  ): string[] | undefined;
}
/**
 * `schema.Lazy(S)` (data-client's `Lazy`): a relationship field normalized
 * by `S` (its entities are stored) that reads as its normalized form, the
 * pks (`Normalized<S>`): the entity holding it does not resolve them and
 * keeps its identity when they change. `query` reads the relationship.
 */
export interface LazySchema<S = Schema> {
  readonly [schemaKind]: { lazy: S };
  readonly schema: S;
  /** The schema that `useQuery`, `ctrl.get` and `MemoCache.query` read the relationship by; the same object each time. */
  readonly query: LazyQuery<S>;
  /** data-client's queryKey: always undefined (a Lazy is not read by args; its `query` is). */
  queryKey(args?: readonly unknown[], unvisit?: unknown, delegate?: unknown): undefined;
}
/**
 * A Lazy's `query` (data-client's `LazyQuery`): reads `S` with the args an
 * Entity (its params) or a Collection takes, else with the normalized form
 * the Lazy field holds (`ctrl.get(Dept.schema.buildings.query, dept.buildings)`).
 */
export interface LazyQuery<S = Schema> {
  readonly [schemaKind]: { lazyQuery: S };
  readonly schema: S;
  /** data-client's queryKey: what the read starts from (`walk(schema, args)` reads another schema's). */
  queryKey(args: readonly unknown[], walk: (schema: Schema, args: readonly unknown[]) => unknown): unknown;
}
/** The args a Lazy's query takes: an Entity's params, a Collection's args, else the Lazy field's value. */
export type LazyQueryArgs<S> = S extends AnyEntity
  ? [params: { readonly [param: string]: unknown }]
  : S extends CollectionSchema<any>
    ? unknown[]
    : [normalized: Normalized<S>];
/** The normalized form of data of `S`, as a Lazy field holds it: an entity (or a Collection) as its pk, lists and maps of those. */
export type Normalized<S> = S extends AnyEntity | CollectionSchema<any>
  ? string
  : S extends ArraySchema<infer E>
    ? Normalized<E>[]
    : S extends ValuesSchema<infer E>
      ? { [key: string]: Normalized<E> }
      : S extends UnionSchema<any>
        ? { id: string; schema: string }
        : S extends readonly (infer E)[]
          ? Normalized<E>[]
          : unknown;

/** A schema that `ctrl.get` and `schema.Query` read from the cache: an Entity (by pk params), `schema.All`, `schema.Collection`, a `schema.Union` of entities (by the member its params name), or an object of them. */
export type QueryableSchema =
  | AnyEntity
  | AllSchema<any>
  | CollectionSchema<any>
  | UnionSchema<any>
  | LazyQuery<any>
  | ObjectSchema<any>
  | SchemaObjectDefinition;
/** `schema.Query(schema, process)`: data derived from the read of a queryable schema. */
export interface QuerySchema<S extends QueryableSchema = QueryableSchema, R = unknown, A extends any[] = any[]> {
  readonly [schemaKind]: { query: S };
  readonly schema: S;
  readonly process: (entries: Denormalize<S>, ...args: A) => R;
}
/**
 * The args a read of a Query takes: its process's, or any when process
 * declares none (a Query over a Collection is read with the collection's
 * args, as `useQuery(remaining, { userId })`).
 */
export type QueryArgs<A extends any[]> = A extends [] ? unknown[] : A;

/** `schema.Collection([E] | schema.Values(E), options)`: a list or map stored per its args. */
export interface CollectionSchema<S = Schema> {
  readonly [schemaKind]: { collection: S };
  /** The collections' table in the store: the `key` option, else `[Entity]` (`{Entity}` of a `schema.Values`, `[A;B]` of a union), as data-client's. */
  readonly key: string;
  /** The pk of the collection `args` select (or `nestKey(parent, key)` when `parentEntity`), as the store names it. */
  pk(value: unknown, parent: unknown, key: string, args: readonly unknown[], parentEntity?: unknown): string;
  /** The adders, as schemas (`df.normalize(c.push, data, args, store)`, an endpoint's schema): they change the collections whose args match. */
  readonly push: CollectionOpSchema<S>;
  readonly unshift: CollectionOpSchema<S>;
  readonly remove: CollectionOpSchema<S>;
  readonly assign: CollectionOpSchema<S>;
  readonly move: CollectionOpSchema<S>;
  /**
   * A move whose join of a collection is `merge(existing, incoming)` (lists
   * of pks, or Values maps of them) instead of an append: `moveWith(unshift)`
   * joins at the start. A subclass may set `this.move = this.moveWith(merge)`.
   */
  moveWith(merge: (existing: any, incoming: any) => any): CollectionOpSchema<S>;
}
/** One of a Collection's adders (`collection.push` and the rest). */
export interface CollectionOpSchema<S = Schema> {
  readonly [schemaKind]: { collectionOp: S };
  readonly collection: CollectionSchema<S>;
}
/** Options of `schema.Collection`. */
export interface CollectionOptions {
  /** The collection's args from the request's params and body. Default: the params (without `paginationField`). */
  argsKey?(params: any, body: any): Record<string, unknown>;
  /** The args of a collection nested in an entity's field, from that entity. */
  nestKey?(parent: any, key: string): Record<string, unknown>;
  /** The collections' table in `getState()`. Default `[Entity]` (`{Entity}` of a `schema.Values`, `[A;B]` of a union). */
  key?: string;
  /**
   * The args keys that do not decide which stored collections a push,
   * remove or move changes (a sort order, a cursor): a test of the key, a
   * RegExp or the keys. Default: keys starting with `order` or `sort`.
   */
  nonFilterArgumentKeys?: ((key: string) => boolean) | RegExp | readonly string[];
  /**
   * Decides alone which stored collections a push, remove or move
   * changes: given the request's args (`[params]` or `[params, body]`;
   * a move's values over them), a test of a stored collection's args
   * (values as strings). `nonFilterArgumentKeys` is not used then. A
   * subclass may define it as a method instead.
   */
  createCollectionFilter?(...args: any[]): (collectionKey: Record<string, string>) => boolean;
}

/** A default value of a non-schema member of an object schema. */
export type SchemaDefault = string | number | boolean | null | undefined | readonly [];

/** `{a: S, b: 'x'}`: members that are schemas, and defaults for the rest. */
export interface SchemaObjectDefinition {
  readonly [member: string]: Schema | DateConstructor | FieldConversion | SchemaDefault;
}

/** What a custom schema's `normalize` gets (data-client's INormalizeDelegate, in part). */
export interface SchemaNormalizeDelegate {
  /** Normalizes `value`, the member `key` of `parent`, by `schema`: returns its normalized form, storing the records it holds. */
  visit(schema: any, value: any, parent: any, key: any): any;
  /** The endpoint's args. */
  readonly args: readonly any[];
  /** Stores `record` (already normalized) as the record `pk` of the Entity `schema`, merged with what is stored. */
  mergeEntity(schema: AnyEntity, pk: PK, record: object): void;
  /** As mergeEntity (datafetch merges: it does not overwrite). */
  setEntity(schema: AnyEntity, pk: PK, record: object): void;
  /** Marks the record `pk` of `schema` deleted, as schema.Invalidate does. */
  invalidate(schema: AnyEntity, pk: PK): void;
  /** Always false: datafetch finds cycles itself. */
  checkLoop(key: string, pk: string, input: object): boolean;
}

/** What a custom schema's `denormalize` gets (data-client's IDenormalizeDelegate). */
export interface SchemaDenormalizeDelegate {
  /** Reads the normalized `input` by `schema`; a record not stored reads as undefined. */
  unvisit(schema: any, input: any): any;
  /** The read's args. */
  readonly args: readonly any[];
  /** Returns `fn(args)`. */
  argsKey(fn: (args: readonly any[]) => string | undefined): string | undefined;
}

/**
 * A custom schema (data-client's SchemaSimple): any object with its own
 * `normalize` and `denormalize`, usable wherever a schema is taken. The
 * engine calls them, with delegates to normalize (`visit`), store
 * (`mergeEntity`) and read (`unvisit`) what they nest. Its reads are plain
 * data: entities read through `unvisit` are plain objects.
 */
export interface SchemaClass<T = any> {
  normalize(input: any, parent: any, key: any, delegate: SchemaNormalizeDelegate): any;
  denormalize(input: any, delegate: SchemaDenormalizeDelegate): T;
}

/** Anything usable where a schema is taken. `[S]` is a list of S. */
export type Schema =
  | Entity
  | EntityClass
  | SchemaClass
  | ArraySchema<any>
  | ObjectSchema<any>
  | ValuesSchema<any>
  | UnionSchema<any>
  | InvalidateSchema<any>
  | AllSchema<any>
  | CollectionSchema<any>
  | CollectionOpSchema<any>
  | ScalarSchema
  | LazySchema<any>
  | readonly [Schema]
  | readonly Schema[]
  | SchemaObjectDefinition;

/** The field schemas of an entity: nested schemas, or `Date` for a date field. */
export interface EntityFieldSchemas {
  readonly [field: string]: Schema | DateConstructor | FieldConversion;
}

/**
 * A field schema that converts the field's value when it is read (as
 * data-client takes one): a class with a static `fromJSON` (`Money`), another
 * class (`new Tag(value)`), or a function (`Number`,
 * `Temporal.Instant.from`). It reads as what that returns.
 */
export type FieldConversion = ((value: any) => unknown) | (abstract new (value: any) => unknown) | { fromJSON(value: any): unknown };

/** What data of schema `S` reads as. */
export type Denormalize<S> = S extends DateConstructor
  ? Date
  : S extends (abstract new (
        ...args: any[]
      ) => infer I extends EntityInstance)
    ? I
    : S extends Entity<infer T>
      ? T
      : S extends { fromJSON(value: any): infer R }
        ? R
        : S extends (value: any) => infer R
          ? R
          : S extends abstract new (
                value: any,
              ) => infer I
            ? I
            : S extends AllSchema<infer E>
              ? Denormalize<E>[]
              : S extends LazySchema<infer E>
                ? Normalized<E>
                : S extends LazyQuery<infer E>
                  ? Denormalize<E>
                  : S extends ScalarSchema
                    ? { [field: string]: any }
                    : S extends InvalidateSchema<infer E>
                      ? Denormalize<E> | undefined
                      : S extends CollectionSchema<infer E>
                        ? Denormalize<E>
                        : S extends ArraySchema<infer E>
                          ? Denormalize<E>[]
                          : S extends ValuesSchema<infer E>
                            ? { [key: string]: Denormalize<E> }
                            : S extends UnionSchema<infer M>
                              ? { [K in keyof M]: Denormalize<M[K]> }[keyof M]
                              : S extends ObjectSchema<infer M>
                                ? DenormalizeObject<M>
                                : S extends SchemaClass<infer T>
                                  ? T
                                  : S extends readonly []
                                    ? unknown[]
                                    : S extends readonly (infer E)[]
                                      ? Denormalize<E>[]
                                      : S extends string
                                        ? string | null
                                        : S extends number
                                          ? number | null
                                          : S extends boolean
                                            ? boolean | null
                                            : S extends null | undefined
                                              ? any
                                              : S extends object
                                                ? DenormalizeObject<S>
                                                : S;

/** An object schema's read form: each member read by its schema (a default gives its type, or null when the server sends null). */
export type DenormalizeObject<M> = Simplify<{ -readonly [K in keyof M]: Denormalize<M[K]> }>;

/** A field's type from its default: a default of undefined or null says nothing, so it is `any`; `[]` is `any[]`. */
export type FieldFromDefault<T> = [T] extends [null | undefined] ? any : [T] extends [readonly never[]] ? any[] : T;

/** A field with a schema: a `Date`, a nested entity (undefined while that entity is missing), a list... */
export type FieldFromSchema<S, Default> = S extends DateConstructor
  ? Date | Extract<Default, null | undefined>
  : S extends Entity<infer T>
    ? T | Extract<Default, null> | undefined
    : Denormalize<S>;

/** What an entity declared with `defaults: D` and `schema: S` reads as. */
export type EntityRecord<D, S = {}> = {
  // Mapped over D's own keys, so fields keep the order (and an optional
  // member of a declared defaults type its `?`) of `defaults`.
  -readonly [K in keyof D]: K extends keyof S ? FieldFromSchema<S[K], D[K]> : FieldFromDefault<D[K]>;
} & {
  -readonly [K in Exclude<keyof S, keyof D>]: FieldFromSchema<S[K], undefined>;
};

/** Options of `df.Entity`. `D` is the type of `defaults`, `S` of `schema`. */
export interface EntityOptions<D extends object, S extends EntityFieldSchemas = {}> {
  /** The entity's name: its table in the store, and the name errors give. */
  key: string;
  /**
   * The primary key: the name of the field holding it (default `'id'`), or
   * a function of the raw record returning it. A constant makes a singleton.
   */
  pk?: (keyof D & string) | ((value: any, parent: any, key: string | undefined) => PK | undefined | null);
  /** A default for every field; required. */
  defaults: D;
  /** Nested schemas of fields; `Date` marks a date field. */
  schema?: S;
  /** Return false to discard incoming data and keep the stored entity. Default: always true. */
  useIncoming?(existingMeta: EntityMeta, incomingMeta: EntityMeta, existing: Simplify<EntityRecord<D, S>>, incoming: Simplify<EntityRecord<D, S>>): boolean;
  /** Alias of `useIncoming`. */
  shouldUpdate?(existingMeta: EntityMeta, incomingMeta: EntityMeta, existing: Simplify<EntityRecord<D, S>>, incoming: Simplify<EntityRecord<D, S>>): boolean;
  /** Return true to let existing fields win in the merge. Default: `incomingMeta.fetchedAt < existingMeta.fetchedAt`. */
  shouldReorder?(existingMeta: EntityMeta, incomingMeta: EntityMeta, existing: Simplify<EntityRecord<D, S>>, incoming: Simplify<EntityRecord<D, S>>): boolean;
  /** Merges a stored record with an incoming one. Default: shallow, incoming wins. */
  merge?(existing: any, incoming: any): any;
  /** Transforms a raw record before it is stored. */
  process?(input: any, parent: any, key: string | undefined): any;
}

/** `df.Entity(options)`. */
export interface EntityFactory {
  <D extends object, S extends EntityFieldSchemas = {}>(options: EntityOptions<D, S>): Entity<Simplify<EntityRecord<D, S>>>;
}

/** How a union chooses its member: the field naming it, or a function returning that name. */
export type SchemaAttribute = string | ((value: any, parent: any, key: string | undefined) => string);

/** `df.schema`: the schema classes. */
export interface SchemaClasses {
  /** Given `schemaAttribute`, a list of the union of `schemas` by it (data-client's polymorphic form). */
  Array: {
    new <S extends Schema>(schema: S): ArraySchema<S>;
    new <M extends { readonly [type: string]: AnyEntity }>(
      schemas: M,
      schemaAttribute: string | ((value: any, parent: any, key: string | undefined) => string),
    ): ArraySchema<UnionSchema<M>>;
  };
  Object: new <M extends SchemaObjectDefinition>(definition: M) => ObjectSchema<M>;
  /** Given `schemaAttribute`, a map of the union of `schemas` by it (data-client's polymorphic form). */
  Values: {
    new <S extends Schema>(schema: S): ValuesSchema<S>;
    new <M extends { readonly [type: string]: AnyEntity }>(
      schemas: M,
      schemaAttribute: string | ((value: any, parent: any, key: string | undefined) => string),
    ): ValuesSchema<UnionSchema<M>>;
  };
  /** `schemaAttribute`: the field naming the member of `schemas`, or a function returning that name. */
  Union: new <M extends { readonly [type: string]: Schema }>(
    schemas: M,
    schemaAttribute: SchemaAttribute,
  ) => UnionSchema<M>;
  /** Of an entity, or of a union of entities (a `schema.Union`, or its schemas and `schemaAttribute`). */
  Invalidate: {
    new <E extends AnyEntity>(entity: E): InvalidateSchema<E>;
    new <M extends { readonly [type: string]: AnyEntity }>(union: UnionSchema<M>): InvalidateSchema<M[keyof M]>;
    new <M extends { readonly [type: string]: AnyEntity }>(schemas: M, schemaAttribute: SchemaAttribute): InvalidateSchema<M[keyof M]>;
  };
  /** Of an entity, or of a union of entities: each entity's table in turn, in the union's member order. */
  All: {
    new <E extends AnyEntity>(entity: E): AllSchema<E>;
    new <M extends { readonly [type: string]: AnyEntity }>(union: UnionSchema<M>): AllSchema<M[keyof M]>;
    new <M extends { readonly [type: string]: AnyEntity }>(schemas: M, schemaAttribute: SchemaAttribute): AllSchema<M[keyof M]>;
  };
  /** `process(entries, ...args)` derives the value; it is called again only when `entries` or the args change. */
  Query: new <S extends QueryableSchema, R, A extends any[] = []>(
    schema: S,
    process: (entries: Denormalize<S>, ...args: A) => R,
  ) => QuerySchema<S, R, A>;
  Collection: new <S extends readonly [Schema] | ArraySchema<any> | ValuesSchema<any>>(schema: S, options?: CollectionOptions) => CollectionSchema<S>;
  Scalar: new (options: ScalarOptions) => ScalarSchema;
  /** A relationship read as its pks; `new Lazy([Building]).query` reads the buildings. */
  Lazy: new <S extends Schema>(
    schema: S,
  ) => LazySchema<S>;
}

/** Normalized entity records: `entities[entityKey][pk]`; a Symbol (data-client's `INVALID`) is a deleted record. */
export interface EntityTables {
  [entityKey: string]: { [pk: string]: any };
}

/**
 * An ImmutableJS collection as input state takes one (a Map of tables, a
 * nested Map of indexes): read with `toJS` and `getIn`; immutable is not a
 * dependency of this package.
 */
export interface ImmutableLike {
  toJS(): unknown;
  getIn(path: readonly unknown[]): unknown;
}

/** The state `MemoCache.query` and `buildQueryKey` read: data-client's store state, plain or ImmutableJS. */
export interface MemoState {
  entities: EntityTables | ImmutableLike;
  indexes?: Record<string, Record<string, Record<string, string>>> | ImmutableLike;
}

/** An entity a read holds: its key and pk (`MemoCache`'s `paths`). */
export interface EntityPath {
  key: string;
  pk: string;
}

/** What `MemoCache.denormalize` and `query` return. */
export interface MemoResult<T> {
  data: T;
  /** The entities the data holds. */
  paths: EntityPath[];
}

/**
 * data-client's MemoCache: denormalize and query with identity across
 * calls. The same input and entities give the very same result; after one
 * record changes (a new object in its table), only the objects that hold
 * it are new.
 */
export interface MemoCache {
  denormalize<S extends Schema>(
    schema: S | undefined,
    input: unknown,
    entities: EntityTables | ImmutableLike,
    args?: readonly unknown[],
  ): MemoResult<Denormalize<S> | undefined | typeof INVALID>;
  /** The data of `schema` read with `args` from `state`; `undefined` data when the state does not hold it. */
  query<S extends Schema | LazyQuery<any>>(
    schema: S,
    args: readonly unknown[],
    state: MemoState,
    argsKey?: string,
  ): MemoResult<Denormalize<S> | undefined | typeof INVALID>;
  /** The normalized form (pks) of what `schema` read with `args` finds in `state`. */
  buildQueryKey(schema: Schema, args: readonly unknown[], state: MemoState, argsKey?: string): any;
}

export interface MemoCacheConstructor {
  /** `policy` is data-client's (plain or ImmutableJS state); both are read, so it is not needed. */
  new (policy?: unknown): MemoCache;
}

/** What `df.normalize` returns. */
export interface NormalizedData {
  /** The data with each entity replaced by its pk. */
  result: any;
  entities: EntityTables;
  /** When each record was produced, by key and pk. */
  entitiesMeta: EntitiesMeta;
  /** data-client's indexes: the store's, as given. */
  indexes: Record<string, unknown>;
}

/** Metas by entity key and pk. */
export type EntitiesMeta = Record<string, Record<string, EntityMeta>>;

// ------------------------------------------------------------ Endpoints

/** A param value: path tokens and query-string members. Arrays repeat their key in the query. */
export type ParamValue = string | number | boolean | null | undefined | readonly (string | number | boolean | null | undefined)[];

/** A params object: path tokens by name, every other member goes in the query string. */
export interface Params {
  readonly [name: string]: ParamValue;
}

// Path templates (core/rest/url.go), in data-client's syntax
// (path-to-regexp 8): ':name' fills one segment and '*name' an array of
// them (a name is a letter or '_', then letters, digits and '_'); '{...}' is
// an optional group; '\\' makes the next character literal. In a full URL
// (scheme://host...) only what follows the host is searched, so a port or
// a password is no token.
/** The characters of S, as a union. */
type Chars<S extends string> = S extends `${infer C}${infer Rest}` ? C | Chars<Rest> : never;
type Letter = Chars<'abcdefghijklmnopqrstuvwxyz'> | Uppercase<Chars<'abcdefghijklmnopqrstuvwxyz'>>;
type Digit = Chars<'0123456789'>;
type TokenStart = Letter | '_';
type TokenChar = TokenStart | Digit;
/** Whether S continues a URL scheme: letters, digits, '+', '-' and '.'. */
type SchemeRest<S extends string> = S extends `${infer C}${infer Rest}` ? (C extends Letter | Digit | '+' | '-' | '.' ? SchemeRest<Rest> : false) : true;
/** Whether S is a URL scheme (as `https`, or `http\\` with its colon escaped): a letter, then SchemeRest. */
type IsScheme<S extends string> = S extends `${infer Head}\\` ? IsScheme<Head> : S extends `${Letter}${infer Rest}` ? SchemeRest<Rest> : false;
/** The token name at the start of S: its leading token characters. */
type TokenName<S extends string, Name extends string = ''> = S extends `${infer C}${infer Rest}`
  ? C extends TokenChar
    ? TokenName<Rest, `${Name}${C}`>
    : Name
  : Name;
/** The tokens of S that Sigil (':' or '*') starts: the name after each Sigil that a letter or '_' follows. */
type TemplateTokens<S extends string, Sigil extends string = ':'> = S extends `${string}${Sigil}${infer Rest}`
  ? Rest extends `${TokenStart}${string}`
    ? TokenName<Rest> | TemplateTokens<Rest, Sigil>
    : TemplateTokens<Rest, Sigil>
  : never;
/** The part of a path that holds tokens: all of it, or what follows a full URL's host. */
type TokenPart<Path extends string> = Path extends `${infer Scheme}://${infer Rest}`
  ? IsScheme<Scheme> extends true
    ? Rest extends `${string}/${infer After}`
      ? `/${After}`
      : ''
    : Path
  : Path;
/** S without its optional groups. */
type OutsideGroups<S extends string> = S extends `${infer Head}{${string}}${infer Tail}` ? `${Head}${OutsideGroups<Tail>}` : S;
/** The text of S's optional groups. */
type InGroups<S extends string> = S extends `${string}{${infer Inner}}${infer Tail}` ? `${Inner}/${InGroups<Tail>}` : '';

/**
 * The names of the tokens of a path template (':name' and '*name', in
 * optional groups too): `'/users/:userId/posts/:id'` gives `'userId' |
 * 'id'`, a path without tokens `never`, a path whose text is not known
 * (`string`) `string`.
 */
export type PathTokens<Path extends string> = string extends Path ? string : TemplateTokens<TokenPart<Path>, ':' | '*'>;

/** The value of a path token (URL-encoded into the path). */
export type PathValue = string | number;

/**
 * The path tokens of a template as params: ':name' a value, '*name' an
 * array of segments; required, or optional in a '{...}' group.
 */
export type PathArgs<Path extends string> = Simplify<
  { [K in TemplateTokens<OutsideGroups<TokenPart<Path>>>]: string | number } & {
    [K in TemplateTokens<OutsideGroups<TokenPart<Path>>, '*'>]: readonly (string | number)[];
  } & { [K in TemplateTokens<InGroups<TokenPart<Path>>>]?: string | number } & {
    [K in TemplateTokens<InGroups<TokenPart<Path>>, '*'>]?: readonly (string | number)[];
  }
>;

/**
 * The params of an endpoint on the path template `Path`: every token is
 * required (`'/articles/:id'` needs `id`), and other members go in the
 * query string. They may be anything (`Params`) unless `SearchParams`
 * declares them (the endpoint's `searchParams` option), then other members
 * are errors. A path whose text is not known allows any member.
 */
export type PathParams<Path extends string, SearchParams extends object | undefined = undefined> = string extends Path
  ? [SearchParams] extends [undefined]
    ? Params
    : Simplify<Params & Exclude<SearchParams, undefined>>
  : [PathTokens<Path>] extends [never]
    ? [SearchParams] extends [undefined]
      ? Params
      : Exclude<SearchParams, undefined>
    : Simplify<PathArgs<Path> & ([SearchParams] extends [undefined] ? Params : Exclude<SearchParams, undefined>)>;

/** `P` with its index signatures dropped: the members it names. */
export type KnownParams<P> = { [K in keyof P as string extends K ? never : number extends K ? never : K]: P[K] };

/** S up to its last token or optional group holding one, or false without one (after Seen). */
type ListHead<S extends string, Seen extends string = '', Cut extends string | false = false> = S extends `${infer C}${infer Rest}`
  ? C extends '\\'
    ? Rest extends `${infer E}${infer After}`
      ? ListHead<After, `${Seen}${C}${E}`, Cut>
      : ListHead<Rest, `${Seen}${C}`, Cut>
    : C extends ':' | '*'
      ? Rest extends `${TokenStart}${string}`
        ? ListHead<Rest, `${Seen}${C}`, Seen>
        : ListHead<Rest, `${Seen}${C}`, Cut>
      : C extends '{'
        ? Rest extends `${infer Inner}}${infer After}`
          ? ListHead<After, `${Seen}{${Inner}}`, [PathTokens<Inner>] extends [never] ? Cut : Seen>
          : ListHead<Rest, `${Seen}${C}`, Cut>
        : ListHead<Rest, `${Seen}${C}`, Cut>
  : Cut;
/** Head without one trailing '/'. */
type NoTrailingSlash<Head extends string> = Head extends `${infer H}/` ? H : Head;

/**
 * A resource's list path, as data-client derives it: its `path` up to the
 * last token (or the optional group holding one), without the `/` before
 * it: `'/users/:userId/posts/:id'` gives `'/users/:userId/posts'`,
 * `'/repos/:owner/*path'` `'/repos/:owner'`, `'/:id'` `''`; a path without a
 * token is its own list path.
 */
export type ListPath<Path extends string> = string extends Path
  ? string
  : Path extends `${infer Scheme}://${infer Rest}`
    ? IsScheme<Scheme> extends true
      ? Rest extends `${infer Host}/${infer After}`
        ? ListHead<`/${After}`> extends infer L extends string
          ? `${Scheme}://${Host}${NoTrailingSlash<L>}`
          : Path
        : Path
      : ListHead<Path> extends infer L extends string
        ? NoTrailingSlash<L>
        : Path
    : ListHead<Path> extends infer L extends string
      ? NoTrailingSlash<L>
      : Path;

/**
 * The params argument of a call: optional when no member is required (a
 * path without tokens), required otherwise.
 */
/** How a response body is read: the `content` option of an endpoint. */
export type ResponseContent = 'json' | 'text' | 'blob' | 'arrayBuffer' | 'formData' | 'stream';
/** What `invalidateAll` and `expireAll` take: a key test, or an object with one (an endpoint). */
export type KeyTest = ((key: string) => boolean) | { testKey(key: string): boolean };
export type ParamsArg<P> = {} extends P ? [params?: P] : [params: P];

/** `ParamsArg`, where `null` (do nothing, resolve `undefined`) is also allowed. */
export type NullableParamsArg<P> = {} extends P ? [params?: P | null] : [params: P | null];
/** `fetch`'s params and body: the params optional when no member is required. */
export type FetchArgs<P, B> = {} extends P ? [params?: P, body?: B] : [params: P, body?: B];
/** `subscribe`'s params: `null` (or, when no member is required, `undefined`) subscribes to nothing. */
export type SubscribeParams<P> = {} extends P ? P | null | undefined : P | null;
/** `setResponse`'s params: `undefined` when no member is required. */
export type SetParams<P> = {} extends P ? P | undefined : P;

/** A request body: a plain object or array (sent as JSON), or what fetch takes as it is (string, FormData, binary...). */
export type RequestBody = BodyInit | object | null;

/** `getRequestInit`'s result: fetch's init, whose `body` may also be a plain object (sent as JSON). */
export interface EndpointRequestInit extends Omit<RequestInit, 'body'> {
  body?: RequestBody;
}

export type HTTPMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

/** `{data, expiryStatus, expiresAt}`, as `getResponse` and `snap.getResponse` return. */
export interface ResponseState<D> {
  data: D | undefined;
  expiryStatus: ExpiryStatus;
  /** Epoch ms; 0 when nothing is stored. */
  expiresAt: number;
}

export type ExpiryStatus = 'valid' | 'stale' | 'invalid' | 'missing';
/** `df.ExpiryStatus`: data-client's names for the `ExpiryStatus` strings (never stored: `Missing`). */
export interface ExpiryStatusNames {
  readonly Valid: 'valid';
  readonly Stale: 'stale';
  readonly Invalid: 'invalid';
  readonly Missing: 'missing';
}

/** What `getOptimisticResponse` is given. */
export interface Snapshot {
  /** Reads the store with every earlier pending optimistic update applied. */
  getResponse<E extends AnyEndpoint>(endpoint: E, ...params: NullableParamsArg<EndpointParams<E>>): ResponseState<EndpointData<E>>;
  /** The moment the fetch was triggered (epoch ms). */
  readonly fetchedAt: number;
}

/** `ctrl.snapshot(state, fetchedAt)`: data-client's Snapshot, reading `state`. */
export interface StateSnapshot extends Snapshot {
  readonly getResponseMeta: Snapshot['getResponse'];
  get: Controller['get'];
  getQueryMeta: Controller['getQueryMeta'];
  /** Throw it from `getOptimisticResponse` to make no optimistic update. */
  readonly abort: Error;
}

/** `update`'s result: for each endpoint key, a function from its stored result (a list of pks) to the new one. */
export interface UpdateMap {
  [endpointKey: string]: (pks: any) => any;
}

/** Options of `new df.RestEndpoint`, `endpoint.extend` and `df.resource`. */
export interface RestEndpointOptions<P extends object = Params, B = RequestBody> {
  /** Prepended to `path`. */
  urlPrefix?: string;
  /** The path, with `:name` tokens filled from params (each one a required param). */
  path: string;
  /**
   * Types only: declares the params that go in the query string, as
   * `searchParams: {} as { page?: number }`; then a param that is neither a
   * path token nor declared here is an error. Without it any other param is
   * allowed. The value is not used (it stays on the endpoint as it is).
   */
  searchParams?: object;
  /** Default GET. */
  method?: HTTPMethod;
  /** Used in the key and in error messages. */
  name?: string;
  /** Normalizes the response; without one, the fetch result is returned as it is. */
  schema?: Schema;
  /** Default body of body-taking methods; an explicit body replaces it. */
  body?: B;
  /** May add headers (auth); may be async. */
  getHeaders?(headers: HeadersInit): HeadersInit | Promise<HeadersInit>;
  /** Builds fetch's init from the body. */
  getRequestInit?(this: RestEndpoint<any, P, B>, body: B | undefined): EndpointRequestInit | Promise<EndpointRequestInit>;
  /** Replaces the whole request; its resolved value is what is normalized. */
  fetch?(this: RestEndpoint<any, P, B>, params: P, body?: B): Promise<unknown>;
  /** Replaces the parsing of the response. */
  parseResponse?(response: Response): unknown;
  /** Replaces the sending of the request by the default fetch (the global `fetch`). */
  fetchResponse?(input: string, init: RequestInit): Promise<Response>;
  /**
   * How the default `parseResponse` reads a 2xx body: `'json'` (whatever
   * the Content-Type), `'text'`, or a kind JSON cannot carry (`'blob'`,
   * `'arrayBuffer'`, `'formData'`, `'stream'`: the body itself), which
   * `endpoint.fetch()` returns and the cache cannot hold. Unset: JSON, a
   * binary Content-Type a `Blob`, else text.
   */
  content?: ResponseContent;
  /** Transforms the parsed response before it is normalized. */
  process?(value: any, params: P): any;
  /** Data applied at once, as if it were the response. Throw `AbortOptimistic` to skip. */
  getOptimisticResponse?(snap: Snapshot, params: P, body: B | undefined): unknown;
  /** Rewrites other endpoints' stored results after this one is stored. */
  update?(newResultPks: any, params: P): UpdateMap;
  /** How long a result stays fresh, ms; `Infinity`: never stale. Default 60000. */
  dataExpiryLength?: number;
  /** How long an error is kept, ms; `Infinity`: until invalidated. Default 1000. */
  errorExpiryLength?: number;
  /** Stale results are not used: reads wait for the refetch. Default false. */
  invalidIfStale?: boolean;
  /** The param that selects a page of a list; gives `getPage`. */
  paginationField?: string;
  /** The path of `move` (one record's, as `'/todos/:id'`); default the endpoint's own. A resource's `getList` has the record path. */
  movePath?: string;
  /** Refetch interval of subscribed results, ms (a datafetch addition; data-client has none). */
  pollFrequency?: number;
  /** Marks a mutation. Default: true for every method but GET; `true` without a `method` makes a POST. */
  sideEffect?: boolean;
  /** Encodes the params that are not path tokens as the query string (without its `?`); the default sorts them by name and encodes them as `URLSearchParams` does. */
  searchToString?(searchParams: Params): string;
  /** Aborting rejects with an `AbortError` and removes the request's optimistic update. */
  signal?: AbortSignal;
  /** ms; past it the request is aborted with a `TimeoutError`. */
  timeout?: number;
  /** Retries of a failed read (no answer, 408, 429, 5xx); `0`: none, whatever the controller's. Default: the controller's. */
  retry?: number;
  /** ms to wait before retry `attempt` (from 0); a `Retry-After` on a 429 or 503 replaces it. Default: the controller's. */
  retryDelay?(attempt: number, error: Error): number;
}

/**
 * An endpoint. `D` is the data it resolves to, `P` its params, `B` its body.
 * Endpoints are immutable: `extend` returns a new one.
 */
export interface RestEndpoint<D = any, P extends object = Params, B = RequestBody> {
  /**
   * Calling an endpoint is `endpoint.fetch(params, body)`: the request, its
   * parsed response and `process`, with no controller and no cache (what
   * the schema would normalize, not denormalized data). One argument to an
   * endpoint that sends a body is the body (`create(body)`).
   */
  (...args: FetchArgs<P, B>): Promise<any>;
  (body: B): Promise<any>;
  // The options it was made with are its properties; a subclass may set
  // them as class fields, and override the function options as methods.
  /** The path template. */
  readonly path: string;
  /** GET unless set (upper-cased); POST when only `sideEffect: true` is. */
  readonly method: string;
  /** The path unless set. */
  readonly name: string;
  /** true for every method but GET, undefined for a GET, unless set. */
  readonly sideEffect: boolean | undefined;
  readonly urlPrefix?: string;
  /** The schema given (a resource's getList has its Collection's type). */
  readonly schema?: unknown;
  /** The default body of body-taking methods. */
  readonly body?: B;
  /** Types only: as given (see the option). */
  readonly searchParams?: unknown;
  readonly dataExpiryLength?: number;
  readonly errorExpiryLength?: number;
  readonly pollFrequency?: number;
  readonly timeout?: number;
  readonly retry?: number;
  readonly invalidIfStale?: boolean;
  readonly paginationField?: string;
  readonly movePath?: string;
  readonly signal?: AbortSignal;
  /** How the default `parseResponse` reads a 2xx body (see the option). */
  readonly content?: ResponseContent;
  /**
   * The init the endpoint sends for body by default (method, headers with
   * `getHeaders` applied, the body encoded): what an override gets from
   * `super.getRequestInit(body)`, a Promise. An override may return the init
   * or a Promise of it.
   */
  getRequestInit(body?: any): EndpointRequestInit | Promise<EndpointRequestInit>;
  /** The response parsed as by default (JSON; null for an empty body; a `NetworkError` for a failure status): what an override gets from `super`. */
  parseResponse(response: Response): Promise<any>;
  /** The headers to send: these, by default. */
  getHeaders(headers: HeadersInit): HeadersInit | Promise<HeadersInit>;
  /** The value to normalize: the parsed response, by default. */
  process(value: any, ...args: any[]): any;
  /**
   * What the endpoint fetches by default (the request, `getRequestInit` and
   * `getHeaders` applied, sent by `fetchResponse`; its parsed response; and
   * `process` run on that): what calling the endpoint resolves to, and what
   * an override gets from `super.fetch(params, body)`. What an override
   * returns is normalized as it is.
   */
  fetch(params?: any, body?: any): Promise<any>;
  /** Sends the request: the global `fetch`; no response is a `NetworkError` of status 0. */
  fetchResponse(input: string, init: RequestInit): Promise<Response>;
  /** Data applied at once, as if it were the response (see the option). */
  getOptimisticResponse?(snap: Snapshot, params: P, body: B | undefined): unknown;
  /** Rewrites other endpoints' stored results after this one is stored (see the option). */
  update?(newResultPks: any, params: P): UpdateMap;
  /** ms to wait before retry `attempt` (see the option). */
  retryDelay?(attempt: number, error: Error): number;
  /** The request URL for params. */
  url(...params: ParamsArg<P>): string;
  /** The store key for params: equal params give equal keys. */
  key(...params: ParamsArg<P>): string;
  /** Whether `key` is a key of this endpoint, for some params. */
  testKey(key: string): boolean;
  /** The query string of the params that are not path tokens (see the option): what an override gets from `super`. */
  searchToString(searchParams: Params): string;
  /**
   * A new endpoint with `options` replacing those parts: a new `schema`
   * changes the data, a new `path` (or `searchParams`) the params.
   */
  extend<O extends Partial<RestEndpointOptions<P, B>>, Path extends string = never, SP extends object | undefined = undefined>(
    options: O & { path?: Path; searchParams?: SP },
  ): RestEndpoint<ExtendedData<D, O>, ExtendParams<P, Path, SP>, B>;
  /**
   * An endpoint fetching the page named by the `cursorParam` param and
   * appending its entities to the list stored without it (beyond the
   * contract). A fetch without the cursor (absent, null or '') starts the
   * list over, as refreshing an infinite list should.
   */
  paginated<C extends string>(cursorParam: C): RestEndpoint<D, P & { readonly [K in C]?: ParamValue }, B>;
  /**
   * As data-client's `paginated(removeCursor)`: `removeCursor(params)`
   * returns the params without the cursor (`[params]`, or `[]`); keys and
   * the collection use them, and every page fetched is appended.
   */
  paginated<A extends object>(removeCursor: (params: A) => readonly P[]): RestEndpoint<D, A, B>;
  /**
   * With a Collection in the schema: POST that appends the created record to
   * every matching collection. Without one (as `unshift`, `remove`, `move`,
   * `assign`): a POST with no schema.
   */
  readonly push?: RestEndpoint<any, P, any>;
  /** As `push`, prepended. */
  readonly unshift?: RestEndpoint<any, P, any>;
  /** PATCH that takes the record(s) answered out of every matching collection. */
  readonly remove?: RestEndpoint<any, P, any>;
  /**
   * PATCH (to `movePath`, else this path) that moves the record answered
   * out of the collections its stored record matched and its new values do
   * not, into those it matches now (a todo whose `userId` changed).
   */
  readonly move?: RestEndpoint<any, any, any>;
  /** With a `schema.Values` Collection: POST whose map is merged into every matching one. */
  readonly assign?: RestEndpoint<any, P, B>;
  /**
   * With `paginationField`: fetches the page it names and appends it to the
   * collection stored without it. Reading it throws when the schema holds no
   * Collection.
   */
  readonly getPage?: RestEndpoint<D, P & { readonly [key: string]: ParamValue }, B>;
  readonly [endpointTypes]?: { data: D; params: P; body: B };
}

/** Any endpoint: the constraint of functions that take one and read its types. */
export type AnyEndpoint = RestEndpoint<any, any, any> | Endpoint<any, any>;
/** The data endpoint `E` resolves to. */
export type EndpointData<E> = E extends RestEndpoint<infer D, any, any> ? D : E extends Endpoint<infer F, infer S> ? EndpointResult<F, S> : never;
/** The params endpoint `E` takes (an `Endpoint`'s first arg; `{}` for none). */
export type EndpointParams<E> =
  E extends RestEndpoint<any, infer P, any> ? P : E extends Endpoint<infer F, any> ? (Parameters<F> extends readonly [] ? {} : Parameters<F>[0]) : never;
/** The body endpoint `E` takes (an `Endpoint`'s second arg). */
export type EndpointBody<E> = E extends RestEndpoint<any, any, infer B> ? B : E extends Endpoint<infer F, any> ? Parameters<F>[1] : never;

/** The function of a generic `Endpoint`: any async function of its args. */
export type FetchFunction = (...args: any[]) => Promise<any>;
/** What a generic `Endpoint` resolves to: its schema's read form, else the function's result. */
export type EndpointResult<F extends FetchFunction, S> = [S] extends [undefined] ? Awaited<ReturnType<F>> : Denormalize<S>;

/** The options of a generic `Endpoint` (data-client's): any other member becomes a property too. */
export interface EndpointOptions<F extends FetchFunction = FetchFunction, S extends Schema | undefined = Schema | undefined> {
  /** The store key of args; default: the name and the args as JSON (`'getUser ["5"]'`). */
  key?(this: Endpoint<F, S>, ...args: Parameters<F>): string;
  /** Used in the default key; default: the function's name. */
  name?: string;
  /** Normalizes the result; without one, the result is stored as it is. */
  schema?: S;
  /** The endpoint changes data: its results are not read by useSuspense. */
  sideEffect?: boolean;
  /** How long (ms) a result stays fresh. */
  dataExpiryLength?: number;
  /** How long (ms) an error is kept. */
  errorExpiryLength?: number;
  /** Refetch every this many ms while subscribed. */
  pollFrequency?: number;
  /** A stale result suspends as a missing one. */
  invalidIfStale?: boolean;
  /** The data to show before the function resolves (side effects only). */
  getOptimisticResponse?(snap: Snapshot, ...args: Parameters<F>): unknown;
  /** Rewrites other stored results once this one is stored. */
  update?(newPKs: any, ...args: Parameters<F>): Record<string, (stored: any) => any>;
  [option: string]: unknown;
}

/**
 * data-client's generic endpoint: `new Endpoint(fetchFunction, options)`.
 * Calling it calls the function (`this` is the endpoint); a controller
 * stores its results under `key(...args)`. A controller passes it its
 * first arg (params) and, from `ctrl.fetch`, a second (body).
 */
export interface Endpoint<F extends FetchFunction = FetchFunction, S extends Schema | undefined = undefined> {
  (...args: Parameters<F>): ReturnType<F>;
  /** The function, run with the endpoint as `this`. */
  readonly fetch: F;
  /** The store key of args. */
  key(...args: Parameters<F>): string;
  /** Whether key is one of this endpoint's (it starts with the name). */
  testKey(key: string): boolean;
  /** The name option, else the function's name. */
  readonly name: string;
  readonly schema: S;
  readonly sideEffect?: boolean;
  readonly dataExpiryLength?: number;
  readonly errorExpiryLength?: number;
  readonly pollFrequency?: number;
  readonly invalidIfStale?: boolean;
  /** A new endpoint with these options over this one's; a new fetch names it unless options name it. */
  extend<O extends EndpointOptions<any, any> & { fetch?: FetchFunction }>(
    options: O,
  ): Endpoint<O extends { fetch: infer G extends FetchFunction } ? G : F, O extends { schema: infer T extends Schema } ? T : S>;
  /** An endpoint of no args that fetches and keys with these args. */
  bind(thisArg: unknown, ...args: Parameters<F>): Endpoint<() => ReturnType<F>, S>;
  /** Other options given are properties too. */
  readonly [option: string]: unknown;
}

/** `new Endpoint(fetchFunction, options)`; a class may extend it. */
export interface EndpointConstructor {
  new <F extends FetchFunction, S extends Schema | undefined = undefined>(fetchFunction: F, options?: EndpointOptions<F, S>): Endpoint<F, S>;
  readonly prototype: Endpoint;
}

/** The data of an endpoint after `extend(options)`: a new schema's read form, else `D`. */
export type ExtendedData<D, O> = O extends { schema: infer S extends Schema } ? Denormalize<S> : D;
/**
 * The params of an endpoint after `extend(options)`: a new path's (with a
 * new `searchParams`, else the old declared ones), or, with only a new
 * `searchParams`, the old path tokens and those; else `P`.
 */
export type ExtendedParams<P, O> = ExtendParams<
  P,
  O extends { path: infer Path extends string } ? Path : never,
  O extends { searchParams: infer SP extends object } ? SP : undefined
>;
/** `ExtendedParams` from the new path (`never`: unchanged) and search params (`undefined`: none declared). */
type ExtendParams<P, Path extends string, SP extends object | undefined> = [Path] extends [never]
  ? [SP] extends [undefined]
    ? P
    : Simplify<KnownParams<P> & Exclude<SP, undefined>>
  : PathParams<Path, SP>;

/** The default of the constructor's `P`: no params type was given, so it comes from the path. */
declare const fromPath: unique symbol;
interface FromPath {
  readonly [fromPath]: true;
}
/** The params of a new endpoint: `P` when given (or inferred from typed options), else from the path and `searchParams`. */
type ResolvedParams<P, Path extends string, SP extends object | undefined> = [P] extends [FromPath] ? PathParams<Path, SP> : P;

/**
 * `new df.RestEndpoint(options)`: with a schema the data is that schema's
 * read form; without, pass its type (`new df.RestEndpoint<Count>({...})`).
 * The params come from the path template (`'/articles/:id'` requires `id`)
 * and the `searchParams` option, unless given as a type (`P`).
 */
export interface RestEndpointConstructor {
  /** With a `schema.Query`: responses are stored by the Query's schema, and reads are its process's result with the endpoint's params. */
  new <
    Q extends QuerySchema<any, any, any>,
    P extends object = FromPath,
    B = RequestBody,
    Path extends string = string,
    SP extends object | undefined = undefined,
  >(
    options: Omit<RestEndpointOptions<ResolvedParams<P, Path, SP>, B>, 'schema'> & { path: Path; schema: Q; searchParams?: SP },
  ): RestEndpoint<Q extends QuerySchema<any, infer R, any> ? R : never, ResolvedParams<P, Path, SP>, B>;
  new <S extends Schema, P extends object = FromPath, B = RequestBody, Path extends string = string, SP extends object | undefined = undefined>(
    options: RestEndpointOptions<ResolvedParams<P, Path, SP>, B> & { path: Path; schema: S; searchParams?: SP },
  ): RestEndpoint<Denormalize<S>, ResolvedParams<P, Path, SP>, B>;
  new <D = unknown, P extends object = FromPath, B = RequestBody, Path extends string = string, SP extends object | undefined = undefined>(
    options: RestEndpointOptions<ResolvedParams<P, Path, SP>, B> & { path: Path; schema?: undefined; searchParams?: SP },
  ): RestEndpoint<D, ResolvedParams<P, Path, SP>, B>;
  readonly prototype: RestEndpoint;
}

/**
 * Options of `df.resource`: the rest is passed to each endpoint. Without
 * type arguments (`ResourceOptions`), data-client's untyped options:
 * every member optional, as a function that makes
 * resources takes them (`options: Readonly<O> & ResourceOptions`, with
 * `O extends ResourceGenerics`).
 */
export type ResourceOptions<S extends Schema = never, P extends object = Params> = [S] extends [never]
  ? ResourceSharedOptions<P> & { path?: string; schema?: Schema }
  : TypedResourceOptions<S, P>;

/** `ResourceOptions` with its `path` and `schema`: what `df.resource` takes. */
export interface TypedResourceOptions<S extends Schema, P extends object = Params> extends ResourceSharedOptions<P> {
  /** The path of one record, as `/articles/:id`; the list path drops its last `/:token`. */
  path: string;
  schema: S;
}

/** What a resource's options hold besides `path` and `schema`. */
export interface ResourceSharedOptions<P extends object = Params> extends Omit<RestEndpointOptions<P>, 'schema' | 'method' | 'path'> {
  /**
   * The class of the resource's endpoints: `RestEndpoint` or a subclass of
   * it (its class fields and methods apply to each endpoint).
   */
  Endpoint?: new (
    options: any,
  ) => AnyEndpoint;
  /**
   * Types only: the params `getList` takes in its query string, as
   * `searchParams: {} as { author?: number }`; then others are errors there.
   * Without it `getList` takes any other param.
   */
  searchParams?: object;
  /**
   * data-client's optimistic resource: every mutation applies its answer at
   * once (create, update, getList.push/unshift/remove: params and body;
   * partialUpdate: the stored record, params and body; delete: the params),
   * replaced by the server's and rolled back on failure. Default false.
   */
  optimistic?: boolean;
}

/** A body a resource does not check: what fetch sends as it is (a string, FormData, binary...). */
export type RawBody = BodyInit;

/** A value of a body field: its read form, and for a date also the ISO-8601 string or epoch ms it is sent as. */
export type BodyField<V> = V extends Date ? V | string | number : V;

/**
 * The body of a resource's `create`, `update` and `partialUpdate`: the
 * entity's fields, by name (a misspelled one is an error), each optional
 * since fields the server leaves out take their default; or a raw body
 * (FormData, a string, binary), sent as it is.
 */
export type EntityBody<T> = { [K in keyof T]?: BodyField<T[K]> } | RawBody;

/**
 * The six built-in endpoints of a resource of records `T`: `P` the params of
 * one record (its path), `LP` of the list (`getList`), `CP` of `create`,
 * `Body` the body of the mutations.
 */
export interface ResourceEndpoints<T, P extends object = Params, LP extends object = Params, CP extends object = Params, Body = EntityBody<T>, S = Schema> {
  /** GET path. */
  get: RestEndpoint<T, P>;
  /** GET the list path; its schema is a Collection of the entity (a `Query` may read it). */
  getList: ResourceListEndpoint<T, LP, Body, S, P>;
  /** POST the list path. */
  create: RestEndpoint<T, CP, Body>;
  /** PUT path. */
  update: RestEndpoint<T, P, Body>;
  /** PATCH path: any subset of the fields. */
  partialUpdate: RestEndpoint<T, P, Body>;
  /** DELETE path, schema `Invalidate(schema)`; an empty response falls back to the params. */
  delete: RestEndpoint<T | undefined, P>;
}

/**
 * A resource's `getList`: records `T` listed, params `LP`; its schema is a
 * Collection of the entity `S`, so it has `push`, `unshift` and `remove`
 * (taking `Body`), and `move` on the record's path (params `P`).
 */
export interface ResourceListEndpoint<T, LP extends object = Params, Body = EntityBody<T>, S = Schema, P extends object = Params>
  extends RestEndpoint<T[], LP> {
  readonly schema: CollectionSchema<readonly [S]>;
  /** POST the list path, the created record appended to every stored list whose args match. */
  readonly push: RestEndpoint<T, LP, Body>;
  /** As `push`, prepended. */
  readonly unshift: RestEndpoint<T, LP, Body>;
  /** PATCH the list path, the record(s) answered taken out of every matching list. */
  readonly remove: RestEndpoint<T, LP, Body>;
  /** PATCH the record's path (as `update`): the record leaves the lists it no longer matches and joins those it now does. */
  readonly move: RestEndpoint<T, P, Body>;
}

/** Per endpoint name: the options of an endpoint to extend or add. */
export interface ResourceExtensions {
  readonly [endpointName: string]: Partial<RestEndpointOptions<any, any>>;
}

/**
 * An endpoint after `resource.extend`: a new schema changes its data type,
 * a new path (or `searchParams`) its params; other options (`process`,
 * `getOptimisticResponse`...) leave its type as it was (a `getList` keeps
 * its Collection schema, `push` and `unshift`).
 */
export type ExtendedEndpoint<Base, O> =
  Base extends RestEndpoint<infer D, infer P, infer B>
    ? O extends { schema: any } | { path: any } | { searchParams: any }
      ? RestEndpoint<ExtendedData<D, O>, ExtendedParams<P, O>, B>
      : Base
    : RestEndpoint<ExtendedData<unknown, O>, ExtendedParams<Params, O>>;

/** The endpoints of `E` extended and added by `X`; an added endpoint starts from `get`. */
export type MergeEndpoints<E, X> = {
  [K in keyof E | keyof X]: K extends keyof X
    ? ExtendedEndpoint<K extends keyof E ? E[K] : 'get' extends keyof E ? E['get'] : undefined, X[K]>
    : K extends keyof E
      ? E[K]
      : never;
};

/**
 * A resource: its endpoints, and `extend`. `Resource<E>` of its endpoints
 * `E`, or, as data-client names it, `Resource<O>` of the options `O` it is
 * made with (`O extends ResourceGenerics`: `path`, `schema`, and the
 * types-only `searchParams` and `body`), as a function that makes
 * resources returns it.
 */
export type Resource<E = ResourceGenerics> = ResourceEndpointsOf<E> & {
  /** A resource with these endpoints extended or added (an added one starts from `get`). */
  extend<const X extends ResourceExtensions>(extensions: X): Resource<MergeEndpoints<ResourceEndpointsOf<E>, X>>;
};

/** The endpoints of `Resource<E>`: `E`, or those that options `E` make. */
export type ResourceEndpointsOf<E> = 0 extends 1 & E
  ? ResourceEndpoints<any, any, any, any, any, any>
  : E extends { readonly path: string; readonly schema: any }
    ? ResourceEndpointsFor<E>
    : E;

/**
 * data-client's generic options of a resource, as a function that makes
 * resources names them: `function myResource<O extends ResourceGenerics =
 * any>(options: Readonly<O> & ResourceOptions): Resource<O>`.
 */
export interface ResourceGenerics {
  readonly path: string;
  readonly schema: Schema;
  /** Types only: the body of the mutations (default: the entity's fields, `EntityBody`). */
  readonly body?: any;
  /** Types only: the params `getList` takes in its query string. */
  readonly searchParams?: any;
  readonly paginationField?: string;
}

/** The endpoints of `resource(options)` for options of type `O` (a `ResourceGenerics`). */
export type ResourceEndpointsFor<O extends { readonly path: string; readonly schema: any }> = ResourceEndpoints<
  Denormalize<O['schema']>,
  PathParams<O['path']>,
  PathParams<
    ListPath<O['path']>,
    O extends { readonly searchParams: infer SP } ? (unknown extends SP ? undefined : Extract<SP, object | undefined>) : undefined
  >,
  PathParams<ListPath<O['path']>>,
  O extends { readonly body: infer B } ? B : EntityBody<Denormalize<O['schema']>>,
  O['schema']
>;

/**
 * `df.resource(options)` / `df.createResource(options)`. The params come
 * from the path (`get`, `update`, `partialUpdate`, `delete`) and from the
 * list path (`getList`, with `searchParams`, and `create`), unless given as a
 * type (`P`, for the endpoints of one record).
 */
export interface ResourceFactory {
  <S extends Schema, P extends object = FromPath, Path extends string = string, SP extends object | undefined = undefined>(
    options: TypedResourceOptions<S, ResolvedParams<P, Path, undefined>> & { path: Path; searchParams?: SP },
  ): Resource<
    ResourceEndpoints<
      Denormalize<S>,
      ResolvedParams<P, Path, undefined>,
      [P] extends [FromPath] ? PathParams<ListPath<Path>, SP> : Params,
      [P] extends [FromPath] ? PathParams<ListPath<Path>> : Params,
      EntityBody<Denormalize<S>>,
      S
    >
  >;
}

// ------------------------------------------------------------ Controller

export interface ControllerOptions {
  /** Called as `fetch(url, init)` in place of the global fetch (an endpoint's own `fetch` option still wins). */
  fetch?: (url: string, init: RequestInit) => Promise<Response>;
  /** Default for endpoints that set none, ms; `Infinity`: never stale. */
  dataExpiryLength?: number;
  /** Default for endpoints that set none, ms; `Infinity`: an error is kept until invalidated. */
  errorExpiryLength?: number;
  /**
   * The controller's clock, in epoch ms (default `Date.now`): every expiry
   * and `fetchedAt` of this controller reads it, so tests can move time on
   * without sleeping. It must return a number within ±8.64e15 (the range
   * of a `Date`) and not throw.
   */
  now?: () => number;
  /** Retries of a failed read, for endpoints that set none. Default 0. */
  retry?: number;
  /** ms to wait before retry `attempt` (from 0). Default `min(1000 × 2^attempt, 30000)`. */
  retryDelay?: (attempt: number, error: Error) => number;
  /** Refetch what subscriptions hold that is stale or invalid when the page becomes visible. Default false. */
  revalidateOnFocus?: boolean;
  /** The same when the browser comes back online. Default false. */
  revalidateOnReconnect?: boolean;
  /** A snapshot (`getState()` of another controller, or a server's) to start from, as `hydrate` takes it. */
  initialState?: StoreState;
  /** Periodic garbage collection (off when absent); see `Controller.gc`. */
  gc?: GCOptions;
  /**
   * Managers (data-client's): their middleware sees the controller's writes
   * as actions (`dispatch`), `init` gets the state when the controller
   * starts, `cleanup` runs on `close()`.
   */
  managers?: Manager[];
}

/** The action types managers see, by data-client's names. */
export interface ActionTypes {
  readonly FETCH: 'rdc/fetch';
  readonly SET: 'rdc/set';
  readonly SET_RESPONSE: 'rdc/setresponse';
  readonly RESET: 'rdc/reset';
  readonly SUBSCRIBE: 'rdc/subscribe';
  readonly UNSUBSCRIBE: 'rdc/unsubscribe';
  readonly INVALIDATE: 'rdc/invalidate';
  readonly INVALIDATEALL: 'rdc/invalidateall';
  readonly EXPIREALL: 'rdc/expireall';
  readonly GC: 'rdc/gc';
}

/** The times of an action. */
export interface ActionMeta {
  readonly fetchedAt: number;
  readonly date: number;
  readonly expiresAt: number;
}

/** An action a controller with managers dispatches (data-client's shapes). */
export type Action =
  | {
      type: 'rdc/fetch';
      endpoint: AnyEndpoint;
      args: readonly unknown[];
      key: string;
      meta: { fetchedAt: number; resolve(value?: unknown): void; reject(reason?: unknown): void; promise: PromiseLike<unknown> };
    }
  | { type: 'rdc/set'; schema: unknown; args: readonly unknown[]; value: unknown; meta: ActionMeta }
  | { type: 'rdc/setresponse'; endpoint: AnyEndpoint; args: readonly unknown[]; key: string; response: unknown; error: boolean; meta: ActionMeta }
  | { type: 'rdc/invalidate'; endpoint: AnyEndpoint; args: readonly unknown[]; key: string }
  | { type: 'rdc/invalidateall' | 'rdc/expireall'; testKey: (key: string) => boolean }
  | { type: 'rdc/reset'; date: number }
  | { type: 'rdc/gc' }
  | { type: 'rdc/subscribe' | 'rdc/unsubscribe'; endpoint: AnyEndpoint; args: readonly unknown[]; key: string };

/** Passes an action on, to the next middleware or to the controller. */
export type Dispatch = (action: Action) => Promise<void>;

/** A manager's middleware: `(controller) => (next) => (action) => Promise`. */
export type Middleware = (controller: Controller) => (next: Dispatch) => Dispatch;

/** data-client's Manager: behaviour added to a controller from outside it. */
export interface Manager {
  middleware?: Middleware;
  getMiddleware?(): Middleware;
  /** Called when the controller starts, with its state. */
  init?(state: StoreState): void;
  /** Called when the controller closes. */
  cleanup(): void;
}

/** A source of pushed messages: an EventSource, a WebSocket, or anything with message events. */
export interface MessageSource {
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  removeEventListener?(type: 'message', listener: (event: { data: unknown }) => void): void;
  close?(): void;
}

/**
 * A manager that stores what a server pushes: each message's data is JSON
 * `{type, args?, data}`, written as `controller.set(entities[type], ...args, data)`.
 */
export interface StreamManager extends Manager {
  middleware: Middleware;
  cleanup(): void;
}

export interface StreamManagerConstructor {
  /** `source`, or a function that opens it when the controller starts; `entities` by message type. */
  new (
    source: MessageSource | (() => MessageSource),
    entities: Record<string, AnyEntity | object>,
    options?: { onError?: (error: Error) => void },
  ): StreamManager;
}

/** The `gc` option of a Controller. */
export interface GCOptions {
  /** ms between two sweeps. Default 300000. */
  interval?: number;
  /** A result or entity goes once `expiresAt + (expiryMultiplier − 1) × its expiry length` has passed. At least 1; default 2. */
  expiryMultiplier?: number;
}

/** What a `gc()` sweep removed. */
export interface GCStats {
  results: number;
  entities: number;
}

/** What a `subscribe` listener is given. */
export interface SubscriptionState<D> {
  data: D | undefined;
  /** True while a fetch the subscription started is pending. */
  loading: boolean;
  error: Error | undefined;
}

/** Unsubscribes. */
export type Unsubscribe = () => void;

/** The options of `subscribe`. */
export interface SubscribeOptions {
  /** `false`: only listen, never start a request nor poll (as `useCache`). Default true. */
  fetch?: boolean;
  /** `false`: do not poll, even when the endpoint has `pollFrequency`. Default true. */
  poll?: boolean;
}

/** `getState()`: a plain JSON snapshot, for debugging and for `hydrate`. */
/**
 * A store state that `ctrl.get` and `ctrl.getResponse` read in place of the
 * controller's store when given last (data-client's form): a `getState()`
 * snapshot, or data-client's state (`{entities, endpoints, meta,
 * entitiesMeta, indexes, ...}`). Each state object is read as it was
 * first given.
 */
export interface ReadableState {
  readonly entities: EntityTables;
  readonly endpoints: { readonly [endpointKey: string]: unknown };
  readonly meta?: { readonly [endpointKey: string]: { readonly [field: string]: unknown } };
  readonly entitiesMeta?: { readonly [entityKey: string]: { readonly [pk: string]: unknown } };
  readonly indexes?: unknown;
}

export interface StoreState {
  /** The snapshot format's version (1). */
  version: number;
  /** `entities[entityKey][pk]`: normalized records. */
  entities: EntityTables;
  /** `endpoints[endpoint.key(params)]`: normalized results. */
  endpoints: { [endpointKey: string]: unknown };
  meta: { [endpointKey: string]: { [field: string]: unknown } };
  entitiesMeta: { [entityKey: string]: { [pk: string]: EntityMeta } };
  optimistic: unknown[];
}

export interface Controller {
  /** With managers: sends an action through their middleware (see `ControllerOptions.managers`). */
  dispatch?: Dispatch;
  /**
   * The endpoint's data, denormalized: at once from a fresh (or, revalidating,
   * stale) cache, else once fetched. `params === null` resolves `undefined`.
   */
  useSuspense<E extends AnyEndpoint>(endpoint: E, params: null): Promise<undefined>;
  useSuspense<E extends AnyEndpoint>(endpoint: E, ...params: ParamsArg<EndpointParams<E>>): Promise<EndpointData<E>>;
  useSuspense<E extends AnyEndpoint>(endpoint: E, params: EndpointParams<E> | null): Promise<EndpointData<E> | undefined>;
  /** Runs the endpoint now and resolves with the stored, denormalized data. */
  fetch<E extends AnyEndpoint>(endpoint: E, ...args: FetchArgs<EndpointParams<E>, EndpointBody<E>>): Promise<EndpointData<E>>;
  /** Fetches only when `useSuspense` would. */
  fetchIfStale<E extends AnyEndpoint>(endpoint: E, ...params: ParamsArg<EndpointParams<E>>): Promise<EndpointData<E>>;
  /** Synchronous read, optimistic data included. */
  getResponse<E extends AnyEndpoint>(endpoint: E, ...params: NullableParamsArg<EndpointParams<E>>): ResponseState<EndpointData<E>>;
  /** data-client's form: reads `state` (last) in place of this controller's store. */
  getResponse<E extends AnyEndpoint>(endpoint: E, params: EndpointParams<E> | null, state: ReadableState): ResponseState<EndpointData<E>>;
  getResponse<E extends AnyEndpoint>(endpoint: E, ...state: {} extends EndpointParams<E> ? [state: ReadableState] : never): ResponseState<EndpointData<E>>;
  /** data-client's name of `getResponse`. */
  readonly getResponseMeta: Controller['getResponse'];
  /** `get`'s read as data-client's `getQueryMeta` gives it; a state may be given last. */
  getQueryMeta<S extends QueryableSchema, R, A extends any[]>(
    schema: QuerySchema<S, R, A>,
    ...args: QueryArgs<A> | [...QueryArgs<A>, ReadableState]
  ): { data: R | undefined };
  getQueryMeta<S extends QueryableSchema>(schema: S, ...args: unknown[]): { data: Denormalize<S> | undefined };
  /** data-client's Snapshot of a store state: its reads, bound to `state`. */
  snapshot(state: ReadableState, fetchedAt?: number): StateSnapshot;
  /**
   * Calls `listener` now and after every change of that result; fetches as
   * `useSuspense` would, again when the result is invalidated or marked
   * stale by `expireAll`, and polls when the endpoint has `pollFrequency`,
   * unless `options` say otherwise. A result that only reaches its expiry
   * while subscribed is held as it is (no fetch, no call): the next read
   * that wants fresh data (`fetchIfStale`, `useSuspense`, a new
   * subscription, `revalidateActive`) revalidates it.
   */
  subscribe<E extends AnyEndpoint>(
    endpoint: E,
    params: SubscribeParams<EndpointParams<E>>,
    listener: (state: SubscriptionState<EndpointData<E>>) => void,
    options?: SubscribeOptions,
  ): Unsubscribe;
  /** Marks that result invalid: the next read fetches and waits. */
  invalidate<E extends AnyEndpoint>(endpoint: E, ...params: ParamsArg<EndpointParams<E>>): Promise<void>;
  /** Invalidates every stored key for which `testKey` is true (a function, or an object with a `testKey` method, as an endpoint). */
  invalidateAll(testKey: KeyTest): Promise<void>;
  /** Marks stale every stored key for which `testKey` is true (a function, or an object with a `testKey` method). */
  expireAll(testKey: KeyTest): Promise<void>;
  /** Empties the store; responses to earlier requests are ignored. */
  resetEntireStore(): Promise<void>;
  /** Stores data as if fetched. */
  setResponse<E extends AnyEndpoint>(endpoint: E, params: SetParams<EndpointParams<E>>, data: unknown): Promise<void>;
  /**
   * Stores `error` for that result as if its fetch had failed: reads reject
   * with it, without a request, for the endpoint's `errorExpiryLength`.
   */
  setError<E extends AnyEndpoint>(endpoint: E, params: SetParams<EndpointParams<E>>, error: Error): Promise<void>;
  /**
   * Stores `value` as the data of `schema` read with the args before it, with no request (data-client's `ctrl.set`).
   * `value` may be a function of what `get(schema, ...args)` reads now (not called, and nothing set, when nothing is
   * stored); a `schema.Query` writes through the schema it reads.
   */
  set<S extends Schema>(schema: S, ...argsAndValue: [...args: unknown[], value: unknown]): Promise<void>;
  getState(): StoreState;
  /**
   * Reads a Query (or an Entity by pk params, a `schema.All`) from the cache,
   * with no request; memoized: the same value until an entity it read
   * changes, per args (args that JSON writes alike but a Query's process
   * could tell apart, as `NaN` and `null` or a `Date` and its ISO string,
   * are other args). `undefined` when an Entity read finds nothing, or an All has nothing of its type stored.
   */
  get<S extends QueryableSchema, R, A extends any[]>(schema: QuerySchema<S, R, A>, ...args: QueryArgs<A>): R | undefined;
  get<E extends AnyEntity>(schema: E, params: { readonly [param: string]: unknown }): Denormalize<E> | undefined;
  get<E extends AnyEntity>(schema: AllSchema<E>): Denormalize<E>[] | undefined;
  /** A union of entities: the member its params' attribute names, by their pk. */
  get<U extends UnionSchema<any>>(schema: U, params: { readonly [param: string]: unknown }): Denormalize<U> | undefined;
  /** A Lazy's relationship: with the Lazy field's value (the pks), or an Entity's params. */
  get<S>(schema: LazyQuery<S>, ...args: LazyQueryArgs<S>): Denormalize<S> | undefined;
  /** data-client's form: reads `state` (last) in place of this controller's store. */
  get<S extends QueryableSchema, R, A extends any[]>(
    schema: QuerySchema<S, R, A>,
    ...argsAndState: [...args: QueryArgs<A>, state: ReadableState]
  ): R | undefined;
  get<E extends AnyEntity>(schema: E, params: { readonly [param: string]: unknown }, state: ReadableState): Denormalize<E> | undefined;
  get<E extends AnyEntity>(schema: AllSchema<E>, state: ReadableState): Denormalize<E>[] | undefined;
  get<U extends UnionSchema<any>>(schema: U, params: { readonly [param: string]: unknown }, state: ReadableState): Denormalize<U> | undefined;
  get<S>(schema: LazyQuery<S>, ...argsAndState: [...args: LazyQueryArgs<S>, state: ReadableState]): Denormalize<S> | undefined;
  /** Refetches what subscriptions hold that is stale or invalid; resolves when those fetches settle. */
  revalidateActive(): Promise<void>;
  /**
   * Runs one garbage collection sweep now: removes the results no
   * subscription holds that expired long enough ago, then the entities no
   * remaining result reaches that expired long enough ago. Held results read
   * the same objects as before.
   */
  gc(): GCStats;
  /** Removes the controller's listeners and stops its timers (polling, waits to retry, gc sweeps). */
  close(): void;
  /**
   * Merges a snapshot into the store as if fetched then; newer stored data
   * wins by `fetchedAt`. Rejects with an Error naming what is wrong when the
   * snapshot is malformed or of another version (the store unchanged).
   */
  hydrate(snapshot: StoreState): Promise<void>;
}

export interface ControllerConstructor {
  new (options?: ControllerOptions): Controller;
  readonly prototype: Controller;
}

// ------------------------------------------------------------ Persistence

/** Where `persist` keeps a snapshot: each method returns its result or a Promise of it (`localStorage` fits). */
export interface PersistStorage {
  getItem(key: string): string | null | undefined | Promise<string | null | undefined>;
  setItem(key: string, value: string): unknown;
  removeItem(key: string): unknown;
}

export interface PersistOptions {
  /** Default: `indexedDBStorage()` where IndexedDB exists. */
  storage?: PersistStorage;
  /** Default `'datafetch'`. */
  key?: string;
  /** The shortest time between two writes, ms of the controller's clock (default 1000). */
  throttle?: number;
  /** A stored snapshot older than this (ms) is not restored (default 86400000). */
  maxAge?: number;
  /** A snapshot written with another buster is not restored (default `''`). */
  buster?: string;
  /** Runs `fn` after `ms` and returns a cancel function (default: a timer); tests pass their own. */
  schedule?: (fn: () => void, ms: number) => () => void;
}

/** What `persist` resolves to. */
export interface Persisted {
  /** Writes now if anything changed since the last write. */
  flush(): Promise<void>;
  /** Ends the writes. */
  stop(): void;
}

/** Options of `syncTabs`. */
export interface SyncTabsOptions {
  /** The BroadcastChannel's name (default `'datafetch'`). */
  channel?: string;
}

// ------------------------------------------------------------ Other operations

/** `[handler, loading, error]`. */
export type LoadingState<A extends any[], R> = [handler: (...args: A) => Promise<R | undefined>, loading: boolean, error: Error | undefined];

/** `df.useLoading(asyncFn, onChange?)`: the error is exposed, not thrown. */
export interface UseLoading {
  <A extends any[], R>(asyncFn: (...args: A) => Promise<R>, onChange?: (state: LoadingState<A, R>) => void): LoadingState<A, R>;
}

/** Options of the legacy `df.Resource`. */
export interface LegacyResourceOptions<D extends object, S extends EntityFieldSchemas = {}> extends EntityOptions<D, S> {
  /** Base URL: list path `urlRoot`, detail path `urlRoot + ':id'`. */
  urlRoot: string;
}

/** A legacy resource: an entity with endpoint factories. */
export interface LegacyResource<T> extends Entity<T> {
  detail(): RestEndpoint<T, Params>;
  list(): RestEndpoint<T[], Params>;
  listShape(): RestEndpoint<T[], Params>;
  create(): RestEndpoint<T, Params>;
  update(): RestEndpoint<T, Params>;
  partialUpdate(): RestEndpoint<T, Params>;
  delete(): RestEndpoint<T | undefined, Params>;
}

/** `df.Resource(options)`. */
export interface LegacyResourceFactory {
  <D extends object, S extends EntityFieldSchemas = {}>(options: LegacyResourceOptions<D, S>): LegacyResource<Simplify<EntityRecord<D, S>>>;
}

// ------------------------------------------------------------ Errors

/** A non-2xx response (or, with status 0, a network failure; 400 for a body that is not JSON). */
export interface NetworkError extends Error {
  status: number;
  statusText: string;
  /** The Response, when there was one. */
  response?: Response;
  /** The response body, where it parses as JSON. */
  body?: unknown;
  /** How many retries were made before this error, when `retry` applied. */
  retries?: number;
  /** What `JSON.stringify` writes: name, status, message, the request's URL (and the body, when it was JSON). */
  toJSON(): { name: string; status: number; message: string; url: string | undefined; body?: unknown };
}

export interface NetworkErrorConstructor {
  new (response: Response): NetworkError;
  readonly prototype: NetworkError;
}

/** Thrown in `getOptimisticResponse` to apply no optimistic data. */
export interface AbortOptimistic extends Error {}

export interface AbortOptimisticConstructor {
  new (message?: string): AbortOptimistic;
  readonly prototype: AbortOptimistic;
}

// ------------------------------------------------------------ The module's own declarations

// data-client's module surface: usable at module top level, before load().

/**
 * `new RestEndpoint(options)`, before or after `load()` (`df.RestEndpoint`
 * is the same class), and the base of endpoint classes: `class
 * AuthedEndpoint extends RestEndpoint { urlPrefix = '...'; getRequestInit(body) {...} }`.
 * One construct signature, so that a class may extend it; the data is the
 * schema's read form (`any` without a schema).
 */
export declare const RestEndpoint: RestEndpointClass;
/** data-client's generic endpoint of any async function (docs/js-api.md, Endpoint). */
export declare const Endpoint: EndpointConstructor;
/** getResponse's `expiryStatus` values, named. */
export declare const ExpiryStatus: ExpiryStatusNames;

/**
 * data-client's generic options of an endpoint, as a class made to be
 * extended names them: `class AuthdEndpoint<O extends RestGenerics = any>
 * extends RestEndpoint<O> {...}`. `O` is the options object the
 * endpoint is made with, as typed: its `path` gives the params, `schema`
 * (else `process`'s result) the data, and the types-only `body` and
 * `searchParams` the body and the query-string params.
 */
export interface RestGenerics extends PartialRestGenerics {
  readonly path: string;
}

/** `RestGenerics` with every member optional: what `extend` may change. */
export interface PartialRestGenerics {
  readonly path?: string;
  readonly schema?: Schema | undefined;
  readonly method?: string;
  /** Types only: the body the endpoint takes. */
  readonly body?: any;
  /** Types only: the params that go in the query string. */
  readonly searchParams?: any;
  readonly paginationField?: string;
  process?(value: any, ...args: any): any;
}

/** The data an endpoint made with options `O` resolves to: its schema's read form, else `process`'s result, else `any`. */
export type RestGenericsData<O> = unknown extends O
  ? any
  : O extends { readonly schema: infer S extends Schema }
    ? Denormalize<S>
    : O extends { process(...args: any): infer R }
      ? R
      : any;
/** The params of an endpoint made with options `O`: its path's tokens, and its `searchParams` (any other param when it declares none). */
export type RestGenericsParams<O> = unknown extends O
  ? Params
  : O extends { readonly path: infer Path extends string }
    ? PathParams<Path, O extends { readonly searchParams: infer SP } ? (unknown extends SP ? undefined : Extract<SP, object | undefined>) : undefined>
    : Params;
/** The body of an endpoint made with options `O`: its types-only `body`, else any request body. */
export type RestGenericsBody<O> = unknown extends O ? any : O extends { readonly body: infer B } ? B : RequestBody;

/** The type of the module's `RestEndpoint`: see it. */
export interface RestEndpointClass {
  /**
   * An endpoint from options `O` (data-client's form): the params come from
   * the path and `searchParams`, the data from the schema. A subclass that
   * keeps `O` generic (`class AuthdEndpoint<O extends RestGenerics = any>
   * extends RestEndpoint<O>`) keeps these types; one that does not takes
   * any options, with data `any`.
   */
  new <O extends RestGenerics = any>(
    options: RestEndpointOptions<RestGenericsParams<O>, RestGenericsBody<O>> & Readonly<O>,
  ): RestEndpoint<RestGenericsData<O>, RestGenericsParams<O>, RestGenericsBody<O>>;
  readonly prototype: RestEndpoint;
}
/** The endpoints of a REST resource (`df.resource`). */
export declare const resource: ResourceFactory;
/** Alias of `resource`. */
export declare const createResource: ResourceFactory;
/**
 * The schema classes, and `schema.Entity` (`EntityMixin`), as data-client's
 * `schema`; each also names its type (`schema.Collection<[typeof Todo]>`).
 */
export declare namespace schema {
  const Entity: typeof EntityMixin;
  // biome-ignore lint/suspicious/noShadowRestrictedNames: data-client's name (schema.Array), within the namespace only
  const Array: SchemaClasses['Array'];
  type Array<S = Schema> = ArraySchema<S>;
  // biome-ignore lint/suspicious/noShadowRestrictedNames: data-client's name (schema.Object), within the namespace only
  const Object: SchemaClasses['Object'];
  type Object<M = SchemaObjectDefinition> = ObjectSchema<M>;
  const Values: SchemaClasses['Values'];
  type Values<S = Schema> = ValuesSchema<S>;
  const Union: SchemaClasses['Union'];
  type Union<M = { readonly [type: string]: AnyEntity }> = UnionSchema<M>;
  const Invalidate: SchemaClasses['Invalidate'];
  type Invalidate<E = AnyEntity> = InvalidateSchema<E>;
  const All: SchemaClasses['All'];
  type All<E = AnyEntity> = AllSchema<E>;
  const Query: SchemaClasses['Query'];
  type Query<S extends QueryableSchema = QueryableSchema, R = unknown, A extends any[] = any[]> = QuerySchema<S, R, A>;
  const Collection: SchemaClasses['Collection'];
  type Collection<S = Schema> = CollectionOf<S>;
  const Scalar: SchemaClasses['Scalar'];
  type Scalar = ScalarSchema;
  const Lazy: SchemaClasses['Lazy'];
  type Lazy<S = Schema> = LazySchema<S>;
}
/** `schema.Scalar`: lens-dependent entity fields (a class: a subclass may override `entityPk`). */
export declare const Scalar: SchemaClasses['Scalar'];
export type Scalar = ScalarSchema;
/** `schema.Collection`; the type `Collection<[typeof Todo]>` is a Collection of that list. */
export declare const Collection: SchemaClasses['Collection'];
export type Collection<S = Schema> = CollectionOf<S>;
/** `schema.Query`. */
export declare const Query: SchemaClasses['Query'];
export type Query<S extends QueryableSchema = QueryableSchema, R = unknown, A extends any[] = any[]> = QuerySchema<S, R, A>;
/** `schema.All`. */
export declare const All: SchemaClasses['All'];
export type All<E = AnyEntity> = AllSchema<E>;
/** `schema.Union`. */
export declare const Union: SchemaClasses['Union'];
export type Union<M = { readonly [type: string]: AnyEntity }> = UnionSchema<M>;
/** `schema.Values`. */
export declare const Values: SchemaClasses['Values'];
export type Values<S = Schema> = ValuesSchema<S>;
/** `schema.Invalidate`. */
export declare const Invalidate: SchemaClasses['Invalidate'];
export type Invalidate<E = AnyEntity> = InvalidateSchema<E>;
/** `schema.Lazy`. */
export declare const Lazy: SchemaClasses['Lazy'];
export type Lazy<S = Schema> = LazySchema<S>;
/** A Collection of `S`, a list written `[E]` or `readonly [E]` alike (as `resource().getList.schema` has it). */
type CollectionOf<S> = CollectionSchema<S extends readonly [infer E] ? readonly [E] : S>;
export declare const NetworkError: NetworkErrorConstructor;
/** What `denormalize` returns for data that requires a deleted entity (data-client's INVALID). */
export declare const INVALID: unique symbol;
/**
 * data-client's `validateRequired`, for a class's `static validate`: a
 * message naming the first key of `requiredDefaults` that `record` lacks
 * as its own, else undefined (`return validateRequired(r, Article.defaults)`).
 */
export declare function validateRequired(record: object, requiredDefaults: Record<string, unknown>): string | undefined;
/** data-client's `unshift`: a Collection merge that puts the incoming members first (`collection.moveWith(unshift)`). */
export declare function unshift<T>(existing: readonly T[], incoming: readonly T[]): T[];
/** data-client's MemoCache (its methods need `load()` to have resolved). */
export declare const MemoCache: MemoCacheConstructor;
export declare const actionTypes: ActionTypes;
export declare function getDefaultManagers(): Manager[];
export declare const StreamManager: StreamManagerConstructor;
export declare const AbortOptimistic: AbortOptimisticConstructor;

/** A controller made with the module's `Controller`: before `load()` has resolved, it waits for the one it makes. */
export type TopLevelController = Controller & {
  /** Resolves to the loaded controller (made before load(): once the module is in). */
  readonly ready?: Promise<Controller>;
  /** The loaded controller; undefined while the module loads. */
  readonly loaded?: Controller;
};

/** `new Controller(options)`, before or after `load()`. */
export declare const Controller: {
  new (options?: ControllerOptions): TopLevelController;
};

/**
 * A GET endpoint, as data-client names it: `GetEndpoint<{ path: '/todos/:id';
 * schema: typeof Todo }>` (params from the path and the types-only
 * `searchParams`, data from the schema); also `GetEndpoint<D, P>` of its
 * data and params.
 */
export type GetEndpoint<O = { path: string; schema: Schema }, P extends object = Params> = O extends { readonly path: string; readonly schema: any }
  ? RestEndpoint<RestGenericsData<O>, RestGenericsParams<O>>
  : RestEndpoint<O, P>;

/**
 * An endpoint with a body, as data-client names it: `MutateEndpoint<{ path:
 * '/todos/:id'; schema: typeof Todo; body: Partial<Todo> }>`.
 */
export type MutateEndpoint<O extends { readonly path: string; readonly schema: any; readonly body?: any } = { path: string; schema: Schema; body: any }> =
  RestEndpoint<RestGenericsData<O>, RestGenericsParams<O>, RestGenericsBody<O>>;

// Only the declarations marked `export` are exported.
export {};
