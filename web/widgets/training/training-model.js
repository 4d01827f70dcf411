// The training widget's mathematics, run by the core's training module
// (web/engine/training.js), and its state contract. No DOM here: the worker, the page's
// fallback and the Node tests all use it.
//
// A run trains a tiny attention-only transformer (one layer of h heads at d_model = 16, a
// linear read-out per output) with Adam, from a seed, on one of the core's tasks:
//   back-and-first   predict, at each position, the token k = 2 places back AND the first
//                    token of the sequence: two relationships at once;
//   previous-token   predict the token one place back: one clean job.
// The core's defaults (defaultTrainingConfig) fix every size and the number of steps, so the
// lesson's 1 vs 2 vs 4 heads comparison is at the same d_model and the same training budget.
//
// State contract (this file owns it): { task, heads, seed, off }
//   task   'back-and-first' or 'previous-token'
//   heads  h, 1, 2 or 4 (each divides d_model = 16, so every head has width 16 / h)
//   seed   1 .. 9999: the weights, the batches and the evaluation set all follow from it
//   off    the heads switched off once the model is trained (indices, ascending, < heads)
import { choices, stateError, checkObject } from '../shared/state-error.js';
import { stateContract } from '../shared/state-contract.js';

export const TASKS = ['back-and-first', 'previous-token'];
export const HEAD_COUNTS = [1, 2, 4];
export const MAX_SEED = 9999;
export const STATE_KEYS = ['task', 'heads', 'seed', 'off'];

/** Words for each task and its outputs (the core's outputAccuracy order). */
export const TASK_TEXT = {
  'back-and-first': {
    name: 'Two jobs', long: 'Two jobs: predict the token 2 back and the first token', outputs: ['token 2 back', 'first token'],
  },
  'previous-token': { name: 'One job', long: 'One job: predict the previous token', outputs: ['previous token'] },
};

/** Steps per slice of training between two looks (curves, patterns): 25 steps ~ 0.1 s. */
export const STEPS_PER_REPORT = 25;

export function defaultTrainingState() {
  return { task: 'back-and-first', heads: 1, seed: 1, off: [] };
}

/** A clean state from untrusted JSON (URL hash, setState), or throws Error with a message. */
export function sanitizeTrainingState(raw) {
  checkObject(raw, STATE_KEYS);
  if (!TASKS.includes(raw.task)) throw stateError('expected', { field: 'task', choices: choices(TASKS, { or: true, quoted: true }) });
  if (!HEAD_COUNTS.includes(raw.heads)) throw stateError('expected', { field: 'heads', choices: choices(HEAD_COUNTS) });
  if (!Number.isInteger(raw.seed) || raw.seed < 1 || raw.seed > MAX_SEED) throw stateError('wholeFrom', { field: 'seed', min: 1, max: MAX_SEED });
  if (!Array.isArray(raw.off) || raw.off.length > raw.heads) throw stateError('headsAtMost', { field: 'off', count: raw.heads });
  for (const head of raw.off) {
    if (!Number.isInteger(head) || head < 0 || head >= raw.heads) throw stateError('headNumbers', { field: 'off', max: raw.heads - 1 });
  }
  const off = [...new Set(raw.off)].sort((a, b) => a - b);
  if (off.length !== raw.off.length) throw stateError('listedTwice', { field: 'off' });
  return { task: raw.task, heads: raw.heads, seed: raw.seed, off };
}

/** The mask the core takes (true = switched off) for `off` among h heads. */
export function maskOf(off, heads) {
  return Array.from({ length: heads }, (_, i) => off.includes(i));
}

/**
 * Orders heads from least to most important: by how much the evaluation loss grows when the
 * head alone is switched off (the core's lossChange), ties by the gradient score of Michel
 * et al. (2019). Returns the core's rows, sorted.
 */
export function rankByImportance(importance) {
  return [...importance].sort((a, b) => (a.lossChange - b.lossChange) || (a.gradientScore - b.gradientScore));
}

/**
 * One training run in the core, advanced a slice at a time by whoever drives it (the worker,
 * or the page in small slices where no worker can run). Owns one Trainer: call dispose().
 */
export class TrainingSession {
  constructor(trainingEngine, { task, heads, seed }) {
    this.trainer = trainingEngine.createTrainer({ task, numHeads: heads }, seed);
    this.totalSteps = this.trainer.config.steps;
    this.config = this.trainer.config;
  }

  get stepsDone() {
    return this.trainer.stepsDone;
  }

  get done() {
    return this.trainer.stepsDone >= this.totalSteps;
  }

  /**
   * Takes up to `maxSteps` Adam steps (never past the run's total) and looks at the model:
   * the mean training loss of those steps, accuracy on the fixed evaluation set, and every
   * head's attention pattern on evaluation sequence 0.
   */
  advance(maxSteps = STEPS_PER_REPORT) {
    const n = Math.min(maxSteps, this.totalSteps - this.trainer.stepsDone);
    const trained = n > 0 ? this.trainer.step(n) : null;
    return { ...this.look(), trainingLoss: trained?.loss ?? null };
  }

  /** Evaluation (with the current head mask) and the attention patterns, as plain data. */
  look() {
    const evaluation = this.trainer.evaluate();
    const example = this.trainer.attention(0);
    return {
      steps: this.trainer.stepsDone,
      totalSteps: this.totalSteps,
      loss: evaluation.loss,
      accuracy: evaluation.accuracy,
      outputAccuracy: evaluation.outputAccuracy,
      tokens: Array.from(example.tokens),
      patterns: example.layers[0].map((m) => Array.from(m.data)),
      mask: this.trainer.headMask,
      // A guess among vocabSize tokens is right this often: the floor an output cannot learn below.
      chance: 1 / this.config.vocabSize,
    };
  }

  /** Switches heads off (indices in `off`) and looks again. */
  setOff(off) {
    this.trainer.ablate(maskOf(off, this.config.numHeads));
    return this.look();
  }

  /** Takes up to n Adam steps (never past the run's total); returns their mean training loss. */
  step(n) {
    const count = Math.min(n, this.totalSteps - this.trainer.stepsDone);
    return count > 0 ? this.trainer.step(count).loss : null;
  }

  /**
   * What the trained model's heads are worth, with every head on: the core's importance of
   * each head, and the pruning curve: remove the k least important heads (k = 0 .. h, in the
   * order of that ranking) and measure accuracy. The mask in force before is restored.
   * A generator that yields between the core's calls, so that the page's fallback can spread
   * it over several short tasks; analyse() runs it through.
   */
  *analysisSteps() {
    const h = this.config.numHeads;
    const before = this.trainer.headMask;
    try {
      this.trainer.ablate(new Array(h).fill(false));
      const ranking = rankByImportance(this.trainer.importance());
      yield;
      // Each head off alone, job by job: which job it takes down with it.
      for (const r of ranking) {
        this.trainer.ablate(maskOf([r.head], h));
        r.outputAccuracyWithout = this.trainer.evaluate().outputAccuracy;
      }
      yield;
      const curve = [];
      for (let k = 0; k <= h; k++) {
        const off = ranking.slice(0, k).map((r) => r.head).sort((a, b) => a - b);
        this.trainer.ablate(maskOf(off, h));
        const evaluation = this.trainer.evaluate();
        curve.push({ removed: k, off, accuracy: evaluation.accuracy, outputAccuracy: evaluation.outputAccuracy });
        yield;
      }
      return { ranking, curve };
    } finally {
      this.trainer?.ablate(before);
    }
  }

  analyse() {
    const steps = this.analysisSteps();
    for (;;) {
      const { value, done } = steps.next();
      if (done) return value;
    }
  }

  dispose() {
    this.trainer?.delete();
    this.trainer = null;
  }
}

/**
 * Trains a whole run at once (tests and the bench): the final look, with the analysis.
 * `onLook(look)` sees each slice.
 */
export function trainToEnd(trainingEngine, settings, { onLook } = {}) {
  const session = new TrainingSession(trainingEngine, settings);
  try {
    let look;
    do {
      look = session.advance(STEPS_PER_REPORT);
      onLook?.(look);
    } while (!session.done);
    return { look, ...session.analyse() };
  } finally {
    session.dispose();
  }
}

/** Training's state contract (shared/state-contract.js): no configuration of its own. */
export const STATE_CONTRACT = stateContract({
  keys: STATE_KEYS,
  start: () => defaultTrainingState(),
  sanitize: (raw) => sanitizeTrainingState(raw),
});
