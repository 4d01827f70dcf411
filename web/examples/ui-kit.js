// The UI kit gallery: every component of web/ui/ on one page, wired to a stand-in "core"
// that accepts values within limits and refuses others with a message (as the real core
// does through MhaWidget.commit). tests/browser/ui-kit.test.mjs drives this page; the
// components and the proposals they made are on window.gallery for the test.
import { adoptKitStyles } from '../ui/styles.js';
import { MatrixGrid } from '../ui/matrix-grid.js';
import { element } from '../widgets/shared/widget-base.js';

adoptKitStyles(document);
const gallery = { proposals: [] };
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
