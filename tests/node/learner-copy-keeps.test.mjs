// Whatever the page writes into the learner's copy, it reads back (issue 26): the three
// ordinary actions that once lost the whole copy on reload, a saved copy with one bad part
// (left out alone, named, the rest kept), and a property test: 1,000 random sequences of
// learner actions, each action followed by a reload and by export -> import into a fresh
// profile, must show exactly what was there before.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LearnerCopy, MAX_ATTEMPTS, MAX_FILE_BYTES, STORAGE_KEY, UNREADABLE_KEY } from '../../web/widgets/shared/learner-copy.js';
import { COPY_OPTIONS, PROBLEM_SHAPES, WIDGET_SANITIZERS, WIDGET_STARTS } from '../../web/widgets/practice/widget-states.js';
import { WIDGET_TAGS } from '../../web/widgets/registry.js';
import { fakeStorage, newCopy } from './malformed-copies.mjs';
import { generator } from '../../web/widgets/practice/practice-data.js';

// The page opened again: a new copy read from the same storage.
const reload = (storage) => newCopy(storage);

function assertReadsBack(copy, storage) {
  copy.flush();
  const text = copy.exportText();
  assert.ok(text.length <= MAX_FILE_BYTES, `copy of ${text.length} characters`);
  const again = reload(storage);
  assert.equal(again.notice, null, 'a reload reads the whole copy');
  assert.equal(again.exportText(), text, 'a reload shows what was there');
  const fresh = newCopy();
  assert.deepEqual(fresh.importText(text), { ok: true }, 'the page takes its own export');
  assert.equal(fresh.exportText(), text);
}

test('every widget of the registry has a state check in the copy (training included)', () => {
  assert.deepEqual(Object.keys(WIDGET_SANITIZERS).sort(), [...WIDGET_TAGS].sort());
});

test('one edit in the training widget, then reload and export -> import: nothing lost', () => {
  const storage = fakeStorage();
  const copy = newCopy(storage);
  copy.recordAttempt('blend-why', { option: 'many-to-one' }, true);
  copy.setWidgetState('training', 'mha-training', { task: 'back-and-first', heads: 2, seed: 1, off: [] });
  assertReadsBack(copy, storage);
  assert.deepEqual(reload(storage).widgetState('training', 'mha-training'), { task: 'back-and-first', heads: 2, seed: 1, off: [] });
});

test('an answer with 70 spaces after it, or a tab and 64 spaces before it, is kept trimmed', () => {
  const storage = fakeStorage();
  const copy = newCopy(storage);
  copy.recordAttempt('dk-768', { text: `64${' '.repeat(70)}` }, true);
  copy.recordAttempt('rank-bound', { text: `\t${' '.repeat(64)}64` }, false);
  copy.recordAttempt('score-ratio', { text: '9'.repeat(200) }, false);
  assertReadsBack(copy, storage);
  const again = reload(storage);
  assert.equal(again.lastAnswer('dk-768').answer.text, '64');
  assert.equal(again.lastAnswer('rank-bound').answer.text, '64');
  assert.equal(again.lastAnswer('score-ratio').answer.text.length, 64);
});

test('“Check my widget” 100 times on every widget task: the copy stays small and reads back', () => {
  const storage = fakeStorage();
  const copy = newCopy(storage);
  const tasks = Object.entries(PROBLEM_SHAPES).filter(([, p]) => p.kind === 'widget');
  for (const [id, problem] of tasks) {
    for (let k = 0; k < 100; k++) copy.recordAttempt(id, { claim: k % 2 ? 'done' : 'impossible', state: WIDGET_STARTS[problem.widget]() }, k === 50, k);
  }
  assertReadsBack(copy, storage);
  const again = reload(storage);
  for (const [id] of tasks) {
    assert.equal(again.attemptCount(id), 100, 'every check is counted');
    assert.equal(again.record(id).attempts.length, MAX_ATTEMPTS, 'the last few are kept');
    assert.equal(again.solved(id), true, 'a right answer among the dropped attempts still counts');
  }
  assert.ok(copy.exportText().length < MAX_FILE_BYTES / 8, `${copy.exportText().length} characters`);
});

test('a saved copy with bad parts: those parts alone are left out and named, the rest kept, the text kept aside', () => {
  const good = newCopy();
  good.recordAttempt('blend-why', { option: 'many-to-one' }, true, 5);
  good.setWidgetState('layer', 'mha-layer', { h: 2, token: 6, head: 0 });
  good.flush();
  const json = JSON.parse(good.exportText());
  json.widgets.other = { tag: 'mha-unknown', state: {} };
  json.answers['no-such-problem'] = { attempts: [] };
  json.answers['dk-768'] = { attempts: [{ answer: { text: 'x'.repeat(90) }, correct: false, at: 1 }] };
  const text = JSON.stringify(json);
  const storage = fakeStorage({ [STORAGE_KEY]: text });
  const copy = newCopy(storage);
  assert.equal(copy.solved('blend-why'), true);
  assert.deepEqual(copy.widgetState('layer', 'mha-layer'), { h: 2, token: 6, head: 0 });
  assert.equal(copy.dropped.length, 3);
  assert.match(copy.notice, /^3 parts of your saved copy could not be read and were left out/);
  // Named as the learner knows them, not by the file's field names.
  assert.match(copy.notice, /your state of the widget “other” \(tag: not a widget of this lesson\)/);
  assert.match(copy.notice, /your answers to the practice problem “no-such-problem” \(no such problem in this lesson\)/);
  assert.match(copy.notice, /your answers to the practice problem “dk-768” \(attempt 1, text: expected text of at most 64 characters\)/);
  assert.doesNotMatch(copy.notice, /widgets “|answers “/);
  assert.equal(storage.map.get(UNREADABLE_KEY), text, 'the copy as it was is kept aside');
  // An import stays strict: a file with a bad part changes nothing and says why.
  assert.equal(newCopy().importText(text).ok, false);
});

test('a copy written before attempts were bounded (up to 100 attempts, no count) reads back', () => {
  const attempts = Array.from({ length: 100 }, (_, k) => ({ answer: { text: String(k) }, correct: k === 3, at: k }));
  const old = { format: 'multiple-heads-learner-copy', version: 1, lesson: 'multiple-heads', seed: 7, answers: { 'dk-768': { attempts } }, widgets: {} };
  const copy = newCopy(fakeStorage({ [STORAGE_KEY]: JSON.stringify(old) }));
  assert.equal(copy.notice, null);
  assert.equal(copy.attemptCount('dk-768'), 100);
  assert.equal(copy.solved('dk-768'), true);
  assert.equal(copy.lastAnswer('dk-768').answer.text, '99');
});

// ---- the property test ------------------------------------------------------------------

const KEYS = { 'mha-layer': 'layer', 'mha-blend': 'blend', 'mha-head-splitting': 'head-splitting', 'mha-wo-mixing': 'wo-mixing', 'mha-heads-questions': 'heads-questions', 'mha-training': 'training' };

// A state a widget could emit: its start, or a variation its own check accepts (what the
// widget itself would commit; a variation it refuses is not something the page writes).
function widgetState(rand, tag) {
  const start = tag === 'mha-training' ? { task: 'back-and-first', heads: 1, seed: 1, off: [] } : WIDGET_STARTS[tag]();
  const variant = structuredClone(start);
  for (const key of Object.keys(variant)) {
    if (rand() < 0.5) continue;
    const v = variant[key];
    if (typeof v === 'number') variant[key] = Number.isInteger(v) ? Math.floor(rand() * 8) : rand() * 2 - 1;
    else if (Array.isArray(v) && v.every((x) => typeof x === 'number')) variant[key] = v.map((x) => (rand() < 0.3 ? Math.round((rand() * 4 - 2) * 100) / 100 : x));
    else if (typeof v === 'boolean') variant[key] = !v;
  }
  try {
    return WIDGET_SANITIZERS[tag](variant);
  } catch {
    return start;
  }
}

const TEXTS = ['64', ' 64 ', '\t0,5\n', '', '   ', '1e999', 'NaN', '<img src=x>', 'ä😀'.repeat(40), '9'.repeat(100), '-3.25'];
const pickFrom = (rand, list) => list[Math.floor(rand() * list.length)];

function action(rand, copy, storage) {
  const ids = Object.keys(PROBLEM_SHAPES);
  const roll = rand();
  if (roll < 0.35) {
    const tag = pickFrom(rand, WIDGET_TAGS);
    copy.setWidgetState(KEYS[tag], tag, widgetState(rand, tag));
  } else if (roll < 0.8) {
    const id = pickFrom(rand, ids);
    const p = PROBLEM_SHAPES[id];
    const answer = p.kind === 'number' ? { text: rand() < 0.7 ? pickFrom(rand, TEXTS) : ' '.repeat(Math.floor(rand() * 90)) + pickFrom(rand, TEXTS) }
      : p.kind === 'widget' ? { claim: rand() < 0.5 ? 'done' : 'impossible', state: widgetState(rand, p.widget) }
        : { option: pickFrom(rand, p.options) };
    const times = rand() < 0.1 ? 30 : 1;
    for (let k = 0; k < times; k++) copy.recordAttempt(id, answer, rand() < 0.3, Math.floor(rand() * 1e12));
  } else if (roll < 0.88) {
    const other = newCopy();
    for (let k = 0; k < 3; k++) action(rand, other, null);
    assert.deepEqual(copy.importText(other.exportText()), { ok: true });
  } else if (roll < 0.93) {
    copy.undoImport();
  } else if (roll < 0.97) {
    copy.startOver();
  } else if (storage) {
    // The learner reloads: the page's copy is the one read from storage.
    return reload(storage);
  }
  return copy;
}

test('property: 1,000 random sequences of learner actions, each followed by reload and by export -> import', () => {
  let actions = 0;
  for (let seed = 1; seed <= 1000; seed++) {
    const rand = generator(seed);
    const storage = fakeStorage();
    let copy = newCopy(storage);
    const length = 1 + Math.floor(rand() * 12);
    for (let k = 0; k < length; k++) {
      copy = action(rand, copy, storage);
      actions++;
      try {
        assertReadsBack(copy, storage);
      } catch (error) {
        error.message = `sequence ${seed}, action ${k + 1}: ${error.message}`;
        throw error;
      }
    }
  }
  assert.ok(actions > 5000, `${actions} actions`);
});

test('a copy made in a page that may not keep data still exports and imports whole', () => {
  const copy = new LearnerCopy({ storage: fakeStorage(), persistent: false, ...COPY_OPTIONS });
  copy.setWidgetState('training', 'mha-training', { task: 'previous-token', heads: 4, seed: 9, off: [1, 3] });
  const fresh = newCopy();
  assert.deepEqual(fresh.importText(copy.exportText()), { ok: true });
  assert.deepEqual(fresh.widgetState('training', 'mha-training'), { task: 'previous-token', heads: 4, seed: 9, off: [1, 3] });
});

test('the copy kept aside is offered for download only while the notice says one was kept aside', () => {
  const fresh = newCopy(fakeStorage());
  assert.equal(fresh.asideText(), null);
  const storage = fakeStorage({ [STORAGE_KEY]: '{"not": "a copy"' });
  const copy = newCopy(storage);
  assert.equal(copy.asideText(), '{"not": "a copy"');
});

test('a second copy that cannot be read does not overwrite the first kept aside', () => {
  const storage = fakeStorage({ [STORAGE_KEY]: '{"first": ' });
  assert.deepEqual(newCopy(storage).asideTexts(), ['{"first": ']);
  // The same text again (every reload until the learner's next change) is kept once.
  assert.deepEqual(newCopy(storage).asideTexts(), ['{"first": ']);
  storage.setItem(STORAGE_KEY, '{"second": ');
  assert.deepEqual(newCopy(storage).asideTexts(), ['{"second": ', '{"first": ']);
  for (const k of [3, 4, 5]) {
    storage.setItem(STORAGE_KEY, `{"copy ${k}": `);
    newCopy(storage);
  }
  assert.deepEqual(newCopy(storage).asideTexts(), ['{"copy 5": ', '{"copy 4": ', '{"copy 3": '], 'the newest three');
});

// Two tabs of the lesson on one device: one storage, and a 'storage' event in every other
// tab when one writes (as browsers do; the writing tab gets none).
function twoTabs() {
  const storage = fakeStorage();
  const tabs = [new EventTarget(), new EventTarget()];
  const setItem = storage.setItem;
  let writer = null;
  storage.setItem = (key, value) => {
    setItem(key, value);
    for (const tab of tabs) {
      if (tab === writer) continue;
      const event = new Event('storage');
      Object.assign(event, { key, newValue: String(value), storageArea: storage });
      tab.dispatchEvent(event);
    }
  };
  const copies = tabs.map((events) => new LearnerCopy({ storage, persistent: true, ...COPY_OPTIONS, events }));
  // Each copy writes as its own tab.
  const as = (k, act) => { writer = tabs[k]; try { act(copies[k]); } finally { writer = null; } };
  return { storage, copies, as };
}

test('two open tabs: neither writes back a copy that lacks the other tab\'s work', () => {
  const { storage, copies, as } = twoTabs();
  as(0, (copy) => copy.recordAttempt('blend-why', { option: 'many-to-one' }, true, 1));
  as(1, (copy) => copy.recordAttempt('dk-768', { text: '16' }, false, 2));
  as(0, (copy) => { copy.setWidgetState('layer', 'mha-layer', { h: 2, token: 6, head: 0 }); copy.flush(); });
  as(1, (copy) => { copy.setWidgetState('blend', 'mha-blend', { budget: [0, 0.6, 0, 0, 0, 0, 0, 0.4, 0, 0, 0] }); copy.flush(); });
  const again = newCopy(storage);
  assert.equal(again.solved('blend-why'), true, 'the first tab\'s answer');
  assert.equal(again.attemptCount('dk-768'), 1, 'the second tab\'s answer');
  assert.deepEqual(again.widgetState('layer', 'mha-layer'), { h: 2, token: 6, head: 0 });
  assert.deepEqual(again.widgetState('blend', 'mha-blend'), { budget: [0, 0.6, 0, 0, 0, 0, 0, 0.4, 0, 0, 0] });
  // A widget edit not yet written in one tab survives the other tab's write.
  as(0, (copy) => copy.setWidgetState('layer', 'mha-layer', { h: 4, token: 6, head: 1 }));
  as(1, (copy) => copy.recordAttempt('dk-768', { text: '768' }, true, 3));
  as(0, (copy) => copy.flush());
  const last = newCopy(storage);
  assert.deepEqual(last.widgetState('layer', 'mha-layer'), { h: 4, token: 6, head: 1 });
  assert.equal(last.attemptCount('dk-768'), 2);
  // Start over in one tab is start over in both.
  let rebuilt = 0;
  copies[0].addEventListener('replaced', () => { rebuilt += 1; });
  as(1, (copy) => copy.startOver());
  assert.equal(copies[0].attemptCount('dk-768'), 0);
  assert.equal(rebuilt, 1, 'the other tab\'s practice views are rebuilt');
  as(0, (copy) => copy.recordAttempt('blend-why', { option: 'uniform' }, false, 4));
  assert.equal(newCopy(storage).attemptCount('dk-768'), 0, 'the cleared answers stay cleared');
  for (const copy of copies) copy.close();
});
