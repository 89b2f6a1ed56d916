// A static server for tests that load pages in Chromium: fixed pages by
// path, and files under folders mounted at a URL prefix, on 127.0.0.1.
//
//   const srv = await serveFiles({ pages: { '/': html }, dirs: { '/dist/': DIST } });
//   await page.goto(srv.url);  ...  await srv.close();

import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';

/** Content types by file extension; others are application/octet-stream. */
export const CONTENT_TYPES = Object.freeze({
  '.html': 'text/html; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.ts': 'text/plain; charset=utf-8',
});

/**
 * serveFiles serves `pages` (path → [body, extension of its type], or just
 * an HTML body) and the files of `dirs` (URL prefix ending in '/' → folder;
 * a path ending in '/' serves its index.html), answers 404 otherwise, and
 * resolves to `{url, port, close()}` once it listens on 127.0.0.1. The path
 * of every request is pushed onto `seen`, when given.
 */
export async function serveFiles({ pages = {}, dirs = {}, seen }) {
  const server = createServer((req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
    seen?.push(path);
    const page = pages[path];
    if (page !== undefined) {
      const [body, ext] = Array.isArray(page) ? page : [page, '.html'];
      res.writeHead(200, { 'content-type': CONTENT_TYPES[ext] });
      res.end(body);
      return;
    }
    const file = fileFor(dirs, path);
    if (file !== undefined) {
      res.writeHead(200, { 'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream' });
      res.end(readFileSync(file));
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/`,
    port,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

// fileFor returns the file that path names under one of dirs, or undefined;
// a path that climbs out of its folder names nothing.
function fileFor(dirs, path) {
  for (const [prefix, dir] of Object.entries(dirs)) {
    if (!path.startsWith(prefix)) continue;
    let rel = decodeURIComponent(path.slice(prefix.length));
    if (rel === '' || rel.endsWith('/')) rel += 'index.html';
    const file = normalize(join(dir, rel));
    if (!file.startsWith(dir.endsWith(sep) ? dir : dir + sep)) return undefined;
    if (existsSync(file) && statSync(file).isFile()) return file;
  }
  return undefined;
}
