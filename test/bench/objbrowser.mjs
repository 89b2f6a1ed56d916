// objfetch.mjs in headless Chromium: data that is already JavaScript (an
// endpoint whose fetch returns N parsed articles) fetched into an empty
// store, two builds of dist/ in one page, their samples interleaved, the
// ratio of medians second/first. Chromium's TextEncoder and its string
// conversions are not Node's: what the crossing costs differs.
//
//   OBJB_DISTS=test/bench/out/main-dist,dist node test/bench/objbrowser.mjs
//       (each a dist/ folder: this repository's dist/, or one inside
//       test/bench, which the server serves)
//   OBJB_NS=500,1000 OBJB_SAMPLES=150 OBJB_MODES=crossing,read
//       crossing: an endpoint without a schema, fetched as useDLE starts
//       it (JSON.stringify, the text into Go, its parse, the store's
//       write); read: the list fetched and read (fetch + getResponse)

import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../browser/launch.mjs';
import { serve } from './server.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(here, '../..');
const DIST = join(ROOT, 'dist');
const DISTS = (process.env.OBJB_DISTS ?? '').split(',').filter(Boolean);
const NS = (process.env.OBJB_NS ?? '500,1000').split(',').map(Number);
const SAMPLES = Number(process.env.OBJB_SAMPLES ?? 150);
const MODES = (process.env.OBJB_MODES ?? 'crossing,read').split(',');

// urlOf returns the URL a dist/ folder is served at.
function urlOf(dir) {
  const abs = resolve(dir);
  if (abs === DIST) return '/dist';
  const rel = relative(here, abs);
  if (rel.startsWith('..')) throw new Error(`OBJB_DISTS: ${dir} is neither dist/ nor inside test/bench`);
  return `/bench/${rel}`;
}

async function main() {
  if (DISTS.length !== 2) throw new Error('OBJB_DISTS: give two builds of dist/, comma-separated');
  const server = await serve({ '/dist/': DIST, '/bench/': here });
  const browser = await launchChromium({ args: ['--js-flags=--expose-gc'] });
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.stack || e.message));
    await page.goto(`${server.url}bench/objbrowser.html?dists=${DISTS.map(urlOf).join(',')}`);
    await page.waitForFunction(() => document.title !== 'loading', null, { timeout: 60_000 });
    if (errors.length) throw new Error(`the page failed:\n${errors.join('\n')}`);
    for (const mode of MODES) {
      for (const n of NS) {
        const { isolated, medians } = await page.evaluate(([m, k, s]) => window.run(m, k, s), [mode, n, SAMPLES]);
        if (errors.length) throw new Error(`the page failed:\n${errors.join('\n')}`);
        console.log(
          `${mode} N=${n}: ${DISTS.map((d, i) => `${d} ${medians[i].toFixed(3)} ms`).join(', ')}  ratio ${(medians[1] / medians[0]).toFixed(3)}${isolated ? '' : ' (not cross-origin isolated: coarse timer)'}`,
        );
      }
    }
  } finally {
    await browser.close();
    await server.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
