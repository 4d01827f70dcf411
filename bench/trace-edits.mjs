// Where an edit's main-thread time goes: the lesson page (the built site, $MHA_DIST_DIR or
// dist/) loaded, every widget built, the CPU throttled 4x as in page-throttled-bench.mjs;
// then each edit kind of EDIT_KINDS a few times under a Chromium trace (devtools.timeline),
// and per kind the renderer main thread's time by trace event (style recalculation, layout,
// pre-paint, paint, layerize, commit, script), the elements restyled and the layout objects
// marked dirty (counts that do not depend on the machine's load). A diagnostic for the speed
// work of issue 25, not a bench: tracing costs time, so its totals run above the bench's.
//
//   node bench/trace-edits.mjs [edits per kind, default 6] [kind name filter] [--unthrottled]
//     [--reduce-motion] [--css file] [--save dir]
// $TRACE_CATEGORIES (comma-separated) traces other categories, e.g. with `mojom` to see which
// messages a task handled.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DIST_DIR, buildAllWidgets, newWatchedPage, openBrowser } from '../tests/browser/browser.mjs';
import { serveGzipped } from './gzip-server.mjs';
import { EDIT_KINDS, settle, throttle } from './page-throttled-bench.mjs';

const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const option = (name) => (flag(name) ? args[args.indexOf(name) + 1] : null);
const saveDir = option('--save');
// --css <file>: a stylesheet added to the document and to every widget's shadow root, to try a
// rule without a build.
const extraCss = option('--css') ? readFileSync(option('--css'), 'utf8') : null;
const plain = args.filter((a, i) => !a.startsWith('--') && !['--save', '--css'].includes(args[i - 1]));
const edits = Number(plain[0] ?? 6);
const filter = plain[1] ?? '';
const CATEGORIES = process.env.TRACE_CATEGORIES ?? ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink', 'v8.execute'].join(',');
// The trace events summed per kind (inclusive durations on the renderer's main thread; they
// do not nest in one another, except that scripts run inside tasks).
const PHASES = {
  style: ['UpdateLayoutTree'], layout: ['Layout'], prePaint: ['PrePaint'], paint: ['Paint'],
  layerize: ['Layerize'], commit: ['Commit'], script: ['FunctionCall', 'EvaluateScript', 'v8.callFunction'],
  hitTest: ['HitTest'], intersections: ['IntersectionObserverController::computeIntersections'],
  task: ['RunTask', 'ThreadControllerImpl::RunTask'],
};

function mainThread(events) {
  const names = events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  // The page's renderer: the main thread with the most events.
  const counts = new Map(names.map((n) => [`${n.pid}:${n.tid}`, 0]));
  for (const e of events) {
    const key = `${e.pid}:${e.tid}`;
    if (counts.has(key)) counts.set(key, counts.get(key) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1])[0][0];
}

function summarise(events) {
  const main = mainThread(events);
  const mine = events.filter((e) => `${e.pid}:${e.tid}` === main && e.ph === 'X');
  const sum = {};
  for (const [phase, names] of Object.entries(PHASES)) {
    const picked = mine.filter((e) => names.includes(e.name));
    // Only the outermost of nested events of one phase (v8.callFunction inside FunctionCall).
    const outer = picked.filter((e) => !picked.some((o) => o !== e && o.ts <= e.ts && o.ts + o.dur >= e.ts + e.dur && (o.ts < e.ts || o.dur > e.dur)));
    sum[phase] = outer.reduce((s, e) => s + e.dur / 1000, 0);
  }
  const styles = mine.filter((e) => e.name === 'UpdateLayoutTree');
  sum.restyled = styles.reduce((s, e) => s + (e.args?.elementCount ?? 0), 0);
  sum.layoutObjects = mine.filter((e) => e.name === 'Layout').reduce((s, e) => s + (e.args?.beginData?.dirtyObjects ?? 0), 0);
  return sum;
}

const server = await serveGzipped(DIST_DIR);
const browser = await openBrowser();
const load = [os.loadavg()[0]];
try {
  const { page, problems } = await newWatchedPage(browser, { width: 1000, height: 800 });
  await page.goto(server.url);
  if (flag('--reduce-motion')) await page.emulateMedia({ reducedMotion: 'reduce' });
  await buildAllWidgets(page);
  if (extraCss) {
    await page.evaluate((css) => {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(css);
      document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
      for (const el of document.querySelectorAll('*')) if (el.shadowRoot) el.shadowRoot.adoptedStyleSheets = [...el.shadowRoot.adoptedStyleSheets, sheet];
    }, extraCss);
  }
  if (!flag('--unthrottled')) await throttle(page, { cpu: true, network: false });
  console.log(`edits per kind ${edits}, ${flag('--unthrottled') ? 'unthrottled' : 'CPU 4x'}; per edit: ms on the renderer main thread (trace, inclusive), elements restyled, layout objects marked dirty`);
  console.log(`${'kind'.padEnd(46)}${['task', 'script', 'style', 'layout', 'prePnt', 'paint', 'layrz', 'commit', 'restyl', 'relayo'].map((h) => h.padStart(8)).join('')}`);
  for (const kind of EDIT_KINDS.filter((k) => k.name.includes(filter))) {
    const ctx = (await kind.prepare(page)) ?? {};
    await settle(page);
    await new Promise((r) => setTimeout(r, 1500));
    await browser.startTracing(page, { categories: CATEGORIES.split(',') });
    for (let i = 0; i < edits; i++) {
      await kind.before?.(page, ctx, i);
      await kind.step(page, ctx, i);
      await settle(page);
      // Transitions and what the edit queued, but not the static figure's redraw (1 s later).
      await new Promise((r) => setTimeout(r, 300));
    }
    const buffer = await browser.stopTracing();
    await kind.finish?.(page, ctx);
    const events = JSON.parse(buffer.toString()).traceEvents;
    if (saveDir) {
      mkdirSync(saveDir, { recursive: true });
      writeFileSync(path.join(saveDir, `${kind.name.replace(/[^a-z]+/gi, '-')}.json`), buffer);
    }
    const s = summarise(events);
    const per = (x) => (x / edits).toFixed(1).padStart(8);
    console.log(`${kind.name.padEnd(46)}${per(s.task)}${per(s.script)}${per(s.style)}${per(s.layout)}${per(s.prePaint)}${per(s.paint)}${per(s.layerize)}${per(s.commit)}${per(s.restyled)}${per(s.layoutObjects)}`);
  }
  if (problems.length) console.log('problems:', problems);
  await page.close();
} finally {
  await browser.close();
  await server.close();
}
load.push(os.loadavg()[0]);
console.log(`load average ${load.map((l) => l.toFixed(1)).join(' -> ')}`);
