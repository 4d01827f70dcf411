// Sandboxed frames below the fold size themselves without being scrolled to (issue 11,
// item 12). Chromium runs no rendering updates (so no ResizeObserver callbacks) in an
// off-screen cross-origin frame; on a page with four frames, those out of view stayed at
// their default 150 px until the learner scrolled to them.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { STRICT_CSP, serveStatic } from '../../scripts/lib/static-server.mjs';
import { DIST_DIR, newWatchedPage, openTestBrowser } from './browser.mjs';

const WIDGETS = ['blend', 'head-splitting', 'wo-mixing', 'heads-questions'];
let browser, server, site, elsewhere;
// What a hostile neighbour frame posts: a widget's height message, asking for 19,999 px.
const HOSTILE_SCRIPT = `setInterval(() => parent.postMessage({ type: 'multiple-heads:height', widget: 'blend', height: 19999 }, '*'), 50);`;
const HOSTILE_PAGE = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Ad</title><script src="hostile.js"></script></head><body><p>An advert</p></body></html>';

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
  // A host page with widget frames next to hostile ones: a frame from another origin and
  // one from the host's own origin, both posting widget-like height messages.
  writeFileSync(path.join(site, 'hostile.js'), HOSTILE_SCRIPT);
  writeFileSync(path.join(site, 'hostile.html'), HOSTILE_PAGE);
  const other = mkdtempSync(path.join(tmpdir(), 'mha-frames-other-'));
  writeFileSync(path.join(other, 'hostile.js'), HOSTILE_SCRIPT);
  writeFileSync(path.join(other, 'hostile.html'), HOSTILE_PAGE);
  elsewhere = { dir: other, server: await serveStatic(other) };
  // The host's strict CSP, letting in frames from the other origin (as a host with ads would).
  server = await serveStatic(site, { csp: `${STRICT_CSP}; frame-src 'self' ${new URL(elsewhere.server.url).origin}` });
  writeFileSync(path.join(site, 'neighbours.html'), `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Neighbours</title>
<link rel="icon" href="data:,"><link rel="stylesheet" href="frames.css">
<script type="module" src="lesson/embed-resizer.js"></script></head>
<body><main><h1>Widget frames and their neighbours</h1>
<iframe id="sandboxed" title="blend" sandbox="allow-scripts" src="lesson/embed.html?widget=blend"></iframe>
<iframe id="same-origin" title="blend, same origin" src="lesson/embed.html?widget=blend&amp;state-key=second"></iframe>
<iframe id="foreign" title="advert" src="${elsewhere.server.url}hostile.html"></iframe>
<iframe id="foreign-sandboxed" title="advert" sandbox="allow-scripts" src="${elsewhere.server.url}hostile.html"></iframe>
<iframe id="local" title="local advert" src="hostile.html"></iframe>
</main></body></html>`);
  browser = await openTestBrowser();
});
after(async () => {
  await browser?.close();
  await server?.close();
  await elsewhere?.server.close();
  rmSync(site, { recursive: true, force: true });
  if (elsewhere) rmSync(elsewhere.dir, { recursive: true, force: true });
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

describe('the resizer and its neighbours', () => {
  const heightOf = (page, id) => page.$eval(`#${id}`, (f) => Math.round(f.getBoundingClientRect().height));
  // The host page counts the height messages each of its frames posted (by frame id), so a
  // test waits until the hostile ones have been heard many times rather than for a while.
  const countMessages = (page) => page.addInitScript(() => {
    if (window !== window.top) return;
    window.heard = {};
    addEventListener('message', (event) => {
      const frame = [...document.querySelectorAll('iframe')].find((f) => f.contentWindow === event.source);
      if (frame && event.data?.height === 19999) window.heard[frame.id] = (window.heard[frame.id] ?? 0) + 1;
    });
  });
  const heardFrom = (page, ids, times) => page.waitForFunction(([ids, times]) => ids.every((id) => (window.heard[id] ?? 0) >= times), [ids, times]);

  test('a hostile neighbour frame posting {type: "multiple-heads:height", height: 19999} keeps its size; widget frames take theirs', async () => {
    const { page, problems } = await newWatchedPage(browser, { width: 1000, height: 800 });
    await countMessages(page);
    await page.goto(`${server.url}neighbours.html`);
    await page.waitForFunction(() => ['sandboxed', 'same-origin']
      .every((id) => document.getElementById(id).getBoundingClientRect().height > 300), null, { timeout: 15000 });
    // The hostile frames post every 50 ms: each has been heard (and wrongly obeyed, if ever) 10 times.
    await heardFrom(page, ['foreign', 'foreign-sandboxed', 'local'], 10);
    for (const id of ['foreign', 'foreign-sandboxed', 'local']) {
      assert.equal(await heightOf(page, id), 150, `#${id} keeps the default 150 px`);
    }
    assert.deepEqual(problems, []);
  });

  test('a widget frame\'s own height is clamped; a widget frame that navigated elsewhere is not obeyed', async () => {
    const { page } = await newWatchedPage(browser, { width: 1000, height: 800 });
    await countMessages(page);
    await page.goto(`${server.url}neighbours.html`);
    await page.waitForFunction(() => document.getElementById('same-origin').getBoundingClientRect().height > 300, null, { timeout: 15000 });
    // The widget's own frame (origin "null") asks for 19,999 px: it gets the maximum.
    const frame = page.frame({ url: /widget=blend$/ });
    await frame.evaluate(() => parent.postMessage({ type: 'multiple-heads:height', widget: 'blend', height: 19999 }, '*'));
    const MAX_HEIGHT = await page.evaluate(async () => (await import('./lesson/embed-resizer.js')).MAX_HEIGHT);
    assert.ok(MAX_HEIGHT >= 4000 && MAX_HEIGHT < 19999, `a sane maximum, got ${MAX_HEIGHT}`);
    await page.waitForFunction((max) => Math.round(document.getElementById('sandboxed').getBoundingClientRect().height) === max, MAX_HEIGHT);
    // A frame without sandbox posts from the site's origin; navigated to another
    // origin (its src attribute unchanged), its messages come from there and are ignored.
    const sameOrigin = page.frame({ url: /state-key=second$/ });
    const before = await heightOf(page, 'same-origin');
    await sameOrigin.goto(`${elsewhere.server.url}hostile.html`);
    await heardFrom(page, ['same-origin'], 10);
    assert.equal(await heightOf(page, 'same-origin'), before);
  });
});
