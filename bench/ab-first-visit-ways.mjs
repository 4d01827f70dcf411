// Two ways of measuring a first visit, side by side on one built site (alternating A, B, B,
// A, ...; throttled and unthrottled as bench/page-throttled-bench.mjs measures a load):
//   A: a new browser context per load, i.e. a new window of the full browser (the bench's way
//      until 2026-12-06);
//   B: one window, a new tab per load after the cache and the site's storage are cleared
//      (openLearnerWindow, the bench's way since).
// Prints per load and the medians; each load also lists the browser's renderer processes
// (a new one per tab shows that B's page gets a renderer of its own).
//
//   node bench/ab-first-visit-ways.mjs [loads per way and column, default 6]
import os from 'node:os';
import { DIST_DIR, newWatchedPage, openBrowser } from '../tests/browser/browser.mjs';
import { serveGzipped } from './gzip-server.mjs';
import { measureLoad, openLearnerWindow, percentile } from './page-throttled-bench.mjs';

const loads = Number(process.argv[2] ?? 6);
const median = (values) => percentile([...values].sort((a, b) => a - b), 0.5);
const server = await serveGzipped(DIST_DIR);
const browser = await openBrowser();
const ways = {
  A: { newTab: () => newWatchedPage(browser, { width: 1000, height: 800 }) },
  B: await openLearnerWindow(browser),
};
const browserCdp = await browser.newBrowserCDPSession();
const results = { A: { throttled: [], unthrottled: [] }, B: { throttled: [], unthrottled: [] } };
const loadAverage = [os.loadavg()[0]];
try {
  for (let i = 0; i < loads; i++) {
    for (const throttled of i % 2 === 0 ? [true, false] : [false, true]) {
      for (const way of i % 2 === 0 ? ['A', 'B'] : ['B', 'A']) {
        const load = await measureLoad(ways[way], server.url, throttled);
        results[way][throttled ? 'throttled' : 'unthrottled'].push(load);
        const { processInfo } = await browserCdp.send('SystemInfo.getProcessInfo');
        const renderers = processInfo.filter((p) => p.type === 'renderer').map((p) => p.id).join(',');
        console.log(`  ${way} ${throttled ? 'throttled  ' : 'unthrottled'} ${i + 1}/${loads}: first in view ${load.first.at.toFixed(0)} ms, busy ${load.mainThreadMs.task.toFixed(0)} ms, ${load.bytesBeforeFirst.transfer} bytes in ${load.bytesBeforeFirst.files} files before it; renderers after: ${renderers}`);
      }
    }
  }
} finally {
  loadAverage.push(os.loadavg()[0]);
  await browser.close();
  await server.close();
}
for (const column of ['throttled', 'unthrottled']) {
  for (const way of ['A', 'B']) {
    const measured = results[way][column];
    const medianOf = (read) => median(measured.map(read));
    console.log(`${way} ${column.padEnd(11)} median: first widget in view ${medianOf((l) => l.first.at).toFixed(0)} ms, first text ${medianOf((l) => l.firstContentfulPaintAt ?? NaN).toFixed(0)} ms, busy in the load ${medianOf((l) => l.mainThreadMs.task).toFixed(0)} ms, long tasks > 100 ms ${medianOf((l) => l.longTasks.over100)}`);
  }
}
console.log(`load average ${loadAverage.map((l) => l.toFixed(1)).join(' -> ')}`);
