// The todo app's data, declared the data-client way: entity classes and
// resources at module top level, imported from 'datafetch' with no load()
// anywhere (the first hook that needs the engine loads it, with
// datafetch.wasm beside the bundle).

import { Entity, Query, resource } from 'datafetch';

/** Where the demo server mounts its REST API. */
const API = '/rest';

/** Every record of the demo API has a numeric id. */
export class DemoEntity extends Entity {
  id = 0;
}

export class User extends DemoEntity {
  name = '';
  email = '';
  isManager = false;

  /** The user's first name, for the tabs. */
  get firstName() {
    return this.name.split(' ')[0];
  }

  /** Two letters for the avatar. */
  get initials() {
    return this.name
      .split(' ')
      .map((part) => part[0])
      .join('')
      .slice(0, 2);
  }

  static key = 'User';
}

export class Todo extends DemoEntity {
  userId = 0;
  title = '';
  completed = false;

  static key = 'Todo';
}

/**
 * A resource of the demo API. Its data changes only through this app, so
 * it stays fresh for an hour; a partial update's answer is completed with
 * the id from the params, as data-client's example does for APIs that
 * leave it out.
 */
function demoResource(options) {
  return resource({ urlPrefix: API, dataExpiryLength: 60 * 60 * 1000, ...options }).extend({
    partialUpdate: {
      process(response, params) {
        return { ...response, id: params?.id ?? response.id };
      },
    },
  });
}

/** The todos, filtered by ?userId; every change shows at once. */
export const TodoResource = demoResource({
  path: '/todos/:id',
  schema: Todo,
  optimistic: true,
  searchParams: undefined,
});

export const UserResource = demoResource({ path: '/users/:id', schema: User });

/** Ids of todos the server has not answered for yet start with this. */
const TEMPORARY = 'tmp-';
let temporaryIds = 0;

/** A temporary id for a todo being created: its place until the server's answer. */
export const temporaryId = () => `${TEMPORARY}${++temporaryIds}`;

/** Whether todo is still waiting for the server to create it. */
export const isTemporary = (todo) => String(todo.id).startsWith(TEMPORARY);

/** How many of a user's todos are left: derived from the cache, no request. */
export const remainingTodos = new Query(TodoResource.getList.schema, (todos) => todos.filter((todo) => !todo.completed).length);
