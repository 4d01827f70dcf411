// Shared set-up for browser tests: Debian's Chromium driven by playwright-core, the built
// page served with the strict CSP, and a record of every console error and CSP violation
// (a test fails if any appear).
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before } from 'node:test';
import { chromium } from 'playwright-core';
import { CHROMIUM_LAUNCH, TEST_CHROMIUM_LAUNCH } from '../../scripts/lib/chromium.mjs';
import { serveStatic } from '../../scripts/lib/static-server.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SCREENSHOT_DIR = path.join(ROOT, 'test-results/screenshots');

/**
 * Chromium for a test file. When the suite runs under scripts/lib/browser-suite.mjs, every
 * test file connects to the one browser it launched ($MHA_BROWSER_WS), which saves a
 * launch per file; `close()` then closes this file's pages and disconnects. Run alone
 * (`node --test tests/browser/x.test.mjs`), a file launches its own: the headless shell
 * when it is installed, as the suite does (scripts/lib/chromium.mjs).
 */
export async function openTestBrowser() {
  if (process.env.MHA_BROWSER_WS) return chromium.connect(process.env.MHA_BROWSER_WS);
  return chromium.launch(TEST_CHROMIUM_LAUNCH);
}

/** The full Chromium, for the benchmarks (bench/): what a reader's browser does. */
export async function openBrowser() {
  if (process.env.MHA_BROWSER_WS) return chromium.connect(process.env.MHA_BROWSER_WS);
  return chromium.launch(CHROMIUM_LAUNCH);
}

/** The built site: dist/, or $MHA_DIST_DIR when set. */
export const DIST_DIR = process.env.MHA_DIST_DIR ?? path.join(ROOT, 'dist');

/** Serves the built site under the strict CSP. */
export function serveDist(options) {
  return serveStatic(DIST_DIR, options);
}

/** A new page whose console errors, page errors and CSP violations are collected. */
export async function newWatchedPage(browser, viewport = { width: 1000, height: 800 }) {
  return watchPage(await browser.newPage({ viewport }));
}

/** `page` watched as newWatchedPage's: its errors, warnings and CSP violations collected. */
export async function watchPage(page) {
  const problems = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') {
      problems.push(`console ${message.type()}: ${message.text()}`);
    }
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  return { page, problems };
}

/**
 * A finished download as a file here: its path. (`download.path()` works only for a browser
 * this process launched; the suite's shared browser is connected to, so the file is saved.)
 */
let downloads = null; // this test file's folder of downloads, removed when it ends
export async function downloadedFile(download) {
  if (!downloads) {
    downloads = mkdtempSync(path.join(tmpdir(), 'mha-downloads-'));
    process.once('exit', () => rmSync(downloads, { recursive: true, force: true }));
  }
  const file = path.join(mkdtempSync(path.join(downloads, 'd-')), download.suggestedFilename());
  await download.saveAs(file);
  return file;
}

/**
 * A watched page of its own at `url`, with the same arguments as a turn of pageTurns below:
 * for a test that cannot share one (two pages alive, a page kept for a later test).
 */
export async function watchedPageAt(browser, url, viewport, { colorScheme = null, reducedMotion = null } = {}) {
  const watched = await newWatchedPage(browser, viewport);
  await watched.page.emulateMedia({ colorScheme, reducedMotion });
  await watched.page.goto(url);
  return watched;
}

/**
 * One watched page that a file's tests take turns with, instead of a page each. A new page
 * costs about twice the CPU of a navigation in one (a renderer started, the scripts and the
 * core compiled again: 12 embed loads took 10.7-13.4 CPU s as new pages, 5.0-5.2 as one page;
 * issue 24). `browser()` gives the browser (known once tests run).
 * Returns goto(url, viewport, { colorScheme, reducedMotion }): the page (a new one if a test
 * closed it) at that viewport, media emulation off but for those given, with a new (empty) problems
 * list, navigated to `url` in a new document. Resolves to { page, problems }.
 * Each turn starts as a new page would, with nothing stored: the last document is left for
 * about:blank first (so no document of its origins is alive to write again, as the lesson
 * writes the learner's copy on pagehide), then the storage of every origin its frames had
 * (localStorage: the learner's copy, an author's draft) is cleared from the browser's side
 * (CDP Storage.clearDataForOrigin). Unlike a new page, the HTTP cache stays warm: not for
 * tests of what a first visit loads. Listeners, routes and init scripts a test adds to the
 * page stay with it: such tests keep a page of their own.
 */
export function pageTurns(browser) {
  let shared = null;
  let cdp = null;
  const visited = new Set(); // the origins of every document the page's frames have loaded
  return async (url, viewport = { width: 1000, height: 800 }, { colorScheme = null, reducedMotion = null } = {}) => {
    if (!shared || shared.page.isClosed()) {
      shared = await newWatchedPage(browser(), viewport);
      cdp = await shared.page.context().newCDPSession(shared.page);
      shared.page.on('framenavigated', (frame) => {
        if (/^https?:/.test(frame.url())) visited.add(new URL(frame.url()).origin);
      });
    }
    const { page } = shared;
    if (page.url() !== 'about:blank') await page.goto('about:blank');
    for (const origin of visited) await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' });
    visited.clear();
    shared.problems.length = 0;
    await page.setViewportSize(viewport);
    await page.emulateMedia({ media: null, colorScheme, reducedMotion });
    await page.goto(url);
    return shared;
  };
}

/**
 * Every widget on the page (or in the frame) built: widgets are built only when they come
 * near the view (web/widgets/shared/build-queue.js), so this scrolls each one that is not
 * ready yet into view in turn, as a reader would, and waits until it is ready or has said
 * why it cannot load; then scrolls back to where the page was (the first element at or
 * below the window's top edge is put back at the same height, as scroll anchoring would:
 * widgets above it grew as they were built). For tests that use widgets below the fold.
 * Elements whose script is not loaded (no custom element) are skipped.
 */
export async function buildAllWidgets(target, { timeout = 60000 } = {}) {
  // After DOMContentLoaded: the page's module scripts, which define the elements, have run.
  await target.waitForFunction(() => performance.getEntriesByType('navigation')[0]?.domContentLoadedEventEnd > 0, null, { timeout });
  await target.evaluate(async (limit) => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
    // Not built, with a message in its place (the core or its data could not load, a world
    // it cannot show): nothing to wait for.
    const failed = (el) => el.shadowRoot?.querySelector('.widget > .error, .widget > .cannot-show');
    const unbuilt = () => [...document.querySelectorAll('*')]
      .filter((el) => el.localName.startsWith('mha-') && customElements.get(el.localName) && !el.hasAttribute('ready') && !failed(el));
    if (unbuilt().length === 0) return;
    const { scrollX } = window;
    // The reference: the first element in document order (outside widgets) whose top is at
    // or below the window's top edge.
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_ELEMENT, {
      acceptNode: (el) => (el.localName.startsWith('mha-') ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
    });
    let reference = null;
    while (window.scrollY > 0 && !reference && walker.nextNode()) {
      const box = walker.currentNode.getBoundingClientRect();
      if (box.top >= 0 && box.height > 0) reference = { element: walker.currentNode, top: box.top };
    }
    const deadline = performance.now() + limit;
    for (let left = unbuilt(); left.length > 0; left = unbuilt()) {
      const [widget] = left;
      while (!widget.hasAttribute('ready') && !failed(widget) && widget.isConnected) {
        if (performance.now() > deadline) throw new Error(`<${widget.localName}> was not built within ${limit} ms of coming into view`);
        // Again each frame: a page's anchor hold (anchor-hold.js) scrolls back to its #anchor
        // while widgets load, which only a reader's own wheel, key or touch stops.
        widget.scrollIntoView({ block: 'center', behavior: 'instant' });
        await frame();
      }
    }
    const top = reference ? window.scrollY + reference.element.getBoundingClientRect().top - reference.top : 0;
    window.scrollTo({ left: scrollX, top, behavior: 'instant' });
  }, timeout);
}

// Pictures are taken when $MHA_SCREENSHOTS is set (`npm run screenshots` sets it).
const TAKING_SCREENSHOTS = Boolean(process.env.MHA_SCREENSHOTS);

/**
 * A picture for a human to look at (test-results/screenshots/<name>.png; nothing compares
 * it), taken only when $MHA_SCREENSHOTS is set: `npm run screenshots` runs the browser tests
 * so, `npm test` does not: its pictures (about 80) cost the suite about 30 of its 870 CPU s
 * (PNG encoding, the bytes carried through the protocol twice), for pictures nobody looks
 * at in CI (docs/TEST-SUITE-SPEED.md). Returns the file, or null when no picture was taken.
 * `target`: a locator, that element alone (scrolled into view as Playwright does); or a page:
 * the whole page, or with { of: 'css selector' } the first element it matches (clipped from
 * the whole page, nothing scrolled), or with { fullPage: false } the window as it is.
 * The whole lesson page (15,000 px tall) costs Chromium 1.2-2.5 s of CPU per picture, and
 * timed out after 10 s on a loaded machine; the window 0.15 s: on the lesson, shoot what the
 * test is about.
 */
export async function screenshot(target, name, { fullPage = true, of = null } = {}) {
  if (!TAKING_SCREENSHOTS) return null;
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  if (typeof target.goto !== 'function') {
    await target.screenshot({ path: file });
  } else if (of) {
    const clip = await target.locator(of).first().evaluate((el) => {
      const box = el.getBoundingClientRect();
      return { x: box.x + window.scrollX, y: box.y + window.scrollY, width: box.width, height: box.height };
    });
    await target.screenshot({ path: file, fullPage: true, clip });
  } else {
    await target.screenshot({ path: file, fullPage });
  }
  return file;
}

/**
 * For a test file: serves the built site and opens Chromium before its tests, closes both
 * after. Returns { browser, server }, filled in once the tests run.
 */
export function useSiteAndBrowser() {
  const session = { browser: null, server: null };
  before(async () => {
    session.server = await serveDist();
    session.browser = await openTestBrowser();
  });
  after(async () => {
    await session.browser?.close();
    await session.server?.close();
  });
  return session;
}

/**
 * For a test file: a course author's site in a temporary folder, with the built lesson
 * mounted at `mount` (a link to the built site, e.g. 'course/attention') and the author's
 * own `files` beside it ({ 'docs/page.html': text }, or a function returning that, called
 * when the tests start), served under the strict CSP (or `csp`: another policy, or null for
 * none, as serveStatic takes it), with Chromium open. Everything is closed and the folder
 * removed after the tests. Returns { browser, server, url, dir, write(name, text) }, filled
 * in once the tests run (url is the site's root, with a slash).
 */
export function useCourseSite({ mount, files = {}, prefix = 'mha-course-', csp }) {
  const course = {
    browser: null, server: null, url: null, dir: null,
    /** Adds a file to the site (folders made as needed). */
    write(name, text) {
      const file = path.join(course.dir, name);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, text);
    },
  };
  before(async () => {
    course.dir = mkdtempSync(path.join(tmpdir(), prefix));
    const link = path.join(course.dir, mount);
    mkdirSync(path.dirname(link), { recursive: true });
    symlinkSync(DIST_DIR, link);
    for (const [name, text] of Object.entries(typeof files === 'function' ? files() : files)) course.write(name, text);
    course.server = await serveStatic(course.dir, { csp });
    course.url = course.server.url;
    course.browser = await openTestBrowser();
  });
  after(async () => {
    await course.browser?.close();
    await course.server?.close();
    if (course.dir) rmSync(course.dir, { recursive: true, force: true });
  });
  return course;
}
