// The learner's own copy (web/widgets/shared/learner-copy.js): answers, attempts and widget
// states kept in storage or, where the page may not keep data, in memory with a notice;
// export then import gives the same copy back; every malformed file (60 of them here) is
// refused with a message and changes nothing; start over keeps the learner's order.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LearnerCopy, MAX_ATTEMPTS, STORAGE_KEY, UNREADABLE_KEY, emptyCopy, openStorage, parseCopyText } from '../../web/widgets/shared/learner-copy.js';
import { COPY_OPTIONS } from '../../web/widgets/practice/widget-states.js';
import { filledCopy, malformedFiles, newCopy, fakeStorage } from './malformed-copies.mjs';

test('answers, attempts and widget states are kept in storage and read back by a new page', () => {
  const storage = fakeStorage();
  const copy = newCopy(storage);
  copy.recordAttempt('blend-why', { option: 'uniform' }, false);
  copy.recordAttempt('blend-why', { option: 'many-to-one' }, true);
  const written = storage.map.get(STORAGE_KEY);
  copy.setWidgetState('blend', 'mha-blend', { budget: null });
  // Widget states (a drag changes them every frame) are written together, a moment later.
  assert.equal(storage.map.get(STORAGE_KEY), written);
  copy.flush();
  assert.notEqual(storage.map.get(STORAGE_KEY), written);
  const again = newCopy(storage);
  assert.equal(again.record('blend-why').attempts.length, 2);
  assert.deepEqual(again.lastAnswer('blend-why').answer, { option: 'many-to-one' });
  assert.equal(again.solved('blend-why'), true);
  assert.deepEqual(again.widgetState('blend', 'mha-blend'), { budget: null });
  assert.equal(again.widgetState('blend', 'mha-layer'), null, 'a state is only given to its own kind of widget');
  assert.equal(again.seed, copy.seed, 'the learner keeps their order of options');
  assert.deepEqual(again.progress(['blend-why', 'dk-768']), { done: 1, total: 2, left: ['dk-768'] });
  assert.equal(again.notice, null);
});

test('storage the page may not use: the copy lives in memory and says so', () => {
  const throwing = { get localStorage() { throw new Error('SecurityError: sandboxed'); } };
  const opened = openStorage(throwing);
  assert.equal(opened.persistent, false);
  const copy = new LearnerCopy({ ...opened, ...COPY_OPTIONS });
  assert.match(copy.notice, /only until you leave the page/);
  copy.recordAttempt('blend-why', { option: 'uniform' }, false);
  assert.equal(copy.record('blend-why').attempts.length, 1);
  // Storage that accepts nothing (quota): the same, found by the probe write.
  const full = { localStorage: { setItem() { throw new Error('QuotaExceededError'); }, getItem: () => null, removeItem() {} } };
  assert.equal(openStorage(full).persistent, false);
  // Storage that fills up later: the copy moves to memory, keeps the answer, and says so.
  const later = fakeStorage();
  const copy2 = newCopy(later);
  later.setItem = () => { throw new Error('QuotaExceededError'); };
  copy2.recordAttempt('dk-768', { text: '64' }, true);
  assert.equal(copy2.solved('dk-768'), true);
  assert.equal(copy2.persistent, false);
  assert.match(copy2.notice, /refused to store more/);
});

test('an unreadable saved copy is kept aside, never thrown away', () => {
  const storage = fakeStorage({ [STORAGE_KEY]: '{"format": "something else"' });
  const copy = newCopy(storage);
  assert.match(copy.notice, /could not be read/);
  assert.equal(storage.map.get(UNREADABLE_KEY), '{"format": "something else"');
  assert.equal(copy.progress(['blend-why']).done, 0);
});

test('export then import into a fresh copy gives the same copy back', () => {
  const copy = filledCopy();
  const text = copy.exportText();
  const fresh = newCopy();
  assert.deepEqual(fresh.importText(text), { ok: true });
  assert.equal(fresh.exportText(), text);
  assert.equal(fresh.seed, copy.seed);
  assert.deepEqual(fresh.widgetState('layer', 'mha-layer'), { h: 2, token: 6, head: 0 });
  assert.equal(fresh.progress(['blend-why', 'dk-768', 'merged-budget', 'dk-16', 'blend-both-aligned']).done, 4);
  // The copy it replaced can be brought back.
  assert.equal(fresh.canUndoImport, true);
  fresh.undoImport();
  assert.equal(fresh.progress(['blend-why']).done, 0);
});

test('start over clears answers and widget states, keeps the order of options', () => {
  const copy = filledCopy();
  const seed = copy.seed;
  let replaced = 0;
  copy.addEventListener('replaced', () => replaced++);
  copy.startOver();
  assert.equal(copy.record('blend-why'), null);
  assert.equal(copy.widgetState('layer', 'mha-layer'), null);
  assert.equal(copy.seed, seed);
  assert.equal(replaced, 1);
});

test('attempts are capped, the oldest dropped first', () => {
  const copy = newCopy();
  for (let k = 0; k < MAX_ATTEMPTS + 5; k++) copy.recordAttempt('dk-768', { text: String(k) }, false, k);
  const { attempts } = copy.record('dk-768');
  assert.equal(attempts.length, MAX_ATTEMPTS);
  assert.equal(attempts[0].answer.text, '5');
});

test('60 malformed files are refused, each with a message; the copy is unchanged', () => {
  const files = malformedFiles();
  assert.ok(files.length >= 60, `${files.length} files`);
  const copy = filledCopy();
  const before = copy.exportText();
  for (const [text, message] of files) {
    const result = copy.importText(text);
    assert.equal(result.ok, false, text.slice(0, 120));
    assert.match(result.message, message, text.slice(0, 120));
    assert.match(result.message, /^This file/);
    assert.equal(copy.exportText(), before, 'nothing lost');
  }
  assert.equal(copy.canUndoImport, false);
});

test('the parser gives a clean copy with no prototype tricks', () => {
  const parsed = parseCopyText(JSON.stringify({ ...emptyCopy(3), answers: {}, widgets: {} }), COPY_OPTIONS);
  assert.equal(parsed.ok, true);
  assert.equal(Object.getPrototypeOf(parsed.copy.answers), null);
  assert.equal(parseCopyText(42, COPY_OPTIONS).ok, false);
});
