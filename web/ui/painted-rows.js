// Painted rows: how a compact, static MatrixGrid (option `paintRows`) draws a matrix row as
// one table cell instead of one cell per value. The row's values become colour bands of one
// background (a linear gradient with hard stops, one band per column, the columns' 1 px gaps
// drawn over it in the surface colour), so a 12 x 12 map is 12 cells, not 144. A cell lit by
// itself in a highlight is ringed, as the layer's path cells were.
//
// Why: the layer's overview (about 17 small maps at once) was 1,600 table cells, each one
// styled, laid out and painted on every load and on every switch of h, which on a slow phone
// cost more than anything else the widget does (issue 25). The colours are still mixed by
// CSS from the theme's custom properties (light, dark, an author's), by the same formulas as
// a cell's (styles.js): only the number t of each value is written from script, as with --t.
//
// Pure string building (no DOM): tested in Node (tests/node/ui-painted-rows.test.mjs).
import { cssNumber } from './colour-scale.js';

/**
 * How far a dimmed value is mixed toward the surface: the kit's `--dim` of a dimmed cell,
 * which a widget may set otherwise with --ui-paint-dim (the layer dims less).
 */
export const DIM_SHARE = 'var(--ui-paint-dim, 72%)';
/** The thin ring around a cell lit by itself (highlight's `cells`): the path shows even where its values are near 0. */
export const RING = 'color-mix(in oklab, var(--ui-ink) 50%, transparent)';

/**
 * The CSS colour of one value. `t` is the value's fraction of the scale: in [-1, 1] for the
 * diverging scale, [0, 1] for the sequential one (an attention weight). `dim`: mixed toward
 * the surface, as a cell outside a highlight is.
 */
export function paintedColour(t, { sequential = false, dim = false } = {}) {
  let colour;
  if (sequential) {
    // A weight t takes t of the hue on a light surface, sqrt(t) on a dark one (colour-scale.js,
    // sequentialShare): --ui-paint-dark is 0 or 1 by theme, so one expression serves both.
    const light = cssNumber(t * 100);
    const darkExtra = cssNumber((Math.sqrt(t) - t) * 100);
    colour = `color-mix(in oklab, var(--ui-sequential-zero), var(--ui-hue, var(--ui-accent)) calc(${light}% + var(--ui-paint-dark, 0) * ${darkExtra}%))`;
  } else {
    // The zero tint, mixed toward the negative end by -t or toward the positive end by t.
    const neg = cssNumber(Math.max(0, -t) * 100);
    const pos = cssNumber(Math.max(0, t) * 100);
    colour = `color-mix(in oklab, color-mix(in oklab, var(--ui-diverging-zero), var(--ui-diverging-negative) ${neg}%), var(--ui-diverging-positive) ${pos}%)`;
  }
  return dim ? `color-mix(in srgb, ${colour}, var(--ui-surface) ${DIM_SHARE})` : colour;
}

/**
 * One row's background image: band c covers [c * pitch, (c + 1) * pitch), pitch being the
 * cell size plus the 1 px gap (--ui-pitch, set by the kit's rule for painted rows).
 * @param {ArrayLike<number>} fractions  the row's t values
 * @param {(c: number) => boolean} dimmed  whether column c is dimmed
 */
export function paintedRowImage(fractions, { sequential = false, dimmed = () => false, ringed = () => false } = {}) {
  const stops = [];
  for (let c = 0; c < fractions.length; c++) {
    const colour = paintedColour(fractions[c], { sequential, dim: dimmed(c) });
    // A ringed cell's left and right edges are 1 px of the ring colour (its top and bottom
    // are the ring layer's, paintedRingImage).
    if (ringed(c)) stops.push(`${RING} ${at(c)} ${at(c, '1px')}`, `${colour} ${at(c, '1px')} ${at(c, 'var(--cell) - 1px')}`, `${RING} ${at(c, 'var(--cell) - 1px')} ${at(c + 1)}`);
    else stops.push(`${colour} ${at(c)} ${at(c + 1)}`);
  }
  return `linear-gradient(to right, ${stops.join(', ')})`;
}

/** One row's ring layer (drawn 1 px high at the row's top and bottom): the ring colour over the ringed cells. */
export function paintedRingImage(cols, ringed) {
  const stops = [];
  for (let c = 0; c < cols; c++) stops.push(`${ringed(c) ? RING : 'transparent'} ${at(c)} ${at(c + 1)}`);
  return `linear-gradient(to right, ${stops.join(', ')})`;
}

// The position k bands in (plus an offset inside the band), in CSS.
function at(k, plus = null) {
  const base = k === 0 ? '0px' : `var(--ui-pitch) * ${k}`;
  if (plus === null) return k === 0 ? '0px' : `calc(${base})`;
  return `calc(${base} + ${plus})`;
}

/**
 * The column under a point `x` pixels from the row cell's left edge, for a row `width`
 * pixels wide holding `cols` bands (each band a cell and a gap; the last has no gap).
 */
export function columnAt(x, width, cols) {
  if (!(width > 0) || !(cols > 0) || !Number.isFinite(x)) return null;
  const pitch = (width + 1) / cols;
  return Math.max(0, Math.min(cols - 1, Math.floor(x / pitch)));
}
