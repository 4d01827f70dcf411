// ChoiceGroup: a row of buttons of which exactly one is chosen (role=radiogroup), one tab
// stop for the whole row (roving tabindex). Arrow keys move and choose, Home / End go to the
// ends, a click or tap chooses. The group never changes its value itself: it calls
// onChoose(value), and the widget calls setValue() once the core has accepted the change.
import { element } from './dom.js';

const NEXT = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };

export class ChoiceGroup {
  /**
   * @param {object} o
   * @param {string} o.label                 accessible name of the group
   * @param {(value: any) => void} o.onChoose
   * @param {string} [o.className]
   * @param {string} [o.controls]           id(s) of the figure the choice changes (aria-controls)
   */
  constructor({ label, onChoose, className = '', controls = null }) {
    this.onChoose = onChoose;
    this.controls = controls;
    this.buttons = [];
    this.values = [];
    this.value = undefined;
    this.element = element('div', { className: `choices ${className}`.trim(), role: 'radiogroup', ariaLabel: label });
    this.element.addEventListener('click', (event) => {
      const button = event.target.closest?.('button');
      if (button && this.element.contains(button)) this.onChoose(this.values[Number(button.dataset.index)]);
    });
    this.element.addEventListener('keydown', (event) => this.#key(event));
  }

  /**
   * The options, each { value, content: string or nodes, className?, label? } (label: the
   * accessible name when the content alone would not say enough).
   */
  setOptions(options) {
    this.values = options.map((o) => o.value);
    this.buttons = options.map((o, index) => {
      const button = element('button', {
        type: 'button', role: 'radio', className: `choice ${o.className ?? ''}`.trim(), tabIndex: -1,
        dataset: { index: String(index) },
      });
      button.append(...[].concat(o.content));
      if (o.label) button.setAttribute('aria-label', o.label);
      if (this.controls) button.setAttribute('aria-controls', this.controls);
      return button;
    });
    this.element.replaceChildren(...this.buttons);
    this.setValue(this.value);
  }

  setValue(value) {
    this.value = value;
    let chosen = this.values.indexOf(value);
    // Only the states that change are written (a new value turns two buttons, not all of them).
    this.buttons.forEach((button, i) => {
      const checked = String(i === chosen);
      if (button.getAttribute('aria-checked') !== checked) button.setAttribute('aria-checked', checked);
    });
    if (chosen < 0) chosen = 0;
    // Only the tab stops that change are written, compared as attributes: Chromium brings
    // style and layout up to date when a focused element's tabindex is set (is it still
    // focusable?), and the button just clicked is focused; reading the tabIndex property does
    // so too (focusability depends on style). So a widget calls setValue before its other
    // changes of a render: called after them, it forced a layout of everything they changed
    // in the middle of the render (issue 25: the layer's h switch, 64-92 ms in a trace).
    this.buttons.forEach((button, i) => {
      const tabIndex = i === chosen ? '0' : '-1';
      if (button.getAttribute('tabindex') !== tabIndex) button.setAttribute('tabindex', tabIndex);
    });
    // A row that scrolls sideways (.ui-row-narrow on a phone) shows the chosen one. Only when
    // the choice changes, or the first time the row is laid out: no layout read per render.
    if (this.revealed !== chosen && this.buttons[chosen]) this.#revealSoon(chosen);
  }

  // The row's layout is read in the next frame, before it is drawn, once the widget has made
  // all of its changes: read here, in the middle of a render, it forced a synchronous layout
  // of the page (13 ms of each h switch on the layer, unthrottled, in a CPU profile; about
  // four times that on a slow phone, issue 25).
  #revealSoon(chosen) {
    this.revealWanted = chosen;
    if (this.revealFrame || typeof requestAnimationFrame !== 'function') return;
    this.revealFrame = requestAnimationFrame(() => {
      this.revealFrame = 0;
      const i = this.revealWanted;
      if (this.revealed !== i && this.buttons[i] && revealInRow(this.element, this.buttons[i])) this.revealed = i;
    });
  }

  setDisabled(disabled) {
    for (const button of this.buttons) button.disabled = disabled;
  }

  #key(event) {
    const button = event.target.closest?.('button');
    if (!button) return;
    const i = Number(button.dataset.index);
    const n = this.buttons.length;
    let next = null;
    if (event.key in NEXT) next = (i + NEXT[event.key] + n) % n;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = n - 1;
    if (next === null) return;
    event.preventDefault();
    this.onChoose(this.values[next]);
    this.buttons[this.values.indexOf(this.value)]?.focus();
  }
}

/**
 * Scrolls a row that scrolls sideways inside itself so that `item` is wholly in view, clear
 * of the row's edge shadows (`margin` px), without scrolling the page (scrollIntoView would).
 * Returns false if the row is not laid out yet (not in the page, or hidden), true otherwise.
 */
export function revealInRow(row, item, margin = 24) {
  if (!row.isConnected || row.clientWidth === 0) return false;
  if (row.scrollWidth <= row.clientWidth) return true;
  const box = row.getBoundingClientRect();
  const at = item.getBoundingClientRect();
  if (at.left < box.left + margin) row.scrollLeft -= box.left + margin - at.left;
  else if (at.right > box.right - margin) row.scrollLeft += at.right - (box.right - margin);
  return true;
}
