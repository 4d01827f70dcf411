// The lesson's paragraph under <mha-training> states what training shows at the default seed.
// Each number is checked here by training with the core (the training module's SIMD build)
// through the widget's own model (training-model.js), so prose, widget and core cannot drift
// apart. Also: ablating the head that carries a job hurts, ablating an idle head barely does.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { loadTestTrainingEngine } from './load-engine.mjs';
import { TrainingSession, trainToEnd } from '../../web/widgets/training/training-model.js';

const engine = await loadTestTrainingEngine('simd');
const prose = readFileSync(new URL('../../lessons/multiple-heads/lesson.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
const says = (text) => assert.ok(prose.includes(text), `the lesson no longer says “${text}”`);
const percent = (value, decimals) => `${(value * 100).toFixed(decimals)}%`;

const SEED = 1;
const runs = {};
for (const heads of [1, 2, 4]) runs[heads] = trainToEnd(engine, { task: 'back-and-first', heads, seed: SEED });
const [K_BACK, FIRST] = [0, 1]; // the core's output order for back-and-first

describe('the lesson’s training paragraph', () => {
  test('the widget stands in “Limits of the picture”', () => {
    const section = prose.slice(prose.indexOf('## Limits of the picture'), prose.indexOf('## Worth keeping'));
    assert.ok(section.includes('<mha-training></mha-training>'));
  });

  test('“from seed 1 for 1,500 steps, one head of width 16 … (100% right) … no better than chance (6.3%, 1 in 16)”', () => {
    says('Trained here from seed 1 for 1,500 steps, one head of width 16 learns the first token (100% right)');
    says('gets the token two back no better than chance (6.3%, 1 in 16)');
    const defaults = engine.defaultTrainingConfig('back-and-first');
    assert.equal(defaults.steps, 1500);
    assert.equal(defaults.dModel / 1, 16);
    assert.equal(defaults.vocabSize, 16);
    assert.equal(defaults.offset, 2, '“the token two back”');
    const { look } = runs[1];
    assert.equal(look.steps, 1500);
    assert.equal(percent(look.outputAccuracy[FIRST], 0), '100%');
    assert.equal(percent(look.outputAccuracy[K_BACK], 1), '6.3%');
    assert.ok(Math.abs(look.outputAccuracy[K_BACK] - 1 / 16) < 0.01, 'at chance: within 1 point of 1/16');
  });

  test('“two heads of width 8, or four of width 4, get both right (100%)”', () => {
    says('two heads of width 8, or four of width 4, get both right (100%)');
    for (const heads of [2, 4]) {
      const { look } = runs[heads];
      assert.equal(16 / heads, heads === 2 ? 8 : 4);
      assert.equal(percent(look.accuracy, 0), '100%', `${heads} heads`);
      assert.deepEqual(look.outputAccuracy.map((a) => percent(a, 0)), ['100%', '100%']);
    }
  });

  test('“switching off the head that finds the token two back sends that answer back to chance”; an idle head barely matters', () => {
    says('switching off the head that finds the token two back sends that answer back to chance');
    for (const heads of [2, 4]) {
      const session = new TrainingSession(engine, { task: 'back-and-first', heads, seed: SEED });
      try {
        while (!session.done) session.step(500);
        // Each head alone switched off: which output it takes down with it.
        const alone = Array.from({ length: heads }, (_, i) => session.setOff([i]).outputAccuracy);
        const carrier = alone.findIndex((a) => a[K_BACK] < 0.1);
        assert.ok(carrier >= 0, `${heads} heads: some head carries the token two back (${JSON.stringify(alone)})`);
        assert.ok(Math.abs(alone[carrier][K_BACK] - 1 / 16) < 0.02, 'back to chance');
        assert.ok(alone[carrier][FIRST] > 0.99, 'the other job survives it');
        const { ranking } = session.analyse();
        if (heads === 2) {
          // Two heads, two jobs: the other head carries the first token.
          const other = 1 - carrier;
          assert.ok(alone[other][FIRST] < 0.1 && alone[other][K_BACK] > 0.99, JSON.stringify(alone));
        } else {
          // Four heads: the carrier is the one the core ranks most important; the least
          // important head is idle enough that switching it off barely matters.
          assert.equal(ranking[ranking.length - 1].head, carrier, 'the core ranks it most important');
          const idle = ranking[0];
          assert.ok(idle.accuracyWithout > 0.85, `an idle head of four barely matters (${idle.accuracyWithout})`);
          assert.ok(ranking[ranking.length - 1].lossChange > 5 * idle.lossChange);
        }
      } finally {
        session.dispose();
      }
    }
  });

  test('pruning curve: removing the least important heads first keeps accuracy longest (4 heads)', () => {
    const { curve } = runs[4];
    assert.equal(curve.length, 5);
    assert.equal(curve[0].accuracy, runs[4].look.accuracy);
    for (let k = 1; k < curve.length; k++) assert.ok(curve[k].accuracy <= curve[k - 1].accuracy + 0.02, `k = ${k}`);
    assert.ok(curve[1].accuracy > 0.85, 'one head of four can go at small cost');
    assert.ok(curve[4].accuracy < 0.05, 'with every head gone nothing is left');
  });

  test('“removing it takes the first token from 100% to 90.3%, and removing the two least important to 61.3%, while the token two back stays at 100%”', () => {
    // The pruning curve of the 4-head run, job by job, as the widget draws it.
    const { curve } = runs[4];
    const first = curve.map((c) => percent(c.outputAccuracy[FIRST], 1));
    const back = curve.map((c) => percent(c.outputAccuracy[K_BACK], 1));
    says(`removing it takes the first token from ${first[0].replace('.0%', '%')} to ${first[1]}, and removing the two least important to ${first[2]}, while the token two back stays at ${back[2].replace('.0%', '%')}`);
    assert.deepEqual([first[0], back[0], back[1], back[2]], ['100.0%', '100.0%', '100.0%', '100.0%']);
    says('With four heads, one carries the token two back and the other three share the first token');
    // One head carries the token two back: switched off alone it takes that job to chance; each
    // of the other three, off alone, costs the first token only.
    const alone = runs[4].ranking;
    const carriers = alone.filter((r) => r.outputAccuracyWithout[K_BACK] < 0.1);
    assert.equal(carriers.length, 1);
    for (const r of alone.filter((x) => x !== carriers[0])) {
      assert.ok(r.outputAccuracyWithout[K_BACK] > 0.99 && r.outputAccuracyWithout[FIRST] < 0.99, JSON.stringify(r));
    }
  });

  test('“given 6,000 steps, the one head gets 86% right”', () => {
    says('given 6,000 steps, the one head gets 86% right');
    const trainer = engine.createTrainer({ task: 'back-and-first', numHeads: 1, steps: 6000 }, SEED);
    try {
      // In calls of 1,500 steps: one call of 6,000 is over the core's work budget per call.
      for (let k = 0; k < 4; k++) trainer.step(1500);
      assert.equal(percent(trainer.evaluate().accuracy, 0), '86%');
    } finally {
      trainer.delete();
    }
  });

  test('“The comparison is at equal width and equal training”: one d_model and one step count for every h', () => {
    says('The comparison is at equal width and equal training, on one toy task.');
    for (const heads of [1, 2, 4]) {
      const session = new TrainingSession(engine, { task: 'back-and-first', heads, seed: SEED });
      assert.equal(session.config.dModel, 16);
      assert.equal(session.totalSteps, 1500);
      session.dispose();
    }
    assert.equal(engine.liveTrainers, 0);
  });
});
