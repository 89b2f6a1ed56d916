// Token pagination of GET /posts: page by page, each page its own result
// keyed by its token (going back shows the cached page at once); and one
// list that grows page by page through a paginated endpoint.

import { useState, useTransition } from 'react';
import { AsyncBoundary, useController, useLoading, useSuspense } from 'datafetch/react';
import { ErrorMessage, Skeleton } from './boundary.jsx';
import { getMorePosts, getPostFeed, getPosts, pageNumber } from './resources.js';

export function PostsPage() {
  return (
    <div className="columns">
      <section className="card" id="paged">
        <AsyncBoundary fallback={<Skeleton lines={5} />} errorComponent={ErrorMessage}>
          <PagedPosts />
        </AsyncBoundary>
      </section>
      <section className="card" id="feed">
        <AsyncBoundary fallback={<Skeleton lines={5} />} errorComponent={ErrorMessage}>
          <PostFeed />
        </AsyncBoundary>
      </section>
    </div>
  );
}

function PagedPosts() {
  // The token of the page shown; '' is the first page.
  const [token, setToken] = useState('');
  // A page that is not cached suspends: in a transition the page shown
  // stays until the next one is ready.
  const [isPending, startTransition] = useTransition();
  const page = useSuspense(getPosts, token ? { page: token } : {});
  const goTo = (next) => startTransition(() => setToken(next));
  return (
    <>
      <div className="card-head">
        <h2>Page by page</h2>
        <span className="count" id="page-number">
          page {pageNumber(token)}
        </span>
        {isPending && <span className="muted">loading…</span>}
      </div>
      <PostList posts={page.results} />
      <div className="pager">
        <button id="prev-page" className="btn" type="button" disabled={!page.prevPage} onClick={() => goTo(page.prevPage)}>
          ← Previous
        </button>
        <button id="next-page" className="btn" type="button" disabled={!page.nextPage} onClick={() => goTo(page.nextPage)}>
          Next →
        </button>
      </div>
    </>
  );
}

function PostFeed() {
  const ctrl = useController();
  const feed = useSuspense(getPostFeed, {});
  const [loadMore, loading, error] = useLoading(() => ctrl.fetch(getMorePosts, { page: feed.nextPage }), [ctrl, feed.nextPage]);
  return (
    <>
      <div className="card-head">
        <h2>Infinite list</h2>
        <span className="count" id="feed-count">
          {feed.results.length} posts
        </span>
      </div>
      <div className="scroll-list">
        <PostList posts={feed.results} />
      </div>
      <div className="pager">
        {feed.nextPage ? (
          <button id="load-more" className="btn" type="button" disabled={loading} onClick={loadMore}>
            {loading ? 'Loading…' : 'Load more'}
          </button>
        ) : (
          <p className="muted" id="list-end">
            That is every post.
          </p>
        )}
        {error && <span className="error-text">{error.message}</span>}
      </div>
    </>
  );
}

function PostList({ posts }) {
  return (
    <ul className="rows post-list">
      {posts.map((post) => (
        <li key={post.id} className="row post-row" data-id={post.id}>
          <div className="row-main">
            <span className="row-title">{post.title}</span>
            <div className="facts">
              <span className="pk">#{post.id}</span>
              <span className="clamp">{post.content}</span>
            </div>
          </div>
        </li>
      ))}
    </ul>
  );
}
