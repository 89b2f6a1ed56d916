// The generic Endpoint's types (datafetch.d.ts, Endpoint): type-checked,
// not run, by `npx tsc --noEmit -p test/ts`. The lines marked as expected
// errors are uses the types must reject.

import { Endpoint, Entity, ExpiryStatus, load } from 'datafetch';
import type { EndpointData, EndpointParams } from 'datafetch';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;

interface User {
  id: string;
  name: string;
}
async function getUser({ id }: { id: string }): Promise<User> {
  return { id, name: `user ${id}` };
}
async function listUsers(): Promise<User[]> {
  return [];
}

const detail = new Endpoint(getUser, { dataExpiryLength: 1000 });
const list = new Endpoint(listUsers);
const key: string = detail.key({ id: '5' });
// @ts-expect-error the key takes the function's args
detail.key(5);
type _d = Expect<Equal<EndpointData<typeof detail>, User>>;
type _p = Expect<Equal<EndpointParams<typeof detail>, { id: string }>>;
type _l = Expect<Equal<EndpointParams<typeof list>, {}>>;
const called: Promise<User> = detail({ id: '5' });

class UserEntity extends Entity {
  id = '';
  name = '';
}
const normalized = new Endpoint(getUser, { schema: UserEntity, key: ({ id }) => `user ${id}` });
type _n = Expect<Equal<EndpointData<typeof normalized>, UserEntity>>;
const renamed = detail.extend({ name: 'other', sideEffect: true });
type _r = Expect<Equal<EndpointData<typeof renamed>, User>>;
const bound = detail.bind(undefined, { id: '1' });
const boundKey: string = bound.key();

class Authed extends Endpoint<typeof getUser> {
  token = 'secret';
}

export async function useIt() {
  const df = await load();
  const ctrl = new df.Controller();
  const u: User = await ctrl.fetch(detail, { id: '1' });
  const all: User[] = await ctrl.fetch(list);
  const r = ctrl.getResponse(detail, { id: '1' });
  const data: User | undefined = r.data;
  const valid: boolean = r.expiryStatus === ExpiryStatus.Valid || r.expiryStatus === df.ExpiryStatus.Missing;
  // @ts-expect-error the params are the function's first arg
  ctrl.getResponse(detail, { name: 'x' });
  ctrl.invalidate(detail, { id: '1' });
  ctrl.setResponse(detail, { id: '1' }, { id: '1', name: 'set' });
  const e: UserEntity = await ctrl.fetch(normalized, { id: '2' });
  return [u, all, data, valid, e, key, called, boundKey, df.Endpoint, Authed];
}
