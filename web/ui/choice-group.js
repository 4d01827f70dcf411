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
    this.buttons.forEach((button, i) => button.setAttribute('aria-checked', String(i === chosen)));
    if (chosen < 0) chosen = 0;
    // Only the tab stops that change are written: Chromium brings style and layout up to date
    // at once when a focused element's tabindex is set (is it still focusable?), and the
    // button just clicked is focused. So a widget calls setValue before its other changes of
    // a render: called after them, it forced a layout of everything they changed in the
    // middle of the render (issue 25: the layer's h switch, 64-92 ms in a trace).
    this.buttons.forEach((button, i) => {
      const tabIndex = i === chosen ? 0 : -1;
      if (button.tabIndex !== tabIndex) button.tabIndex = tabIndex;
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
