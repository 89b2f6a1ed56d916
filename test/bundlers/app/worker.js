import { readArticles } from './read.js';

readArticles().then(
  (line) => postMessage(line),
  (err) => postMessage(`failed: ${err.message}`),
);
