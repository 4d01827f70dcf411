// Heatmap: one head's L x L attention weights as a CSS grid of cells, rows = the token
// asking (query), columns = the tokens it looks at (keys). Each row sums to 1, so a row is
// one weighted average: where the colour sits is what that head "asked about".
//
// The shade is set from script (style.setProperty on a custom property, which a strict CSP
// allows) and mixed in CSS: 0 = the pale base, 1 = the head's full colour. The grid itself
// is role="img" with a text alternative that states every row's strongest key; a table view
// (the same numbers as text) can replace it. Clicking a row picks that query token.
import { element } from '../shared/widget-base.js';
import { formatNumber } from '../shared/format.js';
import { strongestKeys } from './heads-questions-model.js';

export class Heatmap {
  /**
   * @param {{ tokens: string[], onPickRow: (row: number) => void }} options
   */
  constructor({ tokens, onPickRow }) {
    this.tokens = tokens;
    const L = tokens.length;
    this.grid = element('div', { className: 'heatmap', role: 'img' });
    this.grid.style.gridTemplateColumns = `max-content repeat(${L}, var(--cell))`;
    this.grid.append(element('span', { className: 'corner' }));
    this.grid.append(...tokens.map((token) => element('span', { className: 'col-label', textContent: token })));
    this.rowLabels = [];
    this.cells = [];
    tokens.forEach((token, t) => {
      const label = element('span', { className: 'row-label', textContent: token, dataset: { row: String(t) } });
      this.rowLabels.push(label);
      this.grid.append(label);
      const row = tokens.map(() => element('span', { className: 'cell', dataset: { row: String(t) } }));
      this.cells.push(row);
      this.grid.append(...row);
    });
    // Pointer convenience; the query menu is the keyboard way to pick a row.
    this.grid.addEventListener('click', (event) => {
      const row = event.target.closest?.('[data-row]')?.dataset.row;
      if (row !== undefined) onPickRow(Number(row));
    });

    // The same weights as text: a table with row and column headers.
    this.tableBodyCells = [];
    const head = element('tr', {}, [
      element('th', { scope: 'col', textContent: 'query ↓ key →' }),
      ...tokens.map((token) => element('th', { scope: 'col', textContent: token })),
    ]);
    this.tableRows = tokens.map((token) => {
      const cells = tokens.map(() => element('td', { className: 'num' }));
      this.tableBodyCells.push(cells);
      return element('tr', {}, [element('th', { scope: 'row', textContent: token }), ...cells]);
    });
    this.caption = element('caption', { className: 'sr-only' }); // the panel's heading names it on screen
    this.table = element('table', { className: 'weights-table' }, [
      this.caption, element('thead', {}, [head]), element('tbody', {}, this.tableRows),
    ]);
    this.tableWrap = element('div', { className: 'table-scroll', tabIndex: 0, role: 'region' }, [this.table]);
    this.element = element('div', { className: 'heatmap-box' }, [
      element('div', { className: 'heatmap-scroll' }, [this.grid]), this.tableWrap,
    ]);
  }

  /**
   * @param {import('../../engine/engine.js').Matrix} weights  the head's L x L weights (core)
   * @param {{ name: string, selectedRow: number, asTable: boolean }} options
   */
  draw(weights, { name, selectedRow, asTable }) {
    const { tokens } = this;
    const rows = tokens.map((_, t) => Array.from(weights.row(t)));
    rows.forEach((row, t) => {
      const selected = t === selectedRow;
      this.rowLabels[t].classList.toggle('selected', selected);
      this.tableRows[t].classList.toggle('selected', selected);
      row.forEach((w, s) => {
        const cell = this.cells[t][s];
        cell.style.setProperty('--w', String(Math.min(1, Math.max(0, w))));
        cell.classList.toggle('selected', selected);
        this.tableBodyCells[t][s].textContent = formatNumber(w);
      });
    });
    // The text alternative: every row's strongest key, so the picture's pattern is in words.
    const perRow = rows.map((row, t) => {
      const { keys, weight, even } = strongestKeys(row);
      return even ? `${tokens[t]}: even (${formatNumber(weight)})`
        : `${tokens[t]} → ${keys.map((s) => tokens[s]).join(' / ')} (${formatNumber(weight)})`;
    });
    this.grid.setAttribute('aria-label', `${name}: attention weights, one row per query word. Strongest key of each row: ${perRow.join('; ')}.`);
    this.caption.textContent = `${name}: attention weights (rows: query words, columns: keys)`;
    this.tableWrap.setAttribute('aria-label', `${name}: table of weights`);
    this.grid.parentElement.hidden = asTable;
    this.tableWrap.hidden = !asTable;
  }
}
