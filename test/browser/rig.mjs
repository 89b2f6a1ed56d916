// The setup that page tests share: a page served at / (beside dist/ at
// /dist/), the fixture server, and a Chromium, made before the file's
// tests and closed after them.
//
//   const rig = pageRig(PAGE);
//   test('...', async () => {
//     const page = await rig.browser.newPage();
//     await page.goto(rig.pageURL()); // the page, told the fixture server's URL
//   });

import { dirname, join } from 'node:path';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import { fixtureURL } from '../node/harness.mjs';
import { launchChromium } from './launch.mjs';
import { serveFiles } from './serve.mjs';

const DIST = join(dirname(fileURLToPath(import.meta.url)), '../../dist');

/**
 * pageRig registers before/after hooks for the calling test file and
 * returns `{browser, pageURL()}`, set once the hooks have run. pageURL is
 * the page's URL with the fixture server's as its `fixture` param.
 */
export function pageRig(page) {
  let web;
  let fixtureBase;
  const rig = {
    browser: undefined,
    pageURL: () => `${web.url}?fixture=${encodeURIComponent(fixtureBase)}`,
  };
  before(async () => {
    fixtureBase = await fixtureURL();
    web = await serveFiles({ pages: { '/': page, '/favicon.ico': ['', '.html'] }, dirs: { '/dist/': DIST } });
    rig.browser = await launchChromium();
  });
  after(async () => {
    await rig.browser?.close();
    await web?.close();
  });
  return rig;
}
