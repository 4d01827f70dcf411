// Two builds of the page's SIMD module side by side: the forward pass through the public
// API (output only, as a view) of a baseline wasm file and of the current build, on the
// same seeded model and input, interleaved round by round so that the machine's load
// falls on both alike. For judging a kernel change on a shared machine, where rows
// measured minutes apart differ by more than the change. Timed in this process's CPU
// time (process.cpuUsage: user + system), which the time slices given to other processes
// do not inflate as they do wall time (this machine has no SMT siblings; caches and the
// memory bus are still shared).
//
//   node --no-liftoff bench/ab-builds.mjs <baseline.wasm> [rounds] [L,d,h ...]
//
// The baseline must come from the same bindings (the JS glue in web/generated/ is shared).
// Prints the median ms of each build per configuration, new / old (the ratio of the two
// medians, and the median of the per-round ratios, which cancels the load's slow drifts
// since both builds of a round ran within a fraction of a second), and t(h) / t(h = 1)
// at each L for both builds when h = 1 is among the configurations.
import { readFileSync } from 'node:fs';
import { loadEngine } from '../web/engine/engine.js';
import { wasmPath } from '../tests/node/load-engine.mjs';

const [baselinePath, roundsArg, ...configArgs] = process.argv.slice(2);
if (!baselinePath) {
  console.error('usage: node --no-liftoff bench/ab-builds.mjs <baseline.wasm> [rounds] [L,d,h ...]');
  process.exit(2);
}
const rounds = Number(roundsArg ?? 15);
const configs = (configArgs.length ? configArgs : ['64,64,8', '256,512,1', '256,512,8', '256,512,32', '512,512,1', '512,512,8', '512,512,32'])
  .map((s) => s.split(',').map(Number));
const OPTIONS = { keepAttention: false, perHeadContributions: false, include: ['output'], views: true };

const builds = {
  old: await loadEngine({ simd: true, wasmBinary: readFileSync(baselinePath) }),
  new: await loadEngine({ simd: true, wasmBinary: readFileSync(wasmPath('simd')) }),
};

const cpuMs = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const cases = [];
for (const [L, d, h] of configs) {
  const models = {};
  for (const [name, engine] of Object.entries(builds)) {
    models[name] = engine.createModel({ seqLen: L, dModel: d, numHeads: h });
    models[name].randomize(7);
  }
  const x = builds.new.seededMatrix(L, d, 8, 1).data;
  const a = models.old.forward(x, OPTIONS).output.data.slice();
  const b = models.new.forward(x, OPTIONS).output.data;
  let diff = 0, mag = 0;
  for (let i = 0; i < a.length; i++) { diff = Math.max(diff, Math.abs(a[i] - b[i])); mag = Math.max(mag, Math.abs(a[i])); }
  // Calls per timed batch: about 20 ms of work, so small sizes are not timer-bound.
  const t0 = performance.now();
  models.new.forward(x, OPTIONS);
  const reps = Math.max(1, Math.round(20 / Math.max(performance.now() - t0, 0.01)));
  cases.push({ L, d, h, x, models, reps, times: { old: [], new: [] }, maxDiff: diff / (mag || 1) });
}

// Warm-up: every case on both builds until the code is optimised and caches are settled.
for (let w = 0; w < 3; w++) for (const c of cases) for (const name of ['old', 'new']) for (let r = 0; r < c.reps; r++) c.models[name].forward(c.x, OPTIONS);

for (let round = 0; round < rounds; round++) {
  for (const c of cases) {
    const order = round % 2 === 0 ? ['old', 'new'] : ['new', 'old'];
    for (const name of order) {
      const t0 = cpuMs();
      for (let r = 0; r < c.reps; r++) c.models[name].forward(c.x, OPTIONS);
      c.times[name].push((cpuMs() - t0) / c.reps);
    }
  }
}

const median = (v) => { const s = [...v].sort((p, q) => p - q); return s[s.length >> 1]; };
console.log(`median CPU ms, ${rounds} interleaved rounds (public API, output view); baseline ${baselinePath}`);
console.log(`${'(L,d,h)'.padEnd(14)}${'old'.padStart(9)}${'new'.padStart(9)}${'new/old'.padStart(9)}${'paired'.padStart(9)}${'max |diff| / max |out|'.padStart(24)}`);
const med = {};
for (const c of cases) {
  const o = median(c.times.old), n = median(c.times.new);
  const paired = median(c.times.new.map((t, i) => t / c.times.old[i]));
  med[`${c.L},${c.d},${c.h}`] = { old: o, new: n };
  console.log(`${`(${c.L},${c.d},${c.h})`.padEnd(14)}${o.toFixed(3).padStart(9)}${n.toFixed(3).padStart(9)}${(n / o).toFixed(3).padStart(9)}${paired.toFixed(3).padStart(9)}${c.maxDiff.toExponential(1).padStart(24)}`);
}
for (const c of cases) {
  const base = med[`${c.L},${c.d},1`];
  if (!base || c.h === 1) continue;
  const key = `${c.L},${c.d},${c.h}`;
  console.log(`t(h=${c.h}) / t(h=1) at L=${c.L}, d=${c.d}: old ${(med[key].old / base.old).toFixed(3)}, new ${(med[key].new / base.new).toFixed(3)}`);
}
for (const c of cases) for (const m of Object.values(c.models)) m.delete();
