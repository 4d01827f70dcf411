// Messages fetched on first use (web/text/i18n.js: registerLocaleLoader, loadLocale), as the
// one-widget entries use them for every language but English (vite.widgets.config.js): a
// language's loaders run once, when a widget in it loads; what they fetch goes under what is
// registered already, so a course's own wording wins; a failed fetch leaves English.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { availableLocales, loadLocale, messagesFor, registerLocale, registerLocaleLoader } from '../../web/text/i18n.js';

registerLocale('en', { demo: { hello: 'Hello', bye: 'Goodbye' } });

test('nothing to fetch: null, so a widget need not wait', () => {
  assert.equal(loadLocale('en'), null);
  assert.equal(loadLocale('xx'), null);
});

test('a language is fetched once, by the language of a regional tag, and its loaders merge', async () => {
  let calls = 0;
  registerLocale('fr', {}); // as web/widgets/shared/i18n.js registers a lazily fetched language
  registerLocaleLoader('fr', async () => { calls++; return { demo: { hello: 'Bonjour' } }; });
  registerLocaleLoader('fr', async () => { calls++; return { other: { yes: 'Oui' } }; });
  assert.ok(availableLocales().includes('fr'));
  assert.equal(messagesFor('fr').t('demo.hello'), 'Hello', 'English until fetched');
  const first = loadLocale('fr-CA');
  assert.ok(first instanceof Promise);
  assert.equal(loadLocale('fr'), first, 'one fetch while it runs');
  await first;
  assert.equal(calls, 2);
  assert.equal(messagesFor('fr').t('demo.hello'), 'Bonjour');
  assert.equal(messagesFor('fr-CA').t('other.yes'), 'Oui');
  assert.equal(loadLocale('fr'), null, 'fetched: nothing more to wait for');
});

test('a course’s own wording, registered first, wins over the fetched messages', async () => {
  registerLocale('es', { demo: { hello: '¡Hola, curso!' } });
  registerLocaleLoader('es', async () => ({ demo: { hello: 'Hola', bye: 'Adiós' }, more: { one: 'uno' } }));
  await loadLocale('es');
  assert.equal(messagesFor('es').t('demo.hello'), '¡Hola, curso!');
  assert.equal(messagesFor('es').t('more.one'), 'uno');
});

test('a failed fetch warns and leaves English', async (t) => {
  const warnings = [];
  t.mock.method(console, 'warn', (message) => warnings.push(message));
  registerLocaleLoader('it', async () => { throw new Error('offline'); });
  await loadLocale('it');
  assert.match(warnings.join('\n'), /“it” messages could not be loaded \(offline\); using English/);
  assert.equal(messagesFor('it').t('demo.bye'), 'Goodbye');
});
