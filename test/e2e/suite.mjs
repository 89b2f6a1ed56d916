// What every end-to-end file sets up: the demo server and headless
// Chromium, for the file's tests, and the bound of their waits.

import { after, before } from 'node:test';
import { launchChromium } from '../browser/launch.mjs';
import { startServer } from './server.mjs';

/** The bound of every wait in these tests: a guard against hangs, never a check of speed. */
export const HANG_MS = 180_000;

/**
 * useDemo starts the demo server and Chromium before the file's tests and
 * stops them after; the returned object's server and browser are set once
 * the tests run. ready, when given, runs once the server is up (to check
 * that what the file needs was built); skip starts nothing.
 */
export function useDemo({ ready, skip = false } = {}) {
  const demo = { server: undefined, browser: undefined };
  before(async () => {
    if (skip) return;
    demo.server = await startServer();
    ready?.();
    demo.browser = await launchChromium();
  });
  after(async () => {
    await demo.browser?.close();
    await demo.server?.stop();
  });
  return demo;
}
