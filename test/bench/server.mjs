// A small static file server for the browser benchmark.
//
// Every response carries the cross-origin isolation headers
// (Cross-Origin-Opener-Policy: same-origin, Cross-Origin-Embedder-Policy:
// require-corp), so that the page is crossOriginIsolated and
// performance.now() has 5 µs resolution instead of 100 µs. It serves only
// the folders it is given (URL prefix → folder), never anything above them,
// on a random port of 127.0.0.1. Files carry an ETag and answer a matching
// If-None-Match with 304, as a deployed site does, so that a second visit
// finds them in the HTTP cache (and datafetch.wasm's compiled code in the
// browser's code cache).
//
//   const server = await serve({ '/dist/': distDir, '/bench/': benchDir });
//   server.url  // "http://127.0.0.1:PORT/"
//   await server.close();

import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.map': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
};

export const ISOLATION_HEADERS = Object.freeze({
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
});

export async function serve(mounts) {
  const entries = Object.entries(mounts).sort((a, b) => b[0].length - a[0].length);
  const server = createServer(async (req, res) => {
    const headers = { ...ISOLATION_HEADERS, 'Cache-Control': 'no-cache' };
    try {
      const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
      const mount = entries.find(([prefix]) => path.startsWith(prefix));
      if (!mount || (req.method !== 'GET' && req.method !== 'HEAD')) {
        res.writeHead(404, headers).end('not found');
        return;
      }
      const [prefix, dir] = mount;
      const file = normalize(join(dir, path.slice(prefix.length) || 'index.html'));
      if (file !== dir && !file.startsWith(dir.endsWith(sep) ? dir : dir + sep)) {
        res.writeHead(403, headers).end('forbidden');
        return;
      }
      const info = await stat(file).catch(() => undefined);
      if (!info?.isFile()) {
        res.writeHead(404, headers).end('not found');
        return;
      }
      const etag = `"${info.size.toString(16)}-${Math.trunc(info.mtimeMs).toString(16)}"`;
      headers.ETag = etag;
      if (req.headers['if-none-match'] === etag) {
        res.writeHead(304, headers).end();
        return;
      }
      const body = await readFile(file);
      headers['Content-Type'] = TYPES[extname(file)] ?? 'application/octet-stream';
      headers['Content-Length'] = body.length;
      res.writeHead(200, headers);
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch (err) {
      res.writeHead(500, headers).end(String(err));
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
