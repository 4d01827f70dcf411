// WoGrid: the editable d_model x d_model W_O, one text field per entry, its rows grouped by
// the head whose slice of the concatenation they multiply (block W_O^i).
//
// Ways to edit an entry (all propose a value; the widget commits it through the core):
//   * type a number into its field;
//   * ArrowUp / ArrowDown: +/- 0.1 (with Shift: 0.01);
//   * drag up or down on it with a mouse or pen (0.01 per pixel; one undo step per drag);
//   * the slider under the grid, which edits the selected (last focused) entry.
// Moving around: the grid is one stop in the Tab order (a roving tabindex: the selected
// entry); Ctrl + arrow keys or Alt + arrow keys move to the neighbouring entry.
import { element } from '../shared/widget-base.js';
import { HEAD_NAMES } from './wo-mixing-model.js';
import { clampRound, fieldText, parseField, stepValue } from './fields.js';
import { notation } from './notation.js';

const MOVES = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
const DRAG_THRESHOLD = 4; // pixels of vertical travel before a press becomes a drag

export class WoGrid {
  /**
   * @param {object} options
   * @param {object} options.config   the widget's configuration (dModel, steps, limits)
   * @param {(index: number, value: number, options: { record: boolean }) => string | null} options.onPropose
   * @param {(index: number) => number} options.currentValue   the committed entry
   */
  constructor({ config, onPropose, currentValue }) {
    this.config = config;
    this.d = config.dModel;
    this.onPropose = onPropose;
    this.currentValue = currentValue;
    this.selected = 0;
    this.errors = new Map(); // entry index -> message, latest last
    this.fields = [];
    this.heads = null;

    this.table = element('table', { className: 'wo-grid' });
    this.table.setAttribute('aria-describedby', 'wo-grid-hint'); // read once, not on every entry
    this.error = element('p', { className: 'field-error grid-error', id: 'wo-grid-error', role: 'alert' });
    const { min, max, step } = config.slider;
    this.slider = element('input', { type: 'range', min: String(min), max: String(max), step: String(step), className: 'slider' });
    this.sliderRecorded = false;
    this.slider.addEventListener('input', () => {
      // A slider drag is one undo step: only its first movement is recorded.
      this.#propose(this.selected, clampRound(Number(this.slider.value), config.woLimit), { record: !this.sliderRecorded });
      this.sliderRecorded = true;
    });
    this.slider.addEventListener('change', () => { this.sliderRecorded = false; });
    this.sliderLabel = element('span', { className: 'slider-label' });
    this.sliderValue = element('span', { className: 'num slider-value', ariaHidden: 'true' });

    this.element = element('div', { className: 'wo-editor' }, [
      element('p', { className: 'hint', id: 'wo-grid-hint', textContent: 'Type a number into any entry. Keyboard: ↑ / ↓ change the focused entry by 0.1 (with Shift by 0.01); Ctrl or Alt + arrow keys move between entries; Tab leaves the grid. Mouse: drag an entry up or down. Touch: use the slider below.' }),
      element('div', { className: 'grid-scroll' }, [this.table]),
      this.error,
      element('label', { className: 'selected-entry' }, [this.sliderLabel, this.slider, this.sliderValue]),
    ]);
  }

  /** Shows the committed W_O. `previous` (same head count) tells which entries changed. */
  show(wo, heads, dK, previous) {
    if (heads !== this.heads) this.#build(heads, dK);
    wo.forEach((value, k) => {
      const field = this.fields[k];
      if (field === this.typed) return; // the learner is typing here: keep their text
      const invalid = field.getAttribute('aria-invalid') === 'true';
      if (invalid && previous && previous[k] === value) return; // keep bad text until corrected
      if (invalid) this.#setError(k, '');
      field.value = fieldText(value);
    });
    this.typed = null;
    const value = wo[this.selected];
    this.slider.value = String(value);
    this.slider.setAttribute('aria-valuetext', fieldText(value));
    this.sliderValue.textContent = fieldText(value);
  }

  #rowLabel(r) {
    return `${HEAD_NAMES[Math.floor(r / this.dK)]}${(r % this.dK) + 1}`;
  }

  // One tbody per head (row block W_O^i), headed by a row that names it.
  #build(heads, dK) {
    const d = this.d;
    this.heads = heads;
    this.dK = dK;
    this.errors.clear();
    this.error.textContent = '';
    this.fields = [];
    const head = element('thead', {}, [element('tr', {}, [
      element('th', { scope: 'col', className: 'corner', textContent: 'row' }),
      ...Array.from({ length: d }, (_, j) => element('th', { scope: 'col', textContent: `${j + 1}`, ariaLabel: `output ${j + 1}` })),
    ])]);
    const blocks = Array.from({ length: heads }, (_, i) => {
      const name = HEAD_NAMES[i];
      const rows = Array.from({ length: dK }, (_, c) => {
        const r = i * dK + c;
        const cells = Array.from({ length: d }, (_, j) => element('td', {}, [this.#field(r, j)]));
        return element('tr', {}, [element('th', { scope: 'row', textContent: this.#rowLabel(r) }), ...cells]);
      });
      return element('tbody', { className: `head-${name.toLowerCase()}` }, [
        element('tr', { className: 'block' }, [element('th', { scope: 'rowgroup', colSpan: d + 1 }, notation(`W_O^${name}: head ${name}’s rows (its slice ${name}1–${name}${dK})`))]),
        ...rows,
      ]);
    });
    this.table.replaceChildren(
      element('caption', {}, notation(`W_O, ${d} × ${d}: rows = coordinates of the concatenation, columns = output coordinates`)),
      head, ...blocks);
    this.#select(Math.min(this.selected, d * d - 1), false);
  }

  #field(r, j) {
    const k = r * this.d + j;
    const name = `Entry (row ${this.#rowLabel(r)}, output ${j + 1})`;
    const field = element('input', {
      type: 'text', inputMode: 'decimal', autocomplete: 'off', spellcheck: false,
      ariaLabel: `W O entry, row ${this.#rowLabel(r)}, output ${j + 1}`, className: 'num cell', tabIndex: -1,
    });
    field.setAttribute('aria-describedby', 'wo-grid-error');
    field.addEventListener('focus', () => this.#select(k, false));
    field.addEventListener('input', () => {
      const parsed = parseField(field.value, this.config.woLimit, name);
      if (!parsed.ok) {
        this.#setError(k, parsed.message);
        return;
      }
      this.typed = field; // show() leaves this field's text alone while it commits
      this.#propose(k, parsed.value, { record: true });
      this.typed = null;
    });
    field.addEventListener('blur', () => {
      if (field.getAttribute('aria-invalid') !== 'true') field.value = fieldText(this.currentValue(k));
    });
    field.addEventListener('keydown', (event) => this.#key(event, k));
    this.#dragging(field, k);
    this.fields[k] = field;
    return field;
  }

  #key(event, k) {
    const move = MOVES[event.key];
    if (move && (event.ctrlKey || event.altKey)) {
      event.preventDefault();
      const d = this.d;
      const r = Math.max(0, Math.min(d - 1, Math.floor(k / d) + move[0]));
      const j = Math.max(0, Math.min(d - 1, (k % d) + move[1]));
      this.#select(r * d + j, true);
      return;
    }
    const value = stepValue(event, this.currentValue(k), this.config);
    if (value === null) return;
    event.preventDefault();
    this.#propose(k, value, { record: true });
  }

  // Vertical drag on an entry (mouse and pen; touch scrolls the page and uses the slider).
  // A press that does not move is an ordinary click that places the caret for typing.
  #dragging(field, k) {
    let drag = null;
    field.addEventListener('pointerdown', (event) => {
      if (event.pointerType === 'touch' || event.button !== 0) return;
      drag = { id: event.pointerId, y: event.clientY, start: this.currentValue(k), active: false };
    });
    field.addEventListener('pointermove', (event) => {
      if (!drag || event.pointerId !== drag.id) return;
      const dy = event.clientY - drag.y;
      if (!drag.active) {
        if (Math.abs(dy) < DRAG_THRESHOLD) return;
        drag.active = true;
        field.setPointerCapture(event.pointerId);
        field.classList.add('dragging');
        this.#select(k, true);
      }
      event.preventDefault();
      const value = clampRound(Math.round((drag.start - dy * this.config.dragPerPixel) * 100) / 100, this.config.woLimit);
      this.#propose(k, value, { record: !drag.recorded });
      drag.recorded = true;
    });
    const end = () => {
      if (drag?.active) field.classList.remove('dragging');
      drag = null;
    };
    field.addEventListener('pointerup', end);
    field.addEventListener('pointercancel', end);
  }

  #propose(k, value, options) {
    const error = this.onPropose(k, value, options);
    this.#setError(k, error ?? '');
  }

  #setError(k, message) {
    const field = this.fields[k];
    field?.setAttribute('aria-invalid', String(Boolean(message)));
    this.errors.delete(k);
    if (message) this.errors.set(k, message);
    this.error.textContent = [...this.errors.values()].pop() ?? '';
  }

  // The selected entry: the grid's one Tab stop, and what the slider edits.
  #select(k, focus) {
    const previous = this.fields[this.selected];
    if (previous) {
      previous.tabIndex = -1;
      previous.classList.remove('selected');
    }
    this.selected = k;
    const field = this.fields[k];
    field.tabIndex = 0;
    field.classList.add('selected');
    const r = Math.floor(k / this.d);
    const label = `Selected entry: row ${this.#rowLabel(r)} (head ${HEAD_NAMES[Math.floor(r / this.dK)]}) → output ${(k % this.d) + 1}`;
    this.sliderLabel.textContent = label;
    const value = this.currentValue(k);
    if (value !== undefined) {
      this.slider.value = String(value);
      this.slider.setAttribute('aria-valuetext', fieldText(value));
      this.sliderValue.textContent = fieldText(value);
    }
    if (focus) field.focus();
  }
}
