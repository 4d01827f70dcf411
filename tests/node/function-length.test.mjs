// House rule: no function in web/ or core/ is over 80 lines, so each reads in one sitting
// (a longer one is split along its own step comments). The measure is checked on made-up
// sources first, so a broken measure cannot pass everything.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { cppFunctions, filesUnder, javascriptFunctions, longFunctions } from './function-lengths.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const LIMIT = 80;
const body = (n) => Array.from({ length: n }, (_, i) => `  total += ${i}; // step ${i}`).join('\n');

test('the measure counts JavaScript functions, methods and arrows from first line to last', () => {
  const source = [
    'export function short() {', body(3), '}',
    'class Widget {', '  build() {', body(81), '  }', '}',
    'const arrow = () => {', body(2), '};',
  ].join('\n');
  const found = javascriptFunctions(source);
  assert.deepEqual(found.map(({ name, line, lines }) => [name, line, lines]),
    [['short', 1, 5], ['build', 7, 83], ['arrow', 91, 4]]);
});

test('the measure counts C++ functions (signatures over lines, initialisers, const) and not their blocks', () => {
  const source = [
    '// a comment with { braces }',
    'namespace mha {',
    'static float sum(const float* x,',
    '                 int n) {',
    '  float s = 0; for (int i = 0; i < n; ++i) { s += x[i]; }',
    '  if (s > 0) { s = 1; } const char* t = "}{";',
    '  return s;',
    '}',
    'Model::Model(int n) : n_(n) {',
    body(81),
    '}',
    'int Model::size() const { return n_; }',
    '}  // namespace mha',
  ].join('\n');
  assert.deepEqual(cppFunctions(source).map(({ name, line, lines }) => [name, line, lines]),
    [['sum', 3, 6], ['Model::Model', 9, 83], ['Model::size', 92, 1]]);
});

test(`no function in web/ or core/ is over ${LIMIT} lines`, () => {
  const files = [
    ...filesUnder(path.join(ROOT, 'web'), /\.m?js$/),
    ...filesUnder(path.join(ROOT, 'core'), /\.(?:cpp|hpp|h)$/),
  ];
  assert.ok(files.length > 50, `found only ${files.length} files`);
  const long = longFunctions(files, LIMIT, ROOT);
  assert.deepEqual(long.map((f) => `${f.file}:${f.line} ${f.name} (${f.lines} lines)`), []);
});
