// The UI kit gallery: every component of web/ui/ on one page, wired to a stand-in "core"
// that accepts values within limits and refuses others with a message (as the real core
// does through MhaWidget.commit). tests/browser/ui-kit.test.mjs drives this page; the
// components and the proposals they made are on window.gallery for the test.
import { adoptKitStyles } from '../ui/index.js';
import { MatrixGrid } from '../ui/matrix-grid.js';
import { BudgetBar } from '../ui/budget-bar.js';
import { Heatmap } from '../ui/heatmap.js';
import { NumberField } from '../ui/number-field.js';
import { StackedBars } from '../ui/stacked-bars.js';
import { mathText, notation } from '../ui/notation.js';
import { element, morphChildren } from '../ui/dom.js';

adoptKitStyles(document);
// element and morphChildren: the kit's DOM building and in-place redraw, for their tests.
const gallery = { proposals: [], element, morphChildren };
window.gallery = gallery;
const root = document.getElementById('gallery');

function section(title, intro, children) {
  const id = `s-${title.toLowerCase().replace(/[^a-z]+/g, '-')}`;
  const box = element('section', {}, [
    element('h2', { id, textContent: title }), element('p', { textContent: intro }), ...children,
  ]);
  box.setAttribute('aria-labelledby', id);
  root.append(box);
}

function log(text) {
  return element('p', { className: 'gallery-log', textContent: text });
}

function toggle(text, onChange) {
  const button = element('button', { type: 'button', className: 'gallery-toggle', textContent: text });
  button.setAttribute('aria-pressed', 'false');
  button.addEventListener('click', () => {
    const on = button.getAttribute('aria-pressed') !== 'true';
    button.setAttribute('aria-pressed', String(on));
    onChange(on);
  });
  return button;
}

// ---- MatrixGrid -------------------------------------------------------------------------
const D = 6;
const wo = Float32Array.from({ length: D * D }, (_, k) => Math.round(Math.sin(k * 1.7 + 0.3) * 100) / 100);
const LIMIT = 2;
const woGrid = new MatrixGrid({
  label: 'W_O, 6 by 6, editable', rows: D, cols: D, data: wo, max: LIMIT,
  rowLabels: ['A1', 'A2', 'B1', 'B2', 'C1', 'C2'], colLabels: ['1', '2', '3', '4', '5', '6'],
  rowGroups: [{ start: 0, end: 2, colour: 'var(--ui-head-a)', label: 'A' }, { start: 2, end: 4, colour: 'var(--ui-head-b)', label: 'B' }, { start: 4, end: 6, colour: 'var(--ui-head-c)', label: 'C' }],
  rowName: (r) => `row ${['A1', 'A2', 'B1', 'B2', 'C1', 'C2'][r]}`, colName: (c) => `output ${c + 1}`,
  limits: { min: -5, max: 5 },
  onPropose: (r, c, value) => {
    gallery.proposals.push({ component: 'wo', r, c, value });
    if (Math.abs(value) > LIMIT) return `The core refused ${value.toFixed(2)}: entries must stay between −${LIMIT} and ${LIMIT}.`;
    wo[r * D + c] = value;
    woGrid.setData(wo);
    return null;
  },
});
gallery.woGrid = woGrid;

const tokens = ['the', 'researcher', 'said', 'it', 'works'];
const concat = Float32Array.from({ length: tokens.length * 6 }, (_, k) => Math.round(Math.cos(k * 0.9) * 80) / 100);
const picked = log('Picked: nothing yet.');
const concatGrid = new MatrixGrid({
  label: 'Concatenated head outputs, read-only', rows: tokens.length, cols: 6, data: concat, readonly: true,
  rowLabels: tokens, colLabels: ['A1', 'A2', 'B1', 'B2', 'C1', 'C2'],
  columnGroups: [{ start: 0, end: 2, colour: 'var(--ui-head-a)', label: 'head A' }, { start: 2, end: 4, colour: 'var(--ui-head-b)', label: 'head B' }, { start: 4, end: 6, colour: 'var(--ui-head-c)', label: 'head C' }],
  onPick: (r, c) => {
    gallery.proposals.push({ component: 'concat-pick', r, c });
    picked.textContent = `Picked: “${tokens[r]}”${c === null ? '' : `, column ${c + 1}`}.`;
  },
});
gallery.concatGrid = concatGrid;

const big = Float32Array.from({ length: 16 * 32 }, (_, k) => Math.sin(k * 0.37) * Math.cos(k * 0.051));
const overview = new MatrixGrid({ label: 'An overview map, 16 by 32, compact and read-only', rows: 16, cols: 32, data: big, compact: true, readonly: true });
gallery.overview = overview;

section('MatrixGrid', 'Drag a cell of W_O up or down, scroll on the focused cell, or use + / − and type a value (Enter). Entries beyond ±2 are refused.', [
  element('div', { className: 'gallery-row' }, [woGrid.element, element('div', {}, [concatGrid.element, picked])]),
  element('div', { className: 'gallery-row' }, [
    toggle('Show values', (on) => { woGrid.setValuesMode(on); concatGrid.setValuesMode(on); }),
    toggle('Highlight head B', (on) => { woGrid.highlight(on ? { rows: [2, 3] } : null); concatGrid.highlight(on ? { cols: [2, 3] } : null); }),
    toggle('Read-only W_O', (on) => woGrid.setReadonly(on)),
  ]),
  overview.element,
]);

// ---- BudgetBar --------------------------------------------------------------------------
const budgetTokens = ['the', 'researcher', 'said', 'it', 'works', 'well', 'today'];
let budget = [0.05, 0.4, 0.08, 0.3, 0.12, 0.03, 0.02];
const MAX_WEIGHT = 0.9;
const budgetBar = new BudgetBar({
  label: 'Attention budget of “said”, head A', tokens: budgetTokens, weights: budget, colour: 'var(--ui-head-a)',
  onPropose: (row) => {
    gallery.proposals.push({ component: 'budget', row });
    if (Math.max(...row) > MAX_WEIGHT) return `The core refused: no single weight may exceed ${MAX_WEIGHT} in this example.`;
    budget = row;
    budgetBar.setWeights(row);
    return null;
  },
});
gallery.budgetBar = budgetBar;
const paletteBar = new BudgetBar({
  label: 'Read-only budget, one colour per token', tokens: ['A', 'B', 'C', 'D'], weights: [0.25, 0.35, 0.3, 0.1],
  colours: ['var(--ui-head-a)', 'var(--ui-head-b)', 'var(--ui-head-c)', 'var(--ui-head-d)'], readonly: true,
});
gallery.paletteBar = paletteBar;
section('BudgetBar', 'Drag a boundary between two words, or select a word and press ↑ / ↓ (Enter types a value). No weight may exceed 0.9 here.', [
  budgetBar.element, paletteBar.element,
]);

// ---- Heatmap ----------------------------------------------------------------------------
const L = tokens.length;
const weights = new Float32Array(L * L);
for (let q = 0; q < L; q++) {
  let sum = 0;
  for (let k = 0; k < L; k++) sum += (weights[q * L + k] = Math.exp(2.2 * Math.cos(q * 1.3 - k * 0.8)));
  for (let k = 0; k < L; k++) weights[q * L + k] /= sum;
}
const heatPicked = log('Query: “said”.');
const heatmap = new Heatmap({
  label: 'Head B: attention weights, rows are queries, columns are keys', tokens, weights, colour: 'var(--ui-head-b)',
  onPick: (query, key) => {
    gallery.proposals.push({ component: 'heatmap', query, key });
    heatmap.select(query, key);
    heatPicked.textContent = `Query: “${tokens[query]}”${key === null ? '' : `, key “${tokens[key]}”`}.`;
  },
});
heatmap.select(2);
gallery.heatmap = heatmap;
const smallHeat = new Heatmap({ label: 'Head A at a glance (compact)', tokens, weights: weights.map((w, k) => weights[(k * 7) % weights.length]), colour: 'var(--ui-head-a)', compact: true });
section('Heatmap', 'Click or tap a cell to pick its query and key, or a word on the left to pick the query. Keyboard: arrows, then Enter.', [
  element('div', { className: 'gallery-row' }, [element('div', {}, [heatmap.element, heatPicked]), smallHeat.element]),
]);

// ---- painted rows (MatrixGrid paintRows) --------------------------------------------------
// The same static overviews twice: as a table of cells and with each row one painted cell
// (what the layer's map uses); the test compares their colours, names and widths.
const paintedPair = (name, options) => ['cells', 'painted'].map((kind) => {
  const grid = new MatrixGrid({
    label: `${name}, ${kind === 'cells' ? 'as cells' : 'painted rows'}`, compact: true, readonly: true, focusable: false,
    paintRows: kind === 'painted', rowLabels: tokens, ...options,
  });
  grid.element.dataset.pair = `${name} ${kind}`;
  return grid;
});
const diverging = paintedPair('Concat', {
  rows: tokens.length, cols: 6, data: concat,
  columnGroups: [{ start: 0, end: 3, colour: 'var(--ui-head-a)', label: '1' }, { start: 3, end: 6, colour: 'var(--ui-head-b)', label: '2' }],
});
diverging.forEach((grid) => grid.highlight({ rows: [1], cols: [5], cells: [[3, 2], [3, 3]] }));
const sequential = paintedPair('Head A weights', {
  rows: tokens.length, cols: tokens.length, data: weights, scale: 'sequential', hue: 'var(--ui-head-a)', max: 1, colLabels: tokens,
});
gallery.painted = { diverging, sequential };
section('Painted rows', 'Static overviews drawn as a table of cells (left) and with each row one painted cell (right): the same colours.', [
  element('div', { className: 'gallery-row' }, diverging.map((grid) => grid.element)),
  element('div', { className: 'gallery-row' }, sequential.map((grid) => grid.element)),
]);

// ---- NumberField ------------------------------------------------------------------------
const fieldLog = log('Sequence length: 5.');
const lengthField = new NumberField({
  label: 'Sequence length (1 to 64)', value: 5, min: 0, max: 1000, decimals: 0,
  onPropose: (value) => {
    gallery.proposals.push({ component: 'field', value });
    if (!Number.isInteger(value) || value < 1 || value > 64) return 'The core refused: the length must be a whole number from 1 to 64.';
    fieldLog.textContent = `Sequence length: ${value}.`;
    return null;
  },
});
gallery.lengthField = lengthField;
section('NumberField', 'Type a value: invalid text stays with its message until you leave the field, then the last good value returns.', [
  lengthField.element, fieldLog,
]);

// ---- StackedBars and notation -------------------------------------------------------------
const bars = new StackedBars({ label: 'Output as the sum of the heads’ contributions', columnLabels: ['1', '2', '3', '4', '5', '6'] });
bars.draw([
  { values: [0.4, -0.2, 0.3, 0.1, -0.5, 0.2], colour: 'var(--ui-head-a)' },
  { values: [0.2, 0.3, -0.4, 0.2, 0.1, -0.3], colour: 'var(--ui-head-b)' },
  { values: [-0.1, 0.2, 0.2, -0.3, -0.2, 0.4], colour: 'var(--ui-head-c)' },
], { totals: [0.5, 0.3, 0.1, 0, -0.6, 0.3] });
gallery.bars = bars;
const formula = element('p', {}, notation('head_i = softmax(Q_i K_i^T / √d_k) V_i, and the output is concat(head_1, …, head_h) W_O.'));
section('StackedBars and notation', 'Three heads’ contributions stacked per output coordinate; the thick marks are the totals.', [
  element('div', { className: 'ui-scroll' }, [bars.element]), formula, element('p', {}, [mathText('Cost: h · L^2 · d_k multiply-adds')]),
]);
