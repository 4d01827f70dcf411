// Heatmap: one head's L x L attention weights (rows: the query token, columns: the keys it
// looks at; each row sums to 1) in the head's hue, 0 = the pale base, 1 = the full colour.
// A read-only MatrixGrid in sequential mode plus a picked query row (outlined) and key cell.
//
// Keyboard: one tab stop; arrows move between cells; Enter picks the focused cell's query
// (row) and key (column). Pointer: click / tap a cell (query and key) or a row label (query).
import { messagesFor } from './messages.js';
import { MatrixGrid } from './matrix-grid.js';

export class Heatmap {
  /**
   * @param {object} o
   * @param {string} o.label          accessible name, e.g. "Head A: attention weights"
   * @param {string[]} o.tokens
   * @param {ArrayLike<number>} o.weights   L x L, row-major
   * @param {string} [o.colour]       the head's colour (CSS), e.g. 'var(--ui-head-a)'
   * @param {(query: number, key: number | null) => void} [o.onPick]
   * @param {boolean} [o.compact]     12-16 px read-only overview (no picking)
   * @param {boolean} [o.focusable]   false: a static picture (a plain table, no tab stop), for
   *                                  compact maps whose small cells are no tap targets
   * @param {boolean} [o.paintRows]   with focusable false: each row one painted cell (MatrixGrid)
   */
  constructor({ label, tokens, weights, colour = null, onPick = null, compact = false, focusable = true, paintRows = false, messages = messagesFor('en') }) {
    const L = tokens.length;
    this.tokens = tokens;
    this.m = messages;
    this.grid = new MatrixGrid({
      messages,
      label, rows: L, cols: L, data: weights, scale: 'sequential', hue: colour, max: 1, readonly: true,
      rowLabels: tokens, colLabels: tokens, compact, focusable, paintRows, onPick: onPick && !compact ? (q, k) => onPick(q, k) : null,
      rowName: (r) => messages.t('ui.heatmap.query', { token: tokens[r] }), colName: (c) => messages.t('ui.heatmap.key', { token: tokens[c] }),
    });
    this.grid.element.classList.add('ui-heatmap');
    this.element = this.grid.element;
    this.query = null;
    this.key = null;
  }

  /** New weights (same L): recoloured in place. */
  setData(weights) {
    this.grid.setData(weights);
  }

  /** Outlines the query row (and the key cell); null clears. */
  select(query, key = null) {
    const { grid } = this;
    grid.rowElements.forEach((tr, r) => tr.classList.toggle('ui-selected', r === query));
    grid.cells.forEach((cell, k) => cell.classList.toggle('ui-key', query !== null && key !== null && k === query * grid.cols + key));
    this.query = query;
    this.key = key;
    grid.rowHeaders.forEach((th, r) => {
      if (r === query) th.setAttribute('aria-description', this.m.t('ui.heatmap.pickedQuery'));
      else th.removeAttribute('aria-description');
    });
  }

  setValuesMode(on) {
    this.grid.setValuesMode(on);
  }

  focusCell(query, key, focus = true) {
    this.grid.focusCell(query, key, focus);
  }
}
