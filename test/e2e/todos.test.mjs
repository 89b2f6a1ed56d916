// End-to-end test of the todo app written the data-client way (web/demo/todos,
// served at /todos/ by the demo server): entity classes, a resource with
// optimistic: true, a Query over getList.schema, DataProvider with no
// load() in the app. Driven in headless Chromium against the demo's REST
// API: the list, optimistic toggle, create (getList.unshift) and delete,
// each rolled back when the server fails, a user switch answered from the
// cache, and the error boundary. What must be seen before the server
// answers is made to by holding requests at the server; nothing waits for
// time to pass. Screenshots land in test/e2e/out/todos-*.png.
//
// Run: ./build.sh test (stage e2e), or node --test test/e2e/todos.test.mjs
// after ./build.sh build.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { OUT, ROOT, api, control, held, watchErrors } from './server.mjs';
import { HANG_MS, useDemo } from './suite.mjs';

const TODOS_APP = join(ROOT, 'web', 'build', 'todos');

const demo = useDemo({ ready: () => assert.ok(existsSync(join(TODOS_APP, 'app.js')), `${TODOS_APP} holds no app.js: build it (./build.sh build)`) });

// Console errors for responses the server was told to fail: Chromium's
// for the status, and React's report of the error its boundary caught.
const FAILED_STATUS = /status of (500|503)|injected failure/;

const item = (id) => `.todo[data-todo="${id}"]`;

async function openApp() {
  await control(demo.server.url, 'reset');
  const page = await demo.browser.newPage({ viewport: { width: 900, height: 800 } });
  page.setDefaultTimeout(HANG_MS);
  const errors = watchErrors(page);
  await page.goto(new URL('todos/', demo.server.url).href);
  return { page, errors };
}

async function counts() {
  return api(demo.server.url, '_control/counts');
}

test('todos: the list, optimistic toggle, create and delete with rollback, a user switch from the cache, the error boundary', async () => {
  const { page, errors } = await openApp();

  // The list of user 1, read with useSuspense; the count left is a
  // useQuery of a Query over getList.schema.
  const mine = await api(demo.server.url, 'todos?userId=1');
  await page.waitForSelector('section.card[data-user="1"] .todo');
  assert.equal(await page.locator('.todo').count(), mine.length);
  const left = (list) => list.filter((t) => !t.completed).length;
  await page.waitForSelector(`#remaining:text-is("${left(mine)} of ${mine.length} left")`);
  // The tabs show getters of the User class.
  const users = await api(demo.server.url, 'users');
  const initials = users[0].name
    .split(' ')
    .map((p) => p[0])
    .join('');
  assert.equal(await page.textContent(`.tab[data-user="1"] .avatar`), initials);

  // Toggle: shown at once, the count too, while the server holds it.
  const first = mine.find((t) => !t.completed);
  await control(demo.server.url, 'hold');
  await page.click(`${item(first.id)} input[type=checkbox]`);
  await page.waitForSelector(`${item(first.id)}.done`);
  await page.waitForSelector(`#remaining:text-is("${left(mine) - 1} of ${mine.length} left")`);
  assert.deepEqual(
    (await held(demo.server.url, 1)).map((h) => `${h.method} ${h.path}`),
    [`PATCH /todos/${first.id}`],
    'shown while the request is held',
  );
  await control(demo.server.url, 'unhold');
  await page.waitForSelector(`${item(first.id)}:not([data-pending])`);
  assert.equal((await api(demo.server.url, `todos/${first.id}`)).completed, true);

  // The server fails the next mutation: the toggle back shows at once,
  // then is rolled back.
  await control(demo.server.url, 'fail-next');
  await control(demo.server.url, 'hold');
  await page.click(`${item(first.id)} input[type=checkbox]`);
  await page.waitForSelector(`${item(first.id)}:not(.done)`);
  await held(demo.server.url, 1);
  await control(demo.server.url, 'unhold');
  await page.waitForSelector(`${item(first.id)}.done:not([data-pending])`);
  await page.waitForSelector(`#remaining:text-is("${left(mine) - 1} of ${mine.length} left")`);
  assert.equal((await api(demo.server.url, `todos/${first.id}`)).completed, true, 'the server changed nothing');

  // Create with getList.unshift: at the top at once, then under the id the
  // server gave it.
  await page.fill('input[aria-label="New todo"]', 'Try datafetch');
  await control(demo.server.url, 'hold');
  await page.click('.new-todo button[type=submit]');
  await page.waitForSelector('.todo:first-child .title:text-is("Try datafetch")');
  assert.equal(await page.locator('.todo').count(), mine.length + 1);
  assert.deepEqual(
    (await held(demo.server.url, 1)).map((h) => `${h.method} ${h.path}`),
    ['POST /todos?userId=1'],
  );
  await page.screenshot({ path: join(OUT, 'todos-pending.png') });
  await control(demo.server.url, 'unhold');
  const created = (await api(demo.server.url, 'todos?userId=1')).find((t) => t.title === 'Try datafetch');
  assert.ok(created, 'the server has the new todo');
  await page.waitForSelector(item(created.id));
  assert.equal(await page.locator('.todo').count(), mine.length + 1, 'one item: the temporary one was replaced');

  // Delete: gone at once; with the server failing, back again.
  await control(demo.server.url, 'fail-next');
  await control(demo.server.url, 'hold');
  await page.click(`${item(created.id)} .delete`);
  await page.waitForSelector(item(created.id), { state: 'detached' });
  await held(demo.server.url, 1);
  await control(demo.server.url, 'unhold');
  await page.waitForSelector(item(created.id));
  await control(demo.server.url, 'hold');
  await page.click(`${item(created.id)} .delete`);
  await page.waitForSelector(item(created.id), { state: 'detached' });
  await held(demo.server.url, 1);
  await control(demo.server.url, 'unhold');
  await page.waitForSelector(`#remaining:text-is("${left(mine) - 1} of ${mine.length} left")`);
  const afterDelete = await api(demo.server.url, 'todos?userId=1');
  assert.equal(
    afterDelete.find((t) => t.id === created.id),
    undefined,
    'deleted at the server',
  );

  // Another user's list, then back: user 1's list comes from the cache.
  await page.click('.tab[data-user="2"]');
  await page.waitForSelector('section.card[data-user="2"] .todo');
  const before = await counts();
  await page.click('.tab[data-user="1"]');
  await page.waitForSelector('section.card[data-user="1"] .todo');
  assert.equal((await counts())['GET /todos?userId=1'], before['GET /todos?userId=1'], 'no request for a list in the cache');

  // A failing read goes to the error boundary; trying again reads it.
  await control(demo.server.url, 'fail-next-get');
  await page.click('.tab[data-user="3"]');
  await page.waitForSelector('.error[role=alert]');
  await page.screenshot({ path: join(OUT, 'todos-error.png') });
  await page.click('.error button');
  await page.waitForSelector('section.card[data-user="3"] .todo');
  await page.screenshot({ path: join(OUT, 'todos.png') });

  assert.deepEqual(
    errors.filter((e) => !FAILED_STATUS.test(e)),
    [],
  );
  await page.close();
});
