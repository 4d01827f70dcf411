// Number fields of this widget: what a field shows, how typed text is read, and what the
// arrow keys do. Values can be negative here, so a field shows an ASCII "-" (displays use
// the typographic minus "−"); parse-number.js reads either.
import { formatNumber } from '../shared/format.js';
import { parseNumber } from '../shared/parse-number.js';

/** The text a field shows for a committed value: two decimals, ASCII minus (editable). */
export function fieldText(value) {
  return formatNumber(value, 2).replace('−', '-');
}

/** Strict parse of a field (parse-number.js, which also reads a typographic minus), within ±limit. */
export function parseField(text, limit, what) {
  return parseNumber(text, { min: -limit, max: limit, what });
}

/**
 * The value after an ArrowUp/ArrowDown press on a field, or null for any other key.
 * Plain arrows step by config.arrowStep, with Shift by config.fineArrowStep. Arrows with
 * Ctrl, Alt or Meta are left alone (the grid uses them to move between cells).
 */
export function stepValue(event, current, config) {
  if (event.key !== 'ArrowUp' && event.key !== 'ArrowDown') return null;
  if (event.ctrlKey || event.altKey || event.metaKey) return null;
  const step = (event.shiftKey ? config.fineArrowStep : config.arrowStep) * (event.key === 'ArrowUp' ? 1 : -1);
  return clampRound(current + step, config.woLimit);
}

/** Rounds away float noise (0.1 + 0.2) to 6 decimals and keeps |value| <= limit. */
export function clampRound(value, limit) {
  const rounded = Math.round(value * 1e6) / 1e6;
  return Math.max(-limit, Math.min(limit, Object.is(rounded, -0) ? 0 : rounded));
}
