// Two builds of the page's SIMD module side by side, for the lesson's own mathematics (not
// the forward pass, which bench/ab-builds.mjs times): findAlternativeWeights (the blend's
// search and the walk), principalPlane, similaritySingularValues, nearestByCosine +
// componentAlong, cosineSimilarity + softmax. Same method as ab-builds.mjs: both wasm files
// in one process, the same inputs, interleaved round by round, process CPU time; the
// results are checked equal to the last bit first (a flag that changes code generation
// must not change an answer).
//
//   node --no-liftoff bench/ab-lesson-math.mjs <baseline.wasm> [rounds] [new.wasm]
//
// new.wasm defaults to web/generated/multiple_heads_simd.wasm; both must come from the
// same bindings (the JS glue in web/generated/ is shared). Prints each call's median ms per
// build and new / old as the median of the per-round ratios.
import { readFileSync } from 'node:fs';
import { loadEngine } from '../web/engine/engine.js';
import { wasmPath } from '../tests/node/load-engine.mjs';

const [baselinePath, roundsArg, newPath] = process.argv.slice(2);
if (!baselinePath) {
  console.error('usage: node --no-liftoff bench/ab-lesson-math.mjs <baseline.wasm> [rounds] [new.wasm]');
  process.exit(2);
}
const rounds = Number(roundsArg ?? 21);
const builds = {
  old: await loadEngine({ simd: true, wasmBinary: readFileSync(baselinePath) }),
  new: await loadEngine({ simd: true, wasmBinary: readFileSync(newPath ?? wasmPath('simd')) }),
};

/** Weights of `rows` entries summing to 1, most of it on two rows (as the blend's budget). */
function budget(rows) {
  const w = new Float32Array(rows).fill(0.15 / (rows - 2));
  w[1] = 0.45;
  w[rows - 4] = 0.4;
  return w;
}
const matrix = (engine, rows, cols, seed) => engine.seededMatrix(rows, cols, seed, 1);

/** Each case: a name and a function of an engine that runs the calls once and returns what they answered. */
const CASES = [
  ['findAlternativeWeights 11 x 4 (the blend)', (e) => e.findAlternativeWeights(matrix(e, 11, 4, 3), budget(11))],
  ['findAlternativeWeights 40 x 8 (the walk)', (e) => e.findAlternativeWeights(matrix(e, 40, 8, 4), budget(40))],
  ['principalPlane 12 x 8 + 4', (e) => e.principalPlane(matrix(e, 12, 8, 5), matrix(e, 4, 8, 6))],
  ['principalPlane 64 x 64', (e) => e.principalPlane(matrix(e, 64, 64, 7))],
  ['nearestByCosine 8 x 12 + componentAlong 12 x 8', (e) => [e.nearestByCosine(matrix(e, 8, 12, 8), matrix(e, 6, 12, 9)), e.componentAlong(matrix(e, 12, 8, 10), matrix(e, 1, 8, 11).data)]],
  ['cosineSimilarity + softmax', (e) => [e.cosineSimilarity(matrix(e, 1, 12, 12).data, matrix(e, 1, 12, 13).data), e.softmax(matrix(e, 1, 12, 14).data)]],
  ['similaritySingularValues d = 64, h = 8', (e, model) => model.similaritySingularValues(3)],
  ['similaritySingularValues d = 8, h = 2', (e, model, small) => small.similaritySingularValues(1)],
];

const models = {};
for (const [name, engine] of Object.entries(builds)) {
  const model = engine.createModel({ seqLen: 4, dModel: 64, numHeads: 8 });
  model.randomize(7);
  const small = engine.createModel({ seqLen: 4, dModel: 8, numHeads: 2 });
  small.randomize(8);
  models[name] = [model, small];
}
const run = (name, fn) => fn(builds[name], ...models[name]);

// The same answers, to the bit (JSON of the typed arrays' numbers).
const canonical = (value) => JSON.stringify(value, (k, v) => (ArrayBuffer.isView(v) ? Array.from(v) : v));
for (const [label, fn] of CASES) {
  if (canonical(run('old', fn)) !== canonical(run('new', fn))) console.log(`DIFFERENT ANSWERS: ${label}`);
}

const cpuMs = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const cases = CASES.map(([label, fn]) => {
  const t0 = performance.now();
  run('new', fn);
  const reps = Math.max(1, Math.round(20 / Math.max(performance.now() - t0, 0.005)));
  return { label, fn, reps, times: { old: [], new: [] } };
});
for (let w = 0; w < 3; w++) for (const c of cases) for (const name of ['old', 'new']) for (let r = 0; r < c.reps; r++) run(name, c.fn);

for (let round = 0; round < rounds; round++) {
  for (const c of cases) {
    // Alternate which build goes first, so neither always runs in the other's wake.
    for (const name of round % 2 ? ['new', 'old'] : ['old', 'new']) {
      const t0 = cpuMs();
      for (let r = 0; r < c.reps; r++) run(name, c.fn);
      c.times[name].push((cpuMs() - t0) / c.reps);
    }
  }
}

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
console.log(`${rounds} rounds, process CPU ms per call (medians); new / old = median of the per-round ratios`);
for (const c of cases) {
  const ratios = c.times.new.map((t, i) => t / c.times.old[i]);
  console.log(`${c.label.padEnd(48)} old ${median(c.times.old).toFixed(4).padStart(9)}  new ${median(c.times.new).toFixed(4).padStart(9)}  new/old ${median(ratios).toFixed(3)}`);
}
