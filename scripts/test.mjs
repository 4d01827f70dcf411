// npm test: install what is missing, build everything the tests need, run every test.
//   1. Catch2 core tests, native (g++); the core fuzzed under ASan + UBSan (clang)
//   2. the same Catch2 tests compiled to wasm, run by node; the two Embind modules
//   3. type check of the hand-written declarations (tsc)
//   4. node tests of the built modules (tests/node)
//   5. the page built with Vite, driven in Chromium (tests/browser), the test files in
//      parallel workers sharing one browser (scripts/lib/browser-suite.mjs)
import { availableParallelism } from 'node:os';
import { bootstrap } from './lib/bootstrap.mjs';
import { cmakeBuild, ctest } from './lib/cmake.mjs';
import { fuzzCore } from './lib/fuzz.mjs';
import { run, step, stepAsync } from './lib/run.mjs';

const started = performance.now();
step('install missing dependencies', () => bootstrap('test'));
step('native build', () => cmakeBuild('native'));
step('native Catch2 tests', () => ctest('native'));
step('fuzz the core under ASan and UBSan (clang)', () => fuzzCore(20000));
step('wasm build (modules and Catch2 tests)', () => cmakeBuild('wasm'));
step('wasm Catch2 tests under node', () => ctest('wasm'));
step('type check (tsc)', () => run('npx', ['tsc', '-p', 'tests/types']));
// node --test runs one file at a time on two cores (cores - 1); the files wait on each other
// little, so one per core.
const workers = String(Math.max(2, availableParallelism()));
step('node tests of the modules', () => run('node', ['--test', `--test-concurrency=${workers}`, '--test-reporter=spec', 'tests/node/']));
step('build the page', () => run('npx', ['vite', 'build', '--logLevel', 'warn']));
step('build the one-widget entries', () => run('npx', ['vite', 'build', '--config', 'vite.widgets.config.js', '--logLevel', 'warn']));
// Imported only now: it needs playwright-core, which the first step may have installed.
const { browserTestFiles, runBrowserTests } = await import('./lib/browser-suite.mjs');
await stepAsync('browser tests (Chromium)', () => runBrowserTests(browserTestFiles()));
console.log(`\nAll tests passed in ${((performance.now() - started) / 1000).toFixed(0)} s.`);
