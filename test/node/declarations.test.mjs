// Endpoints and resources declared as data-client declares them
// (docs/js-api.md, "Endpoint classes"): at module top level before load(),
// RestEndpoint subclasses with class fields and overridden methods that
// call super, resource({Endpoint}), registered with an instance's engine
// when it first runs them.

import assert from 'node:assert/strict';
import { env, importModule, server, setup, startEcho, test } from './harness.mjs';

setup();

const mod = await importModule();
const { Entity, RestEndpoint, resource, createResource, Collection } = mod;

// Declared at module top level, before anything is loaded.
class Article extends Entity {
  id = '';
  title = '';
  published = false;
  get headline() {
    return this.title.toUpperCase();
  }
}

const topLevel = resource({ urlPrefix: 'http://127.0.0.1:9', path: '/articles/:id', schema: Article });

test('declared before load(): endpoints know their shape; asking the engine is a clear error', () => {
  assert.equal(topLevel.get.path, '/articles/:id');
  assert.equal(topLevel.getList.path, '/articles');
  assert.equal(topLevel.getList.method, 'GET');
  assert.equal(topLevel.partialUpdate.method, 'PATCH');
  assert.equal(topLevel.delete.sideEffect, true);
  assert.equal(topLevel.get.name, 'Article.get');
  assert.ok(topLevel.getList.schema instanceof Collection, 'getList.schema is a Collection, for a Query at module top level');
  assert.equal(typeof topLevel.getList.push, 'function', 'getList has push (an endpoint, callable)');
  assert.equal(topLevel.get.push.schema, undefined, 'no Collection: a push with no schema');
  assert.equal(createResource, resource);
  assert.throws(() => topLevel.get.url({ id: '1' }), /url\(\) needs datafetch\.wasm: await load\(\) first/);
});

test('a top-level resource runs on a loaded instance; reads are instances', async () => {
  const { df, base } = await env();
  const articles = resource({ urlPrefix: base, path: '/articles/:id', schema: Article });
  assert.equal(df.RestEndpoint, RestEndpoint, 'the loaded API has the same class');
  const ctrl = new df.Controller();
  const list = await ctrl.useSuspense(articles.getList, {});
  assert.ok(list.length > 0);
  assert.ok(list[0] instanceof Article);
  const one = await ctrl.useSuspense(articles.get, { id: String(list[0].id) });
  assert.equal(one.headline, one.title.toUpperCase());
  assert.equal(articles.get.url({ id: '3' }), `${base}/articles/3`);
  assert.equal(articles.getList.url({}), `${base}/articles`, 'the list path the engine uses is the one shown');
});

test('a RestEndpoint subclass: class fields are options, overridden methods run with super', async () => {
  const { df } = await env();
  const echo = await startEcho();
  try {
    class AuthedEndpoint extends RestEndpoint {
      urlPrefix = echo.url;
      method = 'POST';
      async getRequestInit(body) {
        const init = await super.getRequestInit(body);
        return { ...init, headers: { ...init.headers, Authorization: 'Bearer token' } };
      }
      async parseResponse(response) {
        const parsed = await super.parseResponse(response);
        return { ...parsed, parsedBy: 'subclass' };
      }
      process(value, params) {
        return { ...value, processedFor: params.id };
      }
    }
    const ep = new AuthedEndpoint({ path: '/things/:id' });
    assert.equal(ep.method, 'POST');
    assert.equal(ep.sideEffect, true);
    const ctrl = new df.Controller();
    const out = await ctrl.fetch(ep, { id: '5' }, { name: 'x' });
    const req = echo.requests.at(-1);
    assert.equal(req.method, 'POST');
    assert.equal(req.path, '/things/5');
    assert.equal(req.headers.authorization, 'Bearer token');
    assert.equal(req.headers['content-type'], 'application/json');
    assert.deepEqual(JSON.parse(req.body), { name: 'x' });
    assert.equal(out.parsedBy, 'subclass');
    assert.equal(out.processedFor, '5');

    // extend keeps the class and its methods.
    const ext = ep.extend({ path: '/other/:id' });
    assert.ok(ext instanceof AuthedEndpoint);
    await ctrl.fetch(ext, { id: '6' }, { name: 'y' });
    assert.equal(echo.requests.at(-1).path, '/other/6');
    assert.equal(echo.requests.at(-1).headers.authorization, 'Bearer token');
  } finally {
    await echo.close();
  }
});

test('super.parseResponse rejects a failure status with a NetworkError', async () => {
  const { df, base } = await env();
  class Parsing extends RestEndpoint {
    urlPrefix = base;
    parseResponse(response) {
      return super.parseResponse(response);
    }
  }
  const ep = new Parsing({ path: '/articles/:id', schema: Article });
  const err = await new df.Controller().fetch(ep, { id: '999' }).catch((e) => e);
  assert.equal(err.name, 'NetworkError');
  assert.equal(err.status, 404);
});

test('resource({Endpoint}): every endpoint is of that class, with its fields and methods', async () => {
  const { df, base } = await env();
  let inits = 0;
  class CountingEndpoint extends RestEndpoint {
    urlPrefix = base;
    async getRequestInit(body) {
      inits++;
      return super.getRequestInit(body);
    }
  }
  const r = resource({ path: '/articles/:id', schema: Article, Endpoint: CountingEndpoint });
  for (const name of ['get', 'getList', 'update', 'partialUpdate', 'delete']) assert.ok(r[name] instanceof CountingEndpoint, name);
  const ctrl = new df.Controller();
  await ctrl.useSuspense(r.get, { id: '1' });
  assert.equal(inits, 1);
  const patched = await ctrl.fetch(r.partialUpdate, { id: '1' }, { title: 'via the subclass' });
  assert.equal(inits, 2);
  assert.equal(patched.title, 'via the subclass');
  assert.equal(await server.count('PATCH /articles/1'), 1);
  const x = r.extend({ get: { dataExpiryLength: 5 } });
  assert.ok(x.get instanceof CountingEndpoint, 'extend keeps the class');
});

test('bad options are refused where they are given, with no engine', () => {
  assert.throws(() => new RestEndpoint({ path: '/x', timeout: 'soon' }), /timeout/);
  assert.throws(() => new RestEndpoint({ path: '/x', schema: 42 }), /schema: 42 is not a schema/);
  assert.throws(() => new RestEndpoint({ path: '/x', getRequestInit: 'no' }), /getRequestInit must be a function/);
  assert.throws(() => new RestEndpoint({ path: '/x' }).extend({ body: Symbol('s') }), /cannot be sent as a body|Symbol/);
  assert.throws(() => resource({ path: '/x/:id', schema: {} }), /schema must be an Entity/);
  assert.throws(() => resource({ path: '/x/:id', schema: Article, Endpoint: class {} }), /Endpoint must be RestEndpoint or a subclass/);
});

test('an override of fetch reaches the default request and parse through super.fetch', async () => {
  const { df, base } = await env();
  class Wrapping extends RestEndpoint {
    urlPrefix = base;
    async fetch(params, body) {
      const article = await super.fetch(params, body);
      return { ...article, title: `wrapped: ${article.title}` };
    }
  }
  const ep = new Wrapping({ path: '/articles/:id', schema: Article });
  const ctrl = new df.Controller();
  const one = await ctrl.fetch(ep, { id: '1' });
  assert.ok(one instanceof Article);
  assert.match(one.title, /^wrapped: /);
  assert.equal(await server.count('GET /articles/1'), 1, 'one request');
  const err = await ctrl.fetch(ep, { id: '999' }).catch((e) => e);
  assert.equal(err.name, 'NetworkError');
  assert.equal(err.status, 404);
});
