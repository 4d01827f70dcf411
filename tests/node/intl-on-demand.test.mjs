// The page in English makes no Intl.NumberFormat or Intl.ListFormat while it loads and shows
// its numbers: the first of either in a page loads the locale's number data, about 40 ms on
// a desktop here and four times that on a slow phone (issue 25). A file of its own, so that
// no other test has made one (and filled the formats' cache) before.
import assert from 'node:assert/strict';
import { test } from 'node:test';

const made = [];
for (const name of ['NumberFormat', 'ListFormat']) {
  const Original = Intl[name];
  Intl[name] = function counted(...args) {
    made.push(name);
    return new Original(...args);
  };
}
const { messagesFor } = await import('../../web/widgets/shared/i18n.js');
const { formatCount, formatNumber, formatPercent } = await import('../../web/text/format.js');

test('English messages, counts, fixed decimals, percents and the decimal separator need no Intl formatter', () => {
  const en = messagesFor('en');
  assert.equal(en.count(262144), '262,144');
  assert.equal(en.t('practice.summary', { count: 3, done: 1 }).length > 0, true);
  assert.equal(en.number(-0.5), '−0.50');
  assert.equal(en.decimalSeparator, '.');
  assert.equal(en.parse('0.45').value, 0.45);
  assert.equal(formatCount(-1234567), '−1,234,567');
  assert.equal(formatNumber(3.14159, 3), '3.142');
  assert.equal(formatPercent(0.5), '50%');
  assert.deepEqual(made, []);
  // Made when asked for: a list, or another language.
  assert.equal(en.list(['a', 'b']), 'a and b');
  assert.equal(messagesFor('de').count(262144), '262.144');
  assert.deepEqual(made.sort(), ['ListFormat', 'NumberFormat']);
});
