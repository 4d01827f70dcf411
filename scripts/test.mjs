// npm test: install what is missing, build everything the tests need, run every test.
//   * Catch2 core tests, native (g++); the core fuzzed under ASan + UBSan (clang)
//   * the same Catch2 tests compiled to wasm, run by node; the Embind modules
//   * type check of the hand-written declarations (tsc)
//   * node tests of the built modules (tests/node)
//   * the page built with Vite, driven in Chromium (tests/browser), the test files in
//     parallel workers sharing one browser (scripts/lib/browser-suite.mjs)
//
// Order: the Chromium tests are the longest step and need only the wasm modules and the
// page, so they start as soon as those are built; the native build, the fuzzer, the wasm
// Catch2 tests, tsc and the node tests run beside them as background lanes (each a child
// `node scripts/test.mjs --lane <name>`; their output is printed when each lane ends). Run
// one after the other, these steps kept a core idle much of the time: single-threaded
// links, the fuzzer, ctest, npm ci's downloads. (The lanes are not niced: on a machine
// shared with other jobs a niced lane got a tenth of a core's share and the run waited
// on it at the end.)
import { spawn } from 'node:child_process';
import { bootstrap, npmInstallCommand } from './lib/bootstrap.mjs';
import { WASM_MODULE_TARGETS, cmakeBuild, ctest } from './lib/cmake.mjs';
import { fuzzCore } from './lib/fuzz.mjs';
import { ROOT, run, step, stepAsync } from './lib/run.mjs';
import { ALONE as NODE_TESTS_ALONE } from '../tests/node/alone.mjs';

// Two node test processes at a time on these two cores: the one that runs most files
// (tests/node/together.mjs) and, beside it, the files that need a process of their own.
const NODE_TEST_WORKERS = '2';

/** The steps of each lane, run one after the other in one child process. */
const LANES = {
  native: () => {
    step('native build', () => cmakeBuild('native'));
    step('native Catch2 tests', () => ctest('native'));
    step('fuzz the core under ASan and UBSan (clang)', () => fuzzCore(20000));
  },
  'wasm-tests': () => {
    step('wasm build of the Catch2 tests', () => cmakeBuild('wasm'));
    step('wasm Catch2 tests under node', () => ctest('wasm'));
  },
  'node-tests': () => {
    step('type check (tsc)', () => run('npx', ['tsc', '-p', 'tests/types']));
    // Most files in one process (tests/node/together.mjs), the few that need their own beside it.
    step('node tests of the modules', () => run('node', ['--test', `--test-concurrency=${NODE_TEST_WORKERS}`, '--test-reporter=spec',
      'tests/node/together.mjs', ...NODE_TESTS_ALONE.map((file) => `tests/node/${file}`)]));
  },
};

/**
 * Starts a background lane: resolves to { name, status, output, seconds } when it ends.
 * `command` (default: this script's lane `name`) runs with its output kept.
 */
function startLane(name, command = [process.execPath, 'scripts/test.mjs', '--lane', name]) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(command[0], command.slice(1), { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks = [];
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.on('data', (chunk) => chunks.push(chunk));
    const done = (status) => resolve({ name, status, output: Buffer.concat(chunks).toString(), seconds: (performance.now() - started) / 1000 });
    child.once('error', (error) => { chunks.push(Buffer.from(`${error.message}\n`)); done(1); });
    child.once('close', (code, signal) => done(code ?? signal));
  });
}

/** Prints a finished lane's output; exits the process when it failed. */
function reportLane({ name, status, output, seconds }) {
  console.log(`\n▶ lane ${name} (ran in the background)\n${output.trimEnd()}`);
  if (status !== 0) {
    console.error(`\n✗ lane ${name} failed (exit ${status})`);
    process.exit(typeof status === 'number' && status > 0 ? status : 1);
  }
  console.log(`✓ lane ${name} (${seconds.toFixed(1)} s)`);
}

async function main() {
  const started = performance.now();
  step('install missing Debian packages', () => bootstrap('test', { npm: false }));
  const install = npmInstallCommand();
  const npm = install ? startLane('npm ci', install) : null;
  // The wasm modules are the only build the Chromium tests wait for: nothing else compiles
  // beside them (npm ci only downloads and unpacks). With the native lane's g++ beside
  // them they took 141-151 s from scratch, alone 80 s; the native lane then shares the
  // cores with the Chromium tests instead (from scratch 708 -> 695 s, one run each).
  step('wasm build of the Embind modules', () => cmakeBuild('wasm', WASM_MODULE_TARGETS));
  const native = startLane('native');
  if (npm) reportLane(await npm);
  const wasmTests = startLane('wasm-tests');
  step('build the page', () => run('npx', ['vite', 'build', '--logLevel', 'warn']));
  step('build the one-widget entries', () => run('npx', ['vite', 'build', '--config', 'vite.widgets.config.js', '--logLevel', 'warn']));
  // The node tests need the native build (train_world) as well as the wasm modules.
  const nodeTests = native.then((lane) => (lane.status === 0 ? startLane('node-tests') : null));
  // Imported only now: it needs playwright-core, which `npm ci` may just have installed.
  const { browserTestFiles, runBrowserTests } = await import('./lib/browser-suite.mjs');
  await stepAsync('browser tests (Chromium)', () => runBrowserTests(browserTestFiles()));
  for (const lane of [native, wasmTests, nodeTests]) {
    const result = await lane;
    if (result) reportLane(result);
  }
  console.log(`\nAll tests passed in ${((performance.now() - started) / 1000).toFixed(0)} s.`);
}

const lane = process.argv.indexOf('--lane');
if (lane > 0) LANES[process.argv[lane + 1]]();
else await main();
