// The address's state reader and writer (web/widgets/shared/lesson-state.js):
//   * keys are plain keys, even those an object inherits ('constructor', 'toString',
//     '__proto__'); issue 11, item 8 (read here from old-format hashes, which still work);
//   * issue 14, item 4: the state lives in the query (?mha.<key>=), so the #fragment stays a
//     section anchor; old #blend=… links are read and rewritten; a host's own parameters and
//     a hash router's fragment are kept byte for byte; two widgets wanting one key get
//     key, key-2 with a console warning.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { addressWithState, claimStateKey, readLessonState, releaseStateKey } from '../../web/widgets/shared/lesson-state.js';

const json = (value) => encodeURIComponent(JSON.stringify(value));

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

  test('the state is read from ?mha.<key>= and the fragment is the anchor', () => {
    const read = readLessonState(`https://x.org/course/?id=12&mha.blend=${json({ budget: null })}&mha.split=${json({ h: 2 })}#same-arithmetic`);
    assert.deepEqual({ ...read.entries }, { blend: { budget: null }, split: { h: 2 } });
    assert.equal(read.anchor, 'same-arithmetic');
    assert.equal(read.legacy, false);
    // A host's parameter of the same name without the prefix is not ours.
    assert.deepEqual(Object.keys(readLessonState('?blend=1&id=2').entries), []);
    assert.equal(readLessonState('#na%C3%AFve-bayes').anchor, 'naïve-bayes');
    assert.equal(readLessonState('?mha.blend=%7B').errors.blend, 'The link’s state for this widget is not valid JSON.');
    assert.equal(readLessonState('?mha.blend=%E0%A4%A').errors.blend, 'The link’s state for this widget is not valid JSON.');
    assert.match(readLessonState(`?mha.blend=${'9'.repeat(30000)}`).errors['*'], /too long/);
  });

  test('each problem is also given as a message key with its parameters, said in any language', async () => {
    const { messagesFor } = await import('../../web/widgets/shared/i18n.js');
    const { linkProblemIn } = await import('../../web/widgets/shared/lesson-state.js');
    const bad = readLessonState('?mha.blend=%7B&mha.toString=nope');
    assert.deepEqual({ ...bad.problems.blend }, { message: 'notJson', params: {} });
    assert.equal(Object.getPrototypeOf(bad.problems), null);
    assert.equal(linkProblemIn(bad.problems.toString, messagesFor('en')), bad.errors.toString);
    const long = readLessonState(`?mha.blend=${'9'.repeat(30000)}`);
    assert.equal(long.problems['*'].message, 'tooLong');
    assert.equal(linkProblemIn(long.problems['*'], messagesFor('en')), long.errors['*']);
    // The German text differs from the English one and names the same length.
    const german = linkProblemIn(long.problems['*'], messagesFor('de'));
    assert.notEqual(german, long.errors['*']);
    assert.match(german, /30\.010/);
    // A key read again from a newer writer's query loses the older problem with it.
    assert.deepEqual(Object.keys(readLessonState(`#blend=nope&x=1?`).problems), ['blend', 'x']);
    assert.deepEqual(Object.keys(readLessonState(`?mha.blend=${json({})}#blend=nope`).problems), []);
  });

  test('old links: #key=<JSON> and #section=&key=<JSON> are read, with the section as anchor', () => {
    const plain = readLessonState(`#blend=${json({ budget: null })}`);
    assert.deepEqual({ ...plain.entries }, { blend: { budget: null } });
    assert.equal(plain.anchor, '');
    assert.equal(plain.legacy, true);
    const withAnchor = readLessonState(`#heads-ask-different-questions=&blend=${json({ budget: null })}`);
    assert.deepEqual({ ...withAnchor.entries }, { blend: { budget: null } });
    assert.equal(withAnchor.anchor, 'heads-ask-different-questions');
    // A hash router's fragment is not state: every part must be a key=value entry.
    const router = readLessonState('#/lesson/3?tab=2');
    assert.deepEqual(Object.keys(router.entries), []);
    assert.equal(router.legacy, false);
    assert.equal(router.anchor, '/lesson/3?tab=2');
  });

  test('writing keeps the host’s parameters and the anchor byte for byte, and upgrades old hashes', () => {
    const states = (pairs) => new Map(pairs);
    assert.equal(addressWithState('https://x.org/p?id=12&print&q=a+b%20c#sec', states([['blend', { budget: null }]])),
      `https://x.org/p?id=12&print&q=a+b%20c&mha.blend=${json({ budget: null })}#sec`);
    // Replacing and removing one key leaves the others.
    const two = `https://x.org/p?mha.blend=1&id=3&mha.split=2#sec`;
    assert.equal(addressWithState(two, states([['blend', 5]])), 'https://x.org/p?id=3&mha.blend=5&mha.split=2#sec');
    assert.equal(addressWithState(two, states([['blend', undefined], ['split', undefined]])), 'https://x.org/p?id=3#sec');
    // An old link becomes the new form, its section kept as the anchor.
    assert.equal(addressWithState(`https://x.org/p#heads=&blend=${json({ budget: null })}`, states([])),
      `https://x.org/p?mha.blend=${json({ budget: null })}#heads`);
    assert.equal(addressWithState(`https://x.org/p#blend=${json(1)}`, states([['split', 2]])), 'https://x.org/p?mha.blend=1&mha.split=2');
    // A fragment that is not ours is never touched: a router's, or a host page's own
    // key=value hash whose keys are no widget's on the page (isOurs).
    assert.equal(addressWithState('https://x.org/p#/route?x=1', states([['split', 2]])), 'https://x.org/p?mha.split=2#/route?x=1');
    const ours = (key) => ['blend', 'split'].includes(key);
    assert.equal(addressWithState('https://x.org/p#tab=2', states([['split', 2]]), ours), 'https://x.org/p?mha.split=2#tab=2');
    assert.equal(addressWithState(`https://x.org/p#tab=2&blend=${json(1)}`, states([]), ours), `https://x.org/p#tab=2&blend=${json(1)}`);
    assert.equal(addressWithState(`https://x.org/p#sec=&blend=${json(1)}`, states([]), ours), 'https://x.org/p?mha.blend=1#sec');
    // What is written reads back.
    const written = addressWithState('https://x.org/p#sec', states([['constructor', { a: ['<b>&"\''] }]]));
    assert.deepEqual(readLessonState(written).entries.constructor, { a: ['<b>&"\''] });
    assert.equal(readLessonState(written).anchor, 'sec');
  });

  test('two widgets wanting one key: the first keeps it, the next get -2, -3, with a warning each', () => {
    const warnings = [];
    const warn = console.warn;
    console.warn = (message) => warnings.push(message);
    try {
      const widgets = [1, 2, 3].map(() => ({ localName: 'mha-blend' }));
      const keys = widgets.map((w) => claimStateKey(w, 'blend', () => {}));
      assert.deepEqual(keys, ['blend', 'blend-2', 'blend-3']);
      assert.equal(claimStateKey(widgets[1], 'blend', () => {}), 'blend-2', 'a widget that claims again keeps its key');
      assert.equal(warnings.length, 2);
      assert.match(warnings[0], /two widgets on this page use the URL state key “blend”; this <mha-blend> uses “blend-2”.*state-key/);
      // A long key stays a valid key (32 characters at most).
      const long = 'k'.repeat(32);
      const a = { localName: 'mha-layer' };
      const b = { localName: 'mha-layer' };
      assert.equal(claimStateKey(a, long, () => {}), long);
      assert.equal(claimStateKey(b, long, () => {}), `${'k'.repeat(30)}-2`);
      for (const w of [...widgets, a, b]) releaseStateKey(w);
      // Released keys are free again.
      assert.equal(claimStateKey(widgets[2], 'blend', () => {}), 'blend');
      releaseStateKey(widgets[2]);
    } finally {
      console.warn = warn;
    }
  });
});
