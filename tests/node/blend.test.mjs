// The blend widget's model (web/widgets/blend/blend-model.js) on the core in Node: the
// state contract (strict), the fair comparison, the reader figures it reports, "undo it?"
// and the share wording.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { BlendModel, describeShare, sanitizeBlendState, sentenceReading, undoVerdict } from '../../web/widgets/blend/blend-model.js';
import { maximize } from './simplex.mjs';
import { THE_WORLD as w, WORLD, buildWorld } from '../../web/widgets/shared/world.js';
import { WorldReader } from '../../web/widgets/shared/world-reader.js';
import { loadTestEngine } from './load-engine.mjs';

let engine, model;
before(async () => {
  engine = await loadTestEngine('simd');
  model = new BlendModel(engine);
});
after(() => model?.dispose());

const onehot = (i) => w.tokens.map((_, t) => (t === i ? 1 : 0));

test('state contract: { budget: null | 11 finite non-negative weights summing to 1 }, nothing else', () => {
  assert.deepEqual(sanitizeBlendState({ budget: null }), { budget: null });
  // A state that lost its budget is refused (a link or copy missing its part says so).
  assert.throws(() => sanitizeBlendState({}), /budget: missing \(expected 11 weights/);
  const good = onehot(1);
  const clean = sanitizeBlendState({ budget: good });
  assert.deepEqual(clean, { budget: good });
  assert.notEqual(clean.budget, good, 'a copy');
  const nearly = good.map((v, t) => (t === 2 ? 0.00005 : v));
  assert.ok(sanitizeBlendState({ budget: nearly }), 'within 1e-4 of 1');
  for (const [raw, message] of [
    [null, /expected an object/], [[], /expected an object/], ['x', /expected an object/],
    [{ budget: null, query: 6 }, /unknown field “query”/], [JSON.parse('{"__proto__": {}, "budget": null}'), /unknown field “__proto__”/],
    [{ budget: [1] }, /expected 11 weights/], [{ budget: 'half' }, /expected 11 weights/],
    [{ budget: good.map((v, t) => (t === 0 ? Number.NaN : v)) }, /finite/],
    [{ budget: good.map((v, t) => (t === 0 ? Infinity : v)) }, /finite/],
    [{ budget: good.map((v, t) => (t === 0 ? '0' : v)) }, /finite/],
    [{ budget: good.map((v, t) => (t === 0 ? -0.5 : t === 2 ? 0.5 : v)) }, /negative/],
    [{ budget: good.map((v, t) => (t === 0 ? 0.001 : v)) }, /add up to 1\.00100/],
    [{ budget: good.map(() => 1e300) }, /add up to/],
  ]) {
    assert.throws(() => sanitizeBlendState(raw), message, JSON.stringify(raw)?.slice(0, 60));
  }
});

test('fair: the same packed weights and d_model, one head of width 6 against two of width 3', () => {
  const { one, two, sameWeights } = model.fairness;
  assert.equal(sameWeights, true);
  assert.deepEqual([one.dModel, one.numHeads, one.width], [12, 2, 6]);
  assert.deepEqual([two.dModel, two.numHeads, two.width], [12, 4, 3]);
  assert.equal(model.oneHead.end - model.oneHead.start, model.subjectHead.end - model.subjectHead.start + model.complementHead.end - model.complementHead.start);
});

test('the figures are WorldReader’s: 8 / 8 by default, 16 / 4 all on the subject, 4 / 16 all on the complement; two heads 16 / 16', () => {
  const reader = new WorldReader(engine, w);
  try {
    for (const [budget, counts] of [[null, [8, 8]], [onehot(w.subjectIndex), [16, 4]], [onehot(w.complementIndex), [4, 16]]]) {
      const view = model.compute({ budget });
      const read = reader.read(2, budget ? { 0: budget } : {});
      assert.deepEqual([view.one.subjectCorrect, view.one.complementCorrect], [read.subjectCorrect, read.complementCorrect]);
      assert.deepEqual([view.one.subjectCorrect, view.one.complementCorrect], counts);
      assert.deepEqual([view.two.subjectCorrect, view.two.complementCorrect], [16, 16]);
    }
  } finally {
    reader.dispose();
  }
});

test('the proof on the page’s own sentence: one head hears other words, two heads hear it right, and no split of one budget hears both', () => {
  const view = model.compute({ budget: null });
  const word = (answer) => answer.words.join(' = ');
  assert.deepEqual([word(view.sentence.one.who), view.sentence.one.who.right, word(view.sentence.one.what), view.sentence.one.what.right], ['editor', false, 'this', false]);
  assert.deepEqual([word(view.sentence.two.who), view.sentence.two.who.right, word(view.sentence.two.what), view.sentence.two.what.right], ['researcher', true, 'it', true]);
  // Every split of the budget between the subject and the complement (the rest as the head's
  // own), in steps of 1%: one question at most is heard right, never both.
  const own = model.ownBudget;
  const pair = own[w.subjectIndex] + own[w.complementIndex];
  let sawWho = false;
  let sawWhat = false;
  for (let k = 0; k <= 100; k++) {
    const budget = own.slice();
    budget[w.subjectIndex] = (pair * k) / 100;
    budget[w.complementIndex] = pair - budget[w.subjectIndex];
    const { who, what } = model.compute({ budget }).sentence.one;
    assert.ok(!(who.right && what.right), `both right at ${k}% of the pair on the subject`);
    sawWho ||= who.right;
    sawWhat ||= what.right;
  }
  assert.ok(sawWho && sawWhat, 'moving the budget trades one question for the other');
});

test('the world avoids ties: no reading at the own, uniform or single-word budgets is decided by rounding', () => {
  const budgets = [null, w.tokens.map(() => 1 / w.L), ...w.tokens.map((_, t) => onehot(t))];
  for (const budget of budgets) {
    const view = model.compute({ budget });
    for (const read of [view.one, view.two]) assert.deepEqual([read.subjectTies, read.complementTies], [0, 0], JSON.stringify(budget));
  }
});

test('a tie is neither right nor wrong: counted apart, with the words it cannot tell apart', () => {
  // The meanings the world had before (subjects at right angles, complements between them):
  // all budget on the subject leaves every “what?” reading equally like two complements.
  const data = structuredClone(WORLD);
  const meaning = (word) => [...data.reader.subjects, ...data.reader.complements].find((c) => c.word === word);
  Object.assign(meaning('researcher'), { meaning: [1, 0, 0.3] });
  Object.assign(meaning('editor'), { meaning: [0, 1, 0.3] });
  Object.assign(meaning('student'), { meaning: [-1, 0, 0.3] });
  Object.assign(meaning('critic'), { meaning: [0, -1, 0.3] });
  Object.assign(meaning('it'), { meaning: [0.707, 0.707, -0.3] });
  Object.assign(meaning('this'), { meaning: [-0.707, 0.707, -0.3] });
  Object.assign(meaning('nothing'), { meaning: [-0.707, -0.707, -0.3] });
  Object.assign(meaning('everything'), { meaning: [0.707, -0.707, -0.3] });
  data.features.find((f) => f.name === 'meaning 1').values[1] = 1;
  data.features.find((f) => f.name === 'meaning 2').values[1] = 0;
  const old = buildWorld(data);
  const oldModel = new BlendModel(engine, old);
  try {
    const view = oldModel.compute({ budget: onehot(old.subjectIndex) });
    assert.equal(view.one.complementTies, 16);
    assert.equal(view.one.complementCorrect, 0, 'a tie is not counted right');
    assert.ok(view.one.variants.every((v) => v.whatTie?.length === 2));
    assert.deepEqual(sentenceReading(old, view.one).what, { words: ['it', 'everything'], right: null });
  } finally {
    oldModel.dispose();
  }
});

test('undo it: other weights with the same 6-wide output, drawn on the same point; none for a corner', () => {
  const view = model.compute({ budget: null });
  const alt = view.alternative;
  assert.ok(alt.meaningful && alt.moved > 0.05);
  assert.equal(alt.exhaustive, true, 'the farthest, every candidate checked');
  alt.output.forEach((v, k) => assert.ok(Math.abs(v - view.output[k]) < 1e-5));
  assert.ok(Math.hypot(view.plane.alternative[0] - view.plane.one[0], view.plane.alternative[1] - view.plane.one[1]) < 1e-5);
  assert.ok(alt.weights.some((v, t) => Math.abs(v - view.budget[t]) > 0.01), 'different weights');
  const corner = model.compute({ budget: onehot(w.subjectIndex) });
  assert.equal(corner.alternative.meaningful, false);
  assert.deepEqual([corner.alternative.found, corner.alternative.exhaustive], [false, true], 'proven: the only weighting');
  assert.equal(corner.plane.alternative, null);
  assert.ok(view.plane.explained > 0.5 && view.plane.explained <= 1);
});

test('undo it over every single word and every half/half pair: the verdict shown is the core’s, and an independent simplex agrees', () => {
  // Issue 22: "put everything on one or two words and there is only one way" was false; the
  // widget now says for the budget on screen what the core computed. Here, for the 11 single
  // words and the 55 half/half pairs, the verdict (undoVerdict: what the widget and its figure
  // say) is checked against a linear program solved apart from the core: the most weight any
  // other weighting with the same 6-wide output can put on words outside the budget's own
  // (maximise it over w ≥ 0, Σw = 1, wᵀV = output). Above zero, another weighting exists and
  // the core's farthest one moves at least that much; zero, the budget is the only one.
  const V = model.oneHeadValues;
  const row = (t) => Array.from(V.data.slice(t * V.cols, (t + 1) * V.cols));
  const A = [...Array.from({ length: V.cols }, (_, k) => w.tokens.map((_, t) => row(t)[k])), w.tokens.map(() => 1)];
  const budgets = [...w.tokens.map((_, t) => [t]), ...w.tokens.flatMap((_, a) => w.tokens.map((_, b) => [a, b]).filter(([x, y]) => x < y))];
  assert.equal(budgets.length, 66);
  const tally = { single: { other: 0, only: 0 }, pair: { other: 0, only: 0 } };
  for (const support of budgets) {
    const budget = w.tokens.map((_, t) => (support.includes(t) ? 1 / support.length : 0));
    const view = model.compute({ budget });
    const alt = view.alternative;
    const verdict = undoVerdict(alt);
    const output = A.slice(0, V.cols).map((coefficients) => coefficients.reduce((sum, v, t) => sum + v * budget[t], 0));
    const outside = w.tokens.map((_, t) => (support.includes(t) ? 0 : 1));
    const lp = maximize(A, [...output, 1], outside);
    assert.ok(lp.feasible, `${support}: the budget itself is feasible`);
    const name = support.map((t) => w.tokens[t]).join(' + ');
    assert.equal(alt.exhaustive, true, `${name}: every candidate checked`);
    if (lp.value > 1e-4) {
      assert.ok(alt.found && alt.moved >= lp.value - 1e-4, `${name}: the simplex moves ${lp.value}, the core ${alt.moved}`);
      assert.equal(verdict, alt.moved >= 1e-3 ? 'farthest' : 'tiny', name);
    } else {
      assert.ok(lp.value < 1e-6, `${name}: ${lp.value} is neither clearly zero nor clearly not`);
      assert.equal(alt.found, false, `${name}: the core found ${alt.weights} where the simplex finds none`);
      assert.equal(verdict, 'only', name);
    }
    tally[support.length === 1 ? 'single' : 'pair'][verdict === 'only' ? 'only' : 'other'] += 1;
  }
  console.log(`undo it: single words ${tally.single.other} reachable another way, ${tally.single.only} only one way; half/half pairs ${tally.pair.other} another way, ${tally.pair.only} only one way`);
});

test('a share of the budget in words: never “0%” for a real move', () => {
  assert.equal(describeShare(0.0765), '8%');
  assert.equal(describeShare(0.01), '1%');
  assert.equal(describeShare(0.0057), '< 1% (0.6%)');
  assert.equal(describeShare(0.0003), '< 1% (0.03%)');
  assert.equal(describeShare(Number.NaN), '—');
});
