// The package as an author gets it: `npm pack` makes a tarball, which is installed into a
// scratch folder and used from a plain HTML page (no build step), and type-checked.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { serveStatic } from '../../scripts/lib/static-server.mjs';
import { newWatchedPage, openBrowser } from './browser.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let scratch, browser, server;

before(async () => {
  scratch = mkdtempSync(path.join(tmpdir(), 'mha-package-'));
  // dist/ is already built by `npm test`; skip the prepack rebuild.
  const tarball = execFileSync('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', scratch],
    { cwd: ROOT, encoding: 'utf8' }).trim().split('\n').pop();
  writeFileSync(path.join(scratch, 'package.json'), JSON.stringify({ name: 'course', private: true, type: 'module' }));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--offline', `./${tarball}`], { cwd: scratch, stdio: 'ignore' });
  writeFileSync(path.join(scratch, 'index.html'), `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Course</title><link rel="icon" href="data:,">
<script type="module" src="node_modules/multiple-heads/dist/multiple-heads.js"></script></head>
<body><main><mha-blend></mha-blend><mha-heads-questions></mha-heads-questions></main></body></html>`);
  server = await serveStatic(scratch);
  browser = await openBrowser();
});
after(async () => {
  await browser?.close();
  await server?.close();
  rmSync(scratch, { recursive: true, force: true });
});

test('the packed tarball holds the built files, the types and the guide, and nothing else', () => {
  const files = readdirSync(path.join(scratch, 'node_modules/multiple-heads'), { recursive: true });
  for (const wanted of ['dist/multiple-heads.js', 'dist/embed.html', 'web/multiple-heads.d.ts', 'web/engine/engine.d.ts', 'docs/EMBEDDING.md']) {
    assert.ok(files.includes(wanted), `${wanted} is in the package`);
  }
  assert.ok(files.some((f) => f.endsWith('.wasm')), 'the wasm modules are in the package');
  assert.ok(!files.some((f) => f.startsWith('core') || f.startsWith('tests') || f.startsWith('node_modules')));
});

test('a plain page uses the installed package: widgets load and compute', async () => {
  const { page, problems } = await newWatchedPage(browser);
  await page.goto(server.url);
  await page.locator('mha-blend[ready]').waitFor();
  await page.locator('mha-heads-questions[ready]').waitFor();
  await page.locator('mha-blend').getByRole('slider', { name: 'One head: weight on “researcher”' }).press('PageUp');
  assert.match(await page.locator('mha-blend .headline').textContent(), /One head: who did the saying\? right in 16 of 16/);
  assert.deepEqual(problems, []);
});

test('the package types check in an author’s TypeScript project', () => {
  writeFileSync(path.join(scratch, 'use.ts'), `import { WIDGETS, loadEngine, type BlendState } from 'multiple-heads';
const blend = document.querySelector('mha-blend');
const state: BlendState | undefined = blend?.state;
export const tag: string = WIDGETS.blend.tag;
export const ready: Promise<unknown> = loadEngine();
void state;
`);
  writeFileSync(path.join(scratch, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { strict: true, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2022', 'dom'], types: [] },
    files: ['use.ts'],
  }));
  execFileSync(path.join(ROOT, 'node_modules/.bin/tsc'), ['-p', scratch], { stdio: 'pipe' });
});
