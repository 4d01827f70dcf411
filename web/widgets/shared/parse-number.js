// Strict parsing of what a learner types into a number field. Only plain decimal notation
// is a number here ("0.45", "-3", ".5", "2e-3"); everything else gets a message saying why,
// in words, for the field's error line. Limits keep every value inside float32 with room
// for the products the core computes.

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
export const MAX_INPUT_TEXT = 64;

/**
 * @param {string} text what the user typed
 * @param {{ min?: number, max?: number, what?: string }} [limits]
 * @returns {{ ok: true, value: number } | { ok: false, message: string }}
 */
export function parseNumber(text, { min = -1e6, max = 1e6, what = 'This value' } = {}) {
  // The displays print a typographic minus (U+2212); read it back as a minus sign.
  const trimmed = String(text).trim().replace(/\u2212/g, '-');
  if (trimmed === '') return { ok: false, message: `${what} is empty: type a number.` };
  if (trimmed.length > MAX_INPUT_TEXT) {
    return { ok: false, message: `${what} is too long to be a number (${trimmed.length} characters).` };
  }
  if (!DECIMAL.test(trimmed)) {
    return { ok: false, message: `${what} must be a plain decimal number like 0.45, not “${shorten(trimmed)}”.` };
  }
  let value = Number(trimmed);
  if (!Number.isFinite(value)) {
    return { ok: false, message: `${what} is too large: it must be between ${minus(min)} and ${minus(max)}.` };
  }
  if (Object.is(value, -0)) value = 0;
  if (value < min || value > max) {
    return { ok: false, message: `${what} must be between ${minus(min)} and ${minus(max)}; ${minus(trimmed)} is outside.` };
  }
  return { ok: true, value };
}

/** A number (or its text) as displays write it: with the minus sign U+2212, not a hyphen. */
function minus(value) {
  return String(value).replace(/^-/, '\u2212');
}

function shorten(text) {
  return text.length > 16 ? `${text.slice(0, 16)}…` : text;
}
