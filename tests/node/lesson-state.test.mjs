// The URL-hash state reader (web/widgets/shared/lesson-state.js): keys are plain keys, even
// those an object inherits ('constructor', 'toString', '__proto__'); issue 11, item 8.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readLessonState } from '../../web/widgets/shared/lesson-state.js';

const INHERITED = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'];

describe('lesson state', () => {
  test('a hash without a key holds neither an entry nor an error for it, even an inherited name', () => {
    const { entries, errors } = readLessonState('#blend=%7B%7D');
    for (const key of INHERITED) {
      assert.equal(key in entries, false, `${key} in entries`);
      assert.equal(key in errors, false, `${key} in errors`);
    }
    assert.deepEqual(Object.keys(entries), ['blend']);
  });

  test('inherited names are ordinary keys: their entries are read, and nothing is polluted', () => {
    const hash = '#' + INHERITED.map((key, i) => `${key}=${encodeURIComponent(JSON.stringify({ n: i }))}`).join('&');
    const { entries, errors } = readLessonState(hash);
    INHERITED.forEach((key, i) => assert.deepEqual(entries[key], { n: i }, key));
    assert.equal(Object.getPrototypeOf(entries), null);
    assert.deepEqual(Object.keys(errors), []);
    assert.equal({}.n, undefined, 'Object.prototype untouched');
    assert.equal(readLessonState('#toString=nope').errors.toString, 'The link’s state for this widget is not valid JSON.');
  });

  test('keys: letters, digits, _ and -, up to 32, not starting with a digit or -', () => {
    const keys = (hash) => Object.keys(readLessonState(hash).entries);
    assert.deepEqual(keys('#a=1&Blend_2=1&heads-questions=1'), ['a', 'Blend_2', 'heads-questions']);
    assert.deepEqual(keys(`#1a=1&-a=1&a.b=1&${'a'.repeat(33)}=1&%3Cb%3E=1`), []);
  });
});
