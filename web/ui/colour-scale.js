// Colour scales of the kit, and the numeric part of them (pure: no DOM, tested in Node).
//
// Cells are coloured in CSS, never from script: script gives each cell a class naming its
// shade step (shadeClass: ui-t37 is t = 0.37, ui-t-37 is -0.37), the kit's stylesheet sets
// --t from the class (shadeStepsCss), and a rule mixes the theme's colours in OKLab with
// color-mix(). So themes (light, dark, an author's) only change custom properties, and a
// strict CSP (style-src 'self') is satisfied.
//
//   diverging:  --t in [-1, 1]   (signed entry / scale max): negative - zero - positive
//   sequential: --t in [0, 1]    (an attention weight): the surface tint - the hue
//
// Why a class per step and not the number itself (style.setProperty('--t', t), as until
// 2026-12): a cell with an inline style of its own is styled alone, every custom property
// and color-mix() of its rule resolved again for it (about 25 us a cell on the 2-core test
// machine, 13-24 ms for 600 cells); cells of one class share the matched rules, and Chromium
// reuses one computed style for every cell of the same step (1.6-2.4 ms for 600 cells,
// measured side by side). A tie in heads' questions recolours about 300 cells at once.
// Steps of 0.01 lie far below what an eye tells apart: from the zero tint to either end is
// about 0.3 in OKLab, a step about 0.003 (a just-noticeable difference is about 0.02).
//
// The JS colour maths below (OKLab, contrast) mirrors what CSS does; the tests use it to
// check the palette (balanced ends, contrast of text and graphics in both themes).

/** Shade steps per unit of t: a cell's --t is a whole number of 1 / SHADE_STEPS. */
export const SHADE_STEPS = 100;

/** The shade step of a fraction t in [-1, 1]: the nearest whole step (-100 ... 100), never -0. */
export function shadeStep(t) {
  const step = Math.round(Math.min(1, Math.max(-1, Number.isFinite(t) ? t : 0)) * SHADE_STEPS);
  return step === 0 ? 0 : step;
}

/** The class that gives a cell the shade of step `step` (shadeStep). */
export const shadeClass = (step) => `ui-t${step}`;

/** A fraction t as drawn: its shade step's value (t rounded to 1 / SHADE_STEPS). */
export const shadeOf = (t) => shadeStep(t) / SHADE_STEPS;

/** The kit's rules that set --t from each shade class: .ui-t-100 ... .ui-t100. */
export function shadeStepsCss() {
  const rules = [];
  for (let step = -SHADE_STEPS; step <= SHADE_STEPS; step++) rules.push(`.${shadeClass(step)}{--t:${cssNumber(step / SHADE_STEPS)}}`);
  return `${rules.join('\n')}\n`;
}

/** value / max, clamped to [-1, 1]; NaN, ±Infinity in value or a bad max give 0 (neutral). */
export function signedFraction(value, max) {
  if (!Number.isFinite(value) || !Number.isFinite(max) || max <= 0) return 0;
  const t = value / max;
  return t > 1 ? 1 : t < -1 ? -1 : (Object.is(t, -0) ? 0 : t);
}

/** A weight clamped to [0, 1]; NaN gives 0. */
export function unitFraction(value) {
  if (!Number.isFinite(value)) return 0;
  return value > 1 ? 1 : value < 0 ? 0 : value;
}

/** The scale max of a data set: the largest finite |value|, or 1 when there is none. */
export function scaleMax(values) {
  let max = 0;
  for (const v of values) if (Number.isFinite(v) && Math.abs(v) > max) max = Math.abs(v);
  return max > 0 ? max : 1;
}

/** A number as the short CSS text of --t (4 decimals is far below one colour step). */
export function cssNumber(t) {
  const r = Math.round(t * 1e4) / 1e4;
  return String(Object.is(r, -0) ? 0 : r);
}

// ---- colour maths (sRGB <-> OKLab, WCAG contrast) ---------------------------------------

export function parseHex(hex) {
  const m = /^#([0-9a-f]{6})$/i.exec(hex);
  if (!m) throw new Error(`not a #rrggbb colour: ${hex}`);
  const n = parseInt(m[1], 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((c) => c / 255);
}

export function toHex(rgb) {
  return `#${rgb.map((c) => Math.round(Math.min(1, Math.max(0, c)) * 255).toString(16).padStart(2, '0')).join('')}`;
}

const linear = (c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
const gamma = (c) => (c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055);

export function oklab(hex) {
  const [r, g, b] = parseHex(hex).map(linear);
  const l = Math.cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b);
  const m = Math.cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b);
  const s = Math.cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b);
  return [
    0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s,
    1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s,
    0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s,
  ];
}

export function fromOklab([L, a, b]) {
  const l = (L + 0.3963377774 * a + 0.2158037573 * b) ** 3;
  const m = (L - 0.1055613458 * a - 0.0638541728 * b) ** 3;
  const s = (L - 0.0894841775 * a - 1.291485548 * b) ** 3;
  return toHex([
    4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
    -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
    -0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s,
  ].map(gamma));
}

/** color-mix(in oklab, from, to t*100%) */
export function mixOklab(from, to, t) {
  const a = oklab(from);
  const b = oklab(to);
  return fromOklab(a.map((v, i) => v + (b[i] - v) * t));
}

/** The colour of a diverging cell with signed fraction t in a palette (as the CSS does). */
export function divergingColour(palette, t) {
  return t < 0 ? mixOklab(palette.zero, palette.negative, -t) : mixOklab(palette.zero, palette.positive, t);
}

export function luminance(hex) {
  const [r, g, b] = parseHex(hex).map(linear);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrast(a, b) {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}

// ---- the palette ---------------------------------------------------------------------
// Designed per theme (dark is not an inversion): the ends of the diverging scale have the
// same OKLab lightness (so neither sign looks "stronger"), stand 3:1 or more off the
// surface, and the zero is a quiet tint of the surface. In dark, ends are lighter than
// the surface, not darker.
//
// Every entry becomes a custom property --ui-<key>, which an author can override with
// --mha-<key> (light) and --mha-dark-<key> (dark), e.g. --mha-diverging-negative.
export const PALETTE = {
  light: {
    surface: '#ffffff',
    ink: '#1d1f24',
    muted: '#50555f',
    line: '#7d828c',
    accent: '#0b5cad',
    error: '#a8071a',
    'diverging-negative': '#2f64b3',
    'diverging-positive': '#b83a3a',
    'diverging-zero': '#f3f2ef',
    'sequential-zero': '#f3f2ef',
    'focus-inner': '#ffffff',
    'head-a': '#c24e00',
    'head-b': '#1a64b0',
    'head-c': '#2b7a36',
    'head-d': '#8a3ba8',
  },
  dark: {
    surface: '#16181d',
    ink: '#e8e9ec',
    muted: '#a9aeb8',
    line: '#8b919c',
    accent: '#7fb6f2',
    error: '#ff8f8f',
    'diverging-negative': '#5c9ded',
    'diverging-positive': '#f0736a',
    'diverging-zero': '#2b2f37',
    'sequential-zero': '#2b2f37',
    'focus-inner': '#16181d',
    'head-a': '#f0913f',
    'head-b': '#64a8ee',
    'head-c': '#5cbf68',
    'head-d': '#c483e0',
  },
};

/**
 * The share of the hue a sequential cell (an attention weight t) takes: t on a light
 * surface, sqrt(t) on a dark one, where a weak weight mixed in linearly was lost in the
 * cell's grey. SEQUENTIAL_DARK_CSS is the same, as the kit's stylesheet computes it.
 */
export function sequentialShare(t, theme) {
  return theme === 'dark' ? Math.sqrt(t) : t;
}
export const SEQUENTIAL_DARK_CSS = 'sqrt(var(--t, 0))';

/** How much of the end colour a cell showing its number may take, so its text stays legible. */
export const VALUES_MODE_STRENGTH = 0.45;

/** The palette as CSS: light on :root/:host, dark inside prefers-color-scheme: dark. */
export function paletteCss() {
  const block = (theme, prefix) => Object.entries(PALETTE[theme])
    .map(([key, value]) => `  --ui-${key}: var(${prefix}${key}, ${value});`).join('\n');
  return `:root, :host {\n${block('light', '--mha-')}\n}\n` +
    `@media (prefers-color-scheme: dark) {\n:root, :host {\n${block('dark', '--mha-dark-')}\n}\n}\n`;
}
