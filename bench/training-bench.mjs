// The training part of `npm run bench`: Adam steps per second at the lesson's demo sizes
// for the wasm SIMD build, the wasm scalar build and native (g++ -O3 -march=native), in
// one run, plus the time the demo's default training (back-and-first, 2 heads, 1500 steps)
// takes to reach its accuracy in the SIMD build. See bench/README.md.
import { execFileSync } from 'node:child_process';

// [task, h]: the demo's configurations (defaults of each task, h varied as the lesson does).
export const TRAINING_CONFIGS = [['back-and-first', 1], ['back-and-first', 2], ['back-and-first', 4], ['previous-token', 4]];
const TASK_INDEX = { 'previous-token': 0, 'back-and-first': 1 };

// This process's CPU time in ms (user + system), not wall time: on a shared machine wall
// time also measures the other processes. The native side measures the same way.
function cpuMs() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

export function trainingBench({ engines, nativeBinary, seed, timedSteps }) {
  const native = execFileSync(nativeBinary,
    [String(seed), String(timedSteps), ...TRAINING_CONFIGS.flatMap(([task, h]) => [String(TASK_INDEX[task]), String(h)])],
    { encoding: 'utf8' }).trim().split('\n').map((line) => JSON.parse(line));
  const rows = [];
  for (const [index, [task, h]] of TRAINING_CONFIGS.entries()) {
    process.stdout.write(`training ${task}, h = ${h}…\n`);
    const row = { task, h, stepsPerSecond: { native: native[index].steps_per_second }, firstLoss: {} };
    for (const [build, engine] of Object.entries(engines)) {
      const trainer = engine.createTrainer({ task, numHeads: h }, seed);
      try {
        row.firstLoss[build] = trainer.step(1).loss;
        trainer.step(19); // warm-up (V8 tier-up)
        const chunk = Math.max(1, Math.floor(timedSteps / 5));
        const times = [];
        for (let c = 0; c < 5; c++) {
          const t0 = cpuMs();
          trainer.step(chunk);
          times.push(cpuMs() - t0);
        }
        times.sort((a, b) => a - b);
        row.stepsPerSecond[build] = (chunk * 1000) / times[2];
      } finally {
        trainer.delete();
      }
    }
    // Same computation in every build: the first step's loss agrees to float rounding.
    const diff = Math.abs(row.firstLoss.scalar - row.firstLoss.simd) / row.firstLoss.simd;
    if (!(diff < 1e-4)) throw new Error(`${task}, h = ${h}: scalar and SIMD first-step losses differ (relative ${diff})`);
    rows.push(row);
  }

  // The demo: back-and-first defaults (2 heads), 1500 steps in chunks of 50, evaluated after
  // each chunk (evaluation time not counted): when is 95% first reached, and the total.
  const trainer = engines.simd.createTrainer({ task: 'back-and-first' }, 1);
  let trainingMs = 0, reachedAtMs = null, reachedAtStep = null, accuracy = 0;
  try {
    const steps = trainer.config.steps;
    for (let done = 0; done < steps; done += 50) {
      const t0 = cpuMs();
      trainer.step(50);
      trainingMs += cpuMs() - t0;
      accuracy = trainer.evaluate().accuracy;
      if (reachedAtMs === null && accuracy >= 0.95) {
        reachedAtMs = trainingMs;
        reachedAtStep = done + 50;
      }
    }
  } finally {
    trainer.delete();
  }
  const demo = { steps: 1500, trainingMs, reachedAtMs, reachedAtStep, finalAccuracy: accuracy };

  console.log('\ntraining steps per CPU second (median of 5 chunks; Adam step on a batch of 32 sequences, L = 10, d_model = 16)\n');
  console.log(['config', 'native', 'simd', 'scalar', 'simd/scalar', 'native/simd'].map((h, i) => (i === 0 ? h.padEnd(22) : h.padStart(12))).join(''));
  for (const r of rows) {
    const s = r.stepsPerSecond;
    console.log([`${r.task} h=${r.h}`.padEnd(22), s.native.toFixed(0).padStart(12), s.simd.toFixed(0).padStart(12),
      s.scalar.toFixed(0).padStart(12), (s.simd / s.scalar).toFixed(2).padStart(12), (s.native / s.simd).toFixed(2).padStart(12)].join(''));
  }
  console.log(`\ndemo (back-and-first, 2 heads, seed 1, wasm SIMD, CPU time): 95% accuracy after ${demo.reachedAtStep ?? 'never'} steps, ` +
    `${demo.reachedAtMs === null ? '-' : (demo.reachedAtMs / 1000).toFixed(2)} s of training; 1500 steps ${(trainingMs / 1000).toFixed(2)} s; final accuracy ${accuracy.toFixed(3)}`);
  return { rows, demo };
}
