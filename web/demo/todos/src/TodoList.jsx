// One user's todos. Toggling, adding and deleting are controller fetches
// of the resource's mutations: optimistic (the resource says so), so each
// shows at once and is undone if the server fails; useLoading tells while
// the server has not answered.

import { useState } from 'react';
import { useController, useLoading, useQuery, useSuspense } from 'datafetch/react';
import { TodoResource, isTemporary, remainingTodos, temporaryId } from './resources.js';

export function TodoList({ userId }) {
  const todos = useSuspense(TodoResource.getList, { userId });
  const remaining = useQuery(remainingTodos, { userId });
  return (
    <section className="card" data-user={userId}>
      <NewTodo userId={userId} />
      <ul className="todos">
        {todos.map((todo) => (
          <TodoItem key={todo.pk()} todo={todo} />
        ))}
      </ul>
      <p className="stats" id="remaining">
        {remaining} of {todos.length} left
      </p>
    </section>
  );
}

function TodoItem({ todo }) {
  const ctrl = useController();
  const [toggle, toggling] = useLoading(() => ctrl.fetch(TodoResource.partialUpdate, { id: todo.id }, { completed: !todo.completed }), [todo]);
  const [remove, removing] = useLoading(() => ctrl.fetch(TodoResource.delete, { id: todo.id }), [todo]);
  // A todo the server has not created yet has no id to change it by.
  const creating = isTemporary(todo);
  return (
    <li className={todo.completed ? 'todo done' : 'todo'} data-todo={todo.id} data-pending={creating || toggling || removing || undefined}>
      <label>
        <input type="checkbox" checked={todo.completed} onChange={toggle} disabled={creating} />
        <span className="title">{todo.title}</span>
      </label>
      <button type="button" className="delete" aria-label={`Delete ${todo.title}`} onClick={remove} disabled={creating}>
        ×
      </button>
    </li>
  );
}

function NewTodo({ userId }) {
  const ctrl = useController();
  const [title, setTitle] = useState('');
  const [create, creating] = useLoading(
    async (event) => {
      event.preventDefault();
      if (title.trim() === '') return;
      setTitle('');
      // The temporary id is the todo's place in the list until the server
      // answers with its own (the server ignores an id in the body).
      await ctrl.fetch(TodoResource.getList.unshift, { userId }, { id: temporaryId(), userId, title: title.trim(), completed: false });
    },
    [title, userId],
  );
  return (
    <form className="new-todo" onSubmit={create}>
      <input aria-label="New todo" placeholder="What needs doing?" value={title} onChange={(e) => setTitle(e.target.value)} />
      <button type="submit" disabled={creating && title === ''}>
        Add
      </button>
    </form>
  );
}
