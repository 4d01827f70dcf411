// The shipped world whose heads the core trained at build time
// (lessons/multiple-heads/worlds/trained.json, written by scripts/train-world.mjs): run by the
// page's wasm engine through the same buildWorld and WorldReader the widgets use, each head
// does the job its name says on the world's sentence, the blend's reader answers both
// questions with four heads and not with the two finders merged, the description says how
// it was made, and the committed file is what the trainer writes now.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { loadTestEngine } from './load-engine.mjs';
import { createWorldModel, headsAt, WORLD } from '../../web/widgets/shared/world.js';
import { buildCheckedWorld as buildWorld } from '../../web/widgets/shared/world-check.js';
import { WorldReader } from '../../web/widgets/shared/world-reader.js';
import { BlendModel, blendWorldNeeds, defaultBlendState } from '../../web/widgets/blend/blend-model.js';
import { headsQuestionsWorldNeeds } from '../../web/widgets/heads-questions/heads-questions-model.js';
import { woMixingWorldNeeds } from '../../web/widgets/wo-mixing/wo-mixing-model.js';
import { TRAINED_WORLD_PATH, TRAINER_PATH, runTrainer, trainedWorldText } from '../../scripts/train-world.mjs';

const engine = await loadTestEngine();
const data = JSON.parse(readFileSync(TRAINED_WORLD_PATH, 'utf8'));
const w = buildWorld(data);
const row = (matrix, r) => Array.from(matrix.row(r));
const argmax = (values) => values.indexOf(Math.max(...values));
const feature = (name) => data.features.find((f) => f.name === name).values;

// The jobs, read off the sentence's own features (not off the trainer's output).
const verb = feature('verb');
const subject = feature('subject');
const clause = (t) => [feature('clause x')[t], feature('clause y')[t]];
const opens = (t) => [feature('opens x')[t], feature('opens y')[t]];
const sameCode = ([a, b], [c, d]) => Math.abs(a - c) < 1e-6 && Math.abs(b - d) < 1e-6;
const subjectWithCode = (code) => w.tokens.findIndex((_, s) => subject[s] === 1 && sameCode(clause(s), code));
const verbs = w.tokens.flatMap((_, t) => (verb[t] === 1 ? [t] : []));

test('the trained world has the lesson world’s form: 12 features, four heads of width 3 in the lesson’s colours, h = 1, 2, 4', () => {
  assert.equal(w.dModel, 12);
  assert.equal(w.dK, 3);
  assert.deepEqual(w.heads.map((h) => h.id), WORLD.heads.map((h) => h.id));
  assert.deepEqual(w.heads.map((h) => h.colour), WORLD.heads.map((h) => h.colour));
  assert.deepEqual(w.headCounts, [1, 2, 4]);
  assert.equal(w.tokens[w.queryIndex], 'thought');
  // Scores must not depend on the meanings (the blend swaps them under fixed weights).
  for (const head of data.heads) {
    for (const kind of ['query', 'key']) assert.ok(Object.keys(head[kind]).every((name) => !name.startsWith('meaning')), `${head.id} ${kind}`);
  }
  for (const needs of [blendWorldNeeds, headsQuestionsWorldNeeds, woMixingWorldNeeds]) assert.equal(needs(w), null, needs.name);
});

test('each trained head does its named job on the sentence (the core’s forward pass, h = 4)', () => {
  const model = createWorldModel(engine, w, 4);
  const [own, opened, previous, gist] = model.forward(w.x).heads.map((h) => h.weights);
  model.delete();
  assert.ok(verbs.length >= 3);
  for (const t of verbs) {
    const target = subjectWithCode(clause(t));
    assert.equal(argmax(row(own, t)), target, `subject finder at “${w.tokens[t]}”`);
    assert.ok(own.get(t, target) > 0.9, `subject finder at “${w.tokens[t]}”: ${own.get(t, target)}`);
  }
  const openers = verbs.filter((t) => opens(t).some((v) => v !== 0));
  assert.deepEqual(openers, [w.queryIndex]);
  assert.equal(subjectWithCode(opens(w.queryIndex)), w.complementIndex);
  assert.equal(argmax(row(opened, w.queryIndex)), w.complementIndex);
  assert.ok(opened.get(w.queryIndex, w.complementIndex) > 0.9);
  assert.equal(argmax(row(own, w.queryIndex)), w.subjectIndex);
  for (let t = 1; t < w.L; t++) assert.equal(argmax(row(previous, t)), t - 1, `previous word of “${w.tokens[t]}”`);
  // Gist: every word spreads its budget evenly over the verbs and their subjects.
  const actors = w.tokens.flatMap((_, s) => (verb[s] === 1 || subject[s] === 1 ? [s] : []));
  for (let t = 0; t < w.L; t++) {
    const weights = actors.map((s) => gist.get(t, s));
    assert.ok(weights.reduce((a, b) => a + b, 0) > 0.9, `“${w.tokens[t]}” puts ${weights} on the actors`);
    assert.ok(Math.min(...weights) > 0.5 / actors.length, `“${w.tokens[t]}” skips an actor: ${weights}`);
  }
});

test('the blend’s reader: four heads answer both questions for every variant, the two finders merged (h = 2) do not', () => {
  assert.equal(headsAt(w, 2)[0].name, 'Subject finder + Complement finder');
  const reader = new WorldReader(engine, w);
  try {
    const four = reader.read(4);
    assert.equal(four.total, 16);
    assert.equal(four.subjectCorrect, 16);
    assert.equal(four.complementCorrect, 16);
    const two = reader.read(2);
    // Merged, the complement finder's larger scores take the one budget (measured: 4 of 16
    // subjects right, all 16 complements): one head cannot answer both.
    assert.ok(two.subjectCorrect + two.complementCorrect <= 20, `merged: ${two.subjectCorrect} + ${two.complementCorrect}`);
    const budget = new Float32Array(w.L).fill(0.01);
    budget[w.subjectIndex] = 1 - 0.01 * (w.L - 1);
    const leaning = reader.read(2, { 0: budget });
    assert.equal(leaning.subjectCorrect, 16);
    assert.ok(leaning.complementCorrect <= 8, `leaning to the subject still names ${leaning.complementCorrect} complements`);
  } finally {
    reader.dispose();
  }
  // The blend widget's own model runs on this world unchanged.
  const blend = new BlendModel(engine, w);
  try {
    const view = blend.compute(defaultBlendState());
    assert.deepEqual([view.two.subjectCorrect, view.two.complementCorrect], [16, 16]);
    assert.ok(view.one.subjectCorrect + view.one.complementCorrect <= 20);
  } finally {
    blend.dispose();
  }
});

test('the description says the core trained the heads at build time, on what, with which seed and how well', () => {
  const text = data.description;
  assert.match(text, /the core trained them at build time/);
  assert.match(text, /Task: sentences from a tiny English grammar/);
  assert.match(text, /Seed \d+, [\d,]+ steps/);
  assert.match(text, /held-out sentences: each head's strongest weight falls on its target word in [\d.]+% \/ [\d.]+% \/ [\d.]+% \/ [\d.]+%/);
  assert.match(data.headsNote, /it needs subject and clause code/);
});

test('the committed world is what node scripts/train-world.mjs writes now (the trainer is deterministic)', () => {
  assert.ok(existsSync(TRAINER_PATH), `${TRAINER_PATH} is missing: npm test's native build makes it, or node scripts/train-world.mjs`);
  const text = trainedWorldText(runTrainer());
  assert.equal(readFileSync(TRAINED_WORLD_PATH, 'utf8'), text, 'run node scripts/train-world.mjs and commit the world');
});
