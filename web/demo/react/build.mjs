// Builds a React example into a folder the demo server serves: the React
// example (web/demo/react, at /react/) or the todo app written the data-client
// way (web/demo/todos, at /todos/): index.html, style.css, app.js (the app,
// React and datafetch bundled by esbuild) and datafetch.wasm.
//
//   node web/demo/react/build.mjs [--app DIR] [--dist DIR] [--out DIR] [--dev]
//
// datafetch is imported by its name ('datafetch', 'datafetch/react') and
// resolved as an installed package would be, through its package.json
// "exports": the folder given as --dist (default: the repository's dist/,
// which ./build.sh builds) is made to look like node_modules/datafetch.

import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..', '..');

const { values: args } = parseArgs({
  options: {
    app: { type: 'string', default: here },
    dist: { type: 'string', default: join(root, 'dist') },
    out: { type: 'string', default: join(root, 'web', 'build', 'react') },
    dev: { type: 'boolean', default: false },
  },
});
// The app's folder: src/main.jsx, index.html and style.css.
const app = resolve(args.app);
const dist = resolve(args.dist);
const out = resolve(args.out);

for (const f of ['package.json', 'datafetch.mjs', 'react.mjs', 'datafetch.wasm']) {
  if (!existsSync(join(dist, f))) throw new Error(`${join(dist, f)} is missing: build the package first (./build.sh build)`);
}

// A node_modules-like folder holding only datafetch, a link to dist/.
// React and react-dom are found as usual, in the repository's
// node_modules.
const modules = mkdtempSync(join(tmpdir(), 'datafetch-react-example-'));
try {
  symlinkSync(dist, join(modules, 'datafetch'), 'dir');
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  await build({
    entryPoints: { app: join(app, 'src', 'main.jsx') },
    outdir: out,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    jsx: 'automatic',
    minify: !args.dev,
    sourcemap: true,
    nodePaths: [modules],
    define: { 'process.env.NODE_ENV': JSON.stringify(args.dev ? 'development' : 'production') },
    logLevel: 'warning',
  });
} finally {
  rmSync(modules, { recursive: true, force: true });
}

// esbuild does not copy the files modules find through
// new URL(..., import.meta.url): datafetch.wasm goes beside the bundle,
// where load() looks for it by default.
copyFileSync(join(dist, 'datafetch.wasm'), join(out, 'datafetch.wasm'));
for (const f of ['index.html', 'style.css']) copyFileSync(join(app, f), join(out, f));

const kib = (f) => `${Math.round(statSync(join(out, f)).size / 1024)} KiB`;
console.log(`${app} built in ${out}: app.js ${kib('app.js')}, datafetch.wasm ${kib('datafetch.wasm')}`);
