// The package's entry under Node.js (the "node" condition of its exports):
// the API of datafetch.mjs, with load() able to read datafetch.wasm from a
// path or a file: URL. Browsers and their bundlers take datafetch.mjs, which
// imports no Node.js module.

import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { setFileReader } from './internal/load.mjs';

setFileReader((source) => readFile(source instanceof URL ? fileURLToPath(source) : source));

export * from './datafetch.mjs';
