// NumberField: a labelled text field for one number, driven by FieldFlow (field-flow.js):
// parse -> propose -> aria-invalid + message (role=alert, aria-describedby) -> the typed
// text stays while invalid -> the last good value comes back on blur or Escape.
// setValue(v) from outside never clobbers text being typed (unless v really changed).
import { element } from './dom.js';
import { FieldFlow } from './field-flow.js';
import { messagesFor } from './messages.js';

let nextId = 0;

export class NumberField {
  /**
   * @param {object} options
   * @param {string} options.label          visible label (also the accessible name)
   * @param {number} options.value
   * @param {(value: number) => string | null} options.onPropose
   * @param {number} [options.min] @param {number} [options.max] @param {number} [options.decimals]
   * @param {boolean} [options.hideLabel]   label only for assistive technology
   * @param {boolean} [options.readonly]
   * @param {() => void} [options.onEnter]  Enter pressed (after the value is proposed)
   * @param {() => void} [options.onEscape] Escape pressed (after the last good value is back)
   * @param {import('../text/i18n.js').Messages} [options.messages]  the language: its decimal
   *   separator is shown and accepted ("0,45" in German), its messages explain refusals
   */
  constructor({ label, value = 0, onPropose, min, max, decimals = 2, hideLabel = false, readonly = false, onEnter, onEscape, messages = messagesFor('en') }) {
    const id = `ui-number-${nextId++}`;
    this.flow = new FieldFlow({ value, min, max, decimals, what: label, messages, propose: (v) => onPropose?.(v) ?? null });
    this.input = element('input', {
      type: 'text', inputMode: 'decimal', autocomplete: 'off', spellcheck: false, id,
      className: 'ui-num', readOnly: readonly,
    });
    this.message = element('p', { className: 'ui-error', id: `${id}-message`, role: 'alert' });
    this.input.setAttribute('aria-describedby', this.message.id);
    this.label = element('label', { htmlFor: id, className: hideLabel ? 'ui-sr-only' : 'ui-number-label', textContent: label });
    this.element = element('div', { className: 'ui-kit ui-number' }, [this.label, this.input, this.message]);
    this.input.addEventListener('focus', () => this.#show(this.flow.focus()));
    this.input.addEventListener('blur', () => this.#show(this.flow.blur()));
    this.input.addEventListener('input', () => {
      if (!this.input.readOnly) this.#show(this.flow.input(this.input.value), false);
    });
    this.input.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') {
        this.#show(this.flow.escape());
        if (onEscape) { event.preventDefault(); event.stopPropagation(); onEscape(); }
      } else if (event.key === 'Enter') {
        event.preventDefault();
        event.stopPropagation();
        onEnter?.();
      }
    });
    this.#show(this.flow.state);
  }

  /** The last good (accepted) value. */
  get value() {
    return this.flow.good;
  }

  /** Shows a value from outside (the committed state); see FieldFlow.setValue. */
  setValue(value) {
    this.#show(this.flow.setValue(value));
  }

  /** Puts text in the field as if typed (used by grids to start editing with a key). */
  type(text) {
    this.input.value = text;
    this.#show(this.flow.input(text), false);
  }

  /** Puts back the last good value and clears any message, as Escape does (e.g. on Reset). */
  revert() {
    this.#show(this.flow.escape());
  }

  setReadonly(readonly) {
    this.input.readOnly = readonly;
  }

  focus(select = true) {
    this.input.focus();
    if (select) this.input.select();
  }

  #show({ text, invalid, message }, writeText = true) {
    if (writeText && this.input.value !== text) this.input.value = text;
    this.input.setAttribute('aria-invalid', String(invalid));
    if (this.message.textContent !== message) this.message.textContent = message;
  }
}
