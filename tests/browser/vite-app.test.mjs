// The package in an author's bundler: the packed tarball is installed into a fresh Vite app
// in a scratch folder, `vite build` bundles it (renaming every asset, the wasm modules and
// the measuring worker included), and the built app is served under the strict CSP. The
// widgets must compute, and "Measure on this device" must time the configurations in its
// worker: the worker gets the wasm's address from the page, where the author's bundler
// rewrote it, instead of asking for a file name the bundler has renamed.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { serveStatic } from '../../scripts/lib/static-server.mjs';
import { buildAllWidgets, newWatchedPage, openTestBrowser, screenshot } from './browser.mjs';
import { packPackage } from './pack.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const VITE = path.join(ROOT, 'node_modules/vite/bin/vite.js');
let scratch, app, browser, server;

before(async () => {
  scratch = mkdtempSync(path.join(tmpdir(), 'mha-vite-app-'));
  const tarball = packPackage(scratch);
  app = path.join(scratch, 'app');
  mkdirSync(app);
  writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'course-app', private: true, type: 'module' }));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--offline', path.join(scratch, tarball)], { cwd: app, stdio: 'ignore' });
  // What the Vite guide's vanilla template gives an author: index.html and a main.js.
  writeFileSync(path.join(app, 'index.html'), `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Course</title><link rel="icon" href="data:,">
<script type="module" src="/main.js"></script></head>
<body><main><h1>Attention</h1><mha-head-splitting></mha-head-splitting><mha-blend></mha-blend></main></body></html>`);
  writeFileSync(path.join(app, 'main.js'), "import 'multiple-heads';\n");
  // The author's own Vite, with no configuration (vite is not installed into the app: the
  // repository's copy is run with the app as its working folder).
  execFileSync(process.execPath, [VITE, 'build', '--logLevel', 'warn'], { cwd: app, stdio: 'pipe' });
  server = await serveStatic(path.join(app, 'dist'));
  browser = await openTestBrowser();
});
after(async () => {
  await browser?.close();
  await server?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

test('the author’s Vite renames the package’s wasm modules and worker (so the test means something)', () => {
  const assets = readdirSync(path.join(app, 'dist/assets'));
  const wasm = assets.filter((name) => name.endsWith('.wasm'));
  const shipped = readdirSync(path.join(app, 'node_modules/multiple-heads/dist/assets')).filter((name) => name.endsWith('.wasm'));
  assert.ok(shipped.length >= 2, `the package ships the SIMD and scalar cores, got ${shipped.join(', ')}`);
  assert.equal(wasm.length, shipped.length, `each of the package's wasm modules is emitted once, got ${assets.join(', ')}`);
  for (const name of wasm) assert.ok(!shipped.includes(name), `${name} is a new name, not the package's`);
  assert.ok(assets.some((name) => name.startsWith('measure-worker')), 'the measuring worker is bundled');
});

test('vite build of an app that imports the package: the widgets compute and Measure on this device times in a worker', async () => {
  const { page, problems } = await newWatchedPage(browser);
  await page.goto(server.url);
  await buildAllWidgets(page);
  const widget = page.locator('mha-head-splitting[ready]');
  await widget.waitFor();
  await page.locator('mha-blend[ready]').waitFor();
  await widget.getByRole('button', { name: 'Measure on this device' }).click();
  await widget.locator('button:enabled', { hasText: 'Measure on this device' }).waitFor({ timeout: 30000 });
  const status = await widget.locator('.measure-status').textContent();
  assert.match(status, /^Measured at L = \d+ /);
  assert.doesNotMatch(status, /main thread/, 'timed in the worker, not on the page');
  const times = await widget.locator('.config-row .time').allTextContents();
  assert.equal(times.length, 3);
  for (const time of times) assert.match(time, /^\d+\.\d\d ms$/);
  assert.ok(times.every((time) => Number.parseFloat(time) > 0), `positive times, got ${times.join(', ')}`);
  await screenshot(widget, 'vite-app-measured');
  assert.deepEqual(problems, []);
});
