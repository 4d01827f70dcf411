// Two builds of the site, their lesson pages edited side by side: both loaded in one
// browser, every widget built, both throttled (CPU 4x, as bench/page-throttled-bench.mjs
// times edits), then each edit kind (EDIT_KINDS) `edits` times on each page, alternating
// between the builds edit by edit (A, B, B, A, ...). For judging a change to the edits'
// cost on a shared machine, where runs minutes apart differ by more than the change (the
// load average moves), since here both builds meet the same load.
//
//   node bench/ab-page-edits.mjs <site A> <site B> [edits per kind and build, default 20] [--unthrottled]
//     [--kind <text>: only the edit kinds whose name contains it]
//
// Prints per kind and build the main-thread ms per edit (p50 / p95 / max, the measurement's
// own cost taken off), everything on the main thread per edit until 1.5 s after the last
// (transitions, the static figure's redraw), and the long tasks (> 50 / > 100 ms).
import os from 'node:os';
import { openBrowser } from '../tests/browser/browser.mjs';
import { serveGzipped } from './gzip-server.mjs';
import { EDIT_KINDS, editPage, percentile, settle, stateOf, taskMs, throttleEditPage, timedWindow } from './page-throttled-bench.mjs';

const args = process.argv.slice(2);
const kindFilter = args.includes('--kind') ? args[args.indexOf('--kind') + 1] : '';
const [siteA, siteB, editsArg] = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--kind');
if (!siteA || !siteB) {
  console.error('usage: node bench/ab-page-edits.mjs <site A> <site B> [edits] [--unthrottled]');
  process.exit(2);
}
const edits = Number(editsArg ?? 20);
const throttled = !args.includes('--unthrottled');
const TAIL_MS = 1500;
const median = (values) => percentile([...values].sort((a, b) => a - b), 0.5);

// One kind on both pages, alternating; per page the net ms per edit and the long tasks.
async function kindOnBoth(pages, kind) {
  const runs = {};
  for (const [build, p] of Object.entries(pages)) {
    const ctx = (await kind.prepare(p.page)) ?? {};
    await settle(p.page);
    runs[build] = { p, ctx, times: [], changed: 0, start: await p.page.evaluate(() => performance.now()), taskStart: await taskMs(p.cdp) };
  }
  for (let i = 0; i < edits; i++) {
    for (const build of i % 2 === 0 ? ['A', 'B'] : ['B', 'A']) {
      const run = runs[build];
      const { page, cdp } = run.p;
      // Only the page being edited is throttled: a throttled page keeps a core busy even when
      // idle (throttleEditPage), which slowed the other page's edits on two cores.
      for (const other of Object.values(runs)) if (other !== run) await throttleEditPage(other.p, false);
      await throttleEditPage(run.p, true);
      await kind.before?.(page, run.ctx, i);
      const state = await stateOf(page, kind.tag);
      run.times.push((await timedWindow(page, cdp, () => kind.step(page, run.ctx, i))).task);
      if ((await stateOf(page, kind.tag)) !== state) run.changed++;
    }
  }
  // Both throttled for what the edits left behind (the tail's figure redraws), then neither.
  for (const run of Object.values(runs)) await throttleEditPage(run.p, true);
  for (const run of Object.values(runs)) await kind.finish?.(run.p.page, run.ctx);
  await new Promise((resolve) => setTimeout(resolve, TAIL_MS));
  const result = {};
  for (const [build, run] of Object.entries(runs)) {
    const { page, cdp, idleMs } = run.p;
    const total = (await taskMs(cdp)) - run.taskStart;
    const end = await page.evaluate(() => performance.now());
    const tasks = await page.evaluate(([from, to]) => window.mhaLongTasks.filter((t) => t.start >= from && t.start <= to), [run.start, end]);
    const net = run.times.map((t) => Math.max(0, t - idleMs)).sort((a, b) => a - b);
    result[build] = {
      p50: percentile(net, 0.5), p95: percentile(net, 0.95), max: net[net.length - 1], changed: run.changed,
      allPerEdit: Math.max(0, total - idleMs * net.length) / net.length,
      long: tasks.length, over100: tasks.filter((t) => t.duration > 100).length,
    };
  }
  for (const run of Object.values(runs)) await throttleEditPage(run.p, false);
  return result;
}

const servers = { A: await serveGzipped(siteA), B: await serveGzipped(siteB) };
const browser = await openBrowser();
const loadAverage = [os.loadavg()[0]];
const rows = [];
try {
  const pages = {};
  for (const [build, server] of Object.entries(servers)) {
    pages[build] = await editPage(browser, server.url, throttled);
    await throttleEditPage(pages[build], false); // throttled again when its edits come
  }
  for (const kind of EDIT_KINDS.filter((k) => k.name.includes(kindFilter))) {
    const r = await kindOnBoth(pages, kind);
    rows.push([kind.name, r]);
    const cell = (x) => `${x.p50.toFixed(0)} / ${x.p95.toFixed(0)} / ${x.max.toFixed(0)}, all ${x.allPerEdit.toFixed(0)}, long ${x.long} / ${x.over100}`;
    console.log(`${kind.name}\n  A ${cell(r.A)}\n  B ${cell(r.B)}`);
  }
  for (const [build, p] of Object.entries(pages)) {
    if (p.problems.length) console.log(`${build}: the page reported problems: ${p.problems.join('; ')}`);
    await p.page.close();
  }
} finally {
  await browser.close();
  await servers.A.close();
  await servers.B.close();
}
loadAverage.push(os.loadavg()[0]);
console.log(`\nA = ${siteA}\nB = ${siteB}\n${throttled ? 'CPU 4x' : 'unthrottled'}, ${edits} edits per kind and build, alternating; load average ${loadAverage.map((l) => l.toFixed(1)).join(' -> ')}`);
console.log(`${'main-thread ms per edit: p50 / p95 / max; all per edit; long > 50 / > 100'.padEnd(48)}${'A'.padStart(36)}${'B'.padStart(36)}`);
for (const [name, r] of rows) {
  const cell = (x) => `${x.p50.toFixed(0)} / ${x.p95.toFixed(0)} / ${x.max.toFixed(0)}; ${x.allPerEdit.toFixed(0)}; ${x.long} / ${x.over100}`;
  console.log(`${name.padEnd(48)}${cell(r.A).padStart(36)}${cell(r.B).padStart(36)}`);
}
