// FieldFlow: the state machine behind every number field of the kit (pure, no DOM, so it
// is tested in Node). One flow for all fields:
//
//   input(text)  parse (parse-number.js) -> if it is a number, propose it -> the proposal
//                is accepted (it becomes the last good value) or refused (its message is
//                shown); either way the typed text stays exactly as typed.
//   blur() / escape()   invalid text is replaced by the last good value, message cleared.
//   setValue(v)  the value from outside (the committed state). While the learner is
//                typing, their text is kept unless the value really changed (undo, reset,
//                another control): then the new value wins and any message goes.
//
// The language (messages, from i18n.js) decides the decimal separator of the text shown
// and accepted ("0,45" in German) and the language of the messages.
import { formatNumber } from '../text/format.js';
import { messagesFor } from './messages.js';
import { parseNumber } from '../text/parse-number.js';

/** The editable text of a value: fixed decimals, the locale's separator, ASCII minus (typable). */
export function fieldText(value, decimals = 2, locale = 'en') {
  return formatNumber(value, decimals, locale).replace('\u2212', '-');
}

/** Whether two committed values differ by more than float32 round-off. */
export function reallyChanged(a, b) {
  if (a === b) return false;
  if (!Number.isFinite(a) || !Number.isFinite(b)) return true;
  return Math.abs(a - b) > 1e-6 * Math.max(1, Math.abs(a), Math.abs(b));
}

export class FieldFlow {
  /**
   * @param {object} options
   * @param {number} options.value  the starting (committed) value
   * @param {(value: number) => string | null} options.propose  null = accepted, else why not
   * @param {number} [options.min] @param {number} [options.max] @param {number} [options.decimals]
   * @param {string} [options.what]  how messages name the value ("Weight on “it”")
   * @param {import('../text/i18n.js').Messages} [options.messages]  the language (default English)
   */
  constructor({ value, propose, min = -1e6, max = 1e6, decimals = 2, what, messages = messagesFor('en') }) {
    Object.assign(this, { propose, min, max, decimals, what, messages });
    this.good = value;
    this.text = this.#text(value);
    this.invalid = false;
    this.message = '';
    this.editing = false;
  }

  get state() {
    return { text: this.text, invalid: this.invalid, message: this.message, value: this.good };
  }

  focus() {
    this.editing = true;
    return this.state;
  }

  input(text) {
    this.text = text;
    const parsed = parseNumber(text, { min: this.min, max: this.max, what: this.what, messages: this.messages });
    if (!parsed.ok) return this.#fail(parsed.message);
    // The widget usually repaints (setValue) inside propose, before it returns: that echo
    // of the value being proposed must not count as a change from outside.
    this.proposing = parsed.value;
    let refusal;
    try {
      refusal = this.propose(parsed.value);
    } finally {
      this.proposing = undefined;
    }
    if (refusal) return this.#fail(refusal);
    this.good = parsed.value;
    this.invalid = false;
    this.message = '';
    return this.state;
  }

  /** Leaving the field: invalid text gives way to the last good value. */
  blur() {
    this.editing = false;
    return this.#restore();
  }

  /** Escape: the same as leaving, but the field keeps focus. */
  escape() {
    return this.#restore();
  }

  setValue(value) {
    const changed = reallyChanged(value, this.good) && (this.proposing === undefined || reallyChanged(value, this.proposing));
    this.good = value;
    if (!this.editing || changed) {
      this.text = this.#text(value);
      this.invalid = false;
      this.message = '';
    }
    return this.state;
  }

  #restore() {
    if (this.invalid) {
      this.text = this.#text(this.good);
      this.invalid = false;
      this.message = '';
    }
    return this.state;
  }

  #text(value) {
    return fieldText(value, this.decimals, this.messages.locale);
  }

  #fail(message) {
    this.invalid = true;
    this.message = message;
    return this.state;
  }
}
