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
// a cell's (styles.js): only the shade t of each value is written from script, in the same
// steps of 0.01 as a cell's class.
//
// Pure string building (no DOM): tested in Node (tests/node/ui-painted-rows.test.mjs).
import { cssNumber, shadeOf } from './colour-scale.js';

// The theme's colours under short names (the kit's rule for painted rows sets --pz, --pn,
// --pp, --pq, --ph, --ps, --pd, --pk and --pr from the --ui-* palette): a map is about 130
// rows of 12 values, and every character of the images is parsed as the page loads.

/** The thin ring around a cell lit by itself (highlight's `cells`): the path shows even where its values are near 0. */
export const RING = 'var(--pr)';

/**
 * The CSS colour of one value. `value` is its fraction of the scale: in [-1, 1] for the
 * diverging scale, [0, 1] for the sequential one (an attention weight). `dim`: mixed toward
 * the surface (by --ui-paint-dim, default 72%, the kit's `--dim`), as a cell outside a
 * highlight is.
 */
export function paintedColour(value, { sequential = false, dim = false } = {}) {
  // The shade a cell of the same value draws (its step of 0.01, colour-scale.js), so that a
  // painted row and a row of cells show one colour.
  const t = shadeOf(value);
  let colour;
  if (sequential) {
    // A weight t takes t of the hue on a light surface, sqrt(t) on a dark one (colour-scale.js,
    // sequentialShare): --pk (--ui-paint-dark) is 0 or 1 by theme, so one expression serves both.
    const light = cssNumber(t * 100);
    const darkExtra = cssNumber((Math.sqrt(t) - t) * 100);
    colour = `color-mix(in oklab,var(--pq),var(--ph) calc(${light}% + var(--pk) * ${darkExtra}%))`;
  } else {
    // The zero tint, mixed toward the negative end by -t or toward the positive end by t
    // (the kit's cell mixes toward both, one of them by 0%: the same colour).
    colour = t === 0 ? 'var(--pz)' : `color-mix(in oklab,var(--pz),var(${t < 0 ? '--pn' : '--pp'}) ${cssNumber(Math.abs(t) * 100)}%)`;
  }
  return dim ? `color-mix(in srgb,${colour},var(--ps) var(--pd))` : colour;
}

/**
 * One row's background image: with `cols` values, band c covers [c / cols, (c + 1) / cols)
 * of the image, which the kit's rule makes one gap wider than the row (the row and its last
 * gap): with the columns equally wide, each band starts at its column's cell, however wide
 * the column labels made the columns.
 * @param {ArrayLike<number>} fractions  the row's t values
 * @param {(c: number) => boolean} dimmed  whether column c is dimmed
 * @param {(c: number) => boolean} ringed  whether column c is ringed (its left and right
 *   edges here, 1 px of the ring colour; its top and bottom are paintedRingImage's)
 */
export function paintedRowImage(fractions, { sequential = false, dimmed = () => false, ringed = () => false } = {}) {
  const cols = fractions.length;
  const stops = [];
  for (let c = 0; c < cols; c++) {
    const colour = paintedColour(fractions[c], { sequential, dim: dimmed(c) });
    const [from, to] = [at(c, cols), at(c + 1, cols)];
    if (ringed(c)) stops.push(`${RING} ${from} calc(${from} + 1px)`, `${colour} calc(${from} + 1px) calc(${to} - 2px)`, `${RING} calc(${to} - 2px) ${to}`);
    else stops.push(`${colour} ${from} ${to}`);
  }
  return `linear-gradient(to right,${stops.join(',')})`;
}

/** One row's ring layer (drawn 1 px high at the row's top and bottom): the ring colour over the ringed cells. */
export function paintedRingImage(cols, ringed) {
  const stops = [];
  for (let c = 0; c < cols; c++) stops.push(`${ringed(c) ? RING : 'transparent'} ${at(c, cols)} ${at(c + 1, cols)}`);
  return `linear-gradient(to right,${stops.join(',')})`;
}

// Where band k of cols begins, as a share of the image.
function at(k, cols) {
  return `${cssNumber((k / cols) * 100)}%`;
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
