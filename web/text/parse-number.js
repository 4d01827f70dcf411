// Strict parsing of what a learner types into a number field. Only plain decimal notation
// is a number here ("0.45", "-3", ".5", "2e-3", and in German "0,45"); everything else gets
// a message saying why, in words and in the field's language, for the field's error line.
// Limits keep every value inside float32 with room for the products the core computes.
//
// The decimal separator is the locale's (Messages.decimalSeparator, from Intl). Where it is
// a comma, a point is refused with its own message rather than read as a decimal point:
// in German "1.000" is a thousand, so guessing could silently change a value by 1000x.
// Group separators are never accepted (no value a learner types here needs one).

export const MAX_INPUT_TEXT = 64;

// English when no messages are passed. i18n.js (which uses this file for Messages.parse)
// sets it when it loads, so that this file does not import i18n.js back.
let defaultMessages = () => { throw new Error('parseNumber: no messages given and none set (import web/text/i18n.js)'); };
export function setDefaultMessages(get) {
  defaultMessages = get;
}
const patterns = new Map();

function decimalPattern(separator) {
  let pattern = patterns.get(separator);
  if (!pattern) {
    const s = separator.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    pattern = new RegExp(`^[+-]?(\\d+${s}?\\d*|${s}\\d+)(e[+-]?\\d+)?$`, 'i');
    patterns.set(separator, pattern);
  }
  return pattern;
}

/**
 * @param {string} text what the user typed
 * @param {{ min?: number, max?: number, what?: string, messages?: import('./i18n.js').Messages }} [limits]
 *   messages: the field's locale (default English); `what` names the value in messages
 * @returns {{ ok: true, value: number } | { ok: false, message: string }}
 */
export function parseNumber(text, { min = -1e6, max = 1e6, what, messages } = {}) {
  const m = messages ?? defaultMessages();
  const name = what ?? m.t('ui.parse.thisValue');
  const separator = m.decimalSeparator;
  const range = () => ({ what: name, min: m.number(min, decimalsOf(min)), max: m.number(max, decimalsOf(max)) });
  // The displays print a typographic minus (U+2212); read it back as a minus sign.
  const trimmed = String(text).trim().replace(/\u2212/g, '-');
  if (trimmed === '') return { ok: false, message: m.t('ui.parse.empty', { what: name }) };
  if (trimmed.length > MAX_INPUT_TEXT) {
    return { ok: false, message: m.t('ui.parse.tooLong', { what: name, count: trimmed.length }) };
  }
  if (!decimalPattern(separator).test(trimmed)) {
    const other = separator === '.' ? ',' : '.';
    // The other separator in an otherwise good number: say which one to use.
    if (trimmed.includes(other) && decimalPattern(other).test(trimmed)) {
      return { ok: false, message: m.t('ui.parse.separator', { what: name, typed: shorten(minus(trimmed)), fixed: minus(trimmed.replace(other, separator)) }) };
    }
    return { ok: false, message: m.t('ui.parse.notNumber', { what: name, typed: shorten(trimmed), example: m.number(0.45, 2) }) };
  }
  let value = Number(separator === '.' ? trimmed : trimmed.replace(separator, '.'));
  if (!Number.isFinite(value)) {
    return { ok: false, message: m.t('ui.parse.tooLarge', range()) };
  }
  if (Object.is(value, -0)) value = 0;
  if (value < min || value > max) {
    return { ok: false, message: m.t('ui.parse.outside', { ...range(), typed: minus(trimmed) }) };
  }
  return { ok: true, value };
}

/** Decimals to show a limit exactly as written (10 -> 0, 0.5 -> 1, 1e-3 -> 3). */
function decimalsOf(value) {
  if (!Number.isFinite(value) || Number.isInteger(value)) return 0;
  const text = String(value);
  const exponent = /e-(\d+)$/.exec(text);
  if (exponent) return Math.min(20, Number(exponent[1]) + (text.split('e')[0].split('.')[1]?.length ?? 0));
  return Math.min(20, text.split('.')[1]?.length ?? 0);
}

/** A number (or its text) as displays write it: with the minus sign U+2212, not a hyphen. */
function minus(value) {
  return String(value).replace(/^-/, '\u2212');
}

function shorten(text) {
  return text.length > 16 ? `${text.slice(0, 16)}…` : text;
}
