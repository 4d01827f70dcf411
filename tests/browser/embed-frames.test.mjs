// Sandboxed frames below the fold size themselves without being scrolled to (issue 11,
// item 12). Chromium runs no rendering updates (so no ResizeObserver callbacks) in an
// off-screen cross-origin frame; on a page with four frames, those out of view stayed at
// their default 150 px until the learner scrolled to them.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { serveStatic } from '../../scripts/lib/static-server.mjs';
import { DIST_DIR, newWatchedPage, openBrowser } from './browser.mjs';

const WIDGETS = ['blend', 'head-splitting', 'wo-mixing', 'heads-questions'];
let browser, server, site;

before(async () => {
  // A host page: an introduction taller than the viewport, then four sandboxed frames, so
  // that every frame starts out of view.
  site = mkdtempSync(path.join(tmpdir(), 'mha-frames-'));
  symlinkSync(DIST_DIR, path.join(site, 'lesson'));
  writeFileSync(path.join(site, 'frames.css'), '.intro { height: 1200px; } iframe { display: block; width: 100%; border: 0; }');
  writeFileSync(path.join(site, 'frames.html'), `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Four frames</title>
<link rel="icon" href="data:,"><link rel="stylesheet" href="frames.css">
<script type="module" src="lesson/embed-resizer.js"></script></head>
<body><main><h1>Four frames</h1><p class="intro">An introduction taller than the window.</p>
${WIDGETS.map((w) => `<iframe title="${w}" sandbox="allow-scripts" src="lesson/embed.html?widget=${w}"></iframe>`).join('\n')}
</main></body></html>`);
  server = await serveStatic(site);
  browser = await openBrowser();
});
after(async () => {
  await browser?.close();
  await server?.close();
  rmSync(site, { recursive: true, force: true });
});

describe('embedded frames', () => {
  test('four sandboxed frames below the fold all take their widget\'s height without scrolling', async () => {
    const { page, problems } = await newWatchedPage(browser, { width: 1000, height: 800 });
    await page.goto(`${server.url}frames.html`);
    for (const frame of page.frames().slice(1)) await frame.waitForSelector('[ready]', { state: 'attached' });
    // The frames are out of view (the page has not been scrolled) while they report.
    assert.equal(await page.evaluate(() => window.scrollY), 0);
    const heights = async () => page.$$eval('iframe', (frames) => frames.map((f) => Math.round(f.getBoundingClientRect().height)));
    try {
      await page.waitForFunction(() => [...document.querySelectorAll('iframe')]
        .every((frame) => frame.getBoundingClientRect().height > 300), null, { timeout: 15000 });
    } catch {
      assert.fail(`frames kept these heights without scrolling: ${(await heights()).join(', ')} px`);
    }
    assert.equal(await page.evaluate(() => window.scrollY), 0);
    // Each frame's height is its document's height: nothing cut off, no scroll bar inside.
    for (const frame of page.frames().slice(1)) {
      const inner = await frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
      const outer = await (await frame.frameElement()).evaluate((f) => Math.round(f.getBoundingClientRect().height));
      assert.ok(Math.abs(inner - outer) <= 1, `${frame.url()}: frame ${outer} px for a document of ${inner} px`);
    }
    assert.deepEqual(problems, []);
  });
});
