// The lesson's prose states a few facts about the one world in words and numbers. Each is
// checked here against the world data and the core, next to the sentence that states it, so
// prose and mathematics cannot drift apart.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadTestEngine } from './load-engine.mjs';
import { THE_WORLD as w, createWorldModel, headsAt } from '../../web/widgets/shared/world.js';
import { WorldReader } from '../../web/widgets/shared/world-reader.js';

const engine = await loadTestEngine();
const prose = readFileSync(new URL('../../lessons/multiple-heads/lesson.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
const says = (text) => assert.ok(prose.includes(text), `the lesson no longer says “${text}”`);

test('“described by 12 numbers … three numbers for its meaning … d_model = 12 … four heads of width 3”', () => {
  says('Each word is described by 12 numbers');
  says('three numbers for its meaning');
  says('$d_{\\text{model}} = 12$');
  says('four heads of width 3');
  assert.equal(w.dModel, 12);
  assert.equal(w.meaningColumns.length, 3);
  const model = createWorldModel(engine, w, 4);
  assert.equal(model.config.dModel, 12);
  assert.equal(model.config.numHeads, 4);
  assert.equal(model.config.dK, 3);
  model.delete();
  says(w.data.sentence);
  for (const head of w.heads) says(`head-chip head-${head.id}">${head.name}</span>`);
});

test('“two heads of width 3 … one head of width 6 that holds both”', () => {
  says('two heads of width 3');
  says('one head of width 6 that holds both');
  const [both] = headsAt(w, 2);
  assert.equal(both.end - both.start, 6);
  assert.deepEqual(both.members.map((m) => m.id), ['subject', 'complement']);
});

test('“sixteen versions … four different subjects and four different complements … right every time … wrong word for many sentences”', () => {
  says('for sixteen versions of the sentence, with four different subjects and four different complements');
  says('With a head per question it is right every time');
  says('sends it to the wrong word for many sentences');
  assert.equal(w.reader.subjects.length, 4);
  assert.equal(w.reader.complements.length, 4);
  const reader = new WorldReader(engine, w);
  try {
    const two = reader.read(4);
    assert.equal(two.total, 16);
    assert.equal(two.subjectCorrect + two.complementCorrect, 32);
    const one = reader.read(2);
    assert.ok(one.subjectCorrect <= 12 && one.complementCorrect <= 12);
  } finally {
    reader.dispose();
  }
});

test('“no head has more non-zero singular values than its width, and a hand-built head often uses fewer”', () => {
  says('no head has more non-zero singular values than its width, and a hand-built head often uses fewer');
  let fewer = 0;
  for (const h of w.headCounts) {
    const model = createWorldModel(engine, w, h);
    for (let head = 0; head < h; head++) {
      const values = Array.from(model.similaritySingularValues(head));
      const rank = values.filter((v) => v > 1e-6 * values[0]).length;
      assert.ok(rank <= model.config.dK, `h = ${h}, head ${head}: rank ${rank} > d_k ${model.config.dK}`);
      if (rank < model.config.dK) fewer++;
    }
    model.delete();
  }
  assert.ok(fewer >= 2, `only ${fewer} heads use fewer dimensions than their width`);
});

test('“the previous-word head compares only two position numbers, the gist head asks a single question … the rank does not grow”', () => {
  says('The previous-word head compares only two position numbers, and the gist head asks a single question.');
  says('Merge the subject and complement finders into one head of width 6 and the rank does not grow');
  const rank = (h, head) => {
    const model = createWorldModel(engine, w, h);
    try {
      return model.similarityRank(head);
    } finally {
      model.delete();
    }
  };
  const index = (id) => w.heads.findIndex((head) => head.id === id);
  assert.equal(rank(4, index('previous')), 2);
  assert.equal(rank(4, index('gist')), 1);
  assert.equal(rank(2, 0), rank(4, index('subject')));
  assert.equal(rank(4, index('subject')), rank(4, index('complement')));
});
