// Shared Chromium launcher for every Playwright test and benchmark in this repo.
//
//   import { launchChromium } from './launch.mjs';
//   const browser = await launchChromium();
//   try { const page = await browser.newPage(); ... } finally { await browser.close(); }
//
// It drives the system (Debian) Chromium through playwright-core. Playwright's
// own browser downloads are unreachable here: never run `npx playwright install`.
// `./build.sh test` installs Chromium (apt) and playwright-core (npm ci).
//
// Environment:
//   CHROMIUM_PATH     browser executable (default: `chromium` on PATH, then
//                     /usr/bin/chromium)
//   CHROMIUM_HEADFUL  set to 1 to show the window (needs a display)
//   CHROMIUM_ARGS     extra space-separated command-line flags

import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { chromium } from 'playwright-core';

// Flags every launch gets. The network here is closed: without the
// background-networking flags Chromium keeps trying (and failing) to reach
// Google's services. --no-sandbox is required when running as root (CI is).
export const CHROMIUM_FLAGS = Object.freeze([
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--no-default-browser-check',
  '--disable-quic',
  '--disable-gpu',
]);

function isExecutable(p) {
  try {
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

// chromiumPath returns the browser executable launchChromium uses.
export function chromiumPath() {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const p = join(dir, 'chromium');
    if (isExecutable(p)) return p;
  }
  if (isExecutable('/usr/bin/chromium')) return '/usr/bin/chromium';
  throw new Error('chromium not found: run ./build.sh test (installs it with apt) or set CHROMIUM_PATH');
}

// launchChromium starts a fresh headless Chromium (new empty profile) and
// returns the Playwright Browser. `options` are Playwright launch options;
// `options.args` are appended to CHROMIUM_FLAGS.
export async function launchChromium(options = {}) {
  const { args = [], ...rest } = options;
  const extra = (process.env.CHROMIUM_ARGS ?? '').split(/\s+/).filter(Boolean);
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: process.env.CHROMIUM_HEADFUL !== '1',
    chromiumSandbox: false,
    timeout: 120_000, // a hang guard for the browser's start
    ...rest,
    args: [...CHROMIUM_FLAGS, ...extra, ...args],
  });
}
