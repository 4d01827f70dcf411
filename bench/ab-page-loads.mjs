// Two builds of the site, their lesson page loaded side by side: first visits alternating
// between the builds (A, B, B, A, ...), each throttled (CPU 4x, Fast-4G-like network) and
// unthrottled, as bench/page-throttled-bench.mjs measures one load. For judging a change to
// the page's loading on a shared machine, where runs minutes apart differ by more than the
// change (the load average moves), since here both builds meet the same load.
//
//   node bench/ab-page-loads.mjs <site A> <site B> [loads per build and column, default 5]
//
// Prints the medians per build and column: the first widget in view ready, all in view
// ready, widgets built in the load, the main thread's busy time in the load, long tasks.
import os from 'node:os';
import { openBrowser } from '../tests/browser/browser.mjs';
import { serveGzipped } from './gzip-server.mjs';
import { measureLoad, openLearnerWindow, percentile } from './page-throttled-bench.mjs';

const [siteA, siteB, loadsArg] = process.argv.slice(2);
if (!siteA || !siteB) {
  console.error('usage: node bench/ab-page-loads.mjs <site A> <site B> [loads]');
  process.exit(2);
}
const loads = Number(loadsArg ?? 5);
const median = (values) => percentile([...values].sort((a, b) => a - b), 0.5);
const servers = { A: await serveGzipped(siteA), B: await serveGzipped(siteB) };
const browser = await openBrowser();
const window = await openLearnerWindow(browser);
const results = { A: { throttled: [], unthrottled: [] }, B: { throttled: [], unthrottled: [] } };
const loadAverage = [os.loadavg()[0]];
try {
  for (let i = 0; i < loads; i++) {
    for (const throttled of i % 2 === 0 ? [true, false] : [false, true]) {
      for (const build of i % 2 === 0 ? ['A', 'B'] : ['B', 'A']) {
        const load = await measureLoad(window, servers[build].url, throttled);
        results[build][throttled ? 'throttled' : 'unthrottled'].push(load);
        console.log(`  ${build} ${throttled ? 'throttled  ' : 'unthrottled'} ${i + 1}/${loads}: first in view ${load.first.at.toFixed(0)} ms, ${load.built} of ${load.widgets} built, busy ${load.mainThreadMs.task.toFixed(0)} ms, longest task ${load.longTasks.longestMs.toFixed(0)} ms`);
      }
    }
  }
} finally {
  await browser.close();
  await servers.A.close();
  await servers.B.close();
}
loadAverage.push(os.loadavg()[0]);
console.log(`\nA = ${siteA}\nB = ${siteB}\nmedians of ${loads} first visits per build and column; load average ${loadAverage.map((l) => l.toFixed(1)).join(' -> ')}`);
const rows = [
  ['first text painted (FCP, ms)', (l) => l.firstContentfulPaintAt],
  ['first widget in view ready (ms)', (l) => l.first.at],
  ['all in view ready (ms)', (l) => l.inViewReadyAt],
  ['widgets built in the load', (l) => l.built],
  ['the last one built (ms)', (l) => l.lastReadyAt],
  ['main thread busy in the load (ms)', (l) => l.mainThreadMs.task],
  ['long tasks > 100 ms', (l) => l.longTasks.over100],
  ['the longest task (ms)', (l) => l.longTasks.longestMs],
];
console.log(`${''.padEnd(36)}${'A throttled'.padStart(13)}${'B throttled'.padStart(13)}${'A unthrottled'.padStart(15)}${'B unthrottled'.padStart(15)}`);
for (const [label, get] of rows) {
  const cell = (build, column) => median(results[build][column].map(get)).toFixed(0);
  console.log(`${label.padEnd(36)}${cell('A', 'throttled').padStart(13)}${cell('B', 'throttled').padStart(13)}${cell('A', 'unthrottled').padStart(15)}${cell('B', 'unthrottled').padStart(15)}`);
}
