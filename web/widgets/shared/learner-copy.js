// The learner's own copy of the lesson: their answers to the practice problems, every
// attempt, and each widget's state, kept on their device (localStorage) and nowhere else.
// No server, no account. Where the page may not keep data (a sandboxed frame, storage
// blocked or full) the copy lives in memory for this visit and `notice` says so; export
// still works, so nothing has to be lost.
//
// The copy as a file (export / import), strictly checked by validateCopy:
//   { format: "multiple-heads-learner-copy", version: 1, lesson: "multiple-heads",
//     seed: uint32 (the learner's order of options),
//     answers: { <problem id>: { attempts: [{ answer, correct, at }] } },   (last = current)
//     widgets: { <state key>: { tag: "mha-…", state: <that widget's state> } } }
// An answer is { option } (choose, predict), { text } (number) or { claim: "done" |
// "impossible", state } (widget tasks: the widget's state that was checked).
import { readLessonState } from './lesson-state.js';

export const COPY_FORMAT = 'multiple-heads-learner-copy';
export const COPY_VERSION = 1;
export const LESSON_ID = 'multiple-heads';
export const STORAGE_KEY = 'multiple-heads:learner-copy';
export const UNREADABLE_KEY = 'multiple-heads:learner-copy:unreadable';
export const MAX_FILE_BYTES = 512 * 1024;
export const MAX_ATTEMPTS = 100;
export const MAX_TEXT = 64;
const STATE_KEY = /^[A-Za-z_][A-Za-z0-9_-]{0,31}$/;
const TAG = /^mha-[a-z-]{1,40}$/;
const TOP_KEYS = ['format', 'version', 'lesson', 'seed', 'answers', 'widgets'];

// UI strings of this file (one table, for the message files).
const TEXT = {
  memoryOnly: 'This page may not keep data on your device here, so your answers and widget states are kept only until you leave the page. Use “Export my copy” to keep them.',
  full: 'Your device refused to store more for this page, so from now on your work is kept only until you leave the page. Use “Export my copy” to keep it.',
  unreadable: 'Your saved copy could not be read, so this page starts a new one; the old one is kept aside on this device.',
  notJson: (why) => `This file is not a copy of this lesson: it is not JSON (${why}).`,
  tooBig: (kb) => `This file is ${kb} kB; a copy of this lesson is at most ${MAX_FILE_BYTES / 1024} kB.`,
  bad: (where, why) => `This file is not a valid copy of this lesson: ${where}: ${why}.`,
  widgetRefused: (title, why) => `Your copy's state for “${title}” was refused (${why}); the widget keeps its current state.`,
};

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const clip = (text) => String(text).slice(0, 40);

class CopyError extends Error {}
const bad = (where, why) => { throw new CopyError(TEXT.bad(where, why)); };

function onlyKeys(value, keys, where) {
  if (!isObject(value)) bad(where, 'expected an object');
  for (const key of Object.keys(value)) if (!keys.includes(key)) bad(where, `unexpected field “${clip(key)}”`);
  for (const key of keys) if (!Object.hasOwn(value, key)) bad(where, `field “${key}” is missing`);
}

/**
 * A clean copy from untrusted JSON, or throws Error with a message for the learner.
 * `problems`: { [id]: { kind, options?: string[] } }; `sanitizers`: { [tag]: (raw) => state }
 * (each widget's own strict state check; it throws on a bad state).
 */
export function validateCopy(raw, { problems, sanitizers }) {
  onlyKeys(raw, TOP_KEYS, 'the copy');
  if (raw.format !== COPY_FORMAT) bad('format', `expected “${COPY_FORMAT}”`);
  if (raw.version !== COPY_VERSION) bad('version', `expected ${COPY_VERSION}`);
  if (raw.lesson !== LESSON_ID) bad('lesson', `expected “${LESSON_ID}”`);
  if (!Number.isInteger(raw.seed) || raw.seed < 0 || raw.seed > 0xffffffff) bad('seed', 'expected a whole number from 0 to 4294967295');
  if (!isObject(raw.answers)) bad('answers', 'expected an object');
  const answers = Object.create(null);
  for (const [id, record] of Object.entries(raw.answers)) {
    const where = `answers “${clip(id)}”`;
    const problem = Object.hasOwn(problems, id) ? problems[id] : null;
    if (!problem) bad(where, 'no such problem in this lesson');
    onlyKeys(record, ['attempts'], where);
    if (!Array.isArray(record.attempts) || record.attempts.length === 0 || record.attempts.length > MAX_ATTEMPTS) bad(where, `attempts: expected 1 to ${MAX_ATTEMPTS} attempts`);
    answers[id] = {
      attempts: record.attempts.map((attempt, k) => {
        const at = `${where}, attempt ${k + 1}`;
        onlyKeys(attempt, ['answer', 'correct', 'at'], at);
        if (typeof attempt.correct !== 'boolean') bad(at, 'correct: expected true or false');
        if (!Number.isInteger(attempt.at) || attempt.at < 0 || attempt.at > 8.64e15) bad(at, 'at: expected a time in milliseconds');
        return { answer: validAnswer(problem, attempt.answer, at, sanitizers), correct: attempt.correct, at: attempt.at };
      }),
    };
  }
  if (!isObject(raw.widgets)) bad('widgets', 'expected an object');
  const widgets = Object.create(null);
  for (const [key, entry] of Object.entries(raw.widgets)) {
    const where = `widgets “${clip(key)}”`;
    if (!STATE_KEY.test(key)) bad(where, 'not a widget state key');
    onlyKeys(entry, ['tag', 'state'], where);
    if (typeof entry.tag !== 'string' || !TAG.test(entry.tag) || !Object.hasOwn(sanitizers, entry.tag)) bad(where, 'tag: not a widget of this lesson');
    widgets[key] = { tag: entry.tag, state: sanitized(sanitizers[entry.tag], entry.state, `${where}, state`) };
  }
  return { format: COPY_FORMAT, version: COPY_VERSION, lesson: LESSON_ID, seed: raw.seed, answers, widgets };
}

function sanitized(sanitize, state, where) {
  try {
    return sanitize(structuredClone(state));
  } catch (error) {
    return bad(where, error.message);
  }
}

function validAnswer(problem, answer, where, sanitizers) {
  if (problem.kind === 'choose' || problem.kind === 'predict') {
    onlyKeys(answer, ['option'], `${where}, answer`);
    if (!problem.options.includes(answer.option)) bad(`${where}, answer`, 'option: not one of this problem\'s options');
    return { option: answer.option };
  }
  if (problem.kind === 'number') {
    onlyKeys(answer, ['text'], `${where}, answer`);
    if (typeof answer.text !== 'string' || answer.text.length > MAX_TEXT) bad(`${where}, answer`, `text: expected text of at most ${MAX_TEXT} characters`);
    return { text: answer.text };
  }
  onlyKeys(answer, ['claim', 'state'], `${where}, answer`);
  if (answer.claim !== 'done' && answer.claim !== 'impossible') bad(`${where}, answer`, 'claim: expected “done” or “impossible”');
  const sanitize = sanitizers[problem.widget];
  if (!sanitize) bad(`${where}, answer`, 'no widget for this problem');
  return { claim: answer.claim, state: sanitized(sanitize, answer.state, `${where}, answer, state`) };
}

/** Reads a file's text as a copy: { ok: true, copy } or { ok: false, message }. */
export function parseCopyText(text, options) {
  if (typeof text !== 'string') return { ok: false, message: TEXT.notJson('no text') };
  if (text.length > MAX_FILE_BYTES) return { ok: false, message: TEXT.tooBig(Math.ceil(text.length / 1024)) };
  let raw;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: TEXT.notJson(clip(error.message)) };
  }
  try {
    return { ok: true, copy: validateCopy(raw, options) };
  } catch (error) {
    return { ok: false, message: error instanceof CopyError ? error.message : TEXT.bad('the copy', clip(error.message)) };
  }
}

function randomSeed() {
  const out = new Uint32Array(1);
  globalThis.crypto.getRandomValues(out);
  return out[0];
}

export function emptyCopy(seed = randomSeed()) {
  return { format: COPY_FORMAT, version: COPY_VERSION, lesson: LESSON_ID, seed, answers: Object.create(null), widgets: Object.create(null) };
}

// A Storage-like object in memory, for pages that may not keep data.
function memoryStorage() {
  const map = new Map();
  return { getItem: (k) => (map.has(k) ? map.get(k) : null), setItem: (k, v) => { map.set(k, String(v)); }, removeItem: (k) => { map.delete(k); } };
}

/** localStorage if the page may use it (a write and a read are tried), else memory. */
export function openStorage(scope = globalThis) {
  try {
    const storage = scope.localStorage;
    const probe = `${STORAGE_KEY}:probe`;
    storage.setItem(probe, '1');
    if (storage.getItem(probe) !== '1') throw new Error('storage does not keep values');
    storage.removeItem(probe);
    return { storage, persistent: true };
  } catch {
    return { storage: memoryStorage(), persistent: false };
  }
}

/**
 * The copy and its changes. Events: 'change' (answers, widget states or notice changed),
 * 'replaced' (a new copy: import, undo of an import, start over), 'message' (detail: text).
 */
export class LearnerCopy extends EventTarget {
  #copy;
  #previous = null;

  constructor({ storage, persistent, problems, sanitizers }) {
    super();
    this.storage = storage;
    this.persistent = persistent;
    this.options = { problems, sanitizers };
    this.notice = persistent ? null : TEXT.memoryOnly;
    this.#copy = this.#load();
  }

  #load() {
    let text = null;
    try {
      text = this.storage.getItem(STORAGE_KEY);
    } catch {
      text = null;
    }
    if (text === null) return emptyCopy();
    const parsed = parseCopyText(text, this.options);
    if (parsed.ok) return parsed.copy;
    // Never thrown away: the unreadable text is kept aside for the learner (or a fix).
    try { this.storage.setItem(UNREADABLE_KEY, text); } catch { /* nothing more can be done */ }
    this.notice = TEXT.unreadable;
    return emptyCopy();
  }

  // Widget states change on every frame of a drag: their writes are gathered (one per
  // quarter second, and at once when the page is hidden); answers are written at once.
  #timer = null;

  #saveSoon() {
    if (this.#timer === null) {
      this.#timer = setTimeout(() => this.flush(), 250);
      globalThis.addEventListener?.('pagehide', this.#flushOnHide, { once: true });
    }
    this.dispatchEvent(new Event('change'));
  }

  #flushOnHide = () => this.flush();

  /** Writes a pending change now. */
  flush() {
    if (this.#timer === null) return;
    clearTimeout(this.#timer);
    this.#timer = null;
    globalThis.removeEventListener?.('pagehide', this.#flushOnHide);
    this.#write();
  }

  #save() {
    if (this.#timer !== null) {
      clearTimeout(this.#timer);
      this.#timer = null;
    }
    this.#write();
    this.dispatchEvent(new Event('change'));
  }

  #write() {
    if (this.persistent) {
      try {
        this.storage.setItem(STORAGE_KEY, this.exportText());
      } catch {
        // Full or newly blocked: keep working in memory and say so.
        this.storage = memoryStorage();
        this.persistent = false;
        this.notice = TEXT.full;
      }
    }
  }

  get seed() {
    return this.#copy.seed;
  }

  get canUndoImport() {
    return this.#previous !== null;
  }

  /** The record of one problem ({ attempts }) or null; a copy, safe to keep. */
  record(id) {
    const record = this.#copy.answers[id];
    return record ? structuredClone(record) : null;
  }

  /** The last answer, or null. */
  lastAnswer(id) {
    return this.#copy.answers[id]?.attempts.at(-1) ?? null;
  }

  solved(id) {
    return Boolean(this.#copy.answers[id]?.attempts.some((a) => a.correct));
  }

  recordAttempt(id, answer, correct, at = Date.now()) {
    const record = this.#copy.answers[id] ?? { attempts: [] };
    record.attempts.push({ answer: structuredClone(answer), correct, at });
    if (record.attempts.length > MAX_ATTEMPTS) record.attempts.splice(0, record.attempts.length - MAX_ATTEMPTS);
    this.#copy.answers[id] = record;
    this.#save();
  }

  widgetState(key, tag) {
    const entry = this.#copy.widgets[key];
    return entry && entry.tag === tag ? structuredClone(entry.state) : null;
  }

  setWidgetState(key, tag, state) {
    if (!STATE_KEY.test(key)) return;
    this.#copy.widgets[key] = { tag, state: structuredClone(state) };
    this.#saveSoon();
  }

  /** Done and left among `ids`. */
  progress(ids) {
    const done = ids.filter((id) => this.solved(id));
    return { done: done.length, total: ids.length, left: ids.filter((id) => !this.solved(id)) };
  }

  exportText() {
    return `${JSON.stringify(this.#copy, null, 1)}\n`;
  }

  /**
   * Replaces the copy with a file's, if it is valid: { ok: true } or { ok: false, message }
   * (then nothing changed). The copy it replaced can be brought back with undoImport().
   */
  importText(text) {
    const parsed = parseCopyText(text, this.options);
    if (!parsed.ok) return parsed;
    this.#previous = this.#copy;
    this.#copy = parsed.copy;
    this.#save();
    this.dispatchEvent(new Event('replaced'));
    return { ok: true };
  }

  undoImport() {
    if (!this.#previous) return;
    this.#copy = this.#previous;
    this.#previous = null;
    this.#save();
    this.dispatchEvent(new Event('replaced'));
  }

  /** Clears answers and widget states (the learner's order of options stays). */
  startOver() {
    this.#previous = null;
    this.#copy = emptyCopy(this.#copy.seed);
    this.#save();
    this.dispatchEvent(new Event('replaced'));
  }

  widgetEntries() {
    return Object.entries(this.#copy.widgets).map(([key, entry]) => [key, entry.tag, structuredClone(entry.state)]);
  }
}

/**
 * Keeps the state of every widget under `root` (elements with these tags) in the copy, and
 * restores it when the widget is ready: on a fresh visit the copy's state is put back
 * through the widget's public setState; a link that carries the widget's state wins (it
 * shows what the sender saw). Returns { apply(), reset() }: apply() puts the copy's states
 * into the widgets (after an import), reset() resets every widget (start over).
 */
export function keepWidgetStates(copy, root, tags, { onRefused, titleOf = (tag) => tag } = {}) {
  const elements = [...root.querySelectorAll(tags.join(','))];
  const put = (el) => {
    const saved = copy.widgetState(el.stateKey, el.localName);
    if (!saved) return;
    try {
      el.setState(saved);
    } catch (error) {
      onRefused?.(TEXT.widgetRefused(titleOf(el.localName), error.message));
    }
  };
  for (const el of elements) {
    let restored = false;
    const restore = () => {
      if (restored) return;
      restored = true;
      if (!Object.hasOwn(readLessonState().entries, el.stateKey)) put(el);
    };
    el.addEventListener('change', (event) => {
      if (restored && event.detail?.state) copy.setWidgetState(el.stateKey, el.localName, event.detail.state);
    });
    if (el.hasAttribute('ready')) restore();
    else el.addEventListener('ready', restore, { once: true });
  }
  return {
    apply() {
      for (const el of elements) if (el.hasAttribute('ready')) put(el);
    },
    reset() {
      for (const el of elements) if (el.hasAttribute('ready')) el.reset();
    },
  };
}
