// The heads-questions model on the core in Node: its state contract (defaults from the one
// world, strict sanitising) and the claims the widget makes: each head has its own pattern,
// an edit of one head's W_Q moves that head only, and tied heads are identical copies.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  HeadsQuestionsModel, WQ_EDIT, defaultHeadsQuestionsState, describeRow, queryFromAttribute,
  sanitizeHeadsQuestionsState, worldQuery,
} from '../../web/widgets/heads-questions/heads-questions-model.js';
import { THE_WORLD as w } from '../../web/widgets/shared/world.js';
import { loadTestEngine } from './load-engine.mjs';

let model;
before(async () => { model = new HeadsQuestionsModel(await loadTestEngine('simd'), w); });
after(() => model.dispose());

const maxGap = (a, b) => Math.max(...a.map((v, k) => Math.abs(v - b[k])));

test('the starting state is the world: its query word, its four W_Q^i blocks, untied', () => {
  const state = defaultHeadsQuestionsState(w);
  assert.equal(state.query, w.tokens.indexOf('said'));
  assert.equal(state.tied, false);
  assert.equal(state.wq.length, 4);
  // Head 0's block holds the subject finder's rows: "clause x" looks for key column 1.
  assert.equal(state.wq[0][w.featureNames.indexOf('clause x') * w.dK], 1);
  // The core holds exactly these blocks after a compute.
  const view = model.compute(state);
  view.wq.forEach((block, i) => assert.deepEqual(Array.from(block), Array.from(Float32Array.from(worldQuery(w, i)))));
  assert.deepEqual(sanitizeHeadsQuestionsState(state, w), state);
});

test('four heads, four patterns: each pair of heads differs, and "said" gets the designed answers', () => {
  const state = defaultHeadsQuestionsState(w);
  const { weights, rows } = model.compute(state);
  for (let i = 0; i < 4; i++) for (let j = i + 1; j < 4; j++) assert.ok(maxGap(weights[i], weights[j]) > 0.5, `heads ${i}, ${j}`);
  assert.match(describeRow(w.tokens, state.query, rows[0]), /looks most at “researcher”/);
  assert.match(describeRow(w.tokens, state.query, rows[1]), /looks most at “it”/);
  assert.match(describeRow(w.tokens, state.query, rows[2]), /looks most at “paper”/);
  for (const row of rows) assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-5, 'a row of weights sums to 1');
});

test('an edit of one head’s W_Q moves that head’s weights only; tied heads are identical copies', () => {
  const state = defaultHeadsQuestionsState(w);
  const before = model.compute(state).weights;
  const edited = structuredClone(state);
  edited.wq[1][w.featureNames.indexOf('verb') * w.dK + 2] = 0;
  const after = model.compute(edited).weights;
  assert.ok(maxGap(after[1], before[1]) > 0.1);
  for (const i of [0, 2, 3]) assert.deepEqual(after[i], before[i]);
  for (const head of [0, 1, 2, 3]) {
    const tied = model.compute({ ...edited, tied: true, head }).weights;
    for (const copy of tied) assert.deepEqual(copy, tied[0]);
    assert.deepEqual(tied[head], after[head], 'tied to a head: every head has that head’s pattern');
  }
});

test('sanitising is strict: every wrong field, type, length or range is refused with a message', () => {
  const good = defaultHeadsQuestionsState(w);
  const bad = [
    null, 3, 'x', [], {}, { ...good, extra: 1 }, { ...good, tied: 'yes' }, { ...good, query: -1 }, { ...good, query: w.L },
    { ...good, query: 2.5 }, { ...good, head: 4 }, { ...good, head: '1' }, { ...good, wq: good.wq.slice(1) },
    { ...good, wq: [good.wq[0].slice(1), ...good.wq.slice(1)] },
    { ...good, wq: [[...good.wq[0].slice(1), WQ_EDIT.limit + 0.01], ...good.wq.slice(1)] },
    { ...good, wq: [[...good.wq[0].slice(1), Number.NaN], ...good.wq.slice(1)] },
    { ...good, wq: [[...good.wq[0].slice(1), '1'], ...good.wq.slice(1)] },
    { ...good, wq: [{ length: 36 }, ...good.wq.slice(1)] },
  ];
  for (const raw of bad) assert.throws(() => sanitizeHeadsQuestionsState(raw, w), (e) => e instanceof Error && e.message.length > 5, JSON.stringify(raw)?.slice(0, 60));
  const edge = structuredClone(good);
  edge.wq[3][0] = -WQ_EDIT.limit;
  assert.deepEqual(sanitizeHeadsQuestionsState(edge, w), edge);
  assert.equal(queryFromAttribute(w, 'it'), w.tokens.indexOf('it'));
  assert.throws(() => queryFromAttribute(w, 'banana'), /not a word of the sentence/);
});
