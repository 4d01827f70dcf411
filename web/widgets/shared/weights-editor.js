// WeightsEditor: one row of attention weights over the tokens, edited with a slider and a
// text field per token. The row is a budget: it stays non-negative and sums to 1, so
// setting one weight rescales all the others proportionally (visibly: their sliders move).
// In "scores" form the same control edits unbounded scores instead (no budget).
//
// It only proposes rows; the widget commits them through the core, which has the last word
// (MhaWidget.commit). Text the learner types stays in its field even when it is invalid.
import { element } from './widget-base.js';
import { formatNumber } from './format.js';
import { parseNumber } from './parse-number.js';
import { rebalance } from '../../ui/budget-math.js';

export { rebalance };

let nextId = 0;

export class WeightsEditor {
  /**
   * @param {object} options
   * @param {string[]} options.tokens
   * @param {string} options.label        accessible name of the group, e.g. "Head A weights"
   * @param {'weights' | 'scores'} options.kind
   * @param {(row: number[], index: number) => string | null} options.onPropose
   *        called with a proposed row; returns null if accepted, else an error message
   * @param {(token: string, index: number) => string} [options.tokenClass]
   */
  constructor({ tokens, label, kind, onPropose, tokenClass = () => '' }) {
    this.tokens = tokens;
    this.kind = kind;
    this.onPropose = onPropose;
    this.values = tokens.map(() => 0);
    const id = `weights-${nextId++}`;
    this.rows = tokens.map((token, index) => {
      const name = `${kind === 'scores' ? 'Score' : 'Weight'} on “${token}”`;
      const slider = element('input', {
        type: 'range', min: kind === 'scores' ? '-6' : '0', max: kind === 'scores' ? '6' : '1',
        step: kind === 'scores' ? '0.1' : '0.01', ariaLabel: name, className: 'slider',
      });
      const field = element('input', {
        type: 'text', inputMode: 'decimal', autocomplete: 'off', spellcheck: false,
        ariaLabel: `${name}, exact value`, className: 'num',
      });
      const error = element('p', { className: 'field-error', id: `${id}-error-${index}`, role: 'alert' });
      field.setAttribute('aria-describedby', error.id);
      slider.addEventListener('input', () => this.#propose(index, Number(slider.value), null));
      field.addEventListener('input', () => {
        const parsed = parseNumber(field.value, {
          min: kind === 'scores' ? -1e6 : 0, max: kind === 'scores' ? 1e6 : 1, what: name,
        });
        if (!parsed.ok) {
          this.#showError(index, parsed.message);
          return;
        }
        this.#propose(index, parsed.value, field);
      });
      field.addEventListener('blur', () => {
        if (field.getAttribute('aria-invalid') !== 'true') field.value = formatNumber(this.values[index], 2);
      });
      const bar = element('span', { className: 'weight-bar' });
      const barTrack = element('span', { className: 'weight-track', ariaHidden: 'true' }, [bar]);
      const tokenLabel = element('span', { className: `token ${tokenClass(token, index)}`, textContent: token });
      const row = element('div', { className: 'weight-row' }, [
        tokenLabel, slider, field, barTrack, error,
      ]);
      return { row, slider, field, error, bar, token: tokenLabel };
    });
    this.element = element('div', { className: `weights-editor ${kind}`, role: 'group', ariaLabel: label },
      this.rows.map((r) => r.row));
  }

  #propose(index, value, typedField) {
    const row = this.kind === 'scores'
      ? this.values.map((v, i) => (i === index ? value : v))
      : rebalance(this.values, index, value);
    // The widget repaints (show) inside onPropose: mark the learner's field first so that
    // their own text (e.g. "0." mid-typing) is not rewritten under them.
    this.typedField = typedField;
    const error = this.onPropose(row, index);
    this.typedField = null;
    this.#showError(index, error ?? '');
    // A slider move replaces any invalid text left in this row's field.
    if (!error && !typedField) this.rows[index].field.value = formatNumber(row[index], 2);
  }

  #showError(index, message) {
    const { field, error } = this.rows[index];
    field.setAttribute('aria-invalid', String(Boolean(message)));
    error.textContent = message;
  }

  /** Shows `values` (the committed row) and, optionally, `weights` as bars (0..1). */
  show(values, weights = values) {
    this.values = values.slice();
    values.forEach((value, i) => {
      const { slider, field, bar } = this.rows[i];
      slider.value = String(value);
      slider.setAttribute('aria-valuetext', formatNumber(value, 2));
      // Leave alone the field the learner is typing in, and any field holding invalid text
      // (it stays, with its message, until corrected: nothing typed is thrown away).
      if (field !== this.typedField && field.getAttribute('aria-invalid') !== 'true') {
        field.value = formatNumber(value, 2);
      }
      bar.style.width = `${Math.max(0, Math.min(1, weights[i])) * 100}%`;
    });
  }

  setReadOnly(readOnly) {
    for (const { slider, field } of this.rows) {
      slider.disabled = readOnly;
      field.readOnly = readOnly;
    }
  }
}
