// The documentation keeps up with the code: the packed package carries its
// README, LICENSE, CHANGELOG, API reference and React guide; every name the
// package exports (module exports, the members of the loaded API, the
// methods of its classes) is documented in docs/js-api.md, and every export
// of datafetch/react in docs/react.md, so a new export without
// documentation fails here; and every relative link of the repository's
// documentation, and of the package's, leads to a file that exists (and,
// for a #fragment into Markdown, to a heading that exists).

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DIST, ROOT, importModule, loadDF, test } from './harness.mjs';

const REFERENCE = join(ROOT, 'docs', 'js-api.md');
const REACT_GUIDE = join(ROOT, 'docs', 'react.md');

// What `npm pack` puts in the package: paths relative to its root. The
// folder is given as an absolute path: a bare name such as "dist" is a
// package name to npm, which would look it up in the registry.
let packed;
function packedFiles() {
  packed ??= (() => {
    const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--loglevel=error', DIST], { encoding: 'utf8' });
    const [info] = JSON.parse(out);
    return new Set(info.files.map((f) => f.path));
  })();
  return packed;
}

test('the packed package carries README.md, LICENSE, CHANGELOG.md, the API reference and the React guide', () => {
  const files = packedFiles();
  for (const f of ['README.md', 'LICENSE', 'CHANGELOG.md', 'docs/js-api.md', 'docs/react.md', 'package.json', 'datafetch.wasm']) {
    assert.ok(files.has(f), `npm pack of dist/ should include ${f}; it has ${[...files].join(', ')}`);
  }
  const pkg = JSON.parse(readFileSync(join(DIST, 'package.json'), 'utf8'));
  assert.equal(pkg.license, 'MIT', 'package.json names its license');
  assert.match(readFileSync(join(DIST, 'LICENSE'), 'utf8'), /^MIT License\n\nCopyright \(c\) \d{4} the datafetch authors\n/);
  assert.match(
    readFileSync(join(DIST, 'CHANGELOG.md'), 'utf8'),
    new RegExp(`^## ${pkg.version.replaceAll('.', '\\.')}$`, 'm'),
    'the CHANGELOG has a section for this version',
  );
  assert.equal(readFileSync(join(DIST, 'docs', 'js-api.md'), 'utf8'), readFileSync(REFERENCE, 'utf8'), 'the packed reference is docs/js-api.md');
  assert.equal(readFileSync(join(DIST, 'docs', 'react.md'), 'utf8'), readFileSync(REACT_GUIDE, 'utf8'), 'the packed React guide is docs/react.md');
});

// codeOf returns the code of a Markdown text: fenced blocks and inline code
// spans, where a reference names what it documents.
function codeOf(markdown) {
  const parts = [];
  const prose = markdown.replace(/^```[^\n]*\n([\s\S]*?)^```$/gm, (_, block) => {
    parts.push(block);
    return '';
  });
  for (const m of prose.matchAll(/`([^`\n]+)`/g)) parts.push(m[1]);
  return parts.join('\n');
}

// documented reports whether name appears as a word in code.
function documented(code, name) {
  return new RegExp(`(^|[^\\w$])${name.replace(/[$]/g, '\\$&')}([^\\w$]|$)`, 'm').test(code);
}

// methodsOf lists the public methods of a class's prototype.
function methodsOf(cls) {
  return Object.getOwnPropertyNames(cls.prototype).filter((n) => n !== 'constructor' && !n.startsWith('_') && typeof cls.prototype[n] === 'function');
}

test('every export of the package is documented in docs/js-api.md', async () => {
  const code = codeOf(readFileSync(REFERENCE, 'utf8'));
  const browser = await import(pathToFileURL(join(DIST, 'datafetch.mjs')).href);
  const node = await importModule();
  const df = await loadDF();
  const names = new Map();
  // Members starting with _ (the Go handle, _h) are not the API.
  const add = (where, list) => {
    for (const n of list) if (!n.startsWith('_')) names.set(n, where);
  };
  add('a module export (datafetch.mjs)', Object.keys(browser));
  add('a module export (datafetch.node.mjs)', Object.keys(node));
  add('a member of the loaded API (df)', Object.keys(df));
  add('a member of df.schema', Object.keys(df.schema));
  add('a Controller method', methodsOf(df.Controller));
  add('a RestEndpoint method', methodsOf(df.RestEndpoint));
  add('an Entity method', methodsOf(df.Entity));
  const articles = df.resource({ path: '/articles/:id', schema: df.Entity({ key: 'DocsArticle', defaults: { id: undefined } }) });
  add('an endpoint of a resource', Object.getOwnPropertyNames(articles));
  add('a member of a NetworkError', Object.keys(new df.NetworkError(new Response('', { status: 404 }))));
  // The check must see something: the names the reference is known to cover.
  for (const n of ['load', 'attach', 'Controller', 'useSuspense', 'Invalidate', 'subscribe', 'paginated', 'partialUpdate', 'statusText']) {
    assert.ok(names.has(n), `${n} should be among the names checked`);
  }
  const missing = [...names].filter(([n]) => !documented(code, n)).map(([n, where]) => `${n} (${where})`);
  assert.deepEqual(missing, [], 'each name should appear in the code of docs/js-api.md (a code span or block)');
});

test('every export of datafetch/react is documented in docs/react.md', async () => {
  const code = codeOf(readFileSync(REACT_GUIDE, 'utf8'));
  const react = await import(pathToFileURL(join(DIST, 'react.mjs')).href);
  const names = Object.keys(react);
  // The check must see something: the names the guide is known to cover.
  for (const n of ['DataProvider', 'useController', 'useSuspense', 'useDLE', 'useLoading', 'AsyncBoundary']) {
    assert.ok(names.includes(n), `${n} should be among the names checked; datafetch/react exports ${names.join(', ')}`);
  }
  const missing = names.filter((n) => !documented(code, n));
  assert.deepEqual(missing, [], 'each export of datafetch/react should appear in the code of docs/react.md (a code span or block)');
});

test('the check of exports finds a name that is not documented', () => {
  const code = codeOf('Use `df.load()`; see `ctrl.fetchIfStale` and\n```js\nctrl.subscribe(x)\n```\nbut getState in prose.');
  assert.ok(documented(code, 'load'));
  assert.ok(documented(code, 'fetchIfStale'));
  assert.ok(documented(code, 'subscribe'));
  assert.ok(!documented(code, 'getState'), 'a name in prose only is not documented');
  assert.ok(!documented(code, 'fetch'), 'a name inside a longer name is not documented');
});

// ---------------------------------------------------------------- links

// slug is the anchor a Markdown renderer (GitHub's) gives a heading.
function slug(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

// anchorsOf lists the anchors of a Markdown text's headings (outside code).
function anchorsOf(markdown) {
  const seen = new Map();
  const anchors = new Set();
  const text = markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '');
  for (const m of text.matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const base = slug(m[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

// linksOf lists the relative link targets of a Markdown text (outside code):
// [text](target) and ![alt](target), without absolute URLs.
function linksOf(markdown) {
  const text = markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '').replace(/`[^`\n]*`/g, '');
  const links = [];
  for (const m of text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    const target = m[1];
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:...
    links.push(target);
  }
  return links;
}

// brokenLinks returns the links of file (a path relative to root) that do
// not lead to an existing file, or to an existing heading; exists tells
// whether a path relative to root exists, read its text.
function brokenLinks(file, markdown, exists, read) {
  const broken = [];
  for (const link of linksOf(markdown)) {
    const [path, fragment] = link.split('#');
    const target = path === '' ? file : posix.normalize(posix.join(posix.dirname(file), decodeURI(path)));
    if (target.startsWith('..') || !exists(target)) {
      broken.push(`${link}: no file ${target}`);
      continue;
    }
    if (fragment !== undefined && target.endsWith('.md') && !anchorsOf(read(target)).has(fragment)) {
      broken.push(`${link}: no heading #${fragment} in ${target}`);
    }
  }
  return broken;
}

// The repository's Markdown: docs/*.md and every README.md, except the
// package's own files, which are read where they are read: in the package.
function repositoryMarkdown() {
  const files = readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`);
  const skip = new Set(['node_modules', 'dist', 'out', '.git', '.tools']);
  const walk = (dir) => {
    for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const rel = dir === '' ? e.name : `${dir}/${e.name}`;
      if (e.isDirectory()) {
        if (!skip.has(e.name)) walk(rel);
      } else if (e.name === 'README.md' && rel !== 'jsbridge/js/README.md') {
        files.push(rel);
      }
    }
  };
  walk('');
  return files;
}

test("the repository's documentation has no broken relative links", () => {
  const files = repositoryMarkdown();
  assert.ok(files.includes('README.md') && files.includes('docs/js-api.md') && files.includes('docs/go.md'), `files checked: ${files.join(', ')}`);
  const read = (f) => readFileSync(join(ROOT, f), 'utf8');
  const broken = files.flatMap((f) => brokenLinks(f, read(f), (t) => existsSync(join(ROOT, t)), read).map((b) => `${f}: ${b}`));
  assert.deepEqual(broken, []);
});

test("the package's Markdown links only to files in the package", () => {
  const files = packedFiles();
  const read = (f) => readFileSync(join(DIST, f), 'utf8');
  const exists = (t) => files.has(t) || [...files].some((f) => f.startsWith(`${t}/`));
  const markdown = [...files].filter((f) => f.endsWith('.md'));
  assert.ok(markdown.includes('README.md'), 'the package has a README');
  const broken = markdown.flatMap((f) => brokenLinks(f, read(f), exists, read).map((b) => `${f}: ${b}`));
  assert.deepEqual(broken, []);
  assert.ok(linksOf(read('README.md')).includes('docs/js-api.md'), 'the README links the reference');
});

test('the link check finds broken links and headings', () => {
  const files = {
    'a.md': '# Title\n\n## Sub `part`\n\n[ok](b.md#other) [self](#sub-part) [bad](#nope) [gone](c.md) ![img](pic.png)\n```\n[in code](x.md)\n```',
    'b.md': '## Other\n',
  };
  const broken = brokenLinks(
    'a.md',
    files['a.md'],
    (t) => t in files,
    (t) => files[t],
  );
  assert.deepEqual(broken, ['#nope: no heading #nope in a.md', 'c.md: no file c.md', 'pic.png: no file pic.png']);
  assert.equal(relative(ROOT, dirname(REFERENCE)), 'docs');
});

// The Go excerpts of the Go guide and the README are lines of the
// Examples that go test compiles and runs: each ```go block is preceded by
// a comment naming its file, <!-- example: core/df/example_test.go -->,
// and every line of the block must be a line of that file.
for (const [doc, min, what] of [
  ['docs/go.md', 3, 'the typed, the value and the go-app examples'],
  ['README.md', 2, 'the Go and the go-app examples'],
]) {
  test(`the Go examples of ${doc} are Examples that go test compiles`, () => {
    const guide = readFileSync(join(ROOT, doc), 'utf8');
    const blocks = [...guide.matchAll(/^<!-- example: (\S+) -->\n+```go\n([\s\S]*?)^```$/gm)];
    const all = [...guide.matchAll(/^```go$/gm)];
    assert.ok(blocks.length >= min, `${doc} has ${what}`);
    assert.equal(blocks.length, all.length, `every Go block of ${doc} names the example it is from`);
    for (const [, file, block] of blocks) {
      const example = readFileSync(join(ROOT, file), 'utf8');
      const lines = new Set(example.split('\n').map((l) => l.trim()));
      const code = block
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l !== '');
      assert.ok(code.length >= 10, `the example from ${file} is not empty`);
      const stray = code.filter((l) => !lines.has(l));
      assert.deepEqual(stray, [], `every line of ${doc}'s example is a line of ${file}`);
    }
  });
}
