// The package as an author gets it: the packed tarball (tests/browser/pack.mjs, with the
// site under test as dist/) installed into a scratch project, used from a plain HTML page
// (no build step), and type-checked in TypeScript, React and Preact projects. And the
// package itself: not private, a semver version, a changelog, a README for authors that
// still tells a developer `npm start` and `npm test`, and no link to a file it lacks.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { serveStatic } from '../../scripts/lib/static-server.mjs';
import { buildAllWidgets, newWatchedPage, openTestBrowser } from './browser.mjs';
import { packPackage } from './pack.mjs';
import { WIDGETS } from '../../web/widgets/registry.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let scratch, installed, browser, server;

before(async () => {
  scratch = mkdtempSync(path.join(tmpdir(), 'mha-package-'));
  const tarball = packPackage(scratch);
  writeFileSync(path.join(scratch, 'package.json'), JSON.stringify({ name: 'course', private: true, type: 'module' }));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--offline', `./${tarball}`], { cwd: scratch, stdio: 'ignore' });
  installed = path.join(scratch, 'node_modules/multiple-heads');
  writeFileSync(path.join(scratch, 'index.html'), `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Course</title><link rel="icon" href="data:,">
<script type="module" src="node_modules/multiple-heads/dist/multiple-heads.js"></script></head>
<body><main><mha-blend></mha-blend><mha-heads-questions></mha-heads-questions></main></body></html>`);
  server = await serveStatic(scratch);
  browser = await openTestBrowser();
});
after(async () => {
  await browser?.close();
  await server?.close();
  rmSync(scratch, { recursive: true, force: true });
});

const shipped = () => readdirSync(installed, { recursive: true }).map((f) => f.split(path.sep).join('/'));

test('the tarball holds the site, the types, the guides and the changelog, and nothing else', () => {
  const files = shipped();
  const wanted = ['dist/multiple-heads.js', 'dist/embed.html', 'web/multiple-heads.d.ts', 'web/engine/engine.d.ts',
    'web/jsx-react.d.ts', 'web/jsx-preact.d.ts', 'docs/EMBEDDING.md', 'README.md', 'CHANGELOG.md',
    // The world format and the worlds an author can name in world= (docs/WORLDS.md).
    'docs/WORLDS.md', 'dist/world.schema.json', 'dist/worlds/lesson.json', 'dist/worlds/german.json', 'dist/worlds/trained.json',
    // Each widget's README (state, keyboard), for every widget the registry lists and the practice.
    ...[...Object.keys(WIDGETS), 'practice'].map((name) => `web/widgets/${name}/README.md`)];
  for (const file of wanted) assert.ok(files.includes(file), `${file} is in the package`);
  assert.ok(files.some((f) => f.endsWith('.wasm')), 'the wasm modules are in the package');
  assert.ok(!files.some((f) => /^(core|tests|bindings|scripts|node_modules|lessons)\//.test(f)), 'no sources or tests');
  assert.ok(!files.some((f) => f.startsWith('web/') && f.endsWith('.js')), 'no unbuilt sources');
});

test('package.json: public, a semver version, exports for the widgets, React and Preact types', () => {
  const manifest = JSON.parse(readFileSync(path.join(installed, 'package.json'), 'utf8'));
  assert.equal(manifest.private, undefined, 'not private');
  assert.match(manifest.version, /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/, 'a semver version');
  assert.ok(readFileSync(path.join(installed, 'CHANGELOG.md'), 'utf8').includes(`## ${manifest.version}`), 'the changelog has this version');
  for (const entry of ['.', './react', './preact']) assert.ok(manifest.exports[entry]?.types, `exports["${entry}"] has types`);
  for (const target of Object.values(manifest.exports).flatMap((e) => (typeof e === 'string' ? [e] : Object.values(e)))) {
    assert.ok(existsSync(path.join(installed, target)), `exported ${target} exists`);
  }
});

test('the shipped README is for authors and still tells a developer npm start and npm test', () => {
  const readme = readFileSync(path.join(installed, 'README.md'), 'utf8');
  for (const wanted of ['multiple-heads.js', "import 'multiple-heads'", '--mha-', "'wasm-unsafe-eval'", 'multiple-heads/react',
    ...Object.values(WIDGETS).map((w) => `<${w.tag}>`), '<mha-practice>', 'npm start', 'npm test']) {
    assert.ok(readme.includes(wanted), `README mentions ${wanted}`);
  }
  // The author's part comes first.
  assert.ok(readme.indexOf('multiple-heads.js') < readme.indexOf('npm start'));
});

test('no shipped Markdown links to a file the package lacks', () => {
  const broken = [];
  for (const doc of shipped().filter((f) => f.endsWith('.md'))) {
    const text = readFileSync(path.join(installed, doc), 'utf8').replace(/```[\s\S]*?```/g, '');
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      if (/^[a-z]+:/i.test(target) || target.startsWith('#')) continue; // web addresses, anchors
      const file = path.join(path.dirname(path.join(installed, doc)), decodeURI(target.split('#')[0]));
      if (!existsSync(file)) broken.push(`${doc} -> ${target}`);
    }
  }
  assert.deepEqual(broken, []);
});

test('a plain page uses the installed package: widgets load and compute', async () => {
  const { page, problems } = await newWatchedPage(browser);
  await page.goto(server.url);
  await buildAllWidgets(page);
  await page.locator('mha-blend[ready]').waitFor();
  await page.locator('mha-heads-questions[ready]').waitFor();
  await page.locator('mha-blend').getByRole('slider', { name: 'One head: weight on “researcher”' }).press('PageUp');
  assert.match(await page.locator('mha-blend .headline').textContent(), /One head: who said it\? 12 of 16;/);
  assert.deepEqual(problems, []);
});

// An author's project: TypeScript with the DOM, and the package's types from node_modules.
function typeCheck(name, files, options = {}) {
  const dir = path.join(scratch, name);
  mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(path.join(dir, file), text);
  writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { strict: true, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2022', 'dom'], types: [], ...options },
    files: Object.keys(files),
  }));
  try {
    execFileSync(path.join(ROOT, 'node_modules/.bin/tsc'), ['-p', dir], { stdio: 'pipe', encoding: 'utf8' });
  } catch (error) {
    throw new Error(`${name}: ${error.stdout}${error.stderr}`);
  }
}

test('the package types check in an author’s TypeScript project: typed change events, wrong attributes refused', () => {
  typeCheck('ts', {
    'use.ts': `import { WIDGETS, loadEngine, type BlendState, type LayerAttributes } from 'multiple-heads';
const blend = document.querySelector('mha-blend');
const state: BlendState | undefined = blend?.state;
blend?.addEventListener('change', (event) => console.log(event.detail.state.budget));
document.querySelector('mha-practice')?.setAttribute('idea', 'wo');
export const tag: string = WIDGETS.blend.tag;
export const ready: Promise<unknown> = loadEngine();
// @ts-expect-error: the layer has 1, 2 or 4 heads
export const wrong: LayerAttributes = { heads: '3' };
void state;
`,
  });
});

test('React and Preact projects get the elements in JSX, checked', () => {
  // The author's own React types and Preact (this repository's copies stand in for theirs).
  mkdirSync(path.join(scratch, 'node_modules/@types'), { recursive: true });
  symlinkSync(path.join(ROOT, 'node_modules/@types/react'), path.join(scratch, 'node_modules/@types/react'));
  symlinkSync(path.join(ROOT, 'node_modules/preact'), path.join(scratch, 'node_modules/preact'));
  typeCheck('react', {
    'app.tsx': `import type {} from 'multiple-heads/react';
export const app = <main><mha-blend panels="plane values" state-key="b" /><mha-layer heads="2" token="said" />
  {/* @ts-expect-error: panel names are lower case */}
  <mha-blend panels="Plane" /></main>;
`,
  }, { jsx: 'react-jsx' });
  typeCheck('preact', {
    'app.tsx': `import type {} from 'multiple-heads/preact';
export const app = <main><mha-training panels="curves heads" /><mha-practice idea="limits" />
  <mha-wo-mixing world="worlds/german.json" token="Koch" />
  {/* @ts-expect-error: 3 heads is not a layer */}
  <mha-wo-mixing heads="3" /></main>;
`,
  }, { jsx: 'react-jsx', jsxImportSource: 'preact' });
});
