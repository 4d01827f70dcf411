// Why a widget's state was refused (from a link, the state attribute, setState or a
// learner's copy), in words of the locale files (group stateError). Each widget's sanitiser
// throws stateError(key, params); the error's message is English, the lesson's language
// (what the API, the console and the tests see), and reasonIn(error, m) says it in the
// language of the element that shows it. Any other error is shown as its message.
//
// Parameters: numbers (English as String(n), as the sanitisers always wrote them; another
// language through its own formatting), text, decimal(value, precision) for a measured
// value, and choices(values, { or, quoted }) for a list of allowed values.
import { messagesFor } from './i18n.js';

export class StateError extends Error {
  constructor(key, params = {}) {
    super('');
    this.key = key;
    this.params = params;
    this.message = reasonIn(this, messagesFor('en'));
  }
}

/** The error a sanitiser throws: stateError('position', { field: 'token', max: 10 }). */
export const stateError = (key, params) => new StateError(key, params);

/**
 * The first check of every widget's sanitiser: `raw` is a plain object with no field but
 * `keys` (not all need be there). Throws stateError('object') (or `objectKey`, a widget's
 * own wording of it) or stateError('unknownField') naming the first stranger, clipped.
 */
export function checkObject(raw, keys, objectKey = 'object') {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw stateError(objectKey);
  const stranger = Object.keys(raw).find((key) => !keys.includes(key));
  if (stranger !== undefined) throw stateError('unknownField', { field: stranger.slice(0, 24) });
  return raw;
}

/** A measured value shown with `precision` significant digits (the locale's separator). */
export const decimal = (value, precision) => ({ decimal: Number(value).toPrecision(precision) });

/** Allowed values: "1, 2, 4", or with { or: true } "1, 2 or 4"; { quoted: true } quotes each. */
export const choices = (values, { or = false, quoted = false } = {}) => ({ choices: values.map(String), or, quoted });

function paramText(value, m) {
  const english = m.locale === 'en';
  if (typeof value === 'number') return english ? String(value) : m.count(value);
  if (value && typeof value === 'object' && 'decimal' in value) return english ? value.decimal : value.decimal.replace('.', m.decimalSeparator);
  if (value && typeof value === 'object' && 'choices' in value) {
    const items = value.quoted ? value.choices.map((text) => m.t('common.quoted', { text })) : value.choices;
    if (!value.or || items.length <= 1) return items.join(', ');
    if (english || typeof Intl.ListFormat !== 'function') return `${items.slice(0, -1).join(', ')} ${m.t('common.or')} ${items.at(-1)}`;
    return new Intl.ListFormat(m.locale, { type: 'disjunction' }).format(items);
  }
  return String(value);
}

/** The reason an error gives, in the language of `m` (a StateError's words, else its message). */
export function reasonIn(error, m) {
  if (!(error instanceof StateError)) return String(error?.message ?? error);
  // `count` stays a number: it chooses the plural form, and m.t writes it in the locale's way
  // (the counts here are below 1,000, so English writes them as String(n) did).
  const params = Object.fromEntries(Object.entries(error.params).map(([name, value]) => [name, name === 'count' ? value : paramText(value, m)]));
  return m.t(`stateError.${error.key}`, params);
}
