// The localisation module (web/widgets/shared/i18n.js) and the message files
// (lessons/multiple-heads/locales/*.json): lookup with placeholders, plural forms through
// Intl.PluralRules, numbers through Intl.NumberFormat (decimal comma in German), parsing with
// the locale's separator, English fallback for a missing key, and every locale complete
// (same keys, same placeholders, the plural forms its language needs).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { isPluralEntry, messagesFor, registerLocale, resolveLocale } from '../../web/widgets/shared/i18n.js';
import { formatCount, formatNumber, formatPercent } from '../../web/text/format.js';
import { parseNumber } from '../../web/text/parse-number.js';
import { FieldFlow, fieldText } from '../../web/ui/field-flow.js';
import { englishIn, hasDecimalPoint } from './english-words.mjs';

const LOCALES_DIR = new URL('../../lessons/multiple-heads/locales/', import.meta.url);
// The UI kit's own catalogs (its ui group), registered beside the lesson's.
const KIT_LOCALES_DIR = new URL('../../web/ui/locales/', import.meta.url);
const catalog = (name) => ({
  ...JSON.parse(readFileSync(new URL(`${name}.json`, LOCALES_DIR), 'utf8')),
  ...JSON.parse(readFileSync(new URL(`${name}.json`, KIT_LOCALES_DIR), 'utf8')),
});

/** Every leaf of a catalog: key -> string or plural entry. */
function leaves(tree, prefix = '', out = new Map()) {
  for (const [key, value] of Object.entries(tree)) {
    if (key.startsWith('_')) continue; // _about: notes for translators
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string' || isPluralEntry(value)) out.set(path, value);
    else if (value && typeof value === 'object') leaves(value, path, out);
    else out.set(path, value);
  }
  return out;
}

const placeholders = (entry) => new Set((typeof entry === 'string' ? [entry] : Object.values(entry))
  .flatMap((text) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1])));

test('placeholders are filled; numbers among them are formatted for the locale', () => {
  const en = messagesFor('en');
  const de = messagesFor('de');
  assert.equal(en.t('ui.budget.weightOn', { token: 'it' }), 'Weight on “it”');
  assert.equal(de.t('ui.budget.weightOn', { token: 'it' }), 'Gewicht auf „it“');
  assert.equal(en.t('ui.grid.rowNumber', { number: 12345 }), 'row 12,345');
  assert.equal(de.t('ui.grid.rowNumber', { number: 12345 }), 'Zeile 12.345');
  // An unknown placeholder stays visible rather than vanishing.
  assert.equal(en.t('ui.budget.weightOn', {}), 'Weight on “{token}”');
});

test('plural forms are chosen by Intl.PluralRules from count', () => {
  const en = messagesFor('en');
  assert.match(en.t('ui.parse.tooLong', { what: 'W', count: 1 }), /\(1 character\)/);
  assert.match(en.t('ui.parse.tooLong', { what: 'W', count: 70 }), /\(70 characters\)/);
  // A language with more forms: a test locale with Polish plural rules (one / few / many).
  registerLocale('pl', { ui: { test: { files: { one: '{count} plik', few: '{count} pliki', many: '{count} plików', other: '{count} pliku' } } } });
  const pl = messagesFor('pl');
  assert.deepEqual([1, 3, 5, 22, 25].map((count) => pl.t('ui.test.files', { count })), ['1 plik', '3 pliki', '5 plików', '22 pliki', '25 plików']);
});

test('a key missing in a locale falls back to English; an unknown key shows the key', () => {
  registerLocale('xx', { ui: { narrow: { show: 'Zeig' } } });
  const xx = messagesFor('xx');
  assert.equal(xx.t('ui.narrow.show'), 'Zeig');
  assert.equal(xx.t('ui.budget.total', { value: '1.00' }), 'Total 1.00');
  const warn = console.warn;
  const warnings = [];
  console.warn = (text) => warnings.push(text);
  try {
    assert.equal(xx.t('no.such.key'), 'no.such.key');
    xx.t('no.such.key');
  } finally {
    console.warn = warn;
  }
  assert.equal(warnings.length, 1, 'one warning per missing key, not one per lookup');
  assert.throws(() => registerLocale('<script>', {}), /not a language tag/);
  assert.throws(() => registerLocale('fr', 'nope'), /must be an object/);
});

test('language tags resolve to the closest catalog: region, then language, then English', () => {
  assert.equal(resolveLocale('de-AT'), 'de');
  assert.equal(resolveLocale('DE'), 'de');
  assert.equal(resolveLocale('fr-CA'), 'en');
  assert.equal(resolveLocale(''), 'en');
  assert.equal(messagesFor('de-CH'), messagesFor('de'), 'one cached Messages per locale');
});

test('numbers: English unchanged, German with a decimal comma and a real minus', () => {
  assert.equal(formatNumber(-0.456), '−0.46');
  assert.equal(formatNumber(0.45, 2, 'de'), '0,45');
  assert.equal(formatNumber(-1234.5, 1, 'de'), '−1234,5', 'fixed-decimal readouts are not grouped');
  assert.equal(formatNumber(-0.001, 2, 'de'), '0,00', 'a value that rounds to zero has no minus');
  assert.equal(formatNumber(NaN, 2, 'de'), '—');
  assert.equal(formatCount(262144), '262,144');
  assert.equal(formatCount(262144, 'de'), '262.144');
  assert.equal(formatPercent(0.734), '73%');
  assert.match(formatPercent(0.734, 0, 'de'), /^73\s%$/u);
  const de = messagesFor('de');
  assert.equal(de.number(3.14159, 3), '3,142');
  assert.equal(de.fieldText(-0.5), '-0,50');
  assert.equal(fieldText(-0.5, 2, 'de'), '-0,50');
  assert.equal(de.list(['a', 'b', 'c']), 'a, b und c');
  assert.equal(messagesFor('en').list(['a', 'b', 'c']), 'a, b, and c');
});

test('English counts are grouped without Intl exactly as Intl’s en-US groups them; no "−0"', () => {
  const intl = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
  const values = [0, 1, -1, 7, 999, 1000, -1000, 12345, 999999.5, 262144, -262144, 1e15, 123456789012345680, 9.99e20, 1e21, -5e21, 2.5, -2.5];
  for (let digits = 1; digits <= 21; digits++) values.push(10 ** digits - 1, -(10 ** (digits - 1)), Math.round(10 ** digits / 3));
  for (const value of values) {
    const whole = Math.round(value) || 0;
    assert.equal(formatCount(value), intl.format(whole).replace('-', '−'), String(value));
  }
  assert.equal(formatCount(-0.4), '0');
  assert.equal(formatCount(-0.4, 'de'), '0');
  assert.equal(formatCount(Infinity), '—');
});

test('parsing: the locale’s separator is accepted; the other one is refused with a clear message', () => {
  const de = messagesFor('de');
  assert.deepEqual(de.parse('0,45'), { ok: true, value: 0.45 });
  assert.deepEqual(de.parse('−2,5'), { ok: true, value: -2.5 });
  assert.deepEqual(de.parse(',5'), { ok: true, value: 0.5 });
  assert.deepEqual(de.parse('2e-3'), { ok: true, value: 0.002 });
  const point = de.parse('0.45', { what: 'Gewicht' });
  assert.equal(point.ok, false);
  assert.equal(point.message, 'Gewicht: Dezimalstellen mit Komma schreiben: 0,45, nicht 0.45.');
  assert.match(de.parse('abc', { what: 'Gewicht' }).message, /^Gewicht muss eine einfache Dezimalzahl wie 0,45 sein, nicht „abc“\.$/);
  assert.match(de.parse('5', { min: -2, max: 2.5, what: 'Gewicht' }).message, /zwischen −2 und 2,5 liegen; 5 liegt außerhalb/);
  assert.match(de.parse('', { what: 'Gewicht' }).message, /^Gewicht ist leer/);
  // English: as before, and a comma gets its own hint.
  assert.deepEqual(parseNumber('0.45'), { ok: true, value: 0.45 });
  assert.equal(parseNumber('0,45', { what: 'Weight' }).message, 'Weight: use a point for the decimals: 0.45, not 0,45.');
  assert.match(parseNumber('abc', { what: 'Weight' }).message, /Weight must be a plain decimal number like 0\.45, not “abc”/);
  assert.match(parseNumber('20', { min: -10, max: 10 }).message, /between −10 and 10; 20 is outside/);
  for (const hostile of ['1,000.5', '1.000,5', '0,4,5', 'Infinity', 'NaN', '1e400', '0x10']) {
    assert.equal(de.parse(hostile).ok, false, hostile);
    assert.equal(parseNumber(hostile).ok, false, hostile);
  }
});

test('a German number field: shows and accepts "0,45", keeps the last good value on "0.45"', () => {
  const proposals = [];
  const flow = new FieldFlow({ value: 0.5, min: 0, max: 1, what: 'Gewicht', messages: messagesFor('de'), propose: (v) => { proposals.push(v); return null; } });
  assert.equal(flow.state.text, '0,50');
  flow.focus();
  assert.equal(flow.input('0,45').invalid, false);
  assert.deepEqual(proposals, [0.45]);
  const refused = flow.input('0.3');
  assert.equal(refused.invalid, true);
  assert.match(refused.message, /Komma/);
  assert.equal(refused.value, 0.45);
  assert.equal(flow.blur().text, '0,45');
});

test('every locale has every English key, with the same placeholders and its plural forms', () => {
  const en = leaves(catalog('en'));
  const files = readdirSync(LOCALES_DIR).filter((name) => name.endsWith('.json'));
  assert.deepEqual(readdirSync(KIT_LOCALES_DIR).filter((name) => name.endsWith('.json')).sort(), [...files].sort(), 'the kit speaks every language the lesson does');
  assert.ok(files.includes('de.json'), 'German ships');
  assert.ok(en.size > 25, `English has the UI's messages (${en.size})`);
  for (const file of files) {
    const locale = file.replace(/\.json$/, '');
    const other = leaves(catalog(locale));
    const needed = new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
    for (const [key, entry] of en) {
      assert.ok(other.has(key), `${locale}: “${key}” is missing`);
      const translated = other.get(key);
      assert.ok(typeof translated === 'string' || isPluralEntry(translated), `${locale}: “${key}” is neither text nor plural forms`);
      assert.deepEqual([...placeholders(translated)].sort(), [...placeholders(entry)].sort(), `${locale}: “${key}” has other placeholders than English`);
      if (isPluralEntry(translated)) for (const category of needed) assert.ok(translated[category] ?? translated.other, `${locale}: “${key}” lacks the ${category} form`);
    }
    // world.* and data.*: the lesson data's names in this language (world.json's head and
    // feature names, configuration labels); English takes them from the data itself.
    for (const key of other.keys()) assert.ok(en.has(key) || /^(world|data)\./.test(key), `${locale}: “${key}” is not an English key (a typo?)`);
  }
});

test('German names and questions for every head of the world', () => {
  const world = JSON.parse(readFileSync(new URL('../../lessons/multiple-heads/world.json', import.meta.url), 'utf8'));
  const de = messagesFor('de');
  const en = messagesFor('en');
  for (const head of world.heads) {
    assert.equal(en.headName(head), head.name);
    assert.notEqual(de.headName(head), head.name, `${head.id}: a German name`);
    assert.notEqual(de.headQuestion(head), head.question, `${head.id}: a German question`);
  }
  const merged = { members: world.heads.slice(0, 2), name: 'x' };
  assert.equal(de.headName(merged).replace(/\u00ad/g, ''), 'Subjektfinder + Ergänzungsfinder');
});

test('nodes(): markup params are placed where their placeholders are', () => {
  const en = messagesFor('en');
  const strong = { nodeType: 1, text: 'Try: ' };
  assert.deepEqual(en.nodes('common.quoted', { text: strong }), ['“', strong, '”']);
  assert.deepEqual(en.nodes('ui.budget.readout', { token: 'it', value: [strong, '!'] }), ['“it”: ', strong, '!']);
});

// German static figures and notices: what the build puts in a German page (MHA_LOCALE=de,
// through the lesson plugin's own addStaticFigures), the learner-copy notices and a refused
// file's reasons, and a refused link's reasons. No English UI word (the lesson's own text,
// marked lang="en", and quoted token text are allowed), no decimal point, decimal commas.

/**
 * The text a reader sees or hears in HTML, with each piece's language: text nodes and
 * aria-labels, skipping anything inside an element whose lang is not German.
 */
function readableText(html) {
  const decode = (text) => text.replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  const VOID = new Set(['br', 'img', 'input', 'meta', 'link', 'hr']);
  const stack = [];
  const out = [];
  const english = () => stack.some((frame) => frame.english);
  for (const match of html.matchAll(/<(\/?)([a-zA-Z][\w-]*)((?:[^>"]|"[^"]*")*?)(\/?)>|([^<]+)/g)) {
    const [, close, tag, attributes, selfClosing, text] = match;
    if (text !== undefined) {
      if (!english() && text.trim()) out.push(decode(text.trim()));
      continue;
    }
    if (close) {
      const at = stack.map((frame) => frame.tag).lastIndexOf(tag);
      if (at >= 0) stack.length = at;
      continue;
    }
    const lang = /\slang="([^"]*)"/.exec(attributes)?.[1];
    const frame = { tag, english: lang !== undefined && !lang.startsWith('de') };
    const label = /\saria-label="([^"]*)"/.exec(attributes)?.[1];
    if (label && !english() && !frame.english) out.push(decode(label));
    if (!selfClosing && !VOID.has(tag)) stack.push(frame);
  }
  return out;
}

test('readableText skips the lesson text marked lang="en" and reads aria-labels', () => {
  assert.deepEqual(readableText('<p>Richtig: <b lang="en">Only <var>W</var></b> <span lang="en">the <i>reason</i></span></p><svg aria-label="Zeile &amp; Spalte"><rect/></svg>'),
    ['Richtig:', 'Zeile & Spalte']);
});

const germanProblems = (texts) => texts.flatMap((text) => {
  const found = englishIn(text);
  return [...(found.length ? [`English (${found.join(', ')}): ${text.slice(0, 160)}`] : []), ...(hasDecimalPoint(text) ? [`decimal point: ${text.slice(0, 160)}`] : [])];
});

const escapeForHtml = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

test('German static figures (a German build, and lang="de" on one element): no English UI word, decimal commas', async () => {
  const { addStaticFigures } = await import('../../scripts/lib/lesson-plugin.mjs');
  const { WIDGETS } = await import('../../web/widgets/registry.js');
  const { IDEAS } = await import('../../web/widgets/practice/practice-data.js');
  const elements = [
    ...Object.values(WIDGETS).map((w) => `<${w.tag}></${w.tag}>`),
    '<mha-practice></mha-practice>', ...IDEAS.map((idea) => `<mha-practice idea="${idea.id}"></mha-practice>`),
    '<mha-layer heads="2" token="3"></mha-layer>', '<mha-wo-mixing heads="2"></mha-wo-mixing>', '<mha-practice idea="nonsense"></mha-practice>',
  ];
  const german = await addStaticFigures(elements.join('\n'), { locale: 'de' });
  const texts = readableText(german);
  assert.deepEqual(germanProblems(texts), []);
  const commas = texts.filter((text) => /\d,\d/.test(text)).length;
  assert.ok(commas > 30, `numbers with decimal commas (${commas})`);
  const note = messagesFor('de').t('staticFigure.note');
  assert.equal(german.split(note).length - 1, Object.keys(WIDGETS).length + 2, 'every figure has the German note');
  assert.ok(!german.includes('Static figure:'));
  // The problems are in German too (practice.de.json), with the core's figures in German:
  // no part of them is marked English any more.
  const de = JSON.parse(readFileSync(new URL('../../lessons/multiple-heads/practice.de.json', import.meta.url), 'utf8'));
  assert.ok(german.includes(escapeForHtml(de.problems['dk-768'].prompt.split('d_')[0])), 'a German prompt is there');
  assert.ok(!/<[^>]+ lang="en"/.test(german), 'nothing in the German figures is marked English');
  const predictions = await addStaticFigures('<mha-practice idea="wo" kinds="predict"></mha-practice>', { locale: 'de' });
  assert.match(predictions, /Erst vorhersagen: 1 Aufgabe/);
  assert.match(predictions, /<li value="2">/, 'the prediction keeps its number within the idea');
  // One element's lang wins over the build's language, both ways.
  const mixed = await addStaticFigures('<mha-blend lang="de"></mha-blend><mha-layer></mha-layer>');
  assert.equal(mixed.split(note).length - 1, 1);
  const english = await addStaticFigures('<mha-blend lang="en"></mha-blend>', { locale: 'de' });
  assert.match(english, /One head, one average/);
});

test('German learner-copy notices, refused files and refused links: no English UI word', async () => {
  const { fakeStorage, malformedFiles, newCopy } = await import('./malformed-copies.mjs');
  const { STORAGE_KEY } = await import('../../web/widgets/shared/learner-copy.js');
  const { linkProblemIn, readLessonState } = await import('../../web/widgets/shared/lesson-state.js');
  const de = messagesFor('de');
  const texts = [];
  // Storage blocked (a sandboxed frame), storage full, a saved copy that cannot be read.
  texts.push(newCopy(fakeStorage(), false).noticeIn(de));
  const full = newCopy(fakeStorage());
  full.storage.setItem = () => { throw new Error('QuotaExceededError'); };
  full.recordAttempt('blend-why', { option: 'uniform' }, false);
  texts.push(full.noticeIn(de));
  texts.push(newCopy(fakeStorage({ [STORAGE_KEY]: '{' })).noticeIn(de));
  assert.equal(texts.length, 3);
  assert.ok(texts.every((text) => typeof text === 'string' && text.length > 40), texts.join('\n'));
  assert.notEqual(texts[0], newCopy(fakeStorage(), false).notice, 'German, not the English notice');
  // Every malformed file is refused in German, a widget's own reason for refusing a state
  // too (its sanitiser's StateError). Only JSON.parse's reason (in parentheses after „kein
  // JSON“) is not this lesson's text and stays as the browser gives it.
  const refusals = malformedFiles().map(([text]) => newCopy().importText(text, de));
  assert.ok(refusals.every((result) => !result.ok));
  texts.push(...refusals.map(({ message }) => message.replace(/kein JSON \(.*\)\.$/, 'kein JSON.')));
  assert.ok(refusals.some(({ message }) => /, Zustand: „budget“: /.test(message)), 'a widget state refused for a German reason');
  // A link's state that is not JSON, and one too long to read.
  texts.push(linkProblemIn(readLessonState('?mha.blend=%7B').problems.blend, de));
  const tooLong = linkProblemIn(readLessonState(`?mha.blend=${'9'.repeat(30000)}`).problems['*'], de);
  assert.match(tooLong, /\(30\.010 Zeichen\)/, 'the count (of "mha.blend=" and 30,000 digits) with German grouping');
  texts.push(tooLong);
  assert.deepEqual(germanProblems(texts), []);
  assert.ok(refusals.some(({ message }) => /^Diese Datei ist keine gültige Kopie dieser Lektion: „answers“: erwartet wird ein Objekt\.$/.test(message)), 'a field name quoted, the reason German');
  // English is unchanged.
  assert.match(newCopy(fakeStorage(), false).notice, /kept only until you leave the page/);
  assert.equal(linkProblemIn(readLessonState('?mha.blend=%7B').problems.blend, messagesFor('en')), 'The link’s state for this widget is not valid JSON.');
});

test('a widget\'s reasons for refusing a state (its sanitiser\'s StateError) in German: no English UI word, decimal commas', async () => {
  const { reasonIn } = await import('../../web/widgets/shared/state-error.js');
  const { THE_WORLD: w } = await import('../../web/widgets/shared/world.js');
  const { sanitizeBlendState } = await import('../../web/widgets/blend/blend-model.js');
  const { sanitizeSplitState, splitConfig, startingState } = await import('../../web/widgets/head-splitting/head-splitting-model.js');
  const { sanitizeHeadsQuestionsState, defaultHeadsQuestionsState } = await import('../../web/widgets/heads-questions/heads-questions-model.js');
  const { sanitizeLayerState } = await import('../../web/widgets/layer/layer-model.js');
  const { sanitizeTrainingState } = await import('../../web/widgets/training/training-model.js');
  const wo = await import('../../web/widgets/wo-mixing/wo-mixing-model.js');
  const split = splitConfig();
  const woConfig = wo.woMixingConfig(undefined, w);
  const woStart = wo.startingState(woConfig);
  const hq = defaultHeadsQuestionsState(w);
  const cases = [
    [(s) => sanitizeBlendState(s, w.L), [null, { a: 1 }, { a: 1, b: 2 }, { budget: [1] }, { budget: Array(w.L).fill(NaN) }, { budget: Array(w.L).fill(-1) }, { budget: Array(w.L).fill(0.1) }]],
    [(s) => sanitizeSplitState(s, split), [[], { x: 1 }, { ...startingState(split), dModel: 7 }, { ...startingState(split), heads: 3 }, { ...startingState(split), heads: 0 }, { ...startingState(split), seqLen: 9999 }, { ...startingState(split), spectrumHead: 9 }, { ...startingState(split), seqLen: 1.5 }]],
    [(s) => sanitizeHeadsQuestionsState(s, w), [{ ...hq, tied: 1 }, { ...hq, query: 99 }, { ...hq, head: 9 }, { ...hq, wq: [] }, { ...hq, wq: hq.wq.map(() => [1]) }, { ...hq, wq: hq.wq.map((m) => m.map(() => 99)) }, { ...hq, extra: 1 }]],
    [(s) => sanitizeLayerState(s, w), [{ h: 3, token: 0, head: 0 }, { h: 2, token: 99, head: 0 }, { h: 2, token: 0, head: 5 }]],
    [sanitizeTrainingState, [{ task: 'x', heads: 2, seed: 1, off: [] }, { task: 'previous-token', heads: 3, seed: 1, off: [] }, { task: 'previous-token', heads: 2, seed: 0, off: [] },
      { task: 'previous-token', heads: 2, seed: 1, off: [0, 1, 0] }, { task: 'previous-token', heads: 2, seed: 1, off: [5] }, { task: 'previous-token', heads: 2, seed: 1, off: [1, 1] }]],
    [(s) => wo.sanitizeWoState(woConfig, s), [{ ...woStart, heads: 3 }, { ...woStart, token: -1 }, { ...woStart, u: [1] }, { ...woStart, wo: woStart.wo.map(() => 99) }, { ...woStart, u: woStart.u.map(() => 0) }]],
  ];
  const de = messagesFor('de');
  const german = [];
  for (const [sanitize, states] of cases) {
    for (const state of states) {
      const error = (() => { try { sanitize(state); } catch (caught) { return caught; } return null; })();
      assert.ok(error, `refused: ${JSON.stringify(state).slice(0, 80)}`);
      assert.equal(reasonIn(error, messagesFor('en')), error.message, 'English is the error\'s own message');
      german.push(reasonIn(error, de));
    }
  }
  assert.deepEqual(germanProblems(german), []);
  assert.ok(german.includes('„budget“: Die Gewichte ergeben zusammen 1,10000, nicht 1'), german.join('\n'));
  assert.ok(german.includes('„heads“: erwartet wird 1, 2 oder 4'));
  assert.ok(german.includes('„task“: erwartet wird „back-and-first“ oder „previous-token“'));
});
