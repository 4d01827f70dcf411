// The lesson's one world (lessons/multiple-heads/world.json) run by the core: its heads do
// the jobs their names promise, merging them (h = 2, 1 at the same d_model and the same
// weights) makes one head split its budget, and the downstream reader can answer both
// questions with a head per question but not with one head for both.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTestEngine } from './load-engine.mjs';
import { buildCheckedWorld as buildWorld } from '../../web/widgets/shared/world-check.js';
import { THE_WORLD as w, headsAt, createWorldModel, variantInput, variantTokens, WORLD } from '../../web/widgets/shared/world.js';
import { WorldReader } from '../../web/widgets/shared/world-reader.js';

const engine = await loadTestEngine();
const row = (matrix, r) => Array.from(matrix.row(r));
const argmax = (values) => values.indexOf(Math.max(...values));

test('the world: 11 tokens, d_model 12, four named heads of width 3 with their own colours', () => {
  assert.equal(w.L, 11);
  assert.equal(w.dModel, 12);
  assert.equal(w.dK, 3);
  assert.deepEqual(w.heads.map((h) => h.id), ['subject', 'complement', 'previous', 'gist']);
  assert.equal(new Set(w.heads.map((h) => h.colour)).size, 4);
  assert.equal(w.tokens[w.queryIndex], 'said');
  // Merged heads share d_model: h heads of width d_model / h.
  for (const h of w.headCounts) {
    const heads = headsAt(w, h);
    assert.equal(heads.length, h);
    assert.equal(heads.at(-1).end, w.dModel);
    assert.ok(heads.every((head) => head.end - head.start === w.dModel / h));
  }
  assert.equal(headsAt(w, 2)[0].name, 'Subject finder + Complement finder');
});

test('each designed head does the job its name says, for “said” and across the sentence', () => {
  const model = createWorldModel(engine, w, 4);
  const result = model.forward(w.x);
  model.delete();
  const q = w.queryIndex;
  const [subject, complement, previous, gist] = result.heads.map((h) => h.weights);
  assert.equal(w.tokens[argmax(row(subject, q))], 'researcher');
  assert.ok(subject.get(q, w.subjectIndex) > 0.9);
  assert.equal(w.tokens[argmax(row(complement, q))], 'it');
  assert.ok(complement.get(q, w.complementIndex) > 0.9);
  for (let t = 1; t < w.L; t++) assert.equal(argmax(row(previous, t)), t - 1, `previous word of ${w.tokens[t]}`);
  // Gist: every word spreads its budget over the verbs and their subjects.
  const actors = ['researcher', 'who', 'wrote', 'said', 'it', 'was'].map((word) => w.tokens.indexOf(word));
  for (let t = 0; t < w.L; t++) {
    const onActors = actors.reduce((sum, s) => sum + gist.get(t, s), 0);
    assert.ok(onActors > 0.9, `${w.tokens[t]} puts ${onActors} on the actors`);
  }
});

test('merged into one head (h = 2), the subject and complement finders split one budget', () => {
  const model = createWorldModel(engine, w, 2);
  const weights = model.forward(w.x).heads[0].weights;
  model.delete();
  const onSubject = weights.get(w.queryIndex, w.subjectIndex);
  const onComplement = weights.get(w.queryIndex, w.complementIndex);
  assert.ok(onSubject > 0.4 && onSubject < 0.55, `subject ${onSubject}`);
  assert.ok(onComplement > 0.4 && onComplement < 0.55, `complement ${onComplement}`);
});

test('the reader answers both questions with a head per question, and not with one head for both', () => {
  const reader = new WorldReader(engine, w);
  try {
    const four = reader.read(4);
    const two = reader.read(2);
    assert.equal(four.total, 16);
    assert.equal(four.subjectCorrect, 16);
    assert.equal(four.complementCorrect, 16);
    assert.ok(two.subjectCorrect <= 10, `one head still named ${two.subjectCorrect} subjects`);
    assert.ok(two.complementCorrect <= 10, `one head still named ${two.complementCorrect} complements`);
    // Spending the one head's budget on the subject wins that question and loses the other.
    const budget = new Float32Array(w.L).fill(0.01);
    budget[w.subjectIndex] = 1 - 0.01 * (w.L - 1);
    const leaning = reader.read(2, { 0: budget });
    assert.equal(leaning.subjectCorrect, 16);
    assert.ok(leaning.complementCorrect <= 8);
    assert.deepEqual(Array.from(leaning.weights[0].subarray(w.queryIndex * w.L, (w.queryIndex + 1) * w.L)), Array.from(budget));
  } finally {
    reader.dispose();
  }
  assert.equal(engine.liveModels, 0);
});

test('variants change only the subject and complement words and their meanings', () => {
  const x = variantInput(w, 2, 3);
  const tokens = variantTokens(w, 2, 3);
  assert.equal(tokens[w.subjectIndex], 'student');
  assert.equal(tokens[w.complementIndex], 'everything');
  let changed = 0;
  x.forEach((v, k) => { if (v !== w.x[k]) changed++; });
  assert.ok(changed > 0 && changed <= 2 * w.meaningColumns.length);
});

test('inconsistent world data is refused with a message naming the problem', () => {
  const broken = structuredClone(WORLD);
  broken.heads[0].query.nope = [1, 0, 0];
  assert.throws(() => buildWorld(broken), /heads\[0\]\.query\["nope"\]: “nope” is not one of the features/);
  const short = structuredClone(WORLD);
  short.features[3].values.pop();
  assert.throws(() => buildWorld(short), /features\[3\]\.values: expected 11 numbers, found 10: one number per token/);
  assert.throws(() => headsAt(w, 3), /h = 3 is not one of 1, 2, 4/);
});

test('the core geometry: nearestByCosine and principalPlane through the JS API', () => {
  const nearest = engine.nearestByCosine({ rows: 2, cols: 2, data: [1, 0.1, 0, 0] }, { rows: 2, cols: 2, data: [1, 0, 0, 1] });
  assert.deepEqual(Array.from(nearest.choice), [0, -1]);
  assert.throws(() => engine.nearestByCosine({ rows: 1, cols: 2, data: [1, 0] }, { rows: 1, cols: 2, data: [0, 0] }), /zero vector/);
  const plane = engine.principalPlane({ rows: 3, cols: 3, data: [0, 0, 0, 2, 0, 0, 0, 1, 0] }, { rows: 1, cols: 3, data: [1, 0.5, 0] });
  assert.equal(plane.coordinates.rows, 3);
  assert.ok(Math.abs(plane.explained - 1) < 1e-9);
  assert.equal(plane.extraCoordinates.rows, 1);
});
