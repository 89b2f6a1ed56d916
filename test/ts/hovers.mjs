// Checks what an editor shows on hover over the names marked in the files
// of test/ts: a comment line `//   ^? text` under a line asks that the quick
// info of the name above the caret reads `text` (whitespace collapsed), the
// way twoslash does. tsc cannot check this (type equality ignores how a type
// is written), so this runs TypeScript's language service:
//   node test/ts/hovers.mjs            check every marked name
//   node test/ts/hovers.mjs --print    print what each mark shows

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const ts = require('typescript');

const dir = dirname(fileURLToPath(import.meta.url));
const configPath = join(dir, 'tsconfig.json');
const { config, error } = ts.readConfigFile(configPath, ts.sys.readFile);
if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
const parsed = ts.parseJsonConfigFileContent(config, ts.sys, dir);

const host = {
  getScriptFileNames: () => parsed.fileNames,
  getScriptVersion: () => '1',
  getScriptSnapshot: (f) => (ts.sys.fileExists(f) ? ts.ScriptSnapshot.fromString(ts.sys.readFile(f)) : undefined),
  getCurrentDirectory: () => dir,
  getCompilationSettings: () => parsed.options,
  getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
  fileExists: ts.sys.fileExists,
  readFile: ts.sys.readFile,
  readDirectory: ts.sys.readDirectory,
  directoryExists: ts.sys.directoryExists,
  getDirectories: ts.sys.getDirectories,
};
const service = ts.createLanguageService(host, ts.createDocumentRegistry());

const MARK = /^(\s*\/\/\s*)\^\?(.*)$/;
const print = process.argv.includes('--print');
let checked = 0;
const failures = [];
for (const file of parsed.fileNames) {
  const lines = readFileSync(file, 'utf8').split('\n');
  let offset = 0;
  const starts = lines.map((l) => {
    const s = offset;
    offset += l.length + 1;
    return s;
  });
  for (let i = 1; i < lines.length; i++) {
    const m = MARK.exec(lines[i]);
    if (!m) continue;
    // The caret's column names a character of the line above (which may
    // itself be a mark line's target only if it is code).
    const column = m[1].length;
    const pos = starts[i - 1] + column;
    const info = service.getQuickInfoAtPosition(file, pos);
    const shown = info ? ts.displayPartsToString(info.displayParts).replace(/\s+/g, ' ').trim() : '(nothing)';
    const want = m[2].replace(/\s+/g, ' ').trim();
    const where = `${file.slice(dir.length + 1)}:${i}:${column + 1}`;
    checked++;
    if (print) console.log(`${where}\n  ${shown}`);
    else if (shown !== want) failures.push(`${where}: hover shows\n    ${shown}\n  want\n    ${want}`);
  }
}
if (!print) {
  if (checked === 0) {
    console.error('hovers: no `// ^?` marks found in test/ts');
    process.exit(1);
  }
  if (failures.length > 0) {
    console.error(`hovers: ${failures.length} of ${checked} differ:\n${failures.join('\n')}`);
    process.exit(1);
  }
  console.log(`hovers: ${checked} marks as expected`);
}
