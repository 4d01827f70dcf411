// Undo and redo for the editor (no DOM). Documents are immutable (model.js), so the history
// is a list of them. Typing into one control is one step, not one per key: an edit with the
// same `group` as the one before (the same cell, while it keeps focus) replaces the newest
// step instead of adding one.

export const MAX_STEPS = 100;

export class History {
  #past = [];
  #future = [];
  #lastGroup = null;

  constructor(doc) {
    this.doc = doc;
  }

  /** The new document after an edit; `group` ties consecutive edits of one control together. */
  push(doc, group = null) {
    if (group === null || group !== this.#lastGroup || this.#past.length === 0) {
      this.#past.push(this.doc);
      if (this.#past.length > MAX_STEPS) this.#past.shift();
    }
    this.#lastGroup = group;
    this.#future = [];
    this.doc = doc;
  }

  /** Ends a group (the control lost focus): the next edit there is a step of its own. */
  seal() {
    this.#lastGroup = null;
  }

  get canUndo() {
    return this.#past.length > 0;
  }

  get canRedo() {
    return this.#future.length > 0;
  }

  undo() {
    if (!this.canUndo) return null;
    this.#future.push(this.doc);
    this.doc = this.#past.pop();
    this.#lastGroup = null;
    return this.doc;
  }

  redo() {
    if (!this.canRedo) return null;
    this.#past.push(this.doc);
    this.doc = this.#future.pop();
    this.#lastGroup = null;
    return this.doc;
  }

  /** A new starting point (another world): nothing to undo. */
  reset(doc) {
    this.#past = [];
    this.#future = [];
    this.#lastGroup = null;
    this.doc = doc;
  }
}
