// Runs browser test files in parallel workers that share one Chromium.
//   * One browser is launched here (playwright's launchServer; the headless shell when
//     installed, see chromium.mjs); each test file connects to
//     it ($MHA_BROWSER_WS, see tests/browser/browser.mjs) instead of launching its own, and
//     works in its own pages and contexts, so files stay independent.
//   * The files run `workers` at a time (default: one per core, at least 2;
//     $MHA_BROWSER_WORKERS sets another number), each worker one process that runs file
//     after file, each file a suite of its own (run-test-files.mjs, test-files-worker.mjs).
//   * The longest files start first, by the durations the last run wrote to
//     test-results/browser-durations.json, else those committed in
//     tests/browser/durations.json (files not measured yet go first), so the workers
//     finish together rather than one long file running on alone at the end.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { TEST_CHROMIUM_LAUNCH } from './chromium.mjs';
import { ROOT } from './run.mjs';

const DURATIONS = path.join(ROOT, 'test-results/browser-durations.json');
// The order for a fresh clone (test-results/ is not committed, so CI always starts
// without it): durations measured once and committed. Without them the files ran in
// alphabetical order, and widget-base, the longest, started near the end and ran on alone.
const SEED_DURATIONS = path.join(ROOT, 'tests/browser/durations.json');

/** Parallel test files: $MHA_BROWSER_WORKERS, else one per core (at least 2). */
function defaultWorkers() {
  const asked = Number(process.env.MHA_BROWSER_WORKERS);
  return Number.isInteger(asked) && asked > 0 ? asked : Math.max(2, availableParallelism());
}

/** The browser test files (tests/browser/*.test.mjs) except `skip`, longest first. */
export function browserTestFiles({ skip = [] } = {}) {
  const dir = path.join(ROOT, 'tests/browser');
  const files = readdirSync(dir).filter((name) => name.endsWith('.test.mjs') && !skip.includes(name))
    .map((name) => path.join('tests/browser', name)).sort();
  const last = { ...readDurations(SEED_DURATIONS), ...readDurations(DURATIONS) };
  const known = (file) => last[file] ?? Infinity;
  return files.sort((a, b) => known(b) - known(a));
}

/** { file: ms } from a durations file, or {} when there is none yet. */
function readDurations(file) {
  try { return JSON.parse(readFileSync(file, 'utf8')); } catch { return {}; }
}

/**
 * Runs `files` in this order (run-test-files.mjs), `workers` parallel processes sharing one Chromium.
 * Resolves when they pass; exits the process when any fails (as run() does). `record`:
 * keep the files' durations for the next run's order (off for the long soak and fuzz runs,
 * whose durations say nothing about `npm test`).
 */
export async function runBrowserTests(files, { workers = defaultWorkers(), env = {}, record = true } = {}) {
  const server = await chromium.launchServer(TEST_CHROMIUM_LAUNCH);
  mkdirSync(path.dirname(DURATIONS), { recursive: true });
  try {
    // In this order (node --test would sort the files by name: see run-test-files.mjs).
    const args = ['scripts/lib/run-test-files.mjs', String(workers), record ? `${DURATIONS}.new` : '-', ...files];
    const status = await new Promise((resolve, reject) => {
      const child = spawn('node', args, {
        cwd: ROOT, stdio: 'inherit',
        env: { ...process.env, ...env, MHA_BROWSER_WS: server.wsEndpoint() },
      });
      child.once('error', reject);
      child.once('exit', (code, signal) => resolve(code ?? signal));
    });
    if (status !== 0) {
      console.error(`\n✗ browser tests failed (exit ${status})`);
      process.exitCode = typeof status === 'number' ? status : 1;
    }
    if (record) keepDurations();
  } finally {
    await server.close();
  }
  if (process.exitCode) process.exit(process.exitCode);
}

// The new durations replace the old for the files that ran (a run of a few files keeps
// the others' figures).
function keepDurations() {
  const fresh = `${DURATIONS}.new`;
  if (!existsSync(fresh)) return;
  const merged = { ...readDurations(DURATIONS), ...JSON.parse(readFileSync(fresh, 'utf8')) };
  writeFileSync(DURATIONS, `${JSON.stringify(merged, null, 2)}\n`);
  rmSync(fresh, { force: true });
}
