// The single-file embeds (scripts/build-single-file.mjs): one HTML file per widget, built
// here into a scratch folder, opened the ways an author uses them: from disk (file://) and
// as one file uploaded to a course platform (served over http, in a sandboxed iframe).
// Each carries its own strict Content-Security-Policy, which must be in force (eval is
// refused) and never violated. In a frame it reports its height, and the lines
// docs/EMBEDDING.md gives for the page around it size the frame. Every size the guide states
// for a file is the built file's (within 5%).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { buildSingleFiles } from '../../scripts/build-single-file.mjs';
import { serveStatic } from '../../scripts/lib/static-server.mjs';
import { WIDGETS } from '../../web/widgets/registry.js';
import { DIST_DIR, newWatchedPage, openTestBrowser, screenshot } from './browser.mjs';
import { axeViolations } from './axe.mjs';

let browser, outDir;

before(async () => {
  outDir = mkdtempSync(path.join(tmpdir(), 'mha-single-'));
  await buildSingleFiles(outDir);
  browser = await openTestBrowser();
});
after(async () => {
  await browser?.close();
  rmSync(outDir, { recursive: true, force: true });
});

const fileOf = (widget) => path.join(outDir, `${widget}.html`);
const GUIDE = readFileSync(fileURLToPath(new URL('../../docs/EMBEDDING.md', import.meta.url)), 'utf8');
// The guide's resizer for a platform's page (section 8: the snippet with the inline script).
const PLATFORM_RESIZER = /<!-- snippet: platform -->\s*```html\n(<script>[\s\S]*?<\/script>)\n/.exec(GUIDE)?.[1];

/** A number as the guide writes it ("1,050") and the file's kB (1024 bytes), within 5%. */
function assertAbout(stated, bytes, what) {
  const kB = bytes / 1024;
  const value = Number(stated.replace(/,/g, ''));
  assert.ok(Math.abs(kB - value) <= 0.05 * kB, `${what}: the guide says ${stated} kB, the built file is ${kB.toFixed(1)} kB (docs/EMBEDDING.md)`);
}

/** The guide's sentence with the sizes in it (its numbers captured), or a failure naming it. */
function stated(pattern, what) {
  const match = pattern.exec(GUIDE.replace(/\s+/g, ' '));
  assert.ok(match, `docs/EMBEDDING.md no longer says ${what} as ${pattern}: state the size again and update this test`);
  return match.slice(1);
}

/** The gzipped size (level 6, as a host serves it) of the built site's asset(s) named by `pattern`. */
function gzippedAsset(pattern) {
  const dir = path.join(DIST_DIR, 'assets');
  const files = readdirSync(dir).filter((name) => pattern.test(name));
  assert.equal(files.length, 1, `one asset matches ${pattern}: ${files.join(', ')}`);
  return gzipSync(readFileSync(path.join(dir, files[0])), { level: 6 }).length;
}

describe('single-file embeds', () => {
  test('each file is self-contained: one inline script, one inline style, its own strict CSP, nothing fetched', () => {
    for (const widget of Object.keys(WIDGETS)) {
      const html = readFileSync(fileOf(widget), 'utf8');
      const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1];
      assert.ok(csp, `${widget}: a CSP meta tag`);
      assert.match(csp, /default-src 'none'/);
      assert.match(csp, /script-src 'sha256-[A-Za-z0-9+/=]+' 'wasm-unsafe-eval'(;|$)/);
      assert.doesNotMatch(csp, /unsafe-inline|'unsafe-eval'|\*/);
      assert.equal(html.match(/<script\b/g).length, 1, `${widget}: one script`);
      assert.doesNotMatch(html, /<script[^>]*\ssrc=|<link[^>]*rel="(stylesheet|modulepreload)"/, `${widget}: nothing loaded from elsewhere`);
      assert.match(html, new RegExp(`<${WIDGETS[widget].tag} `));
    }
  });

  for (const widget of Object.keys(WIDGETS)) {
    test(`${widget}: opened from disk (file://) it loads the core and draws, under its CSP; axe finds nothing, light or dark`, async () => {
      const { page, problems } = await newWatchedPage(browser);
      await page.goto(pathToFileURL(fileOf(widget)).href);
      await page.locator(`${WIDGETS[widget].tag}[ready]`).waitFor({ timeout: 20000 });
      assert.deepEqual(problems, [], 'no errors, no CSP violations');
      for (const scheme of ['light', 'dark']) {
        await page.emulateMedia({ colorScheme: scheme });
        assert.deepEqual(await axeViolations(page), [], `axe, ${scheme}`);
      }
      // The CSP is in force: an inline script without the file's hash does not run.
      assert.equal(await page.evaluate(() => new Promise((resolve) => {
        document.addEventListener('securitypolicyviolation', (event) => resolve(event.violatedDirective), { once: true });
        const script = document.createElement('script');
        script.textContent = 'document.title = "injected"';
        document.body.append(script);
        setTimeout(() => resolve(document.title === 'injected' ? 'ran' : 'no report'), 2000);
      })), 'script-src-elem');
      await screenshot(page, `single-file-${widget}`);
    });
  }

  test('blend from disk computes: the learner’s move changes the core’s counts', async () => {
    const { page, problems } = await newWatchedPage(browser);
    await page.goto(pathToFileURL(fileOf('blend')).href);
    const widget = page.locator('mha-blend[ready]');
    await widget.waitFor({ timeout: 20000 });
    const headline = widget.locator('.headline');
    assert.match(await headline.textContent(), /One head: who said it\? 8 of 16;/);
    await widget.getByRole('slider', { name: 'One head: weight on “researcher”' }).press('PageUp');
    assert.match(await headline.textContent(), /One head: who said it\? 12 of 16;/);
    await screenshot(page, 'single-file-blend');
    assert.deepEqual(problems, []);
  });

  test('head-splitting from disk: Measure on this device times the configurations in its inline worker', async () => {
    const { page, problems } = await newWatchedPage(browser);
    await page.goto(pathToFileURL(fileOf('head-splitting')).href);
    const widget = page.locator('mha-head-splitting[ready]');
    await widget.waitFor({ timeout: 20000 });
    await widget.getByRole('button', { name: 'Measure on this device' }).click();
    await widget.locator('button:enabled', { hasText: 'Measure on this device' }).waitFor({ timeout: 30000 });
    const status = await widget.locator('.measure-status').textContent();
    assert.match(status, /^Measured at L = \d+ /);
    assert.doesNotMatch(status, /main thread/);
    const times = await widget.locator('.config-row .time').allTextContents();
    assert.ok(times.length === 3 && times.every((t) => Number.parseFloat(t) > 0), `positive times, got ${times.join(', ')}`);
    assert.deepEqual(problems, []);
  });

  test('uploaded as one file to a course platform: served over http, in a sandboxed iframe of the course page, which the guide’s lines size', async () => {
    assert.ok(PLATFORM_RESIZER, 'docs/EMBEDDING.md section 8 gives the resizer for a platform’s page');
    const site = mkdtempSync(path.join(tmpdir(), 'mha-single-lms-'));
    writeFileSync(path.join(site, 'blend.html'), readFileSync(fileOf('blend')));
    writeFileSync(path.join(site, 'course.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Course</title>
<link rel="icon" href="data:,"></head><body><main><h1>Week 3</h1>
${PLATFORM_RESIZER}
<iframe data-multiple-heads title="One head, one average" sandbox="allow-scripts" width="1000" height="300" src="blend.html"></iframe>
<iframe title="Someone else's frame" sandbox="allow-scripts" width="300" height="150" src="blend.html"></iframe></main></body></html>`);
    // The platform's own header: it allows the uploaded file's inline script and wasm.
    const server = await serveStatic(site, { csp: "default-src 'self'; script-src 'self' 'unsafe-inline' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; connect-src 'self' data:; worker-src blob:; img-src 'self' data:", cors: false });
    let page = null;
    try {
      const watched = await newWatchedPage(browser);
      page = watched.page;
      const { problems } = watched;
      await page.goto(`${server.url}course.html`);
      const widget = page.frameLocator('iframe[data-multiple-heads]').locator('mha-blend[ready]');
      await widget.waitFor({ timeout: 20000 });
      await widget.getByRole('slider', { name: 'One head: weight on “researcher”' }).press('PageUp');
      assert.match(await widget.locator('.headline').textContent(), /who said it\? 12 of 16;/);
      // The marked frame takes its document's height; the unmarked one keeps its own.
      const [marked, unmarked] = await Promise.all([0, 1].map(async (i) => (await page.locator('iframe').nth(i).elementHandle()).contentFrame()));
      const content = await marked.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
      assert.ok(content > 500, `the widget's page is ${content}px tall`);
      await page.waitForFunction((h) => document.querySelector('iframe[data-multiple-heads]').clientHeight === h, content);
      assert.equal(await page.locator('iframe').nth(1).evaluate((f) => f.clientHeight), 150, 'an unmarked frame is not sized');
      // Junk is ignored: a message from another window, a height that is not a number, and
      // one from the unmarked frame; a height out of range is clamped.
      const height = () => page.locator('iframe[data-multiple-heads]').evaluate((f) => f.clientHeight);
      await page.evaluate(() => postMessage({ type: 'multiple-heads:height', height: 400 }, '*'));
      await marked.evaluate(() => parent.postMessage({ type: 'multiple-heads:height', height: '400' }, '*'));
      await marked.evaluate(() => parent.postMessage('multiple-heads:height 400', '*'));
      await unmarked.evaluate(() => parent.postMessage({ type: 'multiple-heads:height', height: 400 }, '*'));
      await marked.evaluate(() => parent.postMessage({ type: 'multiple-heads:height', height: 99999 }, '*'));
      await page.waitForFunction(() => document.querySelector('iframe[data-multiple-heads]').clientHeight === 8000);
      await marked.evaluate(() => parent.postMessage({ type: 'multiple-heads:height', height: 1 }, '*'));
      await page.waitForFunction(() => document.querySelector('iframe[data-multiple-heads]').clientHeight === 100);
      assert.equal(await height(), 100, 'only the frame’s own numbers, clamped, were applied');
      assert.deepEqual(problems, []);
    } finally {
      await page?.close();
      await server.close();
      rmSync(site, { recursive: true, force: true });
    }
  });

  test('every size docs/EMBEDDING.md states for a file is the built file’s (within 5%)', () => {
    const [each, split, train] = stated(/about ([\d,]+) kB each; head splitting ([\d,]+) kB and training ([\d,]+) kB/, 'the single files’ sizes');
    const bytes = (widget) => readFileSync(fileOf(widget)).length;
    for (const widget of ['layer', 'blend', 'wo-mixing', 'heads-questions']) assertAbout(each, bytes(widget), `single/${widget}.html`);
    assertAbout(split, bytes('head-splitting'), 'single/head-splitting.html');
    assertAbout(train, bytes('training'), 'single/training.html');
    const core = gzippedAsset(/^multiple_heads_simd-[\w-]+\.wasm$/) + gzippedAsset(/^multiple_heads_simd-[\w-]+\.js$/);
    assertAbout(stated(/loaded when the first one appears \(about (\d+) kB gzipped with its loader\)/, 'the core’s size')[0], core, 'the core (wasm and loader), gzipped');
    assertAbout(stated(/The core \(its wasm and its loader, (\d+) kB\)/, 'the core’s size')[0], core, 'the core (wasm and loader), gzipped');
    // What pressing Train fetches: the training worker and the training wasm.
    const training = gzippedAsset(/^training-worker-[\w-]+\.js$/) + gzippedAsset(/^multiple_heads_train_simd-[\w-]+\.wasm$/);
    assertAbout(stated(/training module \(its worker and wasm, about (\d+) kB gzipped\)/, 'the training module’s size')[0], training, 'the training module (worker and wasm), gzipped');
  });
});
