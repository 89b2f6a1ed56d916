// Types of custom schemas (docs/js-api.md, "Custom schemas"): any object
// with normalize and denormalize is a SchemaClass, taken wherever a
// schema is, and reads as what its denormalize returns. Type-checked by
// `npx tsc --noEmit -p test/ts`, not run.
import { Endpoint, Entity, schema } from 'datafetch';
import type { Denormalize, SchemaClass, SchemaDenormalizeDelegate, SchemaNormalizeDelegate } from 'datafetch';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;

class User extends Entity {
  id = '';
  name = '';
  static key = 'User';
}

class Pair implements SchemaClass<{ label: string; record: User | undefined }> {
  constructor(readonly of: typeof User) {}
  normalize(input: [string, unknown], parent: unknown, key: unknown, delegate: SchemaNormalizeDelegate) {
    return [input[0], delegate.visit(this.of, input[1], input, 1)];
  }
  denormalize(input: [string, string], delegate: SchemaDenormalizeDelegate) {
    return { label: input[0], record: delegate.unvisit(this.of, input[1]) as User | undefined };
  }
}

const pairs = new Endpoint(async () => [], { schema: [new Pair(User)] });
const nested = new schema.Values(new Pair(User));
type PairRead = Denormalize<Pair>;
type CheckPair = Expect<Equal<PairRead, { label: string; record: User | undefined }>>;
type CheckList = Expect<Equal<Denormalize<Pair[]>, { label: string; record: User | undefined }[]>>;

const literal = {
  normalize: (input: unknown, _parent: unknown, _key: unknown, delegate: SchemaNormalizeDelegate) => {
    delegate.mergeEntity(User, '1', { id: '1' });
    return '1';
  },
  denormalize: (input: string, delegate: SchemaDenormalizeDelegate): number => delegate.args.length,
};
const withLiteral = new Endpoint(async () => 1, { schema: { total: literal } });
type CheckLiteral = Expect<Equal<Denormalize<typeof literal>, number>>;

// @ts-expect-error: a custom schema needs denormalize too
const half: SchemaClass = { normalize: () => 1 };

export { pairs, nested, withLiteral, half };
export type { CheckPair, CheckList, CheckLiteral };
