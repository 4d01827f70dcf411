// BudgetBar: a row of attention weights (non-negative, sum 1) as ONE horizontal bar split
// into one segment per token. Drag the boundary between two segments to move weight
// between those two tokens; select a token and step its weight (the others rescale).
// It proposes whole rows through onPropose(row) -> null | message; the widget commits them
// and calls setWeights(row) with what the core accepted.
//
// Keyboard: one tab stop (roving: each segment is a role=slider). Left / Right / Home / End
// choose the token; Up / Down or + / - change its weight by 0.01, PageUp / PageDown by 0.1;
// Enter or F2 opens a field for an exact value (Enter or Escape closes it).
import { element, setText } from './dom.js';
import { messagesFor } from './messages.js';
import { groupSegments, moveBoundary, moveSplit, rebalance, roundToSum, stepWeight } from './budget-math.js';
import { NumberField } from './number-field.js';
import { BUDGET_STYLES } from './styles-budget.js';
import { addKitStyles } from './styles.js';

// Its rules join the kit's sheet as it loads: a widget that does not use it does not carry them.
addKitStyles(BUDGET_STYLES);

const MIN_PIECE = 28; // px: a token narrower than this is drawn inside a "rest" piece

export class BudgetBar {
  // Whether the next setWeights() comes from a small key step (shown at once, not eased).
  #instantNext = false;

  /**
   * @param {object} o
   * @param {string} o.label                    accessible name, e.g. "Attention budget of “said”"
   * @param {string[]} o.tokens
   * @param {number[]} o.weights
   * @param {(row: number[]) => string | null} [o.onPropose]
   * @param {string} [o.colour]                 one CSS colour for all segments (e.g. 'var(--ui-head-a)')
   * @param {string[]} [o.colours]              or one per token
   * @param {boolean} [o.readonly]
   * @param {string} [o.controls]   ids of the figures the bar changes (aria-controls on its segments)
   * @param {string} [o.owner]                whose weights, for the segments' names when several bars
   *                                            share a page: "Subject finder: weight on “it”"
   * @param {'pair' | 'sides'} [o.drag]       'pair' (default): a dragged boundary moves weight between
   *                                            its two neighbours only; 'sides': everything left of it
   *                                            against everything right of it (budget-math moveSplit)
   * @param {import('../text/i18n.js').Messages} [o.messages]  the UI language (default English)
   */
  constructor({ label, tokens, weights, onPropose = null, colour = null, colours = null, readonly = false, drag = 'pair', owner = null, controls = null, messages = messagesFor('en') }) {
    Object.assign(this, { label, tokens, onPropose, readonly: readonly || !onPropose, dragMode: drag, owner, m: messages });
    const m = messages;
    this.weights = weights.slice();
    this.current = 0;
    this.width = 0;
    this.editor = null;
    this.track = element('div', { className: 'ui-budget-track', role: 'group' });
    this.track.setAttribute('aria-label', label);
    this.segments = tokens.map((token, i) => {
      const seg = element('div', { className: 'ui-budget-seg', role: 'slider', tabIndex: i === 0 ? 0 : -1, dataset: { index: String(i) } });
      seg.setAttribute('aria-label', owner ? m.t('ui.budget.ownerWeightOn', { owner, token }) : m.t('ui.budget.weightOn', { token }));
      seg.setAttribute('aria-valuemin', '0');
      seg.setAttribute('aria-valuemax', '1');
      seg.style.setProperty('--shade', String(i % 2 ? 0.45 : 0));
      if (colours?.[i]) seg.style.setProperty('--seg-colour', colours[i]);
      return seg;
    });
    this.track.append(...this.segments);
    this.handles = [];
    this.labels = element('div', { className: 'ui-budget-labels', ariaHidden: 'true' });
    this.total = element('p', { className: 'ui-budget-total ui-num' });
    this.readout = element('p', { className: 'ui-readout ui-num', ariaHidden: 'true' });
    this.editorHost = element('div', { className: 'ui-budget-editor' });
    this.error = element('p', { className: 'ui-error', role: 'alert' });
    this.live = element('p', { className: 'ui-sr-only', ariaLive: 'polite' });
    this.element = element('div', { className: 'ui-kit ui-budget' }, [
      this.track, this.labels, element('div', { className: 'ui-budget-foot' }, [this.total, this.readout]),
      this.editorHost, this.error, this.live,
    ]);
    if (colour) this.element.style.setProperty('--ui-hue', colour);
    // The figures this bar changes (ids in the same root), named on every segment, so the
    // widget can bring them into view with the focused segment.
    if (controls) for (const seg of this.segments) seg.setAttribute('aria-controls', controls);
    this.setReadonly(this.readonly);
    this.#listen();
    this.setWeights(this.weights);
    // The drawn width is read only here, when the browser reports a resize (layout is
    // already done then), and kept: reading clientWidth in setWeights, after the segments'
    // widths were written, forced a layout of the whole page on every edit (about 17 ms of
    // each 20 ms keystroke on the lesson page).
    if (typeof ResizeObserver !== 'undefined') {
      new ResizeObserver(() => {
        const width = this.track.clientWidth;
        if (width !== this.width) this.#layout(width);
      }).observe(this.track);
    }
  }

  setReadonly(readonly) {
    this.readonly = readonly || !this.onPropose;
    this.element.classList.toggle('ui-readonly', this.readonly);
    for (const seg of this.segments) seg.setAttribute('aria-readonly', String(this.readonly));
    if (this.readonly) this.#closeEditor(false);
  }

  /** Shows a committed row (in place: no rebuild). */
  setWeights(row) {
    // A small key step (0.01 of the budget: a few pixels) is shown at once, as a drag step
    // is; larger changes (PageUp / PageDown, a typed value, Undo, Reset) ease (styles-budget.js).
    this.element.classList.toggle('ui-instant', this.#instantNext);
    this.#instantNext = false;
    this.weights = row.slice();
    const shown = roundToSum(row, 2);
    this.shown = shown;
    this.segments.forEach((seg, i) => {
      seg.style.setProperty('--w', String(Math.max(0, row[i])));
      seg.setAttribute('aria-valuenow', String(Math.round(row[i] * 1000) / 1000));
      seg.setAttribute('aria-valuetext', this.m.t('ui.budget.valueText', { value: this.m.number(shown[i], 2) }));
    });
    setText(this.total, this.m.t('ui.budget.total', { value: this.m.number(shown.reduce((s, w) => s + w, 0), 2) }));
    this.editor?.field.setValue(row[this.editor.index]);
    this.#layout();
    this.#updateCurrent();
  }

  /** Moves the tab stop (and focus, if asked) to a token's segment. */
  focusToken(index, focus = true) {
    const i = Math.max(0, Math.min(this.tokens.length - 1, index));
    this.segments[this.current].tabIndex = -1;
    this.current = i;
    this.segments[i].tabIndex = 0;
    if (focus) this.segments[i].focus();
    this.#updateCurrent();
  }

  // Labels and handles depend on the drawn width (which tokens are too thin for a label):
  // the last width the ResizeObserver reported (600 px until it first does).
  #layout(width = this.width) {
    this.width = width || 600;
    const pieces = groupSegments(this.weights, this.width, MIN_PIECE);
    // The labels are rounded together (per drawn piece, not per token: with many tiny
    // tokens, token-level largest remainders would push a big weight of 0.474 to 0.48).
    const pieceShown = roundToSum(pieces.map((piece) => piece.indices.reduce((s, i) => s + this.weights[i], 0)), 2);
    const shownText = (k) => this.m.number(Math.round(pieceShown[k] * 100) / 100, 2);
    const thin = (piece) => piece.weight * this.width < MIN_PIECE;
    // Same pieces as last time (the usual case while a weight is dragged or stepped): the
    // labels and handles are updated in place, so an edit changes a few properties and
    // text nodes instead of rebuilding the row.
    const structure = pieces.map((piece) => `${piece.indices.join(' ')}${piece.rest ? 'r' : ''}${thin(piece) ? 't' : ''}`).join('|');
    if (structure === this.structure) {
      pieces.forEach((piece, k) => {
        const label = this.labels.children[k];
        label.style.setProperty('--w', String(Math.max(0, piece.weight)));
        setText(label.lastChild, shownText(k));
      });
      pieces.slice(1).forEach((piece, k) => this.handles[k].style.setProperty('--at', String(piece.start)));
      this.#updateCurrent();
      return;
    }
    this.structure = structure;
    this.labels.replaceChildren(...pieces.map((piece, k) => {
      const name = piece.rest ? this.m.t('ui.budget.rest', { count: piece.indices.length }) : this.tokens[piece.indices[0]];
      // ui-thin: too narrow for its text (a lone tiny token at an end); a page may hide it.
      const label = element('div', { className: `ui-budget-label ui-num${piece.rest ? ' ui-rest' : ''}${thin(piece) ? ' ui-thin' : ''}`, dataset: { indices: piece.indices.join(' ') } }, [
        element('b', { textContent: name }), shownText(k),
      ]);
      label.style.setProperty('--w', String(Math.max(0, piece.weight)));
      return label;
    }));
    for (const handle of this.handles) handle.remove();
    this.handles = pieces.slice(1).map((piece) => {
      const handle = element('div', { className: 'ui-budget-handle', ariaHidden: 'true', dataset: { left: String(piece.indices[0] - 1) } });
      handle.style.setProperty('--at', String(piece.start));
      return handle;
    });
    this.track.append(...this.handles);
    this.#updateCurrent();
  }

  #updateCurrent() {
    const i = this.current;
    this.segments.forEach((seg, k) => seg.classList.toggle('ui-current', k === i));
    for (const label of this.labels.children) {
      label.classList.toggle('ui-current', label.dataset.indices.split(' ').map(Number).includes(i));
    }
    setText(this.readout, this.m.t('ui.budget.readout', { token: this.tokens[i], value: this.m.number(this.shown?.[i] ?? this.weights[i], 2) }));
  }

  #propose(row, announce) {
    const refusal = this.onPropose(row) ?? null;
    this.error.textContent = refusal ?? '';
    if (!refusal && announce) this.live.textContent = announce();
    return refusal;
  }

  #say(indices) {
    const [left, right] = indices;
    return () => this.m.t('ui.budget.moved', {
      left: this.tokens[left], leftValue: this.m.number(this.shown[left], 2),
      right: this.tokens[right], rightValue: this.m.number(this.shown[right], 2),
    });
  }

  #listen() {
    this.track.addEventListener('focusin', (event) => {
      const seg = event.target.closest?.('.ui-budget-seg');
      if (seg) this.focusToken(Number(seg.dataset.index), false);
    });
    this.track.addEventListener('keydown', (event) => this.#key(event));
    let drag = null;
    this.track.addEventListener('pointerdown', (event) => {
      if (event.pointerType === 'mouse' && event.button !== 0) return;
      const handle = event.target.closest?.('.ui-budget-handle');
      if (handle && !this.readonly) {
        event.preventDefault();
        handle.setPointerCapture(event.pointerId);
        handle.classList.add('ui-dragging');
        this.element.classList.add('ui-dragging-now');
        const left = Number(handle.dataset.left);
        drag = { handle, left, id: event.pointerId };
        this.focusToken(left, false);
        this.segments[left].focus({ preventScroll: true });
        return;
      }
      const seg = event.target.closest?.('.ui-budget-seg');
      if (seg) {
        event.preventDefault();
        this.focusToken(Number(seg.dataset.index), false);
        seg.focus({ preventScroll: true });
      }
    });
    this.track.addEventListener('pointermove', (event) => {
      if (!drag || event.pointerId !== drag.id) return;
      const box = this.track.getBoundingClientRect();
      const fraction = (event.clientX - box.left) / box.width;
      const move = this.dragMode === 'sides' ? moveSplit : moveBoundary;
      this.#propose(move(this.weights, drag.left, fraction), null);
    });
    const end = () => {
      if (!drag) return;
      drag.handle.classList.remove('ui-dragging');
      this.element.classList.remove('ui-dragging-now');
      this.live.textContent = this.#say([drag.left, drag.left + 1])();
      drag = null;
    };
    this.track.addEventListener('pointerup', end);
    this.track.addEventListener('pointercancel', end);
  }

  #key(event) {
    if (this.editor) return;
    const i = this.current;
    const n = this.tokens.length;
    const moves = { ArrowLeft: i - 1, ArrowRight: i + 1, Home: 0, End: n - 1 };
    if (event.key in moves) {
      event.preventDefault();
      this.focusToken(moves[event.key]);
      return;
    }
    if (this.readonly) return;
    const steps = { ArrowUp: 0.01, ArrowDown: -0.01, '+': 0.01, '=': 0.01, '-': -0.01, PageUp: 0.1, PageDown: -0.1 };
    if (event.key in steps) {
      event.preventDefault();
      this.#instantNext = Math.abs(steps[event.key]) < 0.05;
      this.#propose(stepWeight(this.weights, i, steps[event.key]), () => this.m.t('ui.budget.stepped', { token: this.tokens[i], value: this.m.number(this.shown[i], 2) }));
      this.#instantNext = false; // a refused step commits nothing
    } else if (event.key === 'Enter' || event.key === 'F2') {
      event.preventDefault();
      this.#openEditor(i);
    }
  }

  #openEditor(index) {
    this.#closeEditor(false);
    const field = new NumberField({
      label: this.owner ? this.m.t('ui.budget.ownerExactLabel', { owner: this.owner, token: this.tokens[index] }) : this.m.t('ui.budget.exactLabel', { token: this.tokens[index] }),
      value: this.weights[index], min: 0, max: 1, decimals: 2, messages: this.m,
      onPropose: (v) => this.#propose(rebalance(this.weights, index, v), null),
      onEnter: () => { this.live.textContent = this.m.t('ui.budget.set', { token: this.tokens[index], value: this.m.number(this.shown[index], 2) }); this.#closeEditor(true); },
      onEscape: () => this.#closeEditor(true),
    });
    this.editor = { index, field };
    this.editorHost.replaceChildren(field.element);
    field.element.addEventListener('focusout', (event) => {
      if (!field.element.contains(event.relatedTarget)) queueMicrotask(() => this.editor?.field === field && this.#closeEditor(false));
    });
    field.focus();
  }

  #closeEditor(refocus) {
    if (!this.editor) return;
    const { index } = this.editor;
    this.editor = null;
    this.editorHost.replaceChildren();
    if (refocus) this.segments[index].focus();
  }
}
