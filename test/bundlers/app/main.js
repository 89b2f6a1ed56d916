import { readArticles } from './read.js';

function show(id, text) {
  document.getElementById(id).textContent = text;
}

readArticles().then(
  (line) => show('page', line),
  (err) => show('page', `failed: ${err.message}`),
);

const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
worker.onmessage = (e) => show('worker', e.data);
worker.onerror = (e) => show('worker', `failed: ${e.message}`);
