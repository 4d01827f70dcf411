// npm run bench: the multi-head attention forward pass, side by side in one run, for the
// wasm SIMD build, the wasm scalar build, the native build (g++ -O3 -march=native) and a
// plain JavaScript implementation, on the same seeded inputs, with outputs checked to agree.
// Also the SIMD128 multiply-add peak of this machine. Prints a table, writes JSON.
// See bench/README.md for the operation count and the history of the kernels.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { bootstrap } from '../scripts/lib/bootstrap.mjs';
import { BUILD_DIRS, WASM_MODULE_TARGETS, cmakeBuild } from '../scripts/lib/cmake.mjs';
import { ROOT, run, step } from '../scripts/lib/run.mjs';
import { loadTestEngine, loadTestTrainingEngine } from '../tests/node/load-engine.mjs';
import { attentionForwardPlain } from './attention-plain.js';
import { pageBench } from './page-bench.mjs';
import { trainingBench } from './training-bench.mjs';
import { printTrainingPage, trainingPageBench } from './training-page-bench.mjs';

const settings = JSON.parse(readFileSync(path.join(ROOT, 'bench/bench_configs.json'), 'utf8'));
const quick = process.argv.includes('--quick');
// --training: only the training measurements (steps per second, time to accuracy).
const onlyTraining = process.argv.includes('--training');
const configs = quick ? settings.configs.slice(0, 4) : settings.configs;
const { seed } = settings;
const minSeconds = quick ? 0.2 : settings.minSeconds;
const minRuns = quick ? 3 : settings.minRuns;

bootstrap('build');
step('build the wasm modules and the peak loop', () =>
  cmakeBuild('wasm', [...WASM_MODULE_TARGETS, 'peak_madd']));
const nativeDir = path.join(ROOT, 'build/bench-native');
step('build the native benchmark (g++ -O3 -march=native)', () => {
  run('cmake', ['-S', ROOT, '-B', nativeDir, '-DCMAKE_BUILD_TYPE=Release', '-DMHA_BUILD_BENCH=ON', '-DMHA_BUILD_TESTS=OFF'], { stdio: ['ignore', 'ignore', 'inherit'] });
  run('cmake', ['--build', nativeDir, '--target', 'bench_native', '--target', 'bench_training_native', '--parallel', '2'], { stdio: ['ignore', 'ignore', 'inherit'] });
});

/** Median milliseconds of fn() after a warm-up that lets V8 tier up. */
function timeIt(fn) {
  const warmUntil = performance.now() + Math.min(1000, minSeconds * 1000);
  let warm = 0;
  while (warm < 2 || performance.now() < warmUntil) { fn(); warm++; }
  const times = [];
  const start = performance.now();
  while (times.length < minRuns || performance.now() - start < minSeconds * 1000) {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { ms: times[times.length >> 1], runs: times.length };
}

function maxRelativeDifference(a, b) {
  let scale = 1e-30, diff = 0;
  for (let i = 0; i < a.length; i++) {
    scale = Math.max(scale, Math.abs(b[i]));
    diff = Math.max(diff, Math.abs(a[i] - b[i]));
  }
  return diff / scale;
}

const engines = { simd: await loadTestEngine('simd'), scalar: await loadTestEngine('scalar') };
const trainingEngines = { simd: await loadTestTrainingEngine('simd'), scalar: await loadTestTrainingEngine('scalar') };
const training = trainingBench({
  engines: trainingEngines, nativeBinary: path.join(nativeDir, 'bench_training_native'), seed: 1, timedSteps: quick ? 50 : 300,
});
if (onlyTraining) {
  step('build the page for the training widget measurement', () => run('npx', ['vite', 'build', '--logLevel', 'warn']));
  training.page = await trainingPageBench();
  printTrainingPage(training.page);
  mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
  const file = path.join(ROOT, 'bench/results/training.json');
  writeFileSync(file, `${JSON.stringify({ date: new Date().toISOString(), node: process.version, training }, null, 2)}\n`);
  console.log(`\nwritten: ${path.relative(ROOT, file)}`);
  process.exit(0);
}
const nativeLines = execFileSync(path.join(nativeDir, 'bench_native'),
  [String(seed), String(minSeconds), String(minRuns), ...configs.flat().map(String)], { encoding: 'utf8' })
  .trim().split('\n').map((line) => JSON.parse(line));

const rows = [];
for (const [index, [L, d, h]] of configs.entries()) {
  const label = `(${L}, ${d}, ${h})`;
  process.stdout.write(`measuring ${label}…\n`);
  const models = Object.fromEntries(Object.entries(engines).map(([name, engine]) => {
    const model = engine.createModel({ seqLen: L, dModel: d, numHeads: h });
    model.randomize(seed);
    return [name, model];
  }));
  const x = engines.simd.seededMatrix(L, d, seed + 1, 1).data;
  const weights = Object.fromEntries(['query', 'key', 'value', 'output'].map((k) => [k, models.simd.getWeights(k).data]));
  const plainWeights = { wq: weights.query, wk: weights.key, wv: weights.value, wo: weights.output };

  const reference = models.simd.forward(x, { perHeadContributions: false });
  const outputs = {
    scalar: models.scalar.forward(x, { perHeadContributions: false }).output.data,
    js: attentionForwardPlain({ seqLen: L, dModel: d, numHeads: h }, plainWeights, x),
  };
  const native = nativeLines[index];
  let checksum = 0, magnitude = 0;
  for (const v of reference.output.data) { checksum += v; magnitude += Math.abs(v); }
  const agreement = {
    scalar: maxRelativeDifference(outputs.scalar, reference.output.data),
    js: maxRelativeDifference(outputs.js, reference.output.data),
    native: Math.abs(native.checksum - checksum) / magnitude,
  };
  for (const [name, diff] of Object.entries(agreement)) {
    if (!(diff < 1e-4)) throw new Error(`${label}: ${name} disagrees with the wasm SIMD output (relative ${diff})`);
  }

  // The lean forward pass (no L x L matrices kept): the core call alone (raw Embind: input
  // copied in, compute, nothing copied out) and the whole friendly API call (which also
  // copies Q, K, V, Concat and the output out of the wasm heap).
  const timing = {};
  for (const [name, model] of Object.entries(models)) {
    timing[`wasm_${name}`] = timeIt(() => model.raw.forward(x, false, false));
  }
  timing.wasm_simd_api = timeIt(() => models.simd.forward(x, { perHeadContributions: false, keepAttention: false }));
  timing.js = timeIt(() => attentionForwardPlain({ seqLen: L, dModel: d, numHeads: h }, plainWeights, x));
  timing.native = { ms: native.median_ms, runs: native.runs };
  for (const model of Object.values(models)) model.delete();

  const flops = 2 * (reference.counts.projections + reference.counts.scores + reference.counts.weightedSum + reference.counts.output);
  rows.push({ L, d, h, flops, timing, agreement });
}

const peakModule = await WebAssembly.instantiate(readFileSync(path.join(BUILD_DIRS.wasm, 'peak_madd.wasm')), {});
const peakMadd = peakModule.instance.exports.peak_madd;
const iterations = quick ? 5e6 : 2e7;
const peak = timeIt(() => peakMadd(iterations, 1));
const peakGflops = (96 * iterations) / (peak.ms * 1e6); // 96 FLOP per iteration, see peak_madd.cpp

// The table.
const gflops = (row, key) => row.flops / (row.timing[key].ms * 1e6);
const fmt = (v, digits = 2) => v.toFixed(digits).padStart(8);
const header = ['config (L,d,h)', 'native', 'simd', 'simd+api', 'scalar', 'js', 'GF/s simd', '% peak', 'simd/js', 'simd/scalar', 'simd/native'];
console.log(`\nmedian ms per forward pass; GFLOP/s = 2 x multiply-adds / time; wasm SIMD peak ${peakGflops.toFixed(1)} GFLOP/s\n`);
console.log(header.map((h, i) => (i === 0 ? h.padEnd(16) : h.padStart(i > 5 ? 12 : 9))).join(''));
for (const row of rows) {
  const t = row.timing;
  console.log([
    `(${row.L},${row.d},${row.h})`.padEnd(16),
    fmt(t.native.ms, 3).padStart(9), fmt(t.wasm_simd.ms, 3).padStart(9), fmt(t.wasm_simd_api.ms, 3).padStart(9),
    fmt(t.wasm_scalar.ms, 3).padStart(9), fmt(t.js.ms, 3).padStart(9),
    fmt(gflops(row, 'wasm_simd'), 1).padStart(12), fmt((100 * gflops(row, 'wasm_simd')) / peakGflops, 0).padStart(12),
    fmt(t.js.ms / t.wasm_simd.ms, 1).padStart(12), fmt(t.wasm_scalar.ms / t.wasm_simd.ms, 2).padStart(12),
    fmt(t.wasm_simd.ms / t.native.ms, 2).padStart(12),
  ].join(''));
}
const byConfig = (L, d, h) => rows.find((r) => r.L === L && r.d === d && r.h === h);
const equalCost = {};
for (const L of [256, 512]) {
  const one = byConfig(L, 512, 1);
  if (!one) continue;
  for (const h of [8, 32]) {
    const other = byConfig(L, 512, h);
    if (other) equalCost[`L${L}_h${h}_over_h1`] = other.timing.wasm_simd.ms / one.timing.wasm_simd.ms;
  }
}
console.log('\nequal cost (wasm SIMD time ratio to h = 1):', Object.entries(equalCost).map(([k, v]) => `${k} = ${v.toFixed(2)}`).join(', ') || 'n/a');

step('build the page for the page measurements', () => run('npx', ['vite', 'build', '--logLevel', 'warn']));
const page = await pageBench();
training.page = await trainingPageBench();
printTrainingPage(training.page);
console.log(`\npage: core download ${(page.size.totalGzip / 1024).toFixed(1)} kB gzipped (wasm ${(page.size.wasmGzip / 1024).toFixed(1)} + loader ${(page.size.loaderGzip / 1024).toFixed(1)}; target <= 80 kB)`);
console.log(`page: interactive (all widgets ready) ${page.interactiveMs.median.toFixed(0)} ms after navigation (median of 5; max ${page.interactiveMs.max.toFixed(0)}; target < 1000)`);
console.log(`page: edit work (input event to new DOM laid out) median ${page.editWorkMs.median.toFixed(1)} ms, p95 ${page.editWorkMs.p95.toFixed(1)} ms over ${page.editWorkMs.edits} edits; frames missed ${page.framesMissedByEdits} (frame ${page.frameIntervalMs.toFixed(1)} ms)`);
console.log(`page: main-thread long tasks (> 50 ms) while measuring: ${page.longTasksDuringMeasure.count} (longest ${page.longTasksDuringMeasure.longestMs.toFixed(0)} ms)`);

const resultsDir = path.join(ROOT, 'bench/results');
mkdirSync(resultsDir, { recursive: true });
const file = path.join(resultsDir, quick ? 'quick.json' : 'latest.json');
writeFileSync(file, `${JSON.stringify({ date: new Date().toISOString(), node: process.version, peakGflops, rows, equalCost, training, page }, null, 2)}\n`);
console.log(`\nwritten: ${path.relative(ROOT, file)}`);
