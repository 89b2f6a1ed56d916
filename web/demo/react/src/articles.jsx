// Articles: the list and the detail are useSuspense reads inside
// AsyncBoundaries; publish, create (getList.push) and delete are
// optimistic controller.fetch calls (the endpoints in resources.js say
// what they change at once), run through useLoading for their pending
// state. "Published" is a useQuery of a Query: derived from the cache,
// with no request.

import { memo, useEffect, useRef, useState } from 'react';
import { AsyncBoundary, useController, useLoading, useQuery, useSuspense } from 'datafetch/react';
import { ErrorMessage, Skeleton } from './boundary.jsx';
import { useNotices } from './notices.jsx';
import { ArticleResource, createArticle, isTemporary, publishedByTitle, temporaryId } from './resources.js';

export function ArticlesPage() {
  const [selected, setSelected] = useState(undefined);
  return (
    <div className="columns">
      <section className="card" id="articles">
        <div className="card-head">
          <h2>Articles</h2>
        </div>
        <AsyncBoundary fallback={<Skeleton lines={4} />} errorComponent={ErrorMessage}>
          <ArticleList selected={selected} onSelect={setSelected} />
        </AsyncBoundary>
        <CreateArticle />
      </section>
      <section className="card" id="detail">
        <div className="card-head">
          <h2>Detail</h2>
        </div>
        <AsyncBoundary fallback={<Skeleton lines={3} />} errorComponent={ErrorMessage}>
          <ArticleDetail id={selected} />
        </AsyncBoundary>
        <Published onSelect={setSelected} />
      </section>
    </div>
  );
}

function ArticleList({ selected, onSelect }) {
  const articles = useSuspense(ArticleResource.getList, {});
  return (
    <>
      <p className="count" id="article-count">
        {articles.length} articles
      </p>
      <ul className="rows">
        {articles.map((article) => (
          <ArticleRow key={article.id} article={article} selected={article.id === selected} onSelect={onSelect} />
        ))}
      </ul>
    </>
  );
}

// A row re-renders only when its article (the same object while it does
// not change) or its selection does.
const ArticleRow = memo(function ArticleRow({ article, selected, onSelect }) {
  const ctrl = useController();
  const { notify, disarm } = useNotices();
  const pending = isTemporary(article.id);

  // A new article (still under its temporary id) is scrolled into view.
  const ref = useRef(null);
  useEffect(() => {
    if (pending) ref.current?.scrollIntoView({ block: 'nearest' });
  }, [pending]);

  const [togglePublish] = useLoading(async () => {
    const verb = article.published ? 'Unpublished' : 'Published';
    try {
      await ctrl.fetch(ArticleResource.partialUpdate, { id: article.id }, { published: !article.published });
      notify(`${verb} “${article.title}”.`);
    } catch (err) {
      notify(`${verb.slice(0, -2)}ing “${article.title}” failed, so it was rolled back: ${err.message}`, true);
    } finally {
      disarm();
    }
  }, [ctrl, article, notify, disarm]);

  const [remove, removing] = useLoading(async () => {
    if (selected) onSelect(undefined);
    try {
      await ctrl.fetch(ArticleResource.delete, { id: article.id });
      notify(`Deleted “${article.title}”.`);
    } catch (err) {
      notify(`Deleting “${article.title}” failed, so it is back: ${err.message}`, true);
    } finally {
      disarm();
    }
  }, [ctrl, article, selected, onSelect, notify, disarm]);

  return (
    <li ref={ref} className={`row${selected ? ' selected' : ''}${pending ? ' pending' : ''}`} data-id={article.id} data-published={String(article.published)}>
      <div className="row-main">
        <button className="row-title" type="button" disabled={pending} onClick={() => onSelect(article.id)}>
          {article.title}
        </button>
        <div className="facts">
          <span className={`pk${pending ? ' temp' : ''}`}>{pending ? 'saving…' : `#${article.id}`}</span>
          {article.createdAt && <span>{article.createdAt.toLocaleDateString()}</span>}
        </div>
      </div>
      <span className={`badge${article.published ? ' on' : ''}`}>{article.published ? 'published' : 'draft'}</span>
      <button className="btn toggle" type="button" disabled={pending} onClick={togglePublish}>
        {article.published ? 'Unpublish' : 'Publish'}
      </button>
      <button className="btn delete" type="button" disabled={pending || removing} onClick={remove} aria-label={`Delete ${article.title}`}>
        Delete
      </button>
    </li>
  );
});

function ArticleDetail({ id }) {
  // null params: nothing is read until an article is chosen.
  const article = useSuspense(ArticleResource.get, id === undefined ? null : { id });
  if (article === undefined) return <p className="muted">Click an article.</p>;
  return (
    <article data-id={article.id} data-published={String(article.published)}>
      <h3>{article.title}</h3>
      <div className="facts">
        <span className="pk">#{article.id}</span>
        <span className={`badge${article.published ? ' on' : ''}`}>{article.published ? 'published' : 'draft'}</span>
        {article.createdAt && <span>created {article.createdAt.toLocaleDateString()}</span>}
        {article.tags.length > 0 && <span>{article.tags.join(', ')}</span>}
      </div>
      <p>{article.content}</p>
    </article>
  );
}

// Published: the Query publishedByTitle through useQuery. It reads what
// the list stored (nothing is fetched for it) and follows every change:
// a publish, an unpublish, a rollback.
function Published({ onSelect }) {
  const view = useQuery(publishedByTitle);
  const count = view?.count ?? 0;
  return (
    <div id="published">
      <div className="card-head">
        <h2>Published, by title</h2>
      </div>
      <p className="count" id="published-count">
        {count} published
      </p>
      <ol className="published">
        {view?.list.map((a) => (
          <li key={a.id} data-id={a.id}>
            <button className="row-title" type="button" onClick={() => onSelect(a.id)}>
              {a.title}
            </button>
          </li>
        ))}
      </ol>
    </div>
  );
}

function CreateArticle() {
  const ctrl = useController();
  const { notify, disarm } = useNotices();
  const [title, setTitle] = useState('');
  const [create] = useLoading(
    async (newTitle) => {
      // The body carries a temporary id: the optimistic article lives
      // under it until the server answers with the real one.
      const body = { id: temporaryId(), title: newTitle, content: 'Written in the React example.', published: false, tags: [] };
      notify(`Saving “${newTitle}”…`);
      try {
        const created = await ctrl.fetch(createArticle, {}, body);
        notify(`Created “${created.title}” as #${created.id}.`);
      } catch (err) {
        notify(`Creating “${newTitle}” failed, so it was rolled back: ${err.message}`, true);
      } finally {
        disarm();
      }
    },
    [ctrl, notify, disarm],
  );
  const submit = (e) => {
    e.preventDefault();
    const t = title.trim();
    if (!t) return;
    setTitle('');
    create(t);
  };
  return (
    <form id="create" onSubmit={submit}>
      <input type="text" id="new-title" placeholder="New article title" value={title} onChange={(e) => setTitle(e.target.value)} required />
      <button className="btn primary" type="submit" id="create-button">
        Create
      </button>
    </form>
  );
}
