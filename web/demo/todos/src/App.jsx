// The page: a tab per user (their list is read once and kept, so going
// back to a user shows it from the cache), the user's todos with a form
// to add one, and how many are left.

import { useMemo, useState } from 'react';
import { AsyncBoundary, useSuspense } from 'datafetch/react';
import { ErrorMessage, retrying } from './ErrorMessage.jsx';
import { TodoList } from './TodoList.jsx';
import { TodoResource, UserResource } from './resources.js';

/** How many users get a tab. */
const USERS_SHOWN = 4;

export function App() {
  const [userId, setUserId] = useState(1);
  const todosFailed = useMemo(() => retrying(TodoResource.getList, { userId }), [userId]);
  return (
    <main>
      <h1>Todos</h1>
      <AsyncBoundary fallback={<p className="loading">Loading users…</p>} errorComponent={ErrorMessage}>
        <UserTabs userId={userId} onSelect={setUserId} />
      </AsyncBoundary>
      <AsyncBoundary key={userId} fallback={<p className="loading">Loading todos…</p>} errorComponent={todosFailed}>
        <TodoList userId={userId} />
      </AsyncBoundary>
    </main>
  );
}

function UserTabs({ userId, onSelect }) {
  const users = useSuspense(UserResource.getList, {});
  return (
    <nav className="tabs" aria-label="Users">
      {users.slice(0, USERS_SHOWN).map((user) => (
        <button
          key={user.id}
          type="button"
          className={user.id === userId ? 'tab active' : 'tab'}
          aria-pressed={user.id === userId}
          data-user={user.id}
          onClick={() => onSelect(user.id)}
        >
          <span className="avatar">{user.initials}</span>
          {user.firstName}
        </button>
      ))}
    </nav>
  );
}
