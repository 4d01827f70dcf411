// The single-file embeds (scripts/build-single-file.mjs): one HTML file per widget, built
// here into a scratch folder, opened the ways an author uses them: from disk (file://) and
// as one file uploaded to a course platform (served over http, in a sandboxed iframe).
// Each carries its own strict Content-Security-Policy, which must be in force (eval is
// refused) and never violated.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { buildSingleFiles } from '../../scripts/build-single-file.mjs';
import { serveStatic } from '../../scripts/lib/static-server.mjs';
import { WIDGETS } from '../../web/widgets/registry.js';
import { newWatchedPage, openBrowser, screenshot } from './browser.mjs';
import { axeViolations } from './axe.mjs';

let browser, outDir;

before(async () => {
  outDir = mkdtempSync(path.join(tmpdir(), 'mha-single-'));
  await buildSingleFiles(outDir);
  browser = await openBrowser();
});
after(async () => {
  await browser?.close();
  rmSync(outDir, { recursive: true, force: true });
});

const fileOf = (widget) => path.join(outDir, `${widget}.html`);

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

  test('uploaded as one file to a course platform: served over http, in a sandboxed iframe of the course page', async () => {
    const site = mkdtempSync(path.join(tmpdir(), 'mha-single-lms-'));
    writeFileSync(path.join(site, 'blend.html'), readFileSync(fileOf('blend')));
    writeFileSync(path.join(site, 'course.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Course</title>
<link rel="icon" href="data:,"></head><body><main><h1>Week 3</h1>
<iframe title="One head, one average" sandbox="allow-scripts" width="1000" height="900" src="blend.html"></iframe></main></body></html>`);
    // The platform's own header: it allows the uploaded file's inline script and wasm.
    const server = await serveStatic(site, { csp: "default-src 'self'; script-src 'self' 'unsafe-inline' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; connect-src 'self' data:; worker-src blob:; img-src 'self' data:", cors: false });
    try {
      const { page, problems } = await newWatchedPage(browser);
      await page.goto(`${server.url}course.html`);
      const widget = page.frameLocator('iframe').locator('mha-blend[ready]');
      await widget.waitFor({ timeout: 20000 });
      await widget.getByRole('slider', { name: 'One head: weight on “researcher”' }).press('PageUp');
      assert.match(await widget.locator('.headline').textContent(), /who said it\? 12 of 16;/);
      assert.deepEqual(problems, []);
    } finally {
      await server.close();
      rmSync(site, { recursive: true, force: true });
    }
  });
});
