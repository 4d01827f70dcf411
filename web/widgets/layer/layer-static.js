// <mha-layer>'s static figure (see shared/static-figure.js): the whole forward pass at a
// glance as the core computed it, each matrix a grid of its real shape: the features X,
// each head's attention weights (in its colour, the picked word's row framed), the
// concatenation (each head's columns in its colour), W_O and the output; and the picked
// word's path in words (pathSentence, the widget's own). State from the `state`
// attribute, else the starting state with the heads / token / head attributes.
import { headClass } from '../shared/world.js';
import { escapeHtml, figureFromState, figureMessages, staticFigure, stringAttribute, svgGrid, svgImage, svgText } from '../shared/static-figure.js';
import { LayerModel, defaultLayerState, layerOverrides, pathSentence, sanitizeLayerState } from './layer-model.js';

const CELL = 5;
const GAP = 14;

export function renderStaticFigure(attributes, { engine, world, locale }) {
  const m = figureMessages(attributes, locale);
  const [heads, token, head] = ['heads', 'token', 'head'].map((name) => stringAttribute(attributes, name));
  const { overrides } = layerOverrides(world, { heads, token, head });
  return figureFromState(attributes, {
    start: defaultLayerState(world, overrides),
    sanitize: (raw) => sanitizeLayerState(raw, world),
    createModel: () => new LayerModel(engine, world),
    draw: (model, state) => figure(world, model.compute(state), state, m),
  });
}

/** About how wide a line of text is in the figure's font (its average glyph, 0.58 em). */
const textWidth = (text, size) => Math.ceil(text.length * size * 0.58);

/** The largest |value| of a matrix (the scale of its diverging grid). */
const largest = (m) => m.data.reduce((a, v) => Math.max(a, Math.abs(v)), 0) || 1;

function figure(w, view, state, m) {
  const t = (key, params) => m.t(`staticFigure.layer.${key}`, params);
  const parts = [];
  // Two rows (narrow enough for a phone): X and the heads' weights, then Concat, W_O, output.
  const rowHeight = 26 + w.L * CELL + 12;
  let x = 0;
  let row = 0;
  let width = 0;
  // One matrix: a title above, its shape under the title, the grid below.
  const place = (title, shapeText, grid) => {
    const y = row * rowHeight;
    parts.push(svgText(x, y + 10, title, { className: 'small label' }), svgText(x, y + 21, shapeText, { className: 'small' }), grid(x, y + 26));
  };
  const matrix = (title, m, options = {}) => {
    place(title, `${m.rows} × ${m.cols}`, (gx, gy) => svgGrid({ x: gx, y: gy, rows: m.rows, cols: m.cols, data: m.data, cell: CELL, max: largest(m), diverging: true, ...options }));
    x += m.cols * CELL + GAP;
  };
  matrix(t('x'), view.x, { outlineRow: state.token });
  // Each head's map is labelled with its number, shape and name (on paper the legend below
  // is far from the small grids); the column is as wide as its longest label.
  view.weights.forEach((weights, i) => {
    const head = view.heads[i];
    const title = `${t('head', { number: String(i + 1) })} · ${weights.rows} × ${weights.cols}`;
    const name = m.headName(head).replace(/\u00ad/g, '');
    place(title, name, (gx, gy) => svgGrid({
      x: gx, y: gy, rows: weights.rows, cols: weights.cols, data: weights.data, cell: CELL, headClass: headClass(head),
      outlineRow: i === state.head ? state.token : null,
    }));
    x += Math.max(weights.cols * CELL, textWidth(title, 11), textWidth(name, 10)) + GAP;
  });
  width = x - GAP;
  x = 0;
  row = 1;
  // The concatenation: each head's columns drawn in its colour, strength by |value|.
  const concatMax = largest(view.concat);
  place(t('concat'), `${view.concat.rows} × ${view.concat.cols}`, (gx, gy) => view.heads.map((head) => {
    const cols = head.end - head.start;
    const block = new Float32Array(view.concat.rows * cols);
    for (let r = 0; r < view.concat.rows; r++) {
      for (let c = 0; c < cols; c++) block[r * cols + c] = Math.abs(view.concat.data[r * view.concat.cols + head.start + c]);
    }
    return svgGrid({ x: gx + head.start * CELL, y: gy, rows: view.concat.rows, cols, data: block, cell: CELL, max: concatMax, headClass: headClass(head), outlineRow: state.token });
  }).join(''));
  x += view.concat.cols * CELL + GAP;
  matrix(t('wo'), view.wo);
  matrix(t('output'), view.output, { outlineRow: state.token });
  width = Math.max(width, x - GAP);
  const height = rowHeight + 26 + Math.max(view.concat.rows, view.wo.rows) * CELL;
  const headNames = view.heads.map((head, i) => t('headNamed', { number: String(i + 1), name: m.headName(head) })).join(', ');
  const label = t('label', {
    h: String(view.h), dK: String(view.dK), x: `${view.x.rows} × ${view.x.cols}`, heads: headNames, weights: `${view.x.rows} × ${view.x.rows}`, word: w.tokens[state.token],
  });
  const svg = svgImage({ width, height, label, body: parts.join(''), scale: 1.4 });
  const legend = `<p class="mha-static-readouts">${view.heads.map((head, i) => `<span class="head-chip ${headClass(head)}">${escapeHtml(t('legend', { number: String(i + 1), name: m.headName(head) }))}</span>`).join(' ')}</p>`;
  return staticFigure({
    name: 'layer',
    title: t('title'),
    caption: escapeHtml(pathSentence(view, state, m)),
    body: svg + legend,
    m,
  });
}
