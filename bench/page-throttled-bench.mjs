// The throttled page bench (issue 25): the lesson page as a learner on a mid-range phone
// meets it, beside the same figures unthrottled, measured side by side in one run.
//
// Throttled = Chromium's CPU slowed 4x (CDP Emulation.setCPUThrottlingRate) and a Fast-4G
// -like network (CDP Network.emulateNetworkConditions: THROTTLE below). Unthrottled = the
// same browser, no emulation, on localhost. Both are served by bench/gzip-server.mjs
// (gzip, as a production host serves it), at a 1000 x 800 viewport.
//
// 1. Loads: first visit (a new browser context each time: empty cache), median of `loads`
//    loads per column, the columns alternating (throttled, unthrottled, unthrottled,
//    throttled, ...). Per widget tag: navigation start to every element of that tag having
//    its `ready` attribute (taken in the page by a MutationObserver, on the clock whose
//    zero is the navigation's start). The first widget in view: the first widget element
//    in document order whose box meets the viewport at the top of the page; all in view:
//    the last of those. Widgets are built only near the view (build-queue.js), so a load
//    ends when every widget is ready or none (of those built with the core) has become
//    ready for QUIET_MS after the first; a tag whose
//    elements were not all built by then has no time (null: built when the reader comes
//    near). Bytes: the
//    Resource Timing transferSize (compressed bytes plus headers) of the document and of
//    every resource whose response ended before that widget was ready; the same until all
//    were ready. Main-thread time of the load: CDP Performance.getMetrics TaskDuration.
// 2. Edits: pages of the lesson in a learner's ordinary window (openOrdinaryWindow), one with
//    the CPU throttled 4x, one not, and beside them one in a private window, throttled; each
//    edit kind (EDIT_KINDS) `edits` times on each, one page after the other (only the page
//    being measured throttled: throttleEditPage), the order reversed every other kind. The
//    main-thread time of an edit is the growth of CDP Performance.getMetrics TaskDuration
//    (the renderer main thread's time in tasks, wall clock, so throttling shows) from just
//    before the input is sent until the page has settled (two animation frames and a
//    timeout after it), minus the same window measured with no input (`idle`, the
//    measurement's own cost: a few ms throttled). Long tasks: the Long Tasks API
//    (PerformanceObserver 'longtask', > 50 ms) during each kind's sequence.
// 3. Training: the training widget's page, a first visit, Train pressed; time until both jobs
//    are at 100%, throttled (page CPU and network; the worker cannot be slowed) and not
//    (trainingRun).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { CHROMIUM_LAUNCH } from '../scripts/lib/chromium.mjs';
import { DIST_DIR, buildAllWidgets, newWatchedPage, openBrowser, watchPage } from '../tests/browser/browser.mjs';
import { WIDGET_TAGS } from '../web/widgets/registry.js';
import { THE_WORLD } from '../web/widgets/shared/world.js';
import { GZIP_LEVEL, serveGzipped } from './gzip-server.mjs';
import { trainUntilDone } from './training-page-bench.mjs';

export const THROTTLE = {
  cpuRate: 4,
  // Chrome DevTools' "Fast 4G" is 9 Mbit/s down, 1.5 Mbit/s up; its latency (165 ms)
  // lies above the issue's 60-150 ms, so the top of that range is taken.
  latencyMs: 150,
  downloadBitsPerSecond: 9e6,
  uploadBitsPerSecond: 1.5e6,
};
const VIEWPORT = { width: 1000, height: 800 };
// The page's widgets: the registry's, and the practice questions between them (not in
// WIDGET_TAGS: they need no core, but they are on the page and become ready too).
const PAGE_TAGS = [...WIDGET_TAGS, 'mha-practice'];
// A load is over when no widget has become ready for this long (the rest wait for the reader).
const QUIET_MS = 2000;

/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted, p) {
  return sorted.length ? sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] : NaN;
}
const median = (values) => percentile([...values].sort((a, b) => a - b), 0.5);

/** A CDP session on the page, with the CPU (and, when asked, the network) throttled. */
export async function throttle(page, { cpu = true, network = true } = {}) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  if (network) {
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: THROTTLE.latencyMs,
      downloadThroughput: THROTTLE.downloadBitsPerSecond / 8,
      uploadThroughput: THROTTLE.uploadBitsPerSecond / 8,
    });
  }
  if (cpu) await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE.cpuRate });
  return cdp;
}

/** The renderer main thread's time so far in tasks, scripts, layout and style, in ms (CDP Performance metrics). */
export async function mainThreadMs(cdp) {
  const { metrics } = await cdp.send('Performance.getMetrics');
  const ms = (name) => 1000 * metrics.find((m) => m.name === name).value;
  return { task: ms('TaskDuration'), script: ms('ScriptDuration'), layout: ms('LayoutDuration'), style: ms('RecalcStyleDuration') };
}

/** The renderer main thread's time in tasks so far, in ms. */
export async function taskMs(cdp) {
  return (await mainThreadMs(cdp)).task;
}

/** Long tasks, collected from the start of the page's life (window.mhaLongTasks). */
export function recordLongTasks() {
  window.mhaLongTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.mhaLongTasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
}

// In the page: every widget's `ready` moment and its box when it became ready.
// The end of a load is said in the page's console (LOAD_MEASURED), so that the bench waits
// without evaluating anything in the page while it loads: Playwright's waitForFunction
// first evaluates its injected script in the page (about 70-100 ms of a 4x slowed main
// thread, traced as an EvaluateScript task among the load's), which no learner's page runs
// and which landed before the first widget was built.
const LOAD_MEASURED = 'mha-bench: load measured';

function recordReady({ tags, quietMs, signal }) {
  const selector = tags.join(',');
  window.mhaReadyAt = new Map();
  let quiet = 0;
  const done = () => {
    if (window.mhaLoadMeasured) return;
    window.mhaLoadMeasured = true;
    console.debug(signal);
  };
  const check = () => {
    for (const el of document.querySelectorAll(selector)) {
      if (window.mhaReadyAt.has(el) || !el.hasAttribute('ready')) continue;
      window.mhaReadyAt.set(el, performance.now());
      // The practice blocks need no core: only a widget built with the core ends the wait.
      if (el.localName !== 'mha-practice') {
        window.mhaLastReadyAt = performance.now();
        // Done when no other widget is ready for quietMs (the rest wait for the reader).
        clearTimeout(quiet);
        quiet = setTimeout(done, quietMs);
      }
    }
    const all = document.querySelectorAll(selector);
    if (document.readyState !== 'loading' && window.mhaAllReadyAt === undefined && all.length > 0 && [...all].every((el) => window.mhaReadyAt.has(el))) {
      window.mhaAllReadyAt = performance.now();
      done();
    }
  };
  new MutationObserver(check).observe(document, { subtree: true, attributes: true, attributeFilter: ['ready'] });
  document.addEventListener('DOMContentLoaded', check);
}

// In the page, once every widget is ready: the per-tag times, the first widget in view,
// and the bytes transferred before it was ready and before all were.
function readLoad(tags) {
  const widgets = [...document.querySelectorAll(tags.join(','))];
  const order = widgets.map((el) => {
    const box = el.getBoundingClientRect();
    return { tag: el.localName, at: window.mhaReadyAt.get(el), top: box.top + scrollY, inView: box.bottom > 0 && box.top < innerHeight };
  });
  const byTag = {};
  // null: an element of the tag was not built in the load (far from the view).
  for (const w of order) byTag[w.tag] = w.at === undefined || byTag[w.tag] === null ? null : Math.max(byTag[w.tag] ?? 0, w.at);
  const first = order.find((w) => w.inView && w.tag !== 'mha-practice') ?? order.find((w) => w.tag !== 'mha-practice');
  const inView = order.filter((w) => w.inView && w.tag !== 'mha-practice');
  const inViewReadyAt = inView.some((w) => w.at === undefined) ? null : Math.max(...inView.map((w) => w.at));
  const lastReadyAt = Math.max(...order.map((w) => w.at ?? 0));
  const navigation = performance.getEntriesByType('navigation')[0];
  const resources = [navigation, ...performance.getEntriesByType('resource')].map((e) => ({
    name: e.name.split('/').pop() || 'index.html', transfer: e.transferSize, decoded: e.decodedBodySize, end: e.responseEnd,
  }));
  const bytesBefore = (t) => resources.filter((r) => r.end <= t).reduce((s, r) => ({ transfer: s.transfer + r.transfer, decoded: s.decoded + r.decoded, files: s.files + 1 }), { transfer: 0, decoded: 0, files: 0 });
  const wasm = resources.find((r) => r.name.endsWith('.wasm'));
  return {
    byTag, first: { tag: first.tag, at: first.at, top: first.top, inView: first.inView },
    // Where the time went: the document parsed and its scripts run, the core's wasm received.
    domContentLoadedAt: navigation.domContentLoadedEventEnd, wasmReceivedAt: wasm?.end ?? null,
    firstContentfulPaintAt: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
    allReadyAt: window.mhaAllReadyAt ?? null, inViewReadyAt, lastReadyAt,
    built: order.filter((w) => w.at !== undefined && w.tag !== 'mha-practice').length,
    widgets: order.filter((w) => w.tag !== 'mha-practice').length,
    bytesBeforeFirst: bytesBefore(first.at), bytesBeforeAll: bytesBefore(lastReadyAt),
    resources, longTasks: window.mhaLongTasks,
  };
}

/**
 * A learner's browser window, for first visits: each load in a new tab of the one window,
 * after the browser's HTTP cache (with it the compiled-code cache) and every kind of the
 * site's storage are cleared, so the page meets an empty cache and a new renderer process.
 * Not a new window per load: opening a window of the full browser starts its interface (a
 * renderer of its own for the address bar's pop-up, about 1.5 s of CPU, and the browser
 * process's work on the window), which on this 2-core machine competed with the page being
 * measured (see bench/README.md, "One window, a new tab per first visit").
 */
export async function openLearnerWindow(browser) {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const home = await context.newPage(); // the window's first tab, kept open between visits
  await home.goto('about:blank');
  const cdp = await context.newCDPSession(home);
  await settleWindow();
  return {
    async newTab(url) {
      await cdp.send('Network.clearBrowserCache');
      await cdp.send('Storage.clearDataForOrigin', { origin: new URL(url).origin, storageTypes: 'all' });
      return watchPage(await context.newPage());
    },
    close: () => context.close(),
  };
}

// The window's interface starting up: about 3 s of CPU on this machine; waited out once.
const settleWindow = () => new Promise((resolve) => { setTimeout(resolve, 4000); });

/** One first visit of `url` in a new tab of `window` (openLearnerWindow). */
export async function measureLoad(window, url, throttled) {
  const { page, problems } = await window.newTab(url);
  try {
    const cdp = await throttle(page, { cpu: throttled, network: throttled });
    await page.addInitScript(recordLongTasks);
    await page.addInitScript(recordReady, { tags: PAGE_TAGS, quietMs: QUIET_MS, signal: LOAD_MEASURED });
    const measured = page.waitForEvent('console', { predicate: (message) => message.text() === LOAD_MEASURED, timeout: 120000 });
    const before = await mainThreadMs(cdp);
    await page.goto(url, { waitUntil: 'commit' });
    await measured;
    const after = await mainThreadMs(cdp);
    const load = await page.evaluate(readLoad, PAGE_TAGS);
    load.mainThreadMs = Object.fromEntries(Object.keys(after).map((k) => [k, after[k] - before[k]]));
    load.longTasks = { count: load.longTasks.length, over100: load.longTasks.filter((t) => t.duration > 100).length, longestMs: Math.max(0, ...load.longTasks.map((t) => t.duration)) };
    if (problems.length) throw new Error(`the page reported problems while loading: ${problems.join('; ')}`);
    return load;
  } finally {
    await page.close();
  }
}

// ---- edits ---------------------------------------------------------------------------

export const stateOf = (page, tag) => page.evaluate((t) => JSON.stringify(document.querySelector(t).state), tag);
// Back and forth in runs of 10 steps, so that no edit meets a limit.
const direction = (i) => (Math.floor(i / 10) % 2 === 0 ? 1 : -1);

async function focusIn(page, tag, selector) {
  const target = page.locator(tag).first().locator(selector).first();
  await target.scrollIntoViewIfNeeded();
  await target.focus();
  return target;
}

async function centreOf(locator) {
  const box = await locator.boundingBox();
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/**
 * The edit kinds: prepare(page) (scroll, focus, grab; not timed) returns a context, step(page,
 * ctx, i) is one edit (timed), finish(page, ctx) ends the sequence (not timed).
 */
export const EDIT_KINDS = [
  {
    name: 'blend: drag step on the budget bar', tag: 'mha-blend',
    async prepare(page) {
      const blend = page.locator('mha-blend');
      const handle = blend.locator(`.one-head .ui-budget-handle[data-left="${THE_WORLD.subjectIndex}"]`);
      await handle.scrollIntoViewIfNeeded();
      const box = await handle.boundingBox();
      const track = await blend.locator('.one-head .ui-budget-track').boundingBox();
      // The handle's left part: its right part may lie under the next boundary's handle.
      const ctx = { x: box.x + 4, y: box.y + box.height / 2, stepPx: track.width / 100 };
      await page.mouse.move(ctx.x, ctx.y);
      await page.mouse.down();
      return ctx;
    },
    async step(page, ctx, i) {
      ctx.x += direction(i) * ctx.stepPx;
      await page.mouse.move(ctx.x, ctx.y);
    },
    finish: (page) => page.mouse.up(),
  },
  {
    name: 'blend: key step on the budget bar (a slider)', tag: 'mha-blend',
    prepare: (page) => focusIn(page, 'mha-blend', '.one-head .ui-budget-seg[tabindex="0"]'),
    step: (page, ctx, i) => page.keyboard.press(direction(i) > 0 ? 'ArrowUp' : 'ArrowDown'),
  },
  {
    name: 'head-splitting: key step on the L slider', tag: 'mha-head-splitting',
    prepare: (page) => focusIn(page, 'mha-head-splitting', 'input.slider'),
    step: (page, ctx, i) => page.keyboard.press(direction(i) > 0 ? 'ArrowRight' : 'ArrowLeft'),
  },
  {
    name: 'layer: h switch', tag: 'mha-layer',
    async prepare(page) {
      const layer = page.locator('mha-layer');
      await layer.getByRole('radio', { name: 'h = 1' }).scrollIntoViewIfNeeded();
      return { layer };
    },
    // h = 2, 1, 2, 4, 2, 1, ... from the lesson's h = 4; the radio found before the timing.
    async before(page, ctx, i) {
      ctx.at = await centreOf(ctx.layer.getByRole('radio', { name: `h = ${[2, 1, 2, 4][i % 4]}` }));
    },
    step: (page, ctx) => page.mouse.click(ctx.at.x, ctx.at.y),
  },
  {
    name: 'heads-questions: tie switch', tag: 'mha-heads-questions',
    async prepare(page) {
      const tie = page.locator('mha-heads-questions').getByRole('switch');
      await tie.scrollIntoViewIfNeeded();
      return { tie };
    },
    async before(page, ctx) {
      ctx.at = await centreOf(ctx.tie);
    },
    step: (page, ctx) => page.mouse.click(ctx.at.x, ctx.at.y),
  },
  {
    name: 'wo-mixing: key step on a W_O cell', tag: 'mha-wo-mixing',
    prepare: (page) => focusIn(page, 'mha-wo-mixing', '.wo-grid td.ui-cell[data-row="3"][data-col="0"]'),
    step: (page, ctx, i) => page.keyboard.press(direction(i) > 0 ? '+' : '-'),
  },
];

// Two animation frames and a timeout after the input: the edit's own task, the frame that
// shows it (a widget that commits in requestAnimationFrame, as the L slider does, included)
// and what it queued.
export const settle = (page) => page.evaluate(() => new Promise((resolve) => {
  requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 0)));
}));

/**
 * Main-thread ms from just before `action` until the page has settled after it: in tasks
 * (`task`), and of that in scripts (wasm included), layout and style recalculation.
 */
export async function timedWindow(page, cdp, action) {
  const before = await mainThreadMs(cdp);
  await action();
  await settle(page);
  const after = await mainThreadMs(cdp);
  return Object.fromEntries(Object.keys(after).map((k) => [k, after[k] - before[k]]));
}

/**
 * A learner's ordinary browser window: a profile that keeps history (a browser of its own on
 * a fresh profile folder). Unlike a private window (a context that keeps no history, as
 * `browser.newPage()` makes), it keeps the page's icon once fetched, so the icon is not
 * fetched again after each change of the address, that is after every edit (measured on
 * 2026-12-06: 20 address changes, no request of the icon; in a private window 20). Its
 * `newPage()` is the window's; `close()` removes the profile.
 */
export async function openOrdinaryWindow() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mha-bench-profile-'));
  const context = await chromium.launchPersistentContext(dir, { ...CHROMIUM_LAUNCH, viewport: VIEWPORT });
  return {
    newPage: () => context.newPage(),
    async close() {
      await context.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A lesson page with every widget built, then throttled (CPU only), and its idle window's
 * cost. `browser`: a browser (the page in a private window) or an ordinary window
 * (openOrdinaryWindow); `column`: the name its results go under.
 */
export async function editPage(browser, url, throttled, column = throttled ? 'throttled' : 'unthrottled') {
  const { page, problems } = await newWatchedPage(browser, VIEWPORT);
  await page.addInitScript(recordLongTasks);
  await page.goto(url);
  await buildAllWidgets(page);
  // Throttled after loading: the loads are measured above; here only the edits count.
  const cdp = await throttle(page, { cpu: throttled, network: false });
  const idle = [];
  for (let i = 0; i < 10; i++) idle.push((await timedWindow(page, cdp, async () => {})).task);
  return { page, problems, cdp, throttled, column, idleMs: median(idle) };
}

// After a sequence: how long to wait for what it left behind (the widgets' transitions,
// and the static figure each redraws for print a second after its last change, in an idle
// callback), which the total per edit includes.
const TAIL_MS = 1500;

/**
 * The CPU throttling of an edit page (editPage) on or off. A page whose CPU is throttled keeps
 * a thread of the browser busy all the time, edited or idle (measured on 2026-12-06: an idle
 * throttled page, 0.9 CPU seconds per second; two, 1.6): on this two-core machine that slowed
 * whatever ran beside it, another page's edits included (two throttled pages side by side
 * read about 1.5 times one alone). So only the page being measured is throttled.
 */
export async function throttleEditPage(p, on) {
  if (p.throttled) await p.cdp.send('Emulation.setCPUThrottlingRate', { rate: on ? THROTTLE.cpuRate : 1 });
}

// One kind on each page in turn (`pages`, in that order), each with only itself throttled
// (if it is a throttled page) while its edits and its tail run.
async function editSequence(pages, kind, edits) {
  const result = {};
  for (const p of pages) {
    const { page, cdp, column, idleMs, problems } = p;
    await throttleEditPage(p, true);
    const ctx = (await kind.prepare(page)) ?? {};
    await settle(page);
    const run = { times: [], parts: { script: 0, layout: 0, style: 0, task: 0 }, changed: 0 };
    const start = await page.evaluate(() => performance.now());
    const taskStart = await taskMs(cdp);
    for (let i = 0; i < edits; i++) {
      await kind.before?.(page, ctx, i);
      const state = await stateOf(page, kind.tag);
      const window = await timedWindow(page, cdp, () => kind.step(page, ctx, i));
      run.times.push(window.task);
      for (const part of Object.keys(run.parts)) run.parts[part] += window[part];
      if ((await stateOf(page, kind.tag)) !== state) run.changed++;
    }
    await kind.finish?.(page, ctx);
    await new Promise((resolve) => setTimeout(resolve, TAIL_MS));
    const totalMs = (await taskMs(cdp)) - taskStart;
    const end = await page.evaluate(() => performance.now());
    await throttleEditPage(p, false);
    const tasks = await page.evaluate(([from, to]) => window.mhaLongTasks.filter((t) => t.start >= from && t.start <= to), [start, end]);
    const net = run.times.map((t) => Math.max(0, t - idleMs)).sort((a, b) => a - b);
    result[column] = {
      edits: net.length, changed: run.changed, idleMs,
      p50: percentile(net, 0.5), p95: percentile(net, 0.95), max: net[net.length - 1],
      // Everything on the main thread from the first edit to TAIL_MS after the last, the
      // measurement's own windows (idleMs each) taken off, per edit.
      totalPerEditMs: Math.max(0, totalMs - idleMs * net.length) / net.length,
      // Shares of the edits' windows (the measurement's own included): scripts (the
      // widgets' code and the core), layout, style; the rest is paint, compositing
      // commits, input and the like.
      shares: { script: run.parts.script / run.parts.task, layout: run.parts.layout / run.parts.task, style: run.parts.style / run.parts.task },
      longTasks: tasks.length, longTasksOver100: tasks.filter((t) => t.duration > 100).length,
      longestTaskMs: Math.max(0, ...tasks.map((t) => t.duration)),
      rawMs: run.times,
    };
    if (problems.length) throw new Error(`${kind.name}: the page reported problems: ${problems.join('; ')}`);
  }
  return result;
}

// ---- training ----------------------------------------------------------------------------

const TRAINING_RUNS = 3;

/**
 * One training run as a learner on a slow phone meets it: the training widget's own page
 * (embed.html, back-and-first with 2 heads, seed 1) opened in a new private window (so the
 * training module is downloaded when Train is pressed, over the throttled network), then
 * trainUntilDone. Throttled: the page's CPU 4x and the network as for the loads. The training
 * itself runs in a dedicated worker, which CDP cannot slow ("Operation is only supported for
 * pages, not workers", 2026-12-06): the throttled figure is the page's side slowed (the
 * module's download, the drawing of each look) with the worker at this machine's speed.
 */
async function trainingRun(browser, url, throttled) {
  const { page, problems } = await newWatchedPage(browser, VIEWPORT);
  if (throttled) await throttle(page, { cpu: true, network: true });
  const state = encodeURIComponent(JSON.stringify({ task: 'back-and-first', heads: 2, seed: 1, off: [] }));
  await page.goto(`${url}embed.html?widget=training&state=${state}`);
  await page.locator('mha-training[ready]').waitFor();
  const run = await trainUntilDone(page);
  await page.close();
  if (problems.length) throw new Error(`training: the page reported problems: ${problems.join('; ')}`);
  return run;
}

async function trainingRuns(browser, url, log) {
  const raw = { throttled: [], unthrottled: [] };
  for (let i = 0; i < TRAINING_RUNS; i++) {
    for (const throttled of i % 2 === 0 ? [true, false] : [false, true]) {
      const run = await trainingRun(browser, url, throttled);
      raw[throttled ? 'throttled' : 'unthrottled'].push(run);
      log(`  training ${i + 1}/${TRAINING_RUNS} ${throttled ? 'throttled  ' : 'unthrottled'}: 100% at ${run.reached['1'] ? `${(run.reached['1'].ms / 1000).toFixed(2)} s` : 'never'}, ${run.longTasks.length} long tasks`);
    }
  }
  const summary = (runs) => ({
    runs: runs.length,
    moduleLoadedMs: medianOrNull(runs.map((r) => r.loadedMs)),
    reached100Ms: medianOrNull(runs.map((r) => r.reached['1']?.ms ?? null)),
    reached100AtStep: runs[0].reached['1']?.steps ?? null,
    doneMs: median(runs.map((r) => r.doneMs)),
    longTasks: median(runs.map((r) => r.longTasks.length)),
    longTasksOver100: Math.max(...runs.map((r) => r.longTasks.filter((d) => d > 100).length)),
    longestTaskMs: Math.max(0, ...runs.flatMap((r) => r.longTasks)),
    where: runs[0].where,
  });
  return { task: 'back-and-first, 2 heads, seed 1', throttled: summary(raw.throttled), unthrottled: summary(raw.unthrottled) };
}

// ---- the whole bench -------------------------------------------------------------------

function wasmSize() {
  const assets = readdirSync(path.join(DIST_DIR, 'assets'));
  const file = assets.find((f) => f.startsWith('multiple_heads_simd') && f.endsWith('.wasm'));
  const bytes = readFileSync(path.join(DIST_DIR, 'assets', file));
  return { file, bytes: bytes.length, gzip6: gzipSync(bytes, { level: 6 }).length, gzip9: gzipSync(bytes, { level: 9 }).length };
}

// The median, or null when any load lacks the figure (a widget not built in it).
const medianOrNull = (values) => (values.some((v) => v === null || v === undefined) ? null : median(values));

function summarise(loads) {
  const tags = Object.keys(loads[0].byTag);
  return {
    widgetsMs: Object.fromEntries(tags.map((tag) => [tag, medianOrNull(loads.map((l) => l.byTag[tag]))])),
    allReadyMs: medianOrNull(loads.map((l) => l.allReadyAt)),
    inViewReadyMs: medianOrNull(loads.map((l) => l.inViewReadyAt)),
    lastReadyMs: median(loads.map((l) => l.lastReadyAt)),
    built: median(loads.map((l) => l.built)), widgets: loads[0].widgets,
    domContentLoadedMs: median(loads.map((l) => l.domContentLoadedAt)),
    wasmReceivedMs: median(loads.map((l) => l.wasmReceivedAt)),
    firstInView: { tag: loads[0].first.tag, inView: loads[0].first.inView, top: loads[0].first.top, ms: median(loads.map((l) => l.first.at)) },
    bytesBeforeFirst: { transfer: median(loads.map((l) => l.bytesBeforeFirst.transfer)), decoded: median(loads.map((l) => l.bytesBeforeFirst.decoded)), files: median(loads.map((l) => l.bytesBeforeFirst.files)) },
    bytesBeforeAll: { transfer: median(loads.map((l) => l.bytesBeforeAll.transfer)), decoded: median(loads.map((l) => l.bytesBeforeAll.decoded)) },
    mainThreadMs: Object.fromEntries(Object.keys(loads[0].mainThreadMs).map((k) => [k, median(loads.map((l) => l.mainThreadMs[k]))])),
    loadLongTasksOver100: median(loads.map((l) => l.longTasks.over100)),
    loadLongestTaskMs: median(loads.map((l) => l.longTasks.longestMs)),
  };
}

/** The issue's targets against this run's throttled figures (reported, never asserted). */
export function throttledTargets(result) {
  const t = result.loads.summary.throttled;
  const targets = [];
  for (const tag of WIDGET_TAGS) {
    const ms = t.widgetsMs[tag];
    if (ms !== undefined && ms !== null) targets.push({ target: `${tag} interactive <= 2500 ms (throttled)`, value: ms, met: ms <= 2500 });
  }
  targets.push({ target: `first widget in view (${t.firstInView.tag}) interactive <= 1500 ms (throttled)`, value: t.firstInView.ms, met: t.firstInView.ms <= 1500 });
  for (const [name, e] of Object.entries(result.edits)) {
    targets.push({ target: `${name}: <= 50 ms main thread at p95 (throttled)`, value: e.throttled.p95, met: e.throttled.p95 <= 50 });
    targets.push({ target: `${name}: no long task > 100 ms (throttled)`, value: e.throttled.longTasksOver100, met: e.throttled.longTasksOver100 === 0 });
  }
  targets.push({ target: 'core wasm <= 80 kB gzipped (gzip -9, kB = 1024 bytes)', value: result.wasm.gzip9 / 1024, met: result.wasm.gzip9 <= 80 * 1024 });
  if (result.training) {
    const { throttled: tt, unthrottled: tu } = result.training;
    const within = (ms, limit) => ms !== null && ms <= limit;
    targets.push({ target: 'training, 2 heads: both jobs 100% <= 3 s (unthrottled)', value: tu.reached100Ms ?? Infinity, met: within(tu.reached100Ms, 3000) });
    targets.push({ target: 'training, 2 heads: both jobs 100% <= 12 s (throttled; the worker is not slowed by CDP)', value: tt.reached100Ms ?? Infinity, met: within(tt.reached100Ms, 12000) });
    targets.push({ target: 'training, 2 heads: the page responsive, no task > 100 ms (throttled)', value: tt.longTasksOver100, met: tt.longTasksOver100 === 0 });
  }
  return targets;
}

/**
 * Runs the throttled page bench on the built site ($MHA_DIST_DIR or dist/). `loads` first
 * visits per column, `edits` edits of each kind per column.
 */
export async function pageThrottledBench({ loads = 5, edits = 30, log = console.log } = {}) {
  const loadAverage = [os.loadavg()];
  const server = await serveGzipped(DIST_DIR);
  const browser = await openBrowser();
  try {
    const raw = { throttled: [], unthrottled: [] };
    const window = await openLearnerWindow(browser);
    for (let i = 0; i < loads; i++) {
      for (const throttled of i % 2 === 0 ? [true, false] : [false, true]) {
        const load = await measureLoad(window, server.url, throttled);
        raw[throttled ? 'throttled' : 'unthrottled'].push(load);
        log(`  load ${i + 1}/${loads} ${throttled ? 'throttled  ' : 'unthrottled'}: first in view (${load.first.tag}) ${load.first.at.toFixed(0)} ms, all in view ${load.inViewReadyAt?.toFixed(0)} ms, ${load.built} of ${load.widgets} built, the last at ${load.lastReadyAt.toFixed(0)} ms`);
      }
    }
    await window.close();
    // The file lists of the first load of each column are kept; the others' are the same files.
    for (const column of Object.values(raw)) for (const load of column.slice(1)) delete load.resources;
    loadAverage.push(os.loadavg());
    // The learner's ordinary window (a profile that keeps history), throttled and not, one
    // window each (two lesson pages in one profile would share the learner's copy, each
    // taking in the other's writes); and beside them a private window, throttled, where the
    // browser fetches the page's icon again after every edit.
    const windows = [await openOrdinaryWindow(), await openOrdinaryWindow()];
    const pages = [];
    for (const [where, throttled, column] of [[windows[0], true], [windows[1], false], [browser, true, 'privateThrottled']]) {
      const p = await editPage(where, server.url, throttled, column);
      await throttleEditPage(p, false); // each throttled only while measured
      pages.push(p);
    }
    const editResults = {};
    for (const [index, kind] of EDIT_KINDS.entries()) {
      // The pages take turns kind by kind, the order reversed every other kind, so that none
      // always runs first (after the load, or after another page's tail).
      editResults[kind.name] = await editSequence(index % 2 === 0 ? pages : [...pages].reverse(), kind, edits);
      const e = editResults[kind.name];
      log(`  ${kind.name}: p95 ${e.throttled.p95.toFixed(1)} ms throttled, ${e.unthrottled.p95.toFixed(1)} ms unthrottled, ${e.privateThrottled.p95.toFixed(1)} ms throttled in a private window`);
    }
    for (const p of pages) await p.page.close();
    for (const w of windows) await w.close();
    loadAverage.push(os.loadavg());
    const training = await trainingRuns(browser, server.url, log);
    const result = {
      date: new Date().toISOString(),
      // The checkout's commit; the site measured is distDir, which $MHA_DIST_DIR may have
      // pointed at a build of another commit.
      checkoutCommit: gitHead(),
      distDir: DIST_DIR,
      chromium: browser.version(),
      loadAverage,
      conditions: {
        throttle: THROTTLE, viewport: VIEWPORT, server: `bench/gzip-server.mjs, gzip level ${GZIP_LEVEL}`,
        loads, firstVisit: 'each load in a new tab of one window, the HTTP cache and the site\'s storage cleared before it (openLearnerWindow)',
        editsPerKind: edits,
        editWindows: 'throttled and unthrottled: a learner\'s ordinary window (a profile that keeps history: openOrdinaryWindow), one each; privateThrottled: a private window (a new context), throttled',
        editTime: 'CDP Performance.getMetrics TaskDuration growth from the input to two frames and a timeout after it, minus the same window with no input (idleMs)',
        longTasks: 'PerformanceObserver longtask (> 50 ms) entries starting during the sequence',
      },
      wasm: wasmSize(),
      loads: { summary: { throttled: summarise(raw.throttled), unthrottled: summarise(raw.unthrottled) }, raw },
      edits: Object.fromEntries(Object.entries(editResults).map(([name, e]) => [name, e])),
      training,
    };
    result.targets = throttledTargets(result);
    return result;
  } finally {
    await browser.close();
    await server.close();
  }
}

function gitHead() {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

const kB = (bytes) => `${(bytes / 1024).toFixed(1)} kB`;

/** Prints the throttled page table. */
export function printPageThrottled(r, log = console.log) {
  const { throttled: T, unthrottled: U } = r.loads.summary;
  const th = r.conditions.throttle;
  log(`\nthrottled page: CPU ${th.cpuRate}x slower, network ${th.downloadBitsPerSecond / 1e6} Mbit/s down, ${th.uploadBitsPerSecond / 1e6} up, ${th.latencyMs} ms latency; first visits (a new tab, empty cache), median of ${r.conditions.loads}; gzip-served; viewport ${r.conditions.viewport.width} x ${r.conditions.viewport.height}`);
  log(`load average ${r.loadAverage.map((l) => l[0].toFixed(1)).join(' -> ')} (1 min; start, after the loads, after the edits)\n`);
  const row = (label, t, u, target = '') => log(`${label.padEnd(44)}${t.padStart(12)}${u.padStart(13)}   ${target}`);
  row('ms after navigation (median)', 'throttled', 'unthrottled', 'target (throttled)');
  const ms = (value) => (value === null ? 'not built' : value.toFixed(0));
  for (const tag of Object.keys(T.widgetsMs)) {
    row(`  ${tag} interactive`, ms(T.widgetsMs[tag]), ms(U.widgetsMs[tag]), WIDGET_TAGS.includes(tag) ? '<= 2500' : '(not in WIDGET_TAGS)');
  }
  row(`  first in view: ${T.firstInView.tag}${T.firstInView.inView ? '' : ' (none in view: first on page)'}`, T.firstInView.ms.toFixed(0), U.firstInView.ms.toFixed(0), '<= 1500');
  row('  all in view ready', ms(T.inViewReadyMs), ms(U.inViewReadyMs));
  row(`  widgets built in the load (of ${T.widgets})`, String(T.built), String(U.built), 'the rest wait until the reader comes near');
  row('  the last one built', ms(T.lastReadyMs), ms(U.lastReadyMs));
  row('  all ready', ms(T.allReadyMs), ms(U.allReadyMs));
  row('  (DOMContentLoaded)', T.domContentLoadedMs.toFixed(0), U.domContentLoadedMs.toFixed(0));
  row('  (the core\'s wasm received)', T.wasmReceivedMs.toFixed(0), U.wasmReceivedMs.toFixed(0));
  row('  main thread busy in the load (ms)', T.mainThreadMs.task.toFixed(0), U.mainThreadMs.task.toFixed(0), `(CDP TaskDuration, read ${QUIET_MS / 1000} s after the last widget was built)`);
  for (const part of ['script', 'layout', 'style']) row(`    of which ${part}`, T.mainThreadMs[part].toFixed(0), U.mainThreadMs[part].toFixed(0));
  row('  long tasks > 100 ms in the load', String(T.loadLongTasksOver100), String(U.loadLongTasksOver100));
  row('  the longest (ms)', T.loadLongestTaskMs.toFixed(0), U.loadLongestTaskMs.toFixed(0));
  row('bytes before the first in view is ready', kB(T.bytesBeforeFirst.transfer), kB(U.bytesBeforeFirst.transfer), `(${T.bytesBeforeFirst.files} files; ${kB(T.bytesBeforeFirst.decoded)} decoded)`);
  row('bytes before the last is built', kB(T.bytesBeforeAll.transfer), kB(U.bytesBeforeAll.transfer), `(${kB(T.bytesBeforeAll.decoded)} decoded)`);
  log(`core wasm ${r.wasm.file}: ${kB(r.wasm.bytes)}, gzip -9 ${kB(r.wasm.gzip9)} (as served, gzip -6: ${kB(r.wasm.gzip6)}); target <= 80 kB`);
  log(`\nedits, ${r.conditions.editsPerKind} of each kind per column: main-thread ms per edit (input to two frames after), p50 / p95 / max;`);
  log(`all = everything on the main thread from the first edit to ${TAIL_MS / 1000} s after the last, per edit; long = long tasks > 50 ms / > 100 ms while editing`);
  log('targets (throttled): p95 <= 50, no long task > 100 ms\n');
  const cell = (x) => `${x.p50.toFixed(0)} / ${x.p95.toFixed(0)} / ${x.max.toFixed(0)}`;
  const longs = (x) => `${x.longTasks} / ${x.longTasksOver100}`;
  const shares = (x) => ['script', 'layout', 'style'].map((k) => (100 * x.shares[k]).toFixed(0)).join(' / ');
  // (Results of runs before 2026-12-06 22:00 UTC have no private window column.)
  const priv = (x) => (x ? `${x.p50.toFixed(0)} / ${x.p95.toFixed(0)}; ${x.longTasksOver100}` : '-');
  log(`${''.padEnd(46)}${'throttled'.padStart(16)}${''.padStart(17)}${'unthrottled'.padStart(18)}${''.padStart(15)}${'private, thr.'.padStart(16)}`);
  log(`${'edit kind'.padEnd(46)}${'p50/p95/max'.padStart(16)}${'all'.padStart(6)}${'long'.padStart(9)}${'p50/p95/max'.padStart(18)}${'all'.padStart(6)}${'long'.padStart(9)}${'p50/p95; >100'.padStart(16)}  changed  script/layout/style %`);
  for (const [name, e] of Object.entries(r.edits)) {
    const [t, u, p] = [e.throttled, e.unthrottled, e.privateThrottled];
    const changed = [t, u, p].filter(Boolean);
    log(`${name.padEnd(46)}${cell(t).padStart(16)}${t.totalPerEditMs.toFixed(0).padStart(6)}${longs(t).padStart(9)}${cell(u).padStart(18)}${u.totalPerEditMs.toFixed(0).padStart(6)}${longs(u).padStart(9)}${priv(p).padStart(16)}  ${`${changed.reduce((n, x) => n + x.changed, 0)}/${changed.reduce((n, x) => n + x.edits, 0)}`.padEnd(7)}  ${shares(t)}`);
  }
  log('(throttled and unthrottled: a learner\'s ordinary window, which keeps the page\'s icon; private: a private window, throttled, which fetches the icon again after every edit)');
  const first = Object.values(r.edits)[0];
  log('(script/layout/style: shares of the throttled edits\' main-thread time; the rest is paint, compositing, input)');
  log(`(the measurement's own window with no input, subtracted: ${first.throttled.idleMs.toFixed(1)} ms throttled, ${first.unthrottled.idleMs.toFixed(1)} ms unthrottled)`);
  if (r.training) {
    const { throttled: tt, unthrottled: tu } = r.training;
    const s = (ms) => (ms === null ? 'never' : `${(ms / 1000).toFixed(2)} s`);
    log(`\ntraining (${r.training.task}; the widget's page, a first visit: the module downloaded at Train; median of ${tt.runs}; ${tt.where}):`);
    log(`${''.padEnd(44)}${'throttled'.padStart(12)}${'unthrottled'.padStart(13)}   target`);
    row('  both jobs 100% (from pressing Train)', s(tt.reached100Ms), s(tu.reached100Ms), '<= 12 s throttled, <= 3 s unthrottled');
    row('  the training module loaded', s(tt.moduleLoadedMs), s(tu.moduleLoadedMs));
    row('  all 1500 steps', s(tt.doneMs), s(tu.doneMs));
    row('  long tasks > 50 ms (median); > 100 ms (most)', `${tt.longTasks}; ${tt.longTasksOver100}`, `${tu.longTasks}; ${tu.longTasksOver100}`, 'none over 100 ms (the page responsive)');
    log('  (throttled: the page\'s CPU 4x and the network; the training worker cannot be slowed through CDP, so it ran at this machine\'s speed)');
  }
  log('\ntargets (throttled):');
  for (const t of r.targets) log(`  ${t.met ? 'met    ' : 'NOT met'}  ${t.target}: ${Number.isInteger(t.value) ? t.value : t.value.toFixed(1)}`);
}
