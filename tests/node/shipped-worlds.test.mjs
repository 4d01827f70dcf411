// The worlds shipped beside the lesson's (lessons/multiple-heads/worlds/) run by the core:
// each can show what every widget teaches (no widget says it cannot), and each shows the
// blend's lesson as the lesson's world does: with a head per job the reader gets who and
// what right in every sentence variant; with the two finders merged into one head it cannot.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { loadTestEngine } from './load-engine.mjs';
import { createWorldModel, headsAt } from '../../web/widgets/shared/world.js';
import { buildCheckedWorld as buildWorld } from '../../web/widgets/shared/world-check.js';
import { WorldReader } from '../../web/widgets/shared/world-reader.js';
import { blendWorldNeeds, ONE_HEAD_SPLIT, TWO_HEADS_SPLIT } from '../../web/widgets/blend/blend-model.js';
import { headsQuestionsWorldNeeds } from '../../web/widgets/heads-questions/heads-questions-model.js';
import { woMixingConfig, woMixingWorldNeeds, worldWoMixingData } from '../../web/widgets/wo-mixing/wo-mixing-model.js';
import { splitConfig } from '../../web/widgets/head-splitting/head-splitting-model.js';
import { messagesFor } from '../../web/widgets/shared/i18n.js';

const engine = await loadTestEngine();
const folder = new URL('../../lessons/multiple-heads/worlds/', import.meta.url);
const worlds = readdirSync(folder).filter((name) => name.endsWith('.json'))
  .map((name) => [name, buildWorld(JSON.parse(readFileSync(new URL(name, folder), 'utf8')))]);
const argmax = (values) => values.indexOf(Math.max(...values));

test('a German world with a sentence of its own ships', () => {
  const german = worlds.find(([, w]) => w.language === 'de');
  assert.ok(german, 'a world with language "de"');
  const [, w] = german;
  assert.notEqual(w.data.sentence, 'The researcher who wrote the paper said it was wrong.');
  assert.ok(w.heads.every((head) => !head.lesson), 'its heads are its own, not the lesson\'s translated');
});

for (const [name, w] of worlds) {
  test(`${name}: every widget can show its lesson with it`, () => {
    assert.equal(blendWorldNeeds(w), null);
    assert.equal(headsQuestionsWorldNeeds(w), null);
    assert.equal(woMixingWorldNeeds(w), null);
    const config = woMixingConfig(worldWoMixingData(w), w);
    assert.equal(config.presets.length, 3);
    assert.ok(splitConfig({}, w).world === w);
  });

  test(`${name}: the reader answers both questions with a head per job, not with one head for both`, () => {
    const reader = new WorldReader(engine, w);
    try {
      const two = reader.read(TWO_HEADS_SPLIT);
      assert.equal(two.subjectCorrect, two.total, 'who, with a head of its own');
      assert.equal(two.complementCorrect, two.total, 'what, with a head of its own');
      const one = reader.read(ONE_HEAD_SPLIT);
      assert.ok(one.subjectCorrect + one.complementCorrect < 2 * one.total, 'one head for both jobs gets some wrong');
    } finally {
      reader.dispose();
    }
  });

  test(`${name}: at the query word, the subject and complement heads look at the subject and the complement`, () => {
    const model = createWorldModel(engine, w, w.numHeads);
    try {
      const out = model.forward(w.x, { perHeadContributions: false });
      const look = (head) => argmax(Array.from(out.heads[head].weights.row(w.queryIndex)));
      assert.equal(look(w.reader.subjectHead), w.subjectIndex);
      assert.equal(look(w.reader.complementHead), w.complementIndex);
      assert.equal(headsAt(w, ONE_HEAD_SPLIT).length, ONE_HEAD_SPLIT);
    } finally {
      model.delete();
    }
  });
}

// A world that cannot show what a widget teaches is told so in the widget's language, each
// reason naming the field to change: every reason of the three widgets, in English and German.
test('what a world lacks is said in the widget\'s language, naming the field', () => {
  const lesson = worlds[0][1];
  const without = (change) => buildWorld(change(structuredClone(lesson.data)));
  const cases = [
    [blendWorldNeeds, without((d) => { delete d.reader; return d; }), /"reader"/, /„reader“/],
    [blendWorldNeeds, without((d) => ({ ...d, headCounts: [1, 4] })), /add 2 to "headCounts"/, /nimm 2 in „headCounts“/],
    [blendWorldNeeds, without((d) => ({ ...d, reader: { ...d.reader, complementHead: d.reader.subjectHead } })), /subjectHead and complementHead/, /subjectHead und complementHead/],
    [woMixingWorldNeeds, without((d) => ({ ...d, headCounts: [1, 2] })), /add 4 to "headCounts"/, /Nimm 4 in „headCounts“/],
  ];
  for (const [needs, w, english, german] of cases) {
    assert.match(needs(w), english);
    assert.match(needs(w, messagesFor('en')), english);
    assert.match(needs(w, messagesFor('de')), german);
  }
  const oneHead = { numHeads: 1, heads: [lesson.heads[0]] };
  assert.match(headsQuestionsWorldNeeds(oneHead, messagesFor('de')), /mindestens zwei Köpfe/);
});
