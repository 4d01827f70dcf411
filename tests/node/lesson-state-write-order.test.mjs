// When the address is written (web/widgets/shared/lesson-state.js, issue 25): a task's first
// write at once (the widget writes before it redraws, so Chromium's layout inside
// replaceState finds nothing new to lay out), the task's later writes together once at its
// end, and the next task's first write at once again. Tested with a stand-in location and
// history, since the module reads the globals only when it writes.
import assert from 'node:assert/strict';
import { test } from 'node:test';

const calls = [];
globalThis.location = { href: 'https://example.org/lesson.html?id=12#mixing' };
globalThis.history = {
  state: null,
  replaceState(state, title, url) {
    calls.push(String(url));
    globalThis.location.href = new URL(url, globalThis.location.href).href;
  },
};
const { writeLessonState, readLessonState } = await import('../../web/widgets/shared/lesson-state.js');
const inAddress = () => readLessonState(globalThis.location.href).entries;
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

test('a task\u2019s first write goes in at once, its later ones together at its end, the next task\u2019s first at once', async () => {
  writeLessonState('blend', { budget: 1 });
  assert.equal(calls.length, 1, 'written at once');
  assert.deepEqual(inAddress().blend, { budget: 1 });
  writeLessonState('split', { L: 8 });
  writeLessonState('blend', { budget: 2 });
  assert.equal(calls.length, 1, 'the later writes wait for the end of the task');
  await Promise.resolve();
  assert.equal(calls.length, 2, 'and are written once, together');
  assert.deepEqual(inAddress(), Object.assign(Object.create(null), { blend: { budget: 2 }, split: { L: 8 } }));
  await nextTask();
  assert.equal(calls.length, 2, 'nothing more to write');
  writeLessonState('split', { L: 9 });
  assert.equal(calls.length, 3, 'the next task\u2019s first write goes in at once');
  assert.deepEqual(inAddress().split, { L: 9 });
  assert.ok(globalThis.location.href.startsWith('https://example.org/lesson.html?id=12&') && globalThis.location.href.endsWith('#mixing'), 'the host\u2019s parameter and the anchor kept');
  await nextTask();
  assert.equal(calls.length, 3, 'a write alone in its task is written once');
});
