// The bad-input matrix through the JavaScript API: the cases of
// test/badinput/matrix_test.go (the Go API), by the same names, plus cases
// only JavaScript can make (non-string keys, undefined and NaN, callbacks
// that throw or return what JSON cannot hold, listeners that throw), and
// the faults: a server down, slower than the timeout, failing some of the
// time, and requests aborted with an AbortSignal.
//
// For every failing case: the error names the endpoint and the URL or
// schema key and says what was wrong; ctrl.getState() is exactly as before
// but for the failed key's error meta; a read of a failed key gets the kept
// error again without a request; no optimistic update is left; and the
// next normal request works. An accepted empty answer is null, stored as a
// fresh result.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, deadURL, env, failureOf, fakeClock, linkFetch, recorder, server, setup, test, waitFor } from './harness.mjs';

setup();

// ---------------------------------------------------------------- helpers

/** The params of the comment list that populated stores. */
const POPULATED_LIST = { postId: 2 };

/**
 * A controller with a comment, a comment list, the articles and article 1
 * stored. Its clock stands still: results stay fresh and errors stay kept
 * however long a case takes.
 */
async function populated(df, fx, base) {
  const ctrl = new df.Controller({ now: fakeClock().now });
  const comments = new df.RestEndpoint({ urlPrefix: base, path: '/comments', name: 'comments', schema: [fx.Comment] });
  await ctrl.useSuspense(fx.getComment, { id: 1 });
  // The comments of post 2 (6 to 10): the cases read comment 2 through
  // endpoints of their own and must reach the server, which a stored
  // Comment 2 would spare them (a read of one entity by its pk is answered
  // from the entity table).
  await ctrl.useSuspense(comments, POPULATED_LIST);
  await ctrl.useSuspense(fx.listArticles);
  await ctrl.useSuspense(fx.getArticle, { id: '1' });
  return { ctrl, comments };
}

/** Normal requests still work: a new read, and the populated list is still fresh. */
async function assertAlive(ctrl, fx, comments) {
  const before = await server.count('GET /comments?postId=2');
  const c = await ctrl.useSuspense(fx.getComment, { id: 2 });
  assert.equal(c.id, 2, 'the next normal request works');
  const list = await ctrl.useSuspense(comments, POPULATED_LIST);
  assert.equal(list.length, 5);
  assert.equal(await server.count('GET /comments?postId=2'), before, 'the populated list is still fresh');
}

function withoutMeta(state, key) {
  const meta = { ...state.meta };
  delete meta[key];
  return { ...state, meta };
}

const body = (text) => ({ text });
const GET = (ctrl, ep, params) => ctrl.useSuspense(ep, params);
const FETCH_BODY = (ctrl, ep, params) => ctrl.fetch(ep, params, { title: 'changed by the case' });
const setResponse = (data) => (ctrl, ep, params) => ctrl.setResponse(ep, params, data);
const HUGE_MB = 50;

// ---------------------------------------------------------------- the cases

/**
 * The cases, by the names of test/badinput/matrix_test.go. Each is
 * {name, ep(s) → endpoint options, params, call, ...outcome}: a failure
 * ({keyed, status, network, errName, want}) or {accepted: true, check}.
 * A failure with a status is a df.NetworkError unless network is false (an
 * error of the caller's own code that carries a status). check gets
 * (value, error, {ctrl, fx, ep, params}). s = {df, fx, base, dead}.
 */
function cases() {
  const parse = (...want) => ({ keyed: true, status: 400, errName: 'NetworkError', want });
  const shape = (...want) => ({ keyed: true, errName: 'Error', want });
  const callback = (...want) => ({ keyed: true, errName: 'Error', want });
  const params = (...want) => ({ keyed: false, errName: 'Error', want });
  const isNull = storedNull;
  const comment = (name, path) => (s) => ({ name, path, schema: s.fx.Comment });
  const bodyEp = (name, schema) => (s) => ({ name, path: '/bad/body', schema: schema(s) });
  const C = (s) => s.fx.Comment;
  const listOf = (f) => (s) => [f(s)];
  const A = (s) => s.fx.Article;
  const union = (s) => new s.df.schema.Union({ comment: s.fx.Comment, user: users(s) }, 'type');
  const mutation = (name, extra) => (s) => ({ name, path: '/articles/:id', method: 'PATCH', schema: s.fx.Article, ...extra(s) });
  const noRequest = (key) => async () => assert.equal(await server.count(key), 0, 'no request was sent');
  const articleUnchanged = async (v, err, ctx) => {
    const a = ctx.ctrl.getResponse(ctx.fx.getArticle, { id: '1' }).data;
    assert.notEqual(a.title, 'changed by the case');
  };

  return [
    // ------------------------------------------------ bodies that are not JSON
    {
      name: 'truncated JSON',
      ep: comment('truncated', '/bad/truncated'),
      params: undefined,
      ...parse('GET', '/bad/truncated', '400', 'invalid JSON at offset'),
    },
    { name: 'HTML error page with status 200', ep: comment('html', '/bad/html'), params: undefined, ...parse('/bad/html', '400', 'invalid JSON', 'DOCTYPE') },
    // The custom fetch of a header-token list (docs/js-api.md, Pagination) gives the
    // error of a body that is not JSON status 400 and rethrows it. The
    // caller gets that error's name and status; the message names the
    // endpoint and its fetch option. (The Go twin's fetch parses with the
    // endpoint's own DefaultParseResponse, so it gets a NetworkError with
    // the URL; JavaScript has no such helper: its fetch parses the body
    // itself, as the seed's does.)
    {
      name: 'header-token list with a body that is not JSON',
      params: undefined,
      keyed: true,
      status: 400,
      network: false,
      errName: 'SyntaxError',
      want: ['fetch', 'not valid JSON'],
      ep: (s) => ({ name: 'linkedHTML', path: '/bad/html', schema: { results: [s.fx.Comment], link: '' }, fetch: linkFetch }),
      check: (v, err) => {
        assert.ok(err.cause instanceof SyntaxError, 'the error the fetch option threw is the cause');
        assert.equal(err.cause.status, 400);
      },
    },
    { name: 'invalid JSON: NaN literal', ep: bodyEp('nanLiteral', C), params: body('{"id":2,"score":NaN}'), ...parse('/bad/body', '400', 'invalid JSON') },
    { name: 'invalid JSON: trailing garbage', ep: bodyEp('trailing', C), params: body('{"id":2} {"id":3}'), ...parse('/bad/body', '400', 'invalid JSON') },
    { name: 'invalid JSON: single quotes', ep: bodyEp('singleQuotes', C), params: body("{'id':2}"), ...parse('/bad/body', '400', 'invalid JSON') },
    { name: 'invalid JSON: a bare word', ep: bodyEp('bareWord', C), params: body('undefined'), ...parse('/bad/body', '400', 'invalid JSON', 'undefined') },
    {
      name: 'plain text with status 200',
      ep: bodyEp('plainText', C),
      params: { text: 'OK', type: 'text/plain' },
      ...parse('/bad/body', '400', 'invalid JSON', 'OK'),
    },
    {
      name: 'JSON after a UTF-8 byte-order mark',
      ep: bodyEp('bom', C),
      params: { text: '{"id":2,"name":"bom"}', bom: '1' },
      accepted: true,
      check: (v) => assert.equal(v.name, 'bom'),
    },

    // ------------------------------------------------ empty bodies (spec: null)
    { name: '204 where a record is expected', ep: comment('empty', '/bad/empty'), params: undefined, accepted: true, check: isNull },
    {
      name: '204 where a list is expected',
      ep: (s) => ({ name: 'emptyList', path: '/bad/empty', schema: [s.fx.Comment] }),
      params: undefined,
      accepted: true,
      check: isNull,
    },
    { name: 'empty body with status 200', ep: bodyEp('emptyBody', C), params: {}, accepted: true, check: isNull },
    { name: 'whitespace-only body', ep: bodyEp('blank', C), params: body(' \n\t '), accepted: true, check: isNull },
    { name: 'JSON null where a record is expected', ep: bodyEp('jsonNull', C), params: body('null'), accepted: true, check: isNull },
    {
      name: '204 where an envelope object is expected',
      ep: (s) => ({ name: 'emptyEnvelope', path: '/bad/empty', schema: { data: s.fx.Comment } }),
      params: undefined,
      accepted: true,
      check: isNull,
    },
    {
      name: '204 from an endpoint without a schema',
      ep: () => ({ name: 'emptyNoSchema', path: '/bad/empty' }),
      params: undefined,
      accepted: true,
      check: isNull,
    },

    // ------------------------------------------------ shapes
    // A record where a list is expected is read as its values, as
    // data-client reads it (schema-parity.test.mjs); text is an error.
    {
      name: 'text where a list is expected',
      ep: bodyEp('wantList', (s) => [s.fx.Comment]),
      params: body('"comments"'),
      ...shape('/bad/body', '[Comment]', 'expected an array, got string'),
    },
    {
      name: 'list where a record is expected',
      ep: comment('wantRecord', '/comments'),
      params: { postId: 1 },
      ...shape('/comments?postId=1', 'Comment at $', 'expected a record (object), got array'),
    },
    {
      name: 'list where an envelope object is expected',
      ep: (s) => ({ name: 'wantEnvelope', path: '/comments', schema: { data: [s.fx.Comment] } }),
      params: { postId: 1 },
      ...shape('/comments?postId=1', 'expected an object, got array'),
    },
    {
      name: 'string where a record is expected',
      ep: bodyEp('stringBody', C),
      params: body('"hello"'),
      ...shape('/bad/body', 'Comment at $', 'expected a record (object), got string'),
    },
    {
      name: 'number where a record is expected',
      ep: bodyEp('numberBody', C),
      params: body('42'),
      ...shape('/bad/body', 'Comment at $', 'expected a record (object), got number'),
    },
    {
      name: 'boolean where a record is expected',
      ep: bodyEp('boolBody', C),
      params: body('true'),
      ...shape('/bad/body', 'Comment at $', 'expected a record (object), got boolean'),
    },
    // A union value no member takes is kept as it is, as data-client
    // keeps it (schema-parity.test.mjs); one that is not an object is an
    // error.
    {
      name: 'list where a union record is expected',
      ep: bodyEp('unionList', union),
      params: body('[{"type":"video","id":1}]'),
      ...shape('/bad/body', 'union at $', 'expected a record (object), got array'),
    },
    {
      name: 'list where a map is expected',
      ep: bodyEp('wantMap', (s) => new s.df.schema.Values(s.fx.Comment)),
      params: body('[{"id":1}]'),
      ...shape('/bad/body', 'values(Comment) at $', 'expected an object, got array'),
    },

    // ------------------------------------------------ fields
    {
      name: 'nested entity field of the wrong type',
      ep: bodyEp('authorObjectPK', A),
      params: body('{"id":"1","author":{"id":{"a":1}}}'),
      ...shape('/bad/body', 'User at $.author', 'primary key'),
    },
    {
      name: 'nested entity field that is a list',
      ep: bodyEp('authorList', A),
      params: body('{"id":"1","author":[1,2]}'),
      ...shape('/bad/body', 'User at $.author', 'got array'),
    },
    {
      name: 'date field that is not a date',
      ep: bodyEp('badDate', A),
      params: body('{"id":"1","createdAt":"yesterday"}'),
      ...shape('/bad/body', 'Date at $.createdAt', 'invalid date "yesterday"'),
    },
    {
      name: 'date field of the wrong type',
      ep: bodyEp('dateObject', A),
      params: body('{"id":"1","createdAt":{"year":2024}}'),
      ...shape('/bad/body', 'Date at $.createdAt', 'got object'),
    },
    {
      name: 'nested record without a pk',
      ep: bodyEp('authorNoPK', A),
      params: body('{"id":"1","author":{"name":"anonymous"}}'),
      ...shape('/bad/body', 'User at $.author', 'no primary key'),
    },

    // ------------------------------------------------ primary keys
    { name: 'record with no pk', ep: comment('noPK', '/bad/nopk'), params: undefined, ...shape('/bad/nopk', 'Comment at $', 'no primary key', '"id"') },
    {
      name: 'record with no pk inside an envelope',
      params: undefined,
      ...shape('/bad/nopk', 'Comment at $.data[0]', 'primary key'),
      ep: (s) => ({ name: 'noPKNested', path: '/bad/nopk', schema: { data: [s.fx.Comment] }, process: (v) => ({ data: [v] }) }),
    },
    { name: 'null pk', ep: bodyEp('nullPK', C), params: body('{"id":null,"name":"x"}'), ...shape('/bad/body', 'Comment at $', 'no primary key') },
    { name: 'object pk', ep: bodyEp('objectPK', C), params: body('{"id":{"n":2}}'), ...shape('/bad/body', 'Comment at $', 'primary key field "id" is object') },
    { name: 'list pk', ep: bodyEp('listPK', C), params: body('{"id":[2]}'), ...shape('/bad/body', 'Comment at $', 'primary key field "id" is array') },
    { name: 'empty-string pk', ep: bodyEp('emptyPK', C), params: body('{"id":"","name":"x"}'), ...shape('/bad/body', 'Comment at $', 'no primary key') },
    {
      name: 'wrong pk deep in a list',
      ep: bodyEp('lateBadPK', listOf(C)),
      params: body('[{"id":1,"name":"changed"},{"id":70},{"id":{}}]'),
      ...shape('/bad/body', 'Comment at $[2]', 'is object'),
      check: (v, err, ctx) => assert.ok(!('70' in (ctx.ctrl.getState().entities.Comment ?? {})), 'no record of the failed response is stored'),
    },
    {
      name: 'duplicate pks in one response',
      ep: (s) => ({ name: 'dupes', path: '/bad/dupes', schema: [s.fx.Comment] }),
      params: undefined,
      accepted: true,
      check: (v) => {
        assert.equal(v.length, 3);
        assert.equal(v[0], v[2], 'one entity, one object');
        assert.equal(v[0].name, 'second copy', 'the later record wins');
        assert.equal(v[0].email, 'a@example.com', 'fields only the first had are kept');
      },
    },
    {
      name: 'duplicate keys in one record',
      ep: bodyEp('dupeKeys', C),
      params: body('{"id":2,"name":"a","name":"b"}'),
      accepted: true,
      check: (v) => assert.equal(v.name, 'b', 'the last one wins, as in JSON.parse'),
    },

    // ------------------------------------------------ size and depth
    {
      name: '10,000 levels of nested arrays',
      ep: comment('deep', '/bad/deep'),
      params: undefined,
      ...parse('/bad/deep', '400', 'nesting deeper than 1000 levels'),
    },
    {
      name: 'a chain of 10,000 references',
      params: undefined,
      accepted: true,
      // head is read through 200 levels of schema (an entity cannot name
      // itself in JavaScript), past where reads stop following references.
      ep: (s) => ({
        name: 'chain',
        path: '/bad/chain',
        schema: { head: chainHead(s, 200), all: [users(s)] },
        process: (list) => ({ head: list[0], all: list }),
      }),
      check: (v, err, ctx) => {
        assert.equal(v.all.length, 10000);
        let depth = 0;
        let u = v.head;
        for (; u.bestFriend && typeof u.bestFriend === 'object'; u = u.bestFriend) depth++;
        assert.equal(depth, 128, 'references are followed 128 levels deep (schema.MaxDepth)');
        assert.equal(u.bestFriend, '130', 'then the record shows the key of the next');
      },
    },
    {
      name: 'users that all reference each other',
      ep: (s) => ({ name: 'cyclic', path: '/bad/cyclic', schema: [users(s)] }),
      params: { n: 200 },
      accepted: true,
      check: (v, err, ctx) => {
        assert.equal(v.length, 200);
        for (const u of v) {
          assert.equal(u.friends.length, 199);
          for (const f of u.friends) assert.equal(typeof f, 'object', 'every friend reads as a record');
        }
        assert.equal(v[1].friends[0], v[2].friends[0], 'an entity reads as one object wherever it appears');
        v.forEach((u, i) => {
          assert.equal(v[(i + 199) % 200].bestFriend.id, u.id, 'best friends go round');
        });
      },
    },
    {
      name: 'a 50 MB list',
      ep: (s) => ({ name: 'huge', path: '/bad/huge', schema: [s.fx.Comment] }),
      params: { mb: HUGE_MB },
      accepted: true,
      check: (v) => {
        assert.ok(v.length > HUGE_MB * 1000);
        assert.equal(v[0].id, 1);
      },
    },
    {
      name: 'a 50 MB list whose last record has no pk',
      ep: (s) => ({ name: 'hugeNoPK', path: '/bad/huge', schema: [s.fx.Comment] }),
      params: { mb: HUGE_MB, tail: 'nopk' },
      ...shape('/bad/huge', 'Comment at $[', 'no primary key'),
    },
    {
      name: 'a 50 MB list cut short',
      ep: (s) => ({ name: 'hugeTruncated', path: '/bad/huge', schema: [s.fx.Comment] }),
      params: { mb: HUGE_MB, tail: 'truncated' },
      ...parse('/bad/huge', '400', 'invalid JSON'),
    },

    // ------------------------------------------------ error statuses and the network
    {
      name: '404 with a JSON error body',
      ep: comment('missing', '/comments/:id'),
      params: { id: 999 },
      keyed: true,
      status: 404,
      errName: 'NetworkError',
      want: ['/comments/999', '404 Not Found', 'comment 999 not found'],
      check: (v, err) => {
        assert.deepEqual(err.body, { error: 'comment 999 not found' });
        assert.equal(err.response.status, 404);
      },
    },
    {
      name: '500 with an HTML body',
      ep: bodyEp('serverError', C),
      params: { status: 500, type: 'text/html', text: '<html><body><h1>Internal Server Error</h1></body></html>' },
      keyed: true,
      status: 500,
      errName: 'NetworkError',
      want: ['/bad/body', '500 Internal Server Error', 'Internal Server Error</h1>'],
      check: async (v, err) => assert.match(await err.response.text(), /<h1>Internal Server Error<\/h1>/, 'the response can still be read'),
    },
    {
      name: '503 with a JSON error body',
      ep: comment('unavailable', '/bad/status/503'),
      params: undefined,
      keyed: true,
      status: 503,
      errName: 'NetworkError',
      want: ['/bad/status/503', '503'],
    },
    {
      name: 'server closes the connection mid-body',
      ep: comment('dropped', '/bad/close'),
      params: undefined,
      keyed: true,
      status: 0,
      errName: 'NetworkError',
      want: ['/bad/close', 'network error'],
    },
    {
      name: 'server down',
      ep: (s) => ({ name: 'offline', urlPrefix: s.dead, path: '/comments/:id', schema: s.fx.Comment }),
      params: { id: 2 },
      keyed: true,
      status: 0,
      errName: 'NetworkError',
      want: ['/comments/2', 'network error'],
    },
    // The server would answer after ten minutes: only the timeout can end it.
    {
      name: 'slower than the endpoint timeout',
      ep: (s) => ({ name: 'slow', path: '/bad/slow', schema: s.fx.Comment, timeout: 100 }),
      params: { ms: 600_000 },
      keyed: true,
      status: 0,
      errName: 'TimeoutError',
      want: ['/bad/slow?ms=600000', 'timed out', '100ms'],
    },
    // The server never answers: only the timeout can end the request.
    {
      name: 'a server that never answers, with a timeout',
      ep: (s) => ({ name: 'hangs', path: '/bad/hang', schema: s.fx.Comment, timeout: 50 }),
      params: undefined,
      keyed: true,
      status: 0,
      errName: 'TimeoutError',
      want: ['/bad/hang', 'timed out', '50ms'],
    },
    {
      name: 'a fetch option that never resolves, with a timeout',
      ep: (s) => ({ name: 'neverResolves', path: '/comments/:id', schema: s.fx.Comment, timeout: 100, fetch: () => new Promise(() => {}) }),
      params: { id: 2 },
      keyed: true,
      status: 0,
      errName: 'TimeoutError',
      want: ['/comments/2', 'timed out', '100ms'],
    },

    // ------------------------------------------------ params
    {
      name: 'params missing a path token',
      ep: comment('needsID', '/comments/:id'),
      params: { postId: 1 },
      ...params('missing path token :id', '/comments/:id'),
    },
    { name: 'path token that is null', ep: comment('nullID', '/comments/:id'), params: { id: null }, ...params('missing path token :id', '/comments/:id') },
    { name: 'NaN where a path token is expected', ep: comment('nanID', '/comments/:id'), params: { id: NaN }, ...params('missing path token :id') },
    {
      name: 'path token that is an object',
      ep: comment('objectID', '/comments/:id'),
      params: { id: { n: 2 } },
      ...params('path token :id', 'must be a string, number or boolean, got object'),
    },
    {
      name: 'query param that is an object',
      ep: (s) => ({ name: 'objectQuery', path: '/comments', schema: [s.fx.Comment] }),
      params: { filter: { postId: 1 } },
      ...params('query param "filter"', 'object'),
    },
    { name: 'params that are a list', ep: comment('listParams', '/comments/:id'), params: [2], ...params('params must be an object, got array') },
    {
      name: 'path token needing escaping',
      ep: comment('escaped', '/comments/:id'),
      params: { id: '1/../2?x=#y %' },
      keyed: true,
      status: 404,
      errName: 'NetworkError',
      want: ['/comments/1%2F..%2F2%3Fx%3D%23y%20%25', '404', 'comment 1/../2?x=#y % not found'],
    },
    {
      name: 'unicode and emoji in params',
      ep: comment('unicode', '/comments/:id'),
      params: { id: 2, q: 'é 😀 &=?' },
      accepted: true,
      check: async (v) => {
        assert.equal(v.id, 2);
        assert.equal(await server.count('GET /comments/2?q=%C3%A9+%F0%9F%98%80+%26%3D%3F'), 1, JSON.stringify(await server.counts()));
      },
    },

    // ------------------------------------------------ callbacks
    {
      name: 'process throws',
      ep: (s) => ({
        name: 'processFails',
        path: '/comments/:id',
        schema: s.fx.Comment,
        process() {
          throw new Error('bad record');
        },
      }),
      params: { id: 2 },
      ...callback('process', 'bad record'),
    },
    {
      name: 'process returns the wrong type',
      ep: (s) => ({ name: 'processString', path: '/comments/:id', schema: s.fx.Comment, process: () => 'oops' }),
      params: { id: 2 },
      ...callback('Comment at $', 'expected a record (object), got string'),
    },
    {
      name: 'process returns undefined',
      ep: (s) => ({ name: 'processUndefined', path: '/comments/:id', schema: s.fx.Comment, process: () => undefined }),
      params: { id: 2 },
      ...callback('response is undefined'),
    },
    {
      name: 'process fails unexpectedly',
      ep: (s) => ({ name: 'processPanics', path: '/comments/:id', schema: s.fx.Comment, process: (v) => ({ ...v, big: 10n }) }),
      params: { id: 2 },
      ...callback('process', 'BigInt'),
    },
    {
      name: 'getHeaders throws',
      ep: (s) => ({
        name: 'headersFail',
        path: '/comments/:id',
        schema: s.fx.Comment,
        getHeaders() {
          throw new Error('no token');
        },
      }),
      params: { id: 2 },
      ...callback('getHeaders', 'no token'),
      check: noRequest('GET /comments/2'),
    },
    {
      name: 'fetch option throws',
      ep: (s) => ({
        name: 'fetchFails',
        path: '/comments/:id',
        schema: s.fx.Comment,
        fetch() {
          throw new Error('offline');
        },
      }),
      params: { id: 2 },
      ...callback('fetch', 'offline'),
    },
    {
      name: 'fetch option returns the wrong type',
      ep: (s) => ({ name: 'fetchNumber', path: '/comments/:id', schema: s.fx.Comment, fetch: async () => 42 }),
      params: { id: 2 },
      ...callback('Comment at $', 'expected a record (object), got number'),
    },
    {
      name: 'fetch option returns undefined',
      ep: (s) => ({ name: 'fetchUndefined', path: '/comments/:id', schema: s.fx.Comment, fetch: async () => undefined }),
      params: { id: 2 },
      ...callback('response is undefined'),
    },
    {
      name: 'fetch option fails unexpectedly',
      params: { id: 2 },
      ...callback('fetch', 'circular'),
      ep: (s) => ({
        name: 'fetchPanics',
        path: '/comments/:id',
        schema: s.fx.Comment,
        fetch: async () => {
          const a = { id: 2 };
          a.self = a; // JSON cannot hold it
          return a;
        },
      }),
    },
    {
      name: 'parseResponse throws',
      ep: (s) => ({
        name: 'parseFails',
        path: '/comments/:id',
        schema: s.fx.Comment,
        parseResponse() {
          throw new Error('unreadable');
        },
      }),
      params: { id: 2 },
      ...callback('GET', '/comments/2', 'parseResponse', 'unreadable'),
    },
    {
      name: 'update throws',
      ep: mutation('updateFails', () => ({
        update() {
          throw new Error('no list');
        },
      })),
      params: { id: '1' },
      call: FETCH_BODY,
      ...callback('PATCH', '/articles/1', 'update', 'no list'),
      check: articleUnchanged,
    },
    {
      name: 'update function throws',
      params: { id: '1' },
      call: FETCH_BODY,
      ...callback('update exploded'),
      check: articleUnchanged,
      ep: mutation('updateFnPanics', (s) => ({
        update: () => ({
          [s.fx.listArticles.key()]: () => {
            throw new Error('update exploded');
          },
        }),
      })),
    },
    {
      name: 'getOptimisticResponse throws',
      ep: mutation('optimisticFails', () => ({
        getOptimisticResponse() {
          throw new Error('not now');
        },
      })),
      params: { id: '1' },
      call: FETCH_BODY,
      ...callback('PATCH', '/articles/1', 'getOptimisticResponse', 'not now'),
      check: noRequest('PATCH /articles/1'),
    },
    {
      name: 'getOptimisticResponse returns the wrong type',
      ep: mutation('optimisticString', () => ({ getOptimisticResponse: () => 'soon' })),
      params: { id: '1' },
      call: FETCH_BODY,
      ...callback('optimistic response', 'Article at $', 'expected a record (object), got string'),
      check: noRequest('PATCH /articles/1'),
    },
    {
      name: 'entity merge throws halfway through a response',
      params: body('[{"id":1,"name":"changed"},{"id":7,"name":"boom"}]'),
      ...callback('merge', 'boom'),
      ep: (s) => ({ name: 'mergeFails', path: '/bad/body', schema: [commentBoom(s)] }),
      check: (v, err, ctx) => {
        const c = ctx.ctrl.getResponse(ctx.fx.getComment, { id: 1 }).data;
        assert.notEqual(c.name, 'changed', 'the record merged before the failure is rolled back');
      },
    },
    {
      name: 'pk function throws',
      params: body('[{"id":1}]'),
      ...callback('Comment at $[0]', 'pk failed'),
      ep: (s) => ({
        name: 'pkFails',
        path: '/bad/body',
        schema: [
          s.df.Entity({
            key: 'Comment',
            pk: () => {
              throw new Error('pk failed');
            },
            defaults: s.fx.Comment.defaults,
          }),
        ],
      }),
    },
    {
      name: 'setResponse with data of the wrong shape',
      ep: (s) => ({ name: 'setWrongShape', path: '/comments', schema: [s.fx.Comment] }),
      params: { postId: 9 },
      call: setResponse('comments'),
      keyed: false,
      errName: 'Error',
      want: ['comments?postId=9', '[Comment]', 'expected an array, got string'],
    },
    {
      name: 'setResponse with undefined data',
      ep: comment('setUndefined', '/comments/:id'),
      params: { id: 2 },
      call: setResponse(undefined),
      keyed: false,
      errName: 'Error',
      want: ['/comments/2', 'data is undefined'],
    },

    // ------------------------------------------------ only in JavaScript
    { name: 'JS: a Map as params', ep: comment('mapParams', '/comments/:id'), params: new Map([['id', 2]]), ...params('missing path token :id') },
    { name: 'JS: symbol keys in params', ep: comment('symbolParams', '/comments/:id'), params: { [Symbol('id')]: 2 }, ...params('missing path token :id') },
    {
      name: 'JS: numeric keys in params',
      ep: (s) => ({ name: 'numericKeys', path: '/comments', schema: [s.fx.Comment] }),
      params: { 1: 'x', postId: 1 },
      accepted: true,
      check: async (v) => assert.equal(await server.count('GET /comments?1=x&postId=1'), 1),
    },
    {
      name: 'JS: undefined params where a path token is expected',
      ep: comment('undefinedParams', '/comments/:id'),
      params: undefined,
      ...params('missing path token :id'),
    },
    {
      name: 'JS: undefined, NaN and Infinity members in params',
      ep: (s) => ({ name: 'oddMembers', path: '/comments', schema: [s.fx.Comment] }),
      params: { postId: 1, a: undefined, b: NaN, c: Infinity },
      accepted: true,
      check: async (v) =>
        assert.equal(await server.count('GET /comments?b=null&c=null&postId=1'), 1, 'undefined is left out; NaN and Infinity are null, as in JSON'),
    },
    {
      name: 'JS: a body JSON cannot hold',
      ep: mutation('bigBody', () => ({})),
      params: { id: '1' },
      call: (ctrl, ep, p) => ctrl.fetch(ep, p, { n: 10n }),
      keyed: false,
      errName: 'TypeError',
      want: ['BigInt'],
      check: noRequest('PATCH /articles/1'),
    },
    {
      name: 'JS: setResponse with data JSON cannot hold',
      ep: comment('setCyclic', '/comments/:id'),
      params: { id: 2 },
      call: (ctrl, ep, p) => {
        const d = { id: 2 };
        d.self = d;
        return ctrl.setResponse(ep, p, d);
      },
      keyed: false,
      errName: 'TypeError',
      want: ['circular'],
    },
    {
      name: 'JS: process returns a Promise',
      ep: (s) => ({ name: 'processPromise', path: '/comments/:id', schema: s.fx.Comment, process: async (v) => v }),
      params: { id: 2 },
      ...callback('processPromise', 'process', 'returned a Promise'),
    },
    {
      name: 'JS: fetch option returns a value nested 10,000 deep',
      params: { id: 2 },
      ...callback('fetch', 'Maximum call stack size exceeded'),
      ep: (s) => ({
        name: 'deepFetch',
        path: '/comments/:id',
        schema: s.fx.Comment,
        fetch: async () => {
          let nested = [];
          for (let i = 0; i < 10000; i++) nested = [nested];
          return { id: 2, nested };
        },
      }),
    },
  ];
}

/**
 * storedNull checks an accepted empty answer: the read resolves null, stored
 * as a fresh result that the next read gets without a request.
 */
async function storedNull(v, err, { ctrl, ep, params }) {
  assert.equal(v, null);
  const r = ctrl.getResponse(ep, params);
  assert.equal(r.expiryStatus, 'valid');
  assert.equal(r.data, null, 'stored');
  const counts = await server.counts();
  assert.equal(await ctrl.useSuspense(ep, params), null);
  assert.deepEqual(await server.counts(), counts, 'null is a stored, fresh result');
}

// users is a Friend entity whose bestFriend and friends are Friends. The
// JavaScript API fixes an entity's schema when the entity is made, so an
// entity cannot name itself: the nested Friend is a second entity of the
// same key without nested fields. Cycles in the data are read two levels
// deep.
const usersOf = new WeakMap();
const FRIEND_DEFAULTS = { id: undefined, name: '', bestFriend: null, friends: [] };
function users(s) {
  let U = usersOf.get(s.df);
  if (!U) {
    const flat = s.df.Entity({ key: 'Friend', defaults: FRIEND_DEFAULTS });
    U = s.df.Entity({ key: 'Friend', defaults: FRIEND_DEFAULTS, schema: { bestFriend: flat, friends: [flat] } });
    usersOf.set(s.df, U);
  }
  return U;
}

// chainHead is a Friend whose bestFriend is read n levels deep: n entities
// of key Friend, each nesting the next.
const chainOf = new WeakMap();
function chainHead(s, n) {
  let U = chainOf.get(s.df);
  if (!U) {
    U = s.df.Entity({ key: 'Friend', defaults: FRIEND_DEFAULTS });
    for (let i = 1; i < n; i++) U = s.df.Entity({ key: 'Friend', defaults: FRIEND_DEFAULTS, schema: { bestFriend: U } });
    chainOf.set(s.df, U);
  }
  return U;
}

// commentBoom is a Comment whose merge throws on a record named "boom".
function commentBoom(s) {
  return s.df.Entity({
    key: 'Comment',
    defaults: s.fx.Comment.defaults,
    merge(existing, incoming) {
      if (incoming.name === 'boom') throw new Error('boom');
      return { ...existing, ...incoming };
    },
  });
}

// ---------------------------------------------------------------- the matrix

const all = cases();

test('the matrix has every case of the Go matrix, and at least 40', () => {
  const names = new Set(all.map((c) => c.name));
  assert.equal(names.size, all.length, 'case names are unique');
  const goSource = readFileSync(join(ROOT, 'test/badinput/matrix_test.go'), 'utf8');
  const goNames = [...goSource.matchAll(/(?:with|accepted)\("([^"]+)"|\bname: "([^"]+)"/g)].map((m) => m[1] ?? m[2]);
  assert.ok(goNames.length >= 40, `found ${goNames.length} Go cases`);
  const missing = goNames.filter((n) => !names.has(n));
  assert.deepEqual(missing, [], 'Go cases without a JavaScript case');
  assert.ok(all.length >= 40);
});

for (const c of all) {
  test(`bad input: ${c.name}`, async () => {
    const { df, base, fx } = await env();
    const s = { df, fx, base, dead: c.name === 'server down' ? await deadURL() : undefined };
    const { ctrl, comments } = await populated(df, fx, base);
    const opts = c.ep(s);
    if (opts.urlPrefix === undefined && opts.path.startsWith('/')) opts.urlPrefix = base;
    const ep = new df.RestEndpoint(opts);
    const before = ctrl.getState();
    const call = c.call ?? GET;
    const ctx = { ctrl, fx, ep, params: c.params };

    let v;
    let err;
    try {
      v = await call(ctrl, ep, c.params);
    } catch (e) {
      err = e;
    }

    if (c.accepted) {
      if (err) throw err;
      await c.check?.(v, err, ctx);
    } else {
      assert.ok(err instanceof Error, `want an Error, got ${err === undefined ? `the value ${JSON.stringify(v)?.slice(0, 200)}` : String(err)}`);
      const msg = err.message;
      assert.ok(msg.includes(opts.name) || c.errName === 'TypeError', `the message names the endpoint ${opts.name}: ${msg}`);
      for (const w of c.want) assert.ok(msg.includes(w), `message ${JSON.stringify(msg)} should hold ${JSON.stringify(w)}`);
      assert.ok(msg.length < 1000, `the message is short: ${msg.slice(0, 300)}…`);
      assert.equal(err.name, c.errName, `error name of ${msg}`);
      if (c.status !== undefined) assert.equal(err.status, c.status, 'status');
      if (c.network ?? c.status !== undefined) {
        assert.ok(err instanceof df.NetworkError, 'a NetworkError');
      } else if (c.errName !== 'TypeError') {
        assert.ok(!(err instanceof df.NetworkError), 'not a NetworkError');
      }

      // The store is exactly as before, but for the failed key's error.
      let after = ctrl.getState();
      if (c.keyed) {
        const key = ep.key(c.params);
        assert.equal(after.meta[key]?.error, msg, 'the failed key keeps the error');
        after = withoutMeta(after, key);
        assert.ok(ctrl.getResponse(ep, c.params).expiryStatus !== 'valid');
        if (c.call === undefined) {
          // Inside errorExpiryLength (the clock stands still) the error is
          // kept: a read gets it again, without a request.
          const total = await server.total();
          const again = await failureOf(() => ctrl.useSuspense(ep, c.params), 'a read of the failed key');
          assert.equal(again.message, msg, 'the kept error');
          assert.equal(again.name, err.name, 'the kept error keeps its name');
          assert.equal(again.status, err.status, 'the kept error keeps its status');
          assert.equal(await server.total(), total, 'no request inside errorExpiryLength');
        }
      }
      assert.deepEqual(after, before, 'the store is as it was');
      await c.check?.(v, err, ctx);
    }
    assert.deepEqual(ctrl.getState().optimistic, [], 'no optimistic update is left');
    await assertAlive(ctrl, fx, comments);
  });
}

// ---------------------------------------------------------------- more, only in JavaScript

test('bad input: JS: a listener that throws does not stop the others', async () => {
  const { df, base, fx } = await env();
  const { ctrl, comments } = await populated(df, fx, base);
  const errors = [];
  const origError = console.error;
  console.error = (...args) => errors.push(args.join(' '));
  try {
    let calls = 0;
    const unsub1 = ctrl.subscribe(fx.getComment, { id: 3 }, () => {
      calls++;
      throw new Error('listener exploded');
    });
    const rec = recorder();
    const unsub2 = ctrl.subscribe(fx.getComment, { id: 3 }, rec);
    await waitFor(() => rec.last()?.data?.id === 3, { message: 'the second listener gets the data' });
    assert.ok(calls >= 2, 'the throwing listener was called again after it threw');
    unsub1();
    unsub2();
  } finally {
    console.error = origError;
  }
  await assertAlive(ctrl, fx, comments);
});

test('bad input: JS: testKey that throws', async () => {
  const { df, base, fx } = await env();
  const { ctrl, comments } = await populated(df, fx, base);
  const before = ctrl.getState();
  for (const method of ['invalidateAll', 'expireAll']) {
    const err = await failureOf(
      () =>
        ctrl[method](() => {
          throw new Error('testKey exploded');
        }),
      method,
    );
    assert.ok(err instanceof Error);
    assert.match(err.message, /testKey exploded/);
    assert.deepEqual(ctrl.getState(), before, `${method}: the store is as it was`);
  }
  await assertAlive(ctrl, fx, comments);
});

test('bad input: JS: options and arguments of the wrong type throw at once', async () => {
  const { df, base, fx } = await env();
  const { ctrl, comments } = await populated(df, fx, base);
  const before = ctrl.getState();
  const bad = [
    () => new df.RestEndpoint({ urlPrefix: base, path: '/comments/:id', name: 'badTimeout', timeout: 'soon' }),
    () => new df.RestEndpoint({ urlPrefix: base, path: 5, name: 'badPath' }),
    () => new df.RestEndpoint({ urlPrefix: base, path: '/c', name: 'badSignal', signal: {} }),
    () => new df.RestEndpoint({ urlPrefix: base, path: '/c', name: 'badFetch', fetch: 'nope' }),
    () => ctrl.subscribe(fx.getComment, { id: 1 }, 'not a function'),
    () => ctrl.useSuspense({ not: 'an endpoint' }, { id: 1 }),
    () => ctrl.getResponse(undefined, { id: 1 }),
    () => df.normalize(fx.Comment, 'a string'),
    () => df.normalize(fx.Comment, 5),
    () => df.normalize([fx.Comment], 'not a list'),
    () => new df.Controller({ fetch: 42 }),
    // A schema nested deeper than any real one: an Error, not a stack overflow.
    () => {
      let deep = fx.Comment;
      for (let i = 0; i < 10000; i++) deep = new df.schema.Array(deep);
      return new df.RestEndpoint({ urlPrefix: base, path: '/comments', name: 'deepSchema', schema: deep });
    },
  ];
  for (const [i, fn] of bad.entries()) {
    const err = await failureOf(fn, `bad call #${i}`);
    assert.ok(err instanceof Error, `#${i}: ${String(err)}`);
    assert.ok(err.message.length > 0);
  }
  assert.deepEqual(ctrl.getState(), before);
  // null params: nothing to do (spec), not an error.
  assert.equal(await ctrl.useSuspense(fx.getComment, null), undefined);
  await assertAlive(ctrl, fx, comments);
});

// ---------------------------------------------------------------- faults

/** A PATCH of an article's title with an optimistic update. */
function patchTitle(df, fx, base, name, extra = {}) {
  return new df.RestEndpoint({
    urlPrefix: base,
    path: '/articles/:id',
    method: 'PATCH',
    name,
    schema: fx.Article,
    getOptimisticResponse: (snap, params, body) => ({ id: params.id, title: body.title }),
    ...extra,
  });
}

const titleOf = (ctrl, fx, id) => ctrl.getResponse(fx.getArticle, { id }).data?.title;

test('fault: the server is down, then back', async () => {
  const { df, base, fx } = await env();
  const { ctrl, comments } = await populated(df, fx, base);
  const dead = await deadURL();
  const getDead = new df.RestEndpoint({ urlPrefix: dead, path: '/comments/:id', name: 'deadComment', schema: fx.Comment });
  const patchDead = patchTitle(df, fx, dead, 'deadPatch');
  const before = ctrl.getState();

  const err = await failureOf(() => ctrl.useSuspense(getDead, { id: 3 }));
  assert.ok(err instanceof df.NetworkError);
  assert.equal(err.status, 0);
  assert.ok(err.message.includes(`deadComment: GET ${dead}/comments/3: network error`), err.message);
  assert.deepEqual(withoutMeta(ctrl.getState(), getDead.key({ id: 3 })), before);

  const prior = ctrl.getResponse(fx.getArticle, { id: '1' }).data;
  const p = ctrl.fetch(patchDead, { id: '1' }, { title: 'while down' });
  assert.equal(titleOf(ctrl, fx, '1'), 'while down', 'the optimistic update shows at once');
  await assert.rejects(p, (e) => e instanceof df.NetworkError && e.status === 0);
  assert.equal(ctrl.getResponse(fx.getArticle, { id: '1' }).data, prior, 'rolled back to the very object it was');
  assert.deepEqual(ctrl.getState().optimistic, []);

  // Back up (the fixture server): the same requests work.
  await ctrl.fetch(patchTitle(df, fx, base, 'livePatch'), { id: '1' }, { title: 'back up' });
  assert.equal(titleOf(ctrl, fx, '1'), 'back up');
  await assertAlive(ctrl, fx, comments);
});

test('fault: slower than the endpoint timeout', async () => {
  const { df, base, fx } = await env();
  const { ctrl, comments } = await populated(df, fx, base);
  const before = ctrl.getState();
  // The server holds every request from now on: only the timeout can end it.
  await server.hold();
  const slow = new df.RestEndpoint({ urlPrefix: base, path: '/comments/:id', name: 'slowComment', schema: fx.Comment, timeout: 50 });
  const err = await failureOf(() => ctrl.useSuspense(slow, { id: 3 }));
  assert.equal(err.name, 'TimeoutError');
  assert.ok(err.message.includes(`slowComment: GET ${base}/comments/3: request timed out`), err.message);
  assert.deepEqual(withoutMeta(ctrl.getState(), slow.key({ id: 3 })), before);

  const prior = ctrl.getResponse(fx.getArticle, { id: '1' }).data;
  const perr = await failureOf(() => ctrl.fetch(patchTitle(df, fx, base, 'slowPatch', { timeout: 50 }), { id: '1' }, { title: 'too slow' }));
  assert.equal(perr.name, 'TimeoutError');
  assert.equal(ctrl.getResponse(fx.getArticle, { id: '1' }).data, prior);
  assert.deepEqual(ctrl.getState().optimistic, []);

  await server.unhold();
  // A timeout a loaded machine cannot reach: a request with one completes.
  const fast = new df.RestEndpoint({ urlPrefix: base, path: '/comments/:id', name: 'fastComment', schema: fx.Comment, timeout: 120_000 });
  assert.equal((await ctrl.useSuspense(fast, { id: 3 })).id, 3);
  await assertAlive(ctrl, fx, comments);
});

test('fault: a server failing some of the time', async () => {
  const { df, base, fx } = await env();
  const clock = fakeClock();
  const ctrl = new df.Controller({ now: clock.now, errorExpiryLength: 1 });
  const flaky = new df.RestEndpoint({ urlPrefix: base, path: '/bad/flaky', name: 'flaky', schema: fx.Comment, dataExpiryLength: 1 });
  for (let i = 0; i < 4; i++) {
    clock.advance(1); // past the kept error
    await ctrl.invalidate(flaky, { id: 4 }); // and the data, so the read waits for the server
    if (i % 2 === 0) {
      const err = await failureOf(() => ctrl.useSuspense(flaky, { id: 4 }));
      assert.equal(err.status, 503, `attempt ${i}`);
      assert.match(err.message, /intermittent failure/);
    } else {
      assert.equal((await ctrl.useSuspense(flaky, { id: 4 })).id, 4, `attempt ${i}`);
    }
  }

  // Mutations failing some of the time: each failure rolls back only its
  // own optimistic update, even while another is pending.
  const { ctrl: c2, comments } = await populated(df, fx, base);
  await c2.useSuspense(fx.getArticle, { id: '2' });
  const patch = patchTitle(df, fx, base, 'patch');
  await server.hold();
  const first = c2.fetch(patch, { id: '1' }, { title: 'first' });
  first.catch(() => {});
  await server.held(1);
  const second = c2.fetch(patch, { id: '2' }, { title: 'second' });
  const held = await server.held(2);
  assert.equal(titleOf(c2, fx, '1'), 'first');
  assert.equal(titleOf(c2, fx, '2'), 'second');
  assert.equal(c2.getState().optimistic.length, 2);

  await server.failNext(1, 502);
  await server.release(held[0].seq);
  const err = await failureOf(() => first);
  assert.equal(err.status, 502);
  assert.notEqual(titleOf(c2, fx, '1'), 'first', 'the failed update is rolled back');
  assert.equal(titleOf(c2, fx, '2'), 'second', 'the other one still shows');
  await server.release(held[1].seq);
  await second;
  assert.equal(titleOf(c2, fx, '2'), 'second');
  assert.deepEqual(c2.getState().optimistic, []);
  await server.unhold();
  await assertAlive(c2, fx, comments);
});

test('fault: a request aborted with the endpoint signal', async () => {
  const { df, base, fx } = await env();
  const { ctrl, comments } = await populated(df, fx, base);
  const prior = ctrl.getResponse(fx.getArticle, { id: '1' }).data;
  const before = ctrl.getState();
  await server.hold();

  const ac = new AbortController();
  const patch = patchTitle(df, fx, base, 'abortable', { signal: ac.signal });
  const p = ctrl.fetch(patch, { id: '1' }, { title: 'optimistic' });
  p.catch(() => {});
  await server.held(1);
  assert.equal(titleOf(ctrl, fx, '1'), 'optimistic', 'the optimistic update shows while the request is out');
  assert.equal(ctrl.getState().optimistic.length, 1);

  ac.abort();
  const err = await failureOf(() => p);
  assert.equal(err.name, 'AbortError');
  assert.ok(err.message.includes('abortable') && err.message.includes('/articles/1') && err.message.includes('request aborted'), err.message);
  assert.deepEqual(ctrl.getState().optimistic, [], 'no optimistic residue');
  assert.equal(ctrl.getResponse(fx.getArticle, { id: '1' }).data, prior, 'the article is back to the very object it was');
  assert.deepEqual(withoutMeta(ctrl.getState(), patch.key({ id: '1' })), before);

  // A signal that aborted before the call: rejected at once, nothing applied.
  const early = patchTitle(df, fx, base, 'abortedEarly', { signal: AbortSignal.abort() });
  const eerr = await failureOf(() => ctrl.fetch(early, { id: '1' }, { title: 'never' }));
  assert.equal(eerr.name, 'AbortError');
  assert.equal(ctrl.getResponse(fx.getArticle, { id: '1' }).data, prior);
  assert.deepEqual(ctrl.getState().optimistic, []);

  await server.unhold();
  await ctrl.fetch(patchTitle(df, fx, base, 'after'), { id: '1' }, { title: 'after' });
  assert.equal(titleOf(ctrl, fx, '1'), 'after');
  await assertAlive(ctrl, fx, comments);
});

// ---------------------------------------------------------------- deep schemas

test('a schema nested too deep gives an Error that names the endpoint', async () => {
  const { df, base, fx } = await env();
  for (const depth of [300, 2000, 10000]) {
    let deep = fx.Comment;
    for (let i = 0; i < depth; i++) deep = new df.schema.Array(deep);
    const err = await failureOf(() => new df.RestEndpoint({ urlPrefix: base, path: '/comments', name: 'deepSchema', schema: deep }), `depth ${depth}`);
    assert.ok(err instanceof Error);
    // 300: "rest: endpoint deepSchema: schema: schema nests deeper than 256
    // levels". 2000: "schema: invalid JSON at offset 5000: nesting deeper
    // than 1000 levels" (the descriptor's JSON), naming neither the
    // endpoint nor the schema. 10000: a bare RangeError from datafetch.mjs.
    assert.ok(err.message.includes('deepSchema'), `depth ${depth}: the message names the endpoint: ${err.name}: ${err.message}`);
    assert.match(err.message, /deep/, `depth ${depth}: the message says the schema is too deep`);
  }
});
