// The training widget's model without a browser: its state contract (defaults, strict
// sanitising for URL and setState), and the TrainingLoop that the worker and the page's
// fallback run: it reports looks, pauses between slices, finishes with the core's analysis,
// and frees its trainer.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadTestTrainingEngine } from './load-engine.mjs';
import {
  STEPS_PER_REPORT, TrainingSession, defaultTrainingState, maskOf, rankByImportance, sanitizeTrainingState,
} from '../../web/widgets/training/training-model.js';
import { TrainingLoop } from '../../web/widgets/training/training-loop.js';

const engine = await loadTestTrainingEngine('simd');

describe('training state contract', () => {
  test('the default state is valid and untrained-friendly', () => {
    const state = defaultTrainingState();
    assert.deepEqual(sanitizeTrainingState(state), state);
    assert.deepEqual(state, { task: 'back-and-first', heads: 1, seed: 1, off: [] });
  });

  test('bad states are refused with a message naming the field', () => {
    const ok = { task: 'previous-token', heads: 4, seed: 7, off: [3, 1] };
    assert.deepEqual(sanitizeTrainingState(ok).off, [1, 3], 'off is sorted');
    const bad = [
      [null, /expected an object/],
      [[], /expected an object/],
      [{ ...ok, extra: 1 }, /unknown field “extra”/],
      [{ ...ok, task: 'copy' }, /task: expected/],
      [{ ...ok, task: { toString: () => 'previous-token' } }, /task: expected/],
      [{ ...ok, heads: 3 }, /heads: expected 1, 2, 4/],
      [{ ...ok, heads: '4' }, /heads: expected/],
      [{ ...ok, seed: 0 }, /seed: expected a whole number from 1 to 9999/],
      [{ ...ok, seed: 1.5 }, /seed/],
      [{ ...ok, seed: Infinity }, /seed/],
      [{ ...ok, off: [4] }, /off: expected head numbers from 0 to 3/],
      [{ ...ok, off: [1, 1] }, /listed twice/],
      [{ ...ok, off: 'all' }, /off: expected at most 4/],
      [{ ...ok, heads: 1, off: [0, 0] }, /off: expected at most 1/],
      [{ ...ok, off: [NaN] }, /off: expected head numbers/],
    ];
    for (const [raw, pattern] of bad) assert.throws(() => sanitizeTrainingState(raw), pattern, JSON.stringify(raw));
  });

  test('maskOf and rankByImportance', () => {
    assert.deepEqual(maskOf([0, 2], 4), [true, false, true, false]);
    const ranked = rankByImportance([
      { head: 0, lossChange: 3, gradientScore: 0 }, { head: 1, lossChange: 0.1, gradientScore: 0.2 },
      { head: 2, lossChange: 0.1, gradientScore: 0.1 },
    ]);
    assert.deepEqual(ranked.map((r) => r.head), [2, 1, 0]);
  });
});

/** Runs a TrainingLoop to its end; `onMessage` may pause/resume it. Resolves to every message. */
function runLoop(settings, sliceMs, onMessage = () => {}) {
  return new Promise((resolve, reject) => {
    const messages = [];
    const session = new TrainingSession(engine, settings);
    const loop = new TrainingLoop(session, (message) => {
      messages.push(message);
      if (message.type === 'error') reject(new Error(message.message));
      else if (message.type === 'done') resolve({ messages, loop, session });
      else onMessage(message, loop, messages);
    }, { sliceMs });
    loop.start();
  });
}

describe('TrainingLoop', () => {
  test('in slices of ~12 ms (the page’s fallback): looks every 25 steps, a finished analysis, pause and resume', async () => {
    let pausedAt = null;
    let resumed = false;
    const { messages, loop } = await runLoop({ task: 'previous-token', heads: 4, seed: 1 }, 12, (message, l, seen) => {
      if (pausedAt === null && message.look.steps >= 100) {
        l.pause();
        pausedAt = l.paused ? seen.length : null;
        setTimeout(() => {
          assert.equal(seen.length, pausedAt, 'nothing trains while paused');
          assert.equal(seen.at(-1).type, 'look', 'pause() posts a look saying where it stopped');
          assert.equal(seen.at(-1).paused, true, 'that look is marked as the one the pause stopped at');
          assert.equal(seen.slice(0, -1).some((m) => m.paused), false, 'no other look is');
          resumed = true;
          l.resume();
        }, 100);
      }
    });
    assert.ok(resumed);
    const looks = messages.filter((m) => m.type === 'look').map((m) => m.look.steps);
    assert.equal(looks[0], 0, 'a first look before any step');
    assert.ok(looks.filter((s) => s % STEPS_PER_REPORT === 0).length >= 400 / STEPS_PER_REPORT - 1);
    const done = messages.at(-1);
    assert.equal(done.look.steps, 400);
    assert.equal(done.look.accuracy, 1, 'previous-token is learnt by 400 steps at seed 1');
    assert.equal(done.analysis.ranking.length, 4);
    assert.equal(done.analysis.curve.length, 5);
    // After training: heads off on request, answered with the look.
    const offLook = await new Promise((resolve) => {
      const l2 = loop;
      const original = messages.length;
      l2.setOff([0, 1, 2], 7);
      resolve(messages[original]);
    });
    assert.equal(offLook?.type, 'off-look');
    assert.equal(offLook.requestId, 7);
    assert.deepEqual(offLook.look.mask, [true, true, true, false]);
    loop.stop();
    assert.equal(engine.liveTrainers, 0, 'stop() frees the trainer');
  });

  test('whole reports at a time (the worker) give the same final model as the page’s slices', async () => {
    const settings = { task: 'previous-token', heads: 2, seed: 3 };
    const a = await runLoop(settings, Infinity);
    const b = await runLoop(settings, 5);
    assert.equal(a.messages.at(-1).look.loss, b.messages.at(-1).look.loss, 'deterministic from the seed, however sliced');
    a.loop.stop();
    b.loop.stop();
    assert.equal(engine.liveTrainers, 0);
  });
});
