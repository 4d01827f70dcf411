// Where the Chromium tests' CPU goes, test by test (issue 24: `npm test` is CPU-bound on two
// cores, so a test's CPU seconds, not its wall time, say what it costs the suite).
//
// The browser test files run one at a time (one node:test worker) against one shared
// Chromium, as `npm test` runs them (scripts/lib/browser-suite.mjs), while the machine's
// busy CPU time (/proc/stat: every process, Chromium's renderers, GPU and browser process,
// the node test processes and Playwright's server in this one) is sampled every 250 ms. Each
// test gets the busy time between its start and its end. With one worker nothing else of the
// suite runs meanwhile; whatever else runs on the machine is counted too, so run it on a quiet
// machine (the load average is printed) and compare runs of the same day.
//
//   node bench/browser-test-cpu.mjs [file name filter...]   e.g. `lesson-blend widget-base`
//
// Prints the CPU seconds per file and the most costly tests; writes every test's figures to
// test-results/browser-test-cpu.json. Takes about 13 minutes for the whole suite (built site:
// dist/ or $MHA_DIST_DIR).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { run } from 'node:test';
import { chromium } from 'playwright-core';
import { browserTestFiles } from '../scripts/lib/browser-suite.mjs';
import { TEST_CHROMIUM_LAUNCH } from '../scripts/lib/chromium.mjs';
import { ROOT } from '../scripts/lib/run.mjs';

const filters = process.argv.slice(2);
const files = browserTestFiles().filter((file) => filters.length === 0 || filters.some((f) => file.includes(f)));
const OUT = path.join(ROOT, 'test-results/browser-test-cpu.json');

/** [ms since epoch, busy CPU seconds of the whole machine so far]. */
function busyNow() {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((a, b) => a + b, 0);
  const idle = fields[3] + fields[4]; // idle and iowait
  return [Date.now(), (total - idle) / 100]; // USER_HZ is 100 on Linux
}

const samples = [busyNow()];
/** Busy CPU seconds at time t, interpolated between the samples around it. */
function busyAt(t) {
  const i = samples.findIndex(([at]) => at >= t);
  if (i < 0) return samples.at(-1)[1];
  if (i === 0) return samples[0][1];
  const [[t0, b0], [t1, b1]] = [samples[i - 1], samples[i]];
  return b0 + ((t - t0) / Math.max(1, t1 - t0)) * (b1 - b0);
}

const server = await chromium.launchServer(TEST_CHROMIUM_LAUNCH);
process.env.MHA_BROWSER_WS = server.wsEndpoint(); // the test files connect to it (tests/browser/browser.mjs)
const loadBefore = os.loadavg()[0];
const sampler = setInterval(() => samples.push(busyNow()), 250);
const tests = [];
let failed = 0;
const stream = run({ files, concurrency: 1 });
stream.on('data', ({ type, data }) => {
  if (type !== 'test:pass' && type !== 'test:fail') return;
  if (type === 'test:fail') failed += 1;
  // node:test reports a test when it ends, with its duration: it ran from end - duration.
  tests.push({ file: path.relative(ROOT, data.file ?? ''), name: data.name, nesting: data.nesting, end: Date.now(), ms: data.details.duration_ms });
});
await new Promise((resolve) => stream.on('end', resolve));
clearInterval(sampler);
samples.push(busyNow());
await server.close();

for (const t of tests) t.cpuSeconds = busyAt(t.end) - busyAt(t.end - t.ms);
// The tests that hold no others (a describe block's figures are its tests' sum).
const leaves = tests.filter((t) => !tests.some((o) => o !== t && o.file === t.file && o.nesting === t.nesting + 1 && o.end <= t.end && o.end >= t.end - t.ms));
const perFile = {};
for (const t of leaves) perFile[t.file] = (perFile[t.file] ?? 0) + t.cpuSeconds;
const total = leaves.reduce((s, t) => s + t.cpuSeconds, 0);
const wall = leaves.reduce((s, t) => s + t.ms / 1000, 0);

mkdirSync(path.dirname(OUT), { recursive: true });
writeFileSync(OUT, `${JSON.stringify({ loadBefore, loadAfter: os.loadavg()[0], total, wall, tests: leaves.map(({ end, ...t }) => t) }, null, 1)}\n`);
const row = (cpu, rest) => `${cpu.toFixed(1).padStart(8)}  ${rest}`;
console.log(`\n${leaves.length} tests in ${files.length} files: ${total.toFixed(0)} CPU s in ${wall.toFixed(0)} s (one file at a time), load ${loadBefore.toFixed(1)} -> ${os.loadavg()[0].toFixed(1)}`);
console.log('\nCPU s per file');
for (const [file, cpu] of Object.entries(perFile).sort((a, b) => b[1] - a[1])) console.log(row(cpu, file));
console.log('\nthe 30 most costly tests (CPU s, wall s)');
for (const t of [...leaves].sort((a, b) => b.cpuSeconds - a.cpuSeconds).slice(0, 30)) {
  console.log(row(t.cpuSeconds, `${(t.ms / 1000).toFixed(1).padStart(5)}  ${path.basename(t.file)}: ${t.name.slice(0, 100)}`));
}
console.log(`\nwritten: ${path.relative(ROOT, OUT)}`);
if (failed) {
  console.error(`${failed} tests failed`);
  process.exitCode = 1;
}
