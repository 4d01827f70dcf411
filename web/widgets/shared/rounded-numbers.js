// Numbers in a widget's state, rounded for the code an author copies (embed-code.js). A
// dragged weight is 0.30000000000000004 in the state; an author's snippet says 0.3. Six
// significant digits keep every figure the widgets show (at most four decimals) and every
// sanitiser's tolerance (a budget sums to 1 within 1e-4; eleven weights move it 6e-6 at
// most); the snippet still uses the exact state if the widget refuses the rounded one.
export const SNIPPET_DIGITS = 6;

/** Every finite number in a JSON-like value rounded to `digits` significant digits (a copy). */
export function roundedNumbers(value, digits = SNIPPET_DIGITS) {
  return JSON.parse(JSON.stringify(value, (key, v) => (typeof v === 'number' && Number.isFinite(v) ? Number(v.toPrecision(digits)) : v)));
}
