// End-to-end test of the live prices page (web/demo/live, served at /live/ by
// the demo server): a StreamManager over the API's /live Server-Sent
// Events keeps two reads of the same Ticker entities current, with no
// request after the first ones. The server is started with -tick 0, so
// prices change only when the test says (POST /rest/_control/tick), and it
// counts the messages it wrote. A screenshot lands in test/e2e/out/live.png.
//
// Run: ./build.sh test (stage e2e), or node --test test/e2e/live.test.mjs
// after ./build.sh build.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { OUT, api, control, watchErrors } from './server.mjs';
import { HANG_MS, useDemo } from './suite.mjs';

const demo = useDemo();

const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

async function tick(count) {
  const r = await fetch(new URL(`rest/_control/tick?count=${count}`, demo.server.url), { method: 'POST' });
  assert.equal(r.status, 200, await r.clone().text());
  return r.json();
}

test('live prices: pushed messages change both reads of an entity through the cache, with no request', async () => {
  // The seed prices, then a reset that clears the counts (and seeds again).
  const seed = await api(demo.server.url, 'tickers');
  await control(demo.server.url, 'reset');
  const page = await demo.browser.newPage({ viewport: { width: 900, height: 560 } });
  page.setDefaultTimeout(HANG_MS);
  const errors = watchErrors(page);
  await page.goto(new URL('live/', demo.server.url).href);

  await page.waitForSelector('#list tr[data-ticker] >> nth=2');
  await page.waitForSelector(`#btc:text-is("${money.format(seed[0].price)}")`);
  // The stream is open (the page's EventSource said so; the server
  // registers a stream before it writes to it).
  await page.waitForSelector('#status:text-is("live")');
  assert.equal((await api(demo.server.url, '_control/live')).streams, 1);

  const pushed = await tick(4);
  assert.deepEqual(
    pushed.map((m) => m.data.id),
    ['BTC', 'ETH', 'SOL', 'BTC'],
  );
  const btc = pushed[3].data;
  const eth = pushed[1].data;
  // Both reads of BTC show its last price; the list shows ETH's too.
  await page.waitForSelector(`#btc:text-is("${money.format(btc.price)}")`);
  await page.waitForSelector(`#list tr[data-ticker="BTC"] .price:text-is("${money.format(btc.price)}")`);
  await page.waitForSelector(`#list tr[data-ticker="ETH"] .price:text-is("${money.format(eth.price)}")`);
  await page.waitForSelector('#messages:text-is("4")');
  assert.equal(await page.textContent('#list tr[data-ticker="BTC"] .ticks'), '2 ticks');

  // Counted at the server: four messages written, and the two first reads
  // the only requests (the page counts its own too).
  assert.equal((await api(demo.server.url, '_control/live')).sent, 4);
  const counts = await api(demo.server.url, '_control/counts');
  assert.equal(counts['GET /tickers'], 1);
  assert.equal(counts['GET /tickers/BTC'], 1);
  assert.equal(await page.textContent('#requests'), '2');
  assert.deepEqual(errors, []);
  await page.screenshot({ path: join(OUT, 'live.png') });
  await page.close();
});
