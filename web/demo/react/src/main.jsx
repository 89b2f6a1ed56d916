// The React example: the seed's articles, the counter and token
// pagination over the demo's REST API, written with datafetch/react.

import { StrictMode, useSyncExternalStore } from 'react';
import { createRoot } from 'react-dom/client';
import { DataProvider } from 'datafetch/react';
import { ArticlesPage } from './articles.jsx';
import { CounterPage } from './counter.jsx';
import { NetworkControls, Notice, NoticeProvider } from './notices.jsx';
import { PostsPage } from './posts.jsx';
import { df } from './resources.js';

const PAGES = [
  { hash: '#/articles', title: 'Articles', Page: ArticlesPage },
  { hash: '#/counter', title: 'Counter', Page: CounterPage },
  { hash: '#/posts', title: 'Posts', Page: PostsPage },
];

// The page shown is the URL's hash (#/counter), so each has a link.
const onHashChange = (notify) => {
  window.addEventListener('hashchange', notify);
  return () => window.removeEventListener('hashchange', notify);
};
function useHash() {
  return useSyncExternalStore(onHashChange, () => location.hash);
}

function App() {
  const hash = useHash();
  const page = PAGES.find((p) => p.hash === hash) ?? PAGES[0];
  return (
    <NoticeProvider>
      <header>
        <img src="/web/icon.svg" alt="" width="26" height="26" />
        <h1>
          datafetch <span className="sub">React · datafetch/react</span>
        </h1>
        <span id="status" className="muted" data-ready="true">
          datafetch {df.version} ready
        </span>
        <nav>
          {PAGES.map((p) => (
            <a key={p.hash} href={p.hash} className={p === page ? 'active' : ''} aria-current={p === page ? 'page' : undefined}>
              {p.title}
            </a>
          ))}
        </nav>
        <div className="right">
          <NetworkControls />
          <a href="/index.html">plain JS</a>
          <a href="/">go-app demo</a>
        </div>
      </header>
      <main data-page={page.title}>
        <Notice />
        <page.Page />
      </main>
    </NoticeProvider>
  );
}

// One controller, one cache, for the whole app.
const controller = new df.Controller();

createRoot(document.getElementById('root')).render(
  <StrictMode>
    <DataProvider controller={controller}>
      <App />
    </DataProvider>
  </StrictMode>,
);
