// MatrixEditor: a small grid of text fields for one d_model x d_k projection (here W_Q^i).
// Rows are the token features, columns the d_k query coordinates. Typing a valid number, or
// ArrowUp / ArrowDown on a focused field (+/- step; with Shift +/- bigStep), proposes one
// entry; the widget commits it through the core, which has the last word.
//
// Invalid text ("abc", "1e999", "", "0x10") is never thrown away: the field keeps it,
// is marked aria-invalid, and a message appears on the line just below its row (role=alert,
// linked by aria-describedby) until it is corrected; the last good matrix stays in force.
import { element } from '../shared/widget-base.js';
import { parseNumber } from '../shared/parse-number.js';

let nextId = 0;

/** An editable field's text: ASCII minus (so it can be retyped), at most 4 decimals. */
export function fieldText(value) {
  const rounded = Number(value.toFixed(4));
  return String(Object.is(rounded, -0) ? 0 : rounded);
}

export class MatrixEditor {
  /**
   * @param {object} options
   * @param {string[]} options.rowLabels   one per row (feature names)
   * @param {number} options.cols          d_k
   * @param {{ limit: number, step: number, bigStep: number }} options.edit
   * @param {(row: number, col: number, value: number) => string | null} options.onPropose
   *        returns null if the core accepted the edit, else the error message
   */
  constructor({ rowLabels, cols, edit, onPropose }) {
    this.rowLabels = rowLabels;
    this.cols = cols;
    this.edit = edit;
    this.onPropose = onPropose;
    this.values = new Float32Array(rowLabels.length * cols);
    this.names = [];
    const id = `matrix-${nextId++}`;
    this.headerCells = Array.from({ length: cols }, () => element('th', { scope: 'col' }));
    this.fields = [];
    const body = [];
    rowLabels.forEach((label, r) => {
      const fields = [];
      const errors = [];
      const cells = Array.from({ length: cols }, (_, c) => {
        const field = element('input', {
          type: 'text', inputMode: 'decimal', autocomplete: 'off', spellcheck: false, className: 'num',
        });
        const error = element('p', { className: 'field-error', id: `${id}-${r}-${c}`, role: 'alert' });
        field.setAttribute('aria-describedby', error.id);
        field.addEventListener('input', () => this.#typed(r, c));
        field.addEventListener('keydown', (event) => this.#arrow(event, r, c));
        field.addEventListener('blur', () => {
          if (field.getAttribute('aria-invalid') !== 'true') field.value = fieldText(this.#value(r, c));
        });
        fields.push(field);
        errors.push(error);
        return element('td', {}, [field]);
      });
      this.fields.push(fields.map((field, c) => ({ field, error: errors[c] })));
      body.push(element('tr', {}, [element('th', { scope: 'row', textContent: label }), ...cells]));
      // The messages for this row's fields sit on the line right below it.
      const errorRow = element('tr', { className: 'error-row', hidden: true }, [
        element('td', { colSpan: cols + 1 }, errors),
      ]);
      this.fields[r].errorRow = errorRow;
      body.push(errorRow);
    });
    this.caption = element('caption', { className: 'sr-only' });
    this.element = element('div', { className: 'matrix-scroll' }, [
      element('table', { className: 'matrix-editor' }, [
        this.caption,
        element('thead', {}, [element('tr', {}, [element('th', { scope: 'col', textContent: 'feature' }), ...this.headerCells])]),
        element('tbody', {}, body),
      ]),
    ]);
  }

  #value(r, c) {
    return this.values[r * this.cols + c];
  }

  #typed(r, c) {
    const { field } = this.fields[r][c];
    // A typographic minus (as printed elsewhere in the lesson) counts as a minus sign.
    const parsed = parseNumber(field.value.replace(/\u2212/g, '-'), {
      min: -this.edit.limit, max: this.edit.limit, what: this.names[r][c],
    });
    if (!parsed.ok) {
      this.#showError(r, c, parsed.message);
      return;
    }
    this.#propose(r, c, parsed.value, field);
  }

  // ArrowUp / ArrowDown nudge the entry; the base is the valid text in the field if any,
  // else the committed value (so an arrow press also recovers from invalid text).
  #arrow(event, r, c) {
    if (event.key !== 'ArrowUp' && event.key !== 'ArrowDown') return;
    event.preventDefault();
    const { field } = this.fields[r][c];
    const typed = parseNumber(field.value.replace(/\u2212/g, '-'), { min: -this.edit.limit, max: this.edit.limit });
    const base = typed.ok ? typed.value : this.#value(r, c);
    const step = (event.shiftKey ? this.edit.bigStep : this.edit.step) * (event.key === 'ArrowUp' ? 1 : -1);
    // Rounded to 6 decimals so that ten presses of 0.1 give 1, not 0.9999999999999999.
    const next = Math.min(this.edit.limit, Math.max(-this.edit.limit, Number((base + step).toFixed(6))));
    field.value = fieldText(next);
    this.#propose(r, c, next, field);
  }

  #propose(r, c, value, typedField) {
    // The widget repaints (show) inside onPropose: the field being typed in must be known
    // by then, so that "2." stays "2." while the learner goes on to type "2.5".
    this.typedField = typedField;
    const error = this.onPropose(r, c, value);
    this.typedField = null;
    this.#showError(r, c, error ?? '');
  }

  #showError(r, c, message) {
    const { field, error } = this.fields[r][c];
    field.setAttribute('aria-invalid', String(Boolean(message)));
    error.textContent = message;
    this.fields[r].errorRow.hidden = this.fields[r].every((f) => f.error.textContent === '');
  }

  /** Forgets invalid text (e.g. when the grid starts showing another head's matrix). */
  clearErrors() {
    this.fields.forEach((row, r) => row.forEach((_, c) => this.#showError(r, c, '')));
  }

  /**
   * Shows `values` (d_model x d_k, row-major, as the core holds them).
   * @param {{ matrixName: string, columnLabels: string[] }} options
   */
  show(values, { matrixName, columnLabels }) {
    this.values = Float32Array.from(values);
    this.caption.textContent = `${matrixName}: rows are token features, columns are query coordinates`;
    this.headerCells.forEach((th, c) => {
      th.replaceChildren(element('span', { className: 'col-num', textContent: `col ${c + 1}` }),
        element('span', { className: 'col-feature', textContent: columnLabels[c] }));
    });
    this.names = this.rowLabels.map((label, r) => Array.from({ length: this.cols },
      (_, c) => `${matrixName}, row “${label}”, column ${c + 1}`));
    this.fields.forEach((row, r) => row.forEach(({ field }, c) => {
      field.setAttribute('aria-label', `${this.names[r][c]} (looks for ${columnLabels[c]})`);
      const value = this.#value(r, c);
      field.classList.toggle('zero', value === 0);
      if (field !== this.typedField && field.getAttribute('aria-invalid') !== 'true') field.value = fieldText(value);
    }));
  }
}
