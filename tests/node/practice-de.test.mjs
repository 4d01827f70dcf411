// The German practice text (lessons/multiple-heads/practice.de.json) against the
// English problems (lessons/multiple-heads/practice.json): an entry for every idea and every
// problem and no other; every prose field of every English problem translated at the same
// place (reasons by key, missteps and options by id) and nothing extra; the same
// {placeholders} and the same notation in each German string as in its English one; no
// string empty or left in English; decimals with a comma; and the options of every choose
// and predict problem within 25% of each other's length, measured as the English test
// (practice-checkers.test.mjs) measures them, on the text a reader sees (shownText), with the
// right one (for a prediction, the core's outcome) neither longest nor shortest in more than
// half of them.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, test } from 'node:test';
import { loadTestEngine } from './load-engine.mjs';
import { PracticeCheckers } from '../../web/widgets/practice/checkers.js';
import { shownText } from '../../web/widgets/practice/practice-data.js';
import { parseNotation } from '../../web/ui/notation.js';
import { englishIn, hasDecimalPoint } from './english-words.mjs';

const LESSON = new URL('../../lessons/multiple-heads/', import.meta.url);
const json = (path) => JSON.parse(readFileSync(new URL(path, LESSON), 'utf8'));
const en = json('practice.json');
const de = json('practice.de.json');

// Fields that name things rather than say them (ids, goals, widget tags, outcomes, panels),
// and the fields whose contents are figures and settings, not text.
const NAMES = new Set(['id', 'idea', 'kind', 'widget', 'goal', 'outcome', 'panel']);
const SETTINGS = new Set(['params', 'see', 'answer', 'figures', 'value', 'tolerance', 'impossible', 'correct']);
const IDENTIFIER = /^[a-z][A-Za-z0-9-]*$/;

/**
 * The prose of one English problem, by its place in the German file: "prompt",
 * "reasons.done", "right", "missteps.<id>" (a misstep's reason), "options.<id>.text",
 * "options.<id>.reason". Any string field not known as a name or a setting counts as prose
 * unless it is a bare identifier, so a new prose field in the English needs its German.
 */
function englishProse(problem) {
  const out = new Map();
  const walk = (value, path, key) => {
    if (typeof value === 'string') {
      if (!NAMES.has(key) && !IDENTIFIER.test(value)) out.set(path.join('.'), value);
    } else if (Array.isArray(value)) {
      value.forEach((item, k) => {
        if (item && typeof item === 'object' && typeof item.id === 'string') {
          for (const [field, inner] of Object.entries(item)) {
            if (NAMES.has(field) || SETTINGS.has(field)) continue;
            // A misstep has one prose field, its reason: the German is that string itself.
            const place = key === 'missteps' && field === 'reason' ? [...path, item.id] : [...path, item.id, field];
            walk(inner, place, field);
          }
        } else walk(item, [...path, String(k)], key);
      });
    } else if (value && typeof value === 'object') {
      for (const [field, inner] of Object.entries(value)) {
        if (NAMES.has(field) || SETTINGS.has(field)) continue;
        walk(inner, [...path, field], field);
      }
    }
  };
  walk(problem, [], null);
  return out;
}

/** Every string of a German entry by its place; anything else there is an error. */
function germanStrings(entry, path = [], out = new Map()) {
  for (const [key, value] of Object.entries(entry)) {
    const place = [...path, key];
    if (typeof value === 'string') out.set(place.join('.'), value);
    else if (value && typeof value === 'object' && !Array.isArray(value)) germanStrings(value, place, out);
    else out.set(place.join('.'), value);
  }
  return out;
}

// {name} is a figure the checker fills in; d_{model} is notation, not a placeholder.
const PLACEHOLDER = /(?<![_^])\{([a-zA-Z]+)\}/g;
const placeholders = (text) => [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1]))].sort();
const notationSymbols = (text) => [...new Set(parseNotation(text).filter((p) => typeof p !== 'string')
  .map((p) => `${p.base}${p.sub !== undefined ? `_{${p.sub}}` : ''}${p.sup !== undefined ? `^{${p.sup}}` : ''}`))].sort();
/** The text with placeholders and notation taken out (what is left is words and numbers). */
const plain = (text) => parseNotation(text.replace(PLACEHOLDER, ' ')).filter((p) => typeof p === 'string').join(' ');

const pairs = [];
for (const problem of en.problems) {
  const german = de.problems[problem.id];
  if (!german) continue;
  const wanted = englishProse(problem);
  for (const [place, english] of wanted) {
    const text = germanStrings(german).get(place);
    if (typeof text === 'string') pairs.push({ where: `${problem.id}: ${place}`, english, german: text });
  }
}
for (const idea of en.ideas) {
  if (typeof de.ideas?.[idea.id] === 'string') pairs.push({ where: `idea ${idea.id}`, english: idea.title, german: de.ideas[idea.id] });
}

test('the German file has one entry per idea and per problem, and no other', () => {
  assert.equal(typeof de.about, 'string');
  assert.deepEqual(Object.keys(de).sort(), ['about', 'ideas', 'problems']);
  assert.deepEqual(Object.keys(de.ideas).sort(), en.ideas.map((idea) => idea.id).sort());
  assert.deepEqual(Object.keys(de.problems).sort(), en.problems.map((problem) => problem.id).sort());
});

test('every prose field of every problem has its German at the same place, and nothing extra', () => {
  for (const problem of en.problems) {
    const wanted = [...englishProse(problem).keys()].sort();
    assert.ok(wanted.includes('prompt'), `${problem.id}: a prompt`);
    const got = germanStrings(de.problems[problem.id]);
    assert.deepEqual([...got.keys()].sort(), wanted, `${problem.id}: the German fields`);
    for (const [place, value] of got) assert.equal(typeof value, 'string', `${problem.id}: ${place} is text`);
  }
  // The places the brief names, spelled out for each kind.
  for (const problem of en.problems) {
    const german = de.problems[problem.id];
    if (problem.kind === 'widget') assert.deepEqual(Object.keys(german.reasons).sort(), Object.keys(problem.reasons).sort(), problem.id);
    if (problem.kind === 'number') {
      assert.ok(german.right && german.wrong, problem.id);
      assert.deepEqual(Object.keys(german.missteps ?? {}).sort(), (problem.missteps ?? []).map((m) => m.id).sort(), problem.id);
    }
    if (problem.kind === 'choose' || problem.kind === 'predict') {
      assert.deepEqual(Object.keys(german.options).sort(), problem.options.map((o) => o.id).sort(), problem.id);
      for (const o of problem.options) assert.deepEqual(Object.keys(german.options[o.id]).sort(), ['reason', 'text'], `${problem.id}/${o.id}`);
    }
  }
});

test('each German string has exactly the {placeholders} of its English one', () => {
  assert.ok(pairs.length > 100, `${pairs.length} strings`);
  for (const { where, english, german } of pairs) assert.deepEqual(placeholders(german), placeholders(english), where);
});

test('each German string keeps the notation of its English one (d_{model}, W_Q^i, L^2 …)', () => {
  for (const { where, english, german } of pairs) assert.deepEqual(notationSymbols(german), notationSymbols(english), where);
});

test('no German string is empty, left in English, or opens with a verdict', () => {
  for (const { where, english, german } of pairs) {
    assert.ok(german.trim().length > 0, `${where}: empty`);
    assert.notEqual(german.trim(), english.trim(), `${where}: same as the English`);
    assert.deepEqual(englishIn(plain(german)), [], `${where}: English words in “${german}”`);
    assert.doesNotMatch(german, /^(Richtig|Falsch|Nicht ganz|Leider|Genau|Korrekt)\b/, `${where}: the widget says the verdict`);
    // The example sentence's words stay English, quoted the German way.
    // (The German closing mark “ is the English opening one: count them against „.)
    assert.doesNotMatch(german, /[”"]/, `${where}: German quotation marks „…“`);
    assert.equal((german.match(/„/g) ?? []).length, (german.match(/“/g) ?? []).length, `${where}: every „ closed by “`);
    const tokens = [...english.matchAll(/“([^”]*)”/g)].map((m) => m[1]);
    for (const token of tokens) if (/^[a-z]+$/.test(token)) assert.ok(german.includes(`„${token}“`), `${where}: „${token}“`);
  }
});

test('decimals in the German text are written with a comma', () => {
  for (const { where, english, german } of pairs) {
    assert.ok(!hasDecimalPoint(plain(german)), `${where}: a decimal point in “${german}”`);
    for (const [, whole, fraction] of plain(english).matchAll(/(\d+)\.(\d+)/g)) {
      assert.ok(plain(german).includes(`${whole},${fraction}`), `${where}: ${whole}.${fraction} as ${whole},${fraction}`);
    }
  }
});

let checkers;
before(async () => {
  checkers = new PracticeCheckers(await loadTestEngine());
});

test('the German options of each question stay within 25% of each other’s length, and do not give the right one away', () => {
  const questions = en.problems.filter((p) => p.kind === 'choose' || p.kind === 'predict');
  assert.ok(questions.length > 0);
  let longest = 0;
  let shortest = 0;
  for (const problem of questions) {
    const lengths = problem.options.map((o) => shownText(de.problems[problem.id].options[o.id].text).length);
    assert.ok(Math.max(...lengths) <= 1.25 * Math.min(...lengths), `${problem.id}: lengths ${lengths}`);
    const right = problem.kind === 'choose' ? problem.options.findIndex((o) => o.correct)
      : problem.options.findIndex((o) => o.id === checkers.outcome(problem).option);
    assert.ok(right >= 0, problem.id);
    if (lengths[right] === Math.max(...lengths)) longest++;
    if (lengths[right] === Math.min(...lengths)) shortest++;
  }
  const n = questions.length;
  assert.ok(longest <= Math.ceil(n / 2) && shortest <= Math.ceil(n / 2), `right is longest in ${longest}, shortest in ${shortest} of ${n}`);
});

test('German checkers: every reason a learner can be shown, with the core’s figures, in German', async () => {
  const { messagesFor } = await import('../../web/widgets/shared/i18n.js');
  const { localizedProblem, PROBLEMS } = await import('../../web/widgets/practice/practice-data.js');
  const { WIDGET_STARTS } = await import('../../web/widgets/practice/widget-states.js');
  const german = new PracticeCheckers(checkers.engine, messagesFor('de'));
  const reasons = [];
  try {
    for (const english of PROBLEMS) {
      const problem = localizedProblem(english, 'de');
      if (problem.kind === 'number') {
        reasons.push(german.checkNumber(problem, String(german.evaluate(problem.answer))).reason);
        for (const step of problem.missteps ?? []) reasons.push(german.checkNumber(problem, String(german.evaluate(step.value)).replace('.', ',')).reason);
        reasons.push(german.checkNumber(problem, '123456,5').reason);
      } else if (problem.kind === 'predict') {
        const { figures } = german.outcome(problem);
        for (const option of problem.options) reasons.push(fillReasonText(option.reason, figures));
      } else if (problem.kind === 'widget') {
        const start = WIDGET_STARTS[problem.widget]();
        reasons.push(german.goal(problem, start).reason, german.claimImpossible(problem, start).reason);
      } else reasons.push(...problem.options.map((o) => o.reason));
    }
  } finally {
    german.dispose();
  }
  assert.ok(reasons.length > 40, `${reasons.length} reasons`);
  for (const reason of reasons) {
    assert.ok(!/(?<![_^])\{[a-zA-Z]+\}/.test(reason), `a figure left unfilled: ${reason}`);
    assert.ok(!hasDecimalPoint(reason), `a decimal point: ${reason}`);
    assert.deepEqual(englishIn(plain(reason)), [], reason);
  }
  // The figures themselves are German: a decimal comma and German grouping somewhere.
  assert.ok(reasons.some((r) => /\d,\d/.test(r)), 'decimal commas');
  assert.ok(reasons.some((r) => /\d\.\d{3}/.test(r)), 'counts grouped with points (2.097.152)');
});

const fillReasonText = (template, figures) => template.replace(/\{([a-zA-Z]+)\}/g, (whole, name) => figures[name] ?? whole);
