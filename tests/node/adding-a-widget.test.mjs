// docs/ADDING-A-WIDGET.md says how many files a new widget touches. Shown here by adding one:
// a copy of the project gets the fixture widget <mha-example> (tests/fixtures/example-widget:
// its own folder of four files) and its registry entry; then the wiring check
// (widget-wiring.mjs) names every shared file still to edit, each documented edit is made
// and the list empties, the .d.ts still compiles with the new element in every tag map and
// in JSX, and the files that differ from the copy are counted against the doc's figure.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { wiringProblems } from './widget-wiring.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const FIXTURE = path.join(ROOT, 'tests/fixtures/example-widget');
const COPIED = ['web', 'lessons', 'docs', 'package.json', 'tests/types'];

let copy;
const at = (file) => path.join(copy, file);
const edit = (file, change) => writeFileSync(at(file), change(readFileSync(at(file), 'utf8')));
const insertAfter = (anchor, text) => (source) => {
  assert.ok(source.includes(anchor), `“${anchor.slice(0, 60)}” is where the doc says`);
  return source.replace(anchor, `${anchor}${text}`);
};
const editJson = (file, change) => edit(file, (text) => `${JSON.stringify(change(JSON.parse(text)), null, 2)}\n`);

function snapshot(dir) {
  const files = new Map();
  const walk = (folder) => {
    for (const name of readdirSync(folder)) {
      const file = path.join(folder, name);
      if (name === 'node_modules') continue;
      if (statSync(file).isDirectory()) walk(file);
      else files.set(path.relative(dir, file), createHash('sha1').update(readFileSync(file)).digest('hex'));
    }
  };
  walk(dir);
  return files;
}

before(() => {
  copy = mkdtempSync(path.join(tmpdir(), 'mha-new-widget-'));
  for (const part of COPIED) {
    cpSync(path.join(ROOT, part), at(part), { recursive: true, filter: (source) => !source.includes(`${path.sep}generated`) });
  }
  symlinkSync(path.join(ROOT, 'node_modules'), at('node_modules'));
});
after(() => { if (copy) rmSync(copy, { recursive: true, force: true }); });

// Each edit the doc's table of shared files names, as a course of one line or entry each.
const SHARED_EDITS = {
  'web/widgets/all.js': () => edit('web/widgets/all.js', (s) => `${s}import './example/index.js';\n`),
  'web/widgets/practice/widget-states.js': () => edit('web/widgets/practice/widget-states.js', (s) => [
    insertAfter("import { PROBLEMS } from './practice-data.js';\n", "import { STATE_CONTRACT as example } from '../example/example-model.js';\n"),
    insertAfter('export const STATE_CONTRACTS = {\n', '  example,\n'),
  ].reduce((text, change) => change(text), s)),
  'lessons/multiple-heads/lesson.md': () => edit('lessons/multiple-heads/lesson.md', (s) => `${s}\n<mha-example></mha-example>\n`),
  'web/multiple-heads.d.ts': () => edit('web/multiple-heads.d.ts', (s) => [
    insertAfter('export interface BlendAttributes extends WidgetAttributes<BlendPanel> {}\n',
      '/** <mha-example>\'s attributes. */\nexport interface ExampleAttributes extends WidgetAttributes<string> {}\n'),
    insertAfter('export interface MultipleHeadsAttributesByTag {\n', '  \'mha-example\': ExampleAttributes;\n'),
    insertAfter('export interface MultipleHeadsElementsByTag {\n', '  \'mha-example\': MultipleHeadsWidget<ExampleState>;\n'),
    (t) => `${t}\n/** <mha-example>'s state. */\nexport interface ExampleState {\n  /** The weight on the first word, 0 to 1. */\n  share: number;\n}\n`,
  ].reduce((text, change) => change(text), s)),
  'web/jsx-preact.d.ts': () => edit('web/jsx-preact.d.ts', insertAfter('    interface IntrinsicElements {\n',
    '      \'mha-example\': MultipleHeadsPreactProps<\'mha-example\'>;\n')),
  'docs/EMBEDDING.md': () => edit('docs/EMBEDDING.md', (s) => [
    insertAfter('|---|---|---|\n', '| `example` | `<mha-example>` | sets the share of attention on the first word |\n'),
    insertAfter('```css\n', 'mha-example,\n'),
  ].reduce((text, change) => change(text), s)),
  'lessons/multiple-heads/locales/en.json': () => editJson('lessons/multiple-heads/locales/en.json', (m) => ({
    ...m, widgets: { ...m.widgets, example: { title: 'An example' } },
    example: { share: 'Share on the first word', shares: 'First word {first}, the rest {second}', refused: 'Not a share' },
  })),
  'package.json': () => editJson('package.json', (m) => ({
    ...m, exports: { ...m.exports, './example': { types: './web/widget-entry.d.ts', import: './dist/widgets/example.js', default: './dist/widgets/example.js' } },
  })),
  'lessons/multiple-heads/locales/de.json': () => editJson('lessons/multiple-heads/locales/de.json', (m) => ({
    ...m, widgets: { ...m.widgets, example: { title: 'Ein Beispiel' } },
    example: { share: 'Anteil des ersten Worts', shares: 'Erstes Wort {first}, der Rest {second}', refused: 'Kein Anteil' },
  })),
};

test('a new widget: its folder, a registry entry, then exactly the shared files the doc lists', async () => {
  const before = snapshot(copy);
  assert.deepEqual(await wiringProblems(copy), [], 'the copy starts fully wired');

  cpSync(path.join(FIXTURE, 'web'), at('web'), { recursive: true });
  edit('web/widgets/registry.js', insertAfter('export const WIDGETS = {\n',
    "  example: { tag: 'mha-example', title: 'An example', loadingHeight: { wide: 120, narrow: 160 }, attributes: [...COMMON] },\n"));

  // With only its folder and its registry entry, the check names each shared file to edit.
  const missing = await wiringProblems(copy);
  const filesNamed = [...new Set(missing.map((line) => line.split(':')[0]))].sort();
  assert.deepEqual(filesNamed, Object.keys(SHARED_EDITS).sort(), missing.join('\n'));

  for (const change of Object.values(SHARED_EDITS)) change();
  assert.deepEqual(await wiringProblems(copy), []);

  // The model is the state contract: its sanitiser keeps a good state and refuses a bad one.
  const model = await import(pathToFileURL(at('web/widgets/example/example-model.js')).href);
  assert.deepEqual(model.sanitizeExampleState({ share: 0.25 }), { share: 0.25 });
  assert.throws(() => model.sanitizeExampleState({ share: 2 }), /share: must be between 0 and 1/);
  assert.throws(() => model.sanitizeExampleState({ share: 0.5, colour: 'red' }), /colour/);
  const states = await import(pathToFileURL(at('web/widgets/practice/widget-states.js')).href);
  assert.deepEqual(states.WIDGET_STARTS['mha-example'](), { share: 0.5 }, 'the learner\'s copy knows its contract');

  // The types compile with the new element in the tag maps, in both JSX flavours and in the
  // derived unions (a usage file of the test's own, not part of the count).
  writeFileSync(at('tests/types/example-usage.tsx'), `/** @jsxImportSource react */
import type {} from '../../web/jsx-react.js';
import type { WidgetName, WidgetTag } from '../../web/multiple-heads.js';
const name: WidgetName = 'example';
const tag: WidgetTag = 'mha-example';
const element: HTMLElementTagNameMap['mha-example'] = document.createElement('mha-example');
element.addEventListener('change', (event) => console.log(event.detail.state.share.toFixed(2), name, tag));
export const Page = () => <mha-example panels="any" state-key="mine" />;
`);
  edit('tests/types/tsconfig.json', (s) => s.replace('"files": [\n', '"files": [\n    "example-usage.tsx",\n'));
  const tsc = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', at('tests/types')], { encoding: 'utf8' });
  assert.equal(tsc.status, 0, tsc.stdout + tsc.stderr);

  // The count: files new or changed outside tests, against docs/ADDING-A-WIDGET.md.
  const after = snapshot(copy);
  const touched = [...after.keys()].filter((file) => !file.startsWith('tests/') && after.get(file) !== before.get(file)).sort();
  const doc = readFileSync(path.join(ROOT, 'docs/ADDING-A-WIDGET.md'), 'utf8');
  const said = Number(/(\d+) files in all/.exec(doc)?.[1]);
  assert.equal(touched.length, said, `the doc says ${said}; touched:\n${touched.join('\n')}`);
});
