// The learner's own copy of the lesson: their answers to the practice problems, every
// attempt, and each widget's state, kept on their device (localStorage) and nowhere else.
// No server, no account. Where the page may not keep data (a sandboxed frame, storage
// blocked or full) the copy lives in memory for this visit and `notice` says so; export
// still works, so nothing has to be lost.
//
// The copy as a file (export / import), strictly checked by validateCopy:
//   { format: "multiple-heads-learner-copy", version: 1, lesson: "multiple-heads",
//     seed: uint32 (the learner's order of options),
//     answers: { <problem id>: { attempts: [{ answer, correct, at }], count?, solved? } },
//       attempts: the last MAX_ATTEMPTS (last = current); count: every check ever made
//       (>= attempts.length); solved: whether any of them was right (older files have
//       neither: count = attempts.length, solved = some attempt right)
//     widgets: { <state key>: { tag: "mha-…", state: <that widget's state> } } }
// An answer is { option } (choose, predict), { text } (number) or { claim: "done" |
// "impossible", state } (widget tasks: the widget's state that was checked).
import { messagesFor } from './i18n.js';
import { readLessonState } from './lesson-state.js';
import { reasonIn } from './state-error.js';
import { WIDGETS } from '../registry.js';

export const COPY_FORMAT = 'multiple-heads-learner-copy';
export const COPY_VERSION = 1;
export const LESSON_ID = 'multiple-heads';
export const STORAGE_KEY = 'multiple-heads:learner-copy';
export const UNREADABLE_KEY = 'multiple-heads:learner-copy:unreadable';
export const MAX_FILE_BYTES = 512 * 1024;
// Copies kept aside: UNREADABLE_KEY holds the newest, `${UNREADABLE_KEY}:2` the one before…
const ASIDE_KEPT = 3;
const asideKey = (k) => (k === 0 ? UNREADABLE_KEY : `${UNREADABLE_KEY}:${k + 1}`);
// Only the last few attempts are kept (with the count of all and whether any was right): a
// widget task's attempt holds the widget's whole state, and a copy must stay far below
// MAX_FILE_BYTES however often the learner checks (100 checks of every task once made a
// 689 kB copy that the page then could not read back).
export const MAX_ATTEMPTS = 8;
const MAX_COUNT = 1e9;
export const MAX_TEXT = 64;
const LEGACY_MAX_ATTEMPTS = 100;
const STATE_KEY = /^[A-Za-z_][A-Za-z0-9_-]{0,31}$/;
const TAG = /^mha-[a-z-]{1,40}$/;
const TOP_KEYS = ['format', 'version', 'lesson', 'seed', 'answers', 'widgets'];

// The learner's messages come from the locale files (group learnerCopy), in the language of
// the element that shows them: `notice` is English, noticeIn(m) any language; a refused
// file's message is put together from where in the file and why, each a message of its own.
const say = (m, key, params) => m.t(`learnerCopy.${key}`, params);

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const clip = (text) => String(text).slice(0, 40);

/**
 * A file that is not a valid copy: `where` is a list of places ([key, params] of
 * learnerCopy.where, or a JSON field's name), `why` a [key, params] of learnerCopy.why (or a
 * widget's error, ['error', error], or a message as it is, ['raw', { text }]). messageIn(m)
 * says it in m's language.
 */
class CopyError extends Error {
  constructor(where, why) {
    super('');
    this.where = where;
    this.why = why;
    this.message = this.messageIn(messagesFor('en'));
  }

  messageIn(m) {
    return say(m, 'bad', this.#parts(m));
  }

  /**
   * The part left out, as the learner knows it (“your answers to the practice problem …”,
   * “your state of “One head, one average” …”), with the reason: for a notice that names
   * dropped parts. A file's own field names are for a refused import, not for this.
   */
  partIn(m) {
    const [head, ...rest] = this.where;
    const { why } = this.#parts(m);
    const detail = rest.filter((part) => typeof part !== 'string' && part[0] === 'attempt').map((part) => say(m, 'where.attempt', part[1]));
    const reason = [...detail, why].join(', ');
    if (Array.isArray(head) && head[0] === 'widgets') {
      const name = Object.keys(WIDGETS).find((key) => WIDGETS[key].tag === head[1].tag);
      const title = name ? m.widgetTitle(name, WIDGETS[name].title) : head[1].key;
      return say(m, 'part.widget', { title, why: reason });
    }
    if (Array.isArray(head) && head[0] === 'answers') return say(m, 'part.answers', { id: head[1].id, why: reason });
    const { where } = this.#parts(m);
    return `${where}: ${why}`;
  }

  #parts(m) {
    const where = this.where.map((part) => (typeof part === 'string' ? say(m, 'where.field', { name: part }) : say(m, `where.${part[0]}`, part[1]))).join(', ');
    // A widget's own reason for refusing a state: its sanitiser's StateError, in m's language.
    const why = this.why[0] === 'raw' ? this.why[1].text : this.why[0] === 'error' ? reasonIn(this.why[1], m) : say(m, `why.${this.why[0]}`, this.why[1]);
    return { where, why };
  }
}
const bad = (where, why, params = {}) => { throw new CopyError([where].flat(), typeof why === 'string' ? [why, params] : why); };
const raw = (text) => ['raw', { text }];

// `keys` must all be there; `optional` may be.
function onlyKeys(value, keys, where, optional = []) {
  if (!isObject(value)) bad(where, 'object');
  for (const key of Object.keys(value)) if (!keys.includes(key) && !optional.includes(key)) bad(where, 'unknownField', { field: clip(key) });
  for (const key of keys) if (!Object.hasOwn(value, key)) bad(where, 'missingField', { field: key });
}

/**
 * A clean copy from untrusted JSON, or throws Error with a message for the learner.
 * `problems`: { [id]: { kind, options?: string[] } }; `sanitizers`: { [tag]: (raw) => state }
 * (each widget's own strict state check; it throws on a bad state).
 *
 * `dropped`: null (strict: any bad part refuses the whole file, as an import does) or an
 * array: then a bad answer record or widget entry is left out alone and its CopyError
 * pushed here (the page's own saved copy: one part that cannot be read never costs the
 * learner the rest). A bad envelope (format, version, lesson, seed) always throws.
 */
export function validateCopy(raw, { problems, sanitizers }, dropped = null) {
  onlyKeys(raw, TOP_KEYS, [['copy']]);
  if (raw.format !== COPY_FORMAT) bad('format', 'quoted', { value: COPY_FORMAT });
  if (raw.version !== COPY_VERSION) bad('version', 'value', { value: String(COPY_VERSION) });
  if (raw.lesson !== LESSON_ID) bad('lesson', 'quoted', { value: LESSON_ID });
  if (!Number.isInteger(raw.seed) || raw.seed < 0 || raw.seed > 0xffffffff) bad('seed', 'seed', { max: '4294967295' });
  if (!isObject(raw.answers)) bad('answers', 'object');
  const answers = Object.create(null);
  for (const [id, record] of Object.entries(raw.answers)) {
    const where = [['answers', { id: clip(id) }]];
    const problem = Object.hasOwn(problems, id) ? problems[id] : null;
    const part = () => {
      if (!problem) bad(where, 'noProblem');
      onlyKeys(record, ['attempts'], where, ['count', 'solved']);
      // Files written before attempts were bounded may hold up to 100: the last ones are kept.
      if (!Array.isArray(record.attempts) || record.attempts.length === 0 || record.attempts.length > LEGACY_MAX_ATTEMPTS) bad(where, 'attempts', { max: LEGACY_MAX_ATTEMPTS });
      const attempts = record.attempts.map((attempt, k) => {
        const at = [...where, ['attempt', { number: k + 1 }]];
        onlyKeys(attempt, ['answer', 'correct', 'at'], at);
        if (typeof attempt.correct !== 'boolean') bad(at, 'correct');
        if (!Number.isInteger(attempt.at) || attempt.at < 0 || attempt.at > 8.64e15) bad(at, 'at');
        return { answer: validAnswer(problem, attempt.answer, at, sanitizers), correct: attempt.correct, at: attempt.at };
      });
      const count = record.count ?? attempts.length;
      if (!Number.isInteger(count) || count < attempts.length || count > MAX_COUNT) bad(where, 'count');
      const solved = record.solved ?? attempts.some((a) => a.correct);
      if (typeof solved !== 'boolean' || (!solved && attempts.some((a) => a.correct))) bad(where, 'solved');
      return { attempts: attempts.slice(-MAX_ATTEMPTS), count, solved };
    };
    const kept = salvaged(part, dropped);
    if (kept) answers[id] = kept;
  }
  if (!isObject(raw.widgets)) bad('widgets', 'object');
  const widgets = Object.create(null);
  for (const [key, entry] of Object.entries(raw.widgets)) {
    // The tag rides along (unused by the file's message) so a notice can name the widget.
    const where = [['widgets', { key: clip(key), tag: isObject(entry) && typeof entry.tag === 'string' ? clip(entry.tag) : '' }]];
    const kept = salvaged(() => {
      if (!STATE_KEY.test(key)) bad(where, 'stateKey');
      onlyKeys(entry, ['tag', 'state'], where);
      if (typeof entry.tag !== 'string' || !TAG.test(entry.tag) || !Object.hasOwn(sanitizers, entry.tag)) bad(where, 'tag');
      return { tag: entry.tag, state: sanitized(sanitizers[entry.tag], entry.state, [...where, ['state']]) };
    }, dropped);
    if (kept) widgets[key] = kept;
  }
  return { format: COPY_FORMAT, version: COPY_VERSION, lesson: LESSON_ID, seed: raw.seed, answers, widgets };
}

// Runs one part's check: its clean value, or (salvaging) null with the refusal in `dropped`.
function salvaged(check, dropped) {
  if (dropped === null) return check();
  try {
    return check();
  } catch (error) {
    if (!(error instanceof CopyError)) throw error;
    dropped.push(error);
    return null;
  }
}

function sanitized(sanitize, state, where) {
  try {
    return sanitize(structuredClone(state));
  } catch (error) {
    return bad(where, ['error', error]);
  }
}

function validAnswer(problem, answer, where, sanitizers) {
  const at = [...where, ['answer']];
  if (problem.kind === 'choose' || problem.kind === 'predict') {
    onlyKeys(answer, ['option'], at);
    if (!problem.options.includes(answer.option)) bad(at, 'option');
    return { option: answer.option };
  }
  if (problem.kind === 'number') {
    onlyKeys(answer, ['text'], at);
    if (typeof answer.text !== 'string' || answer.text.length > MAX_TEXT) bad(at, 'text', { max: MAX_TEXT });
    return { text: answer.text };
  }
  onlyKeys(answer, ['claim', 'state'], at);
  if (answer.claim !== 'done' && answer.claim !== 'impossible') bad(at, 'claim');
  const sanitize = sanitizers[problem.widget];
  if (!sanitize) bad(at, 'noWidget');
  return { claim: answer.claim, state: sanitized(sanitize, answer.state, [...at, ['state']]) };
}

/**
 * Reads a file's text as a copy: { ok: true, copy } or { ok: false, message }, the message
 * in the language of `m` (English by default).
 */
export function parseCopyText(text, options, m = messagesFor('en'), dropped = null) {
  if (typeof text !== 'string') return { ok: false, message: say(m, 'notJson', { why: say(m, 'noText') }) };
  if (text.length > MAX_FILE_BYTES) return { ok: false, message: say(m, 'tooBig', { kb: Math.ceil(text.length / 1024), max: MAX_FILE_BYTES / 1024 }) };
  let json;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: say(m, 'notJson', { why: clip(error.message) }) };
  }
  try {
    return { ok: true, copy: validateCopy(json, options, dropped) };
  } catch (error) {
    const refusal = error instanceof CopyError ? error : new CopyError([['copy']], raw(clip(error.message)));
    return { ok: false, message: refusal.messageIn(m) };
  }
}

/** A typed answer as the copy keeps it: without surrounding space, at most MAX_TEXT characters. */
export function normaliseAnswerText(text) {
  return String(text).trim().slice(0, MAX_TEXT);
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
  /** The parts of the saved copy that could not be read and were left out (CopyErrors). */
  dropped = [];

  /** `events`: where other tabs' writes are announced ('storage' events), the window. */
  constructor({ storage, persistent, problems, sanitizers, events = globalThis }) {
    super();
    this.storage = storage;
    this.persistent = persistent;
    this.options = { problems, sanitizers };
    this.noticeKey = persistent ? null : 'memoryOnly';
    this.#copy = this.#load();
    // Another tab of the lesson writes the same copy: its writes are taken in here as they
    // land, so neither tab writes back a copy that lacks the other's work.
    this.events = events;
    if (persistent) events.addEventListener?.('storage', this.#onStorage);
  }

  /** Stops following other tabs' writes (a copy that is no longer used). */
  close() {
    this.flush();
    this.events.removeEventListener?.('storage', this.#onStorage);
  }

  // Every answer is written at once and every widget state within a quarter second, so the
  // stored copy is the learner's latest work in all tabs: it is taken whole, and only this
  // tab's widget states not yet written are laid over it (the latest edit of a widget wins,
  // wherever it was made). Practice views are rebuilt only when the answers changed.
  #pendingWidgets = new Set();

  #onStorage = (event) => {
    if (event.key !== STORAGE_KEY || event.newValue === null) return;
    if (event.storageArea && event.storageArea !== this.storage) return;
    if (event.newValue === this.exportText()) return;
    const parsed = parseCopyText(event.newValue, this.options, messagesFor('en'), []);
    if (!parsed.ok) return;
    const theirs = parsed.copy;
    for (const key of this.#pendingWidgets) if (this.#copy.widgets[key]) theirs.widgets[key] = this.#copy.widgets[key];
    const answersMoved = JSON.stringify(theirs.answers) !== JSON.stringify(this.#copy.answers) || theirs.seed !== this.#copy.seed;
    this.#copy = theirs;
    this.dispatchEvent(new Event('change'));
    if (answersMoved) this.dispatchEvent(new Event('replaced'));
  };

  #load() {
    let text = null;
    try {
      text = this.storage.getItem(STORAGE_KEY);
    } catch {
      text = null;
    }
    if (text === null) {
      // A new copy is written at once: its seed orders the options the learner sees, so a
      // reload before any answer must show them in the same order.
      this.#copy = emptyCopy();
      this.#write();
      return this.#copy;
    }
    // The page's own copy is read part by part: a part that fails its check is left out
    // alone (and named in the notice), never the whole copy.
    const dropped = [];
    const parsed = parseCopyText(text, this.options, messagesFor('en'), dropped);
    if (parsed.ok && dropped.length === 0) return parsed.copy;
    // Never thrown away: the text as it was is kept aside for the learner (or a fix).
    this.#keepAside(text);
    if (!parsed.ok) {
      this.noticeKey = 'unreadable';
      return emptyCopy();
    }
    this.noticeKey = 'dropped';
    this.dropped = dropped;
    return parsed.copy;
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
    this.#pendingWidgets.clear();
    if (this.persistent) {
      try {
        this.storage.setItem(STORAGE_KEY, this.exportText());
      } catch {
        // Full or newly blocked: keep working in memory and say so.
        this.storage = memoryStorage();
        this.persistent = false;
        this.noticeKey = 'full';
      }
    }
  }

  // A copy kept aside is never overwritten by the next one: the last ASIDE_KEPT are kept,
  // newest first (the same text twice, as on every reload until the learner's next change,
  // is kept once).
  #keepAside(text) {
    try {
      const kept = this.#asides();
      if (kept.includes(text)) return;
      [text, ...kept].slice(0, ASIDE_KEPT).forEach((value, k) => this.storage.setItem(asideKey(k), value));
    } catch { /* storage refused: the copy stays where it was, unread, until the next write */ }
  }

  #asides() {
    const texts = [];
    for (let k = 0; k < ASIDE_KEPT; k += 1) {
      const value = this.storage.getItem(asideKey(k));
      if (value !== null) texts.push(value);
    }
    return texts;
  }

  /**
   * The saved copies that could not be read whole, as they were (kept aside on this device),
   * newest first: only while the notice says so (else []).
   */
  asideTexts() {
    if (this.noticeKey !== 'unreadable' && this.noticeKey !== 'dropped') return [];
    try {
      return this.#asides();
    } catch {
      return [];
    }
  }

  /** The newest copy kept aside, or null. */
  asideText() {
    return this.asideTexts()[0] ?? null;
  }

  /** What the learner must know about where their copy is kept (English), or null. */
  get notice() {
    return this.noticeIn(messagesFor('en'));
  }

  /** The notice in the language of `m` (a Messages, see i18n.js), or null. */
  noticeIn(m) {
    if (this.noticeKey === null) return null;
    const parts = this.dropped.map((error) => `${error.partIn(m)}.`);
    return say(m, `notice.${this.noticeKey}`, { count: parts.length, parts: parts.join(' ') });
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
    return Boolean(this.#copy.answers[id]?.solved);
  }

  /** How many times the learner checked an answer to this problem (0 if never). */
  attemptCount(id) {
    return this.#copy.answers[id]?.count ?? 0;
  }

  /**
   * Records an answer. It is normalised first, to what the copy's check accepts (a typed
   * answer trimmed, and cut at MAX_TEXT characters), so that what is written reads back.
   */
  recordAttempt(id, answer, correct, at = Date.now()) {
    const record = this.#copy.answers[id] ?? { attempts: [], count: 0, solved: false };
    const clean = structuredClone(answer);
    if (typeof clean.text === 'string') clean.text = normaliseAnswerText(clean.text);
    record.attempts.push({ answer: clean, correct: Boolean(correct), at: Math.max(0, Math.floor(at)) });
    if (record.attempts.length > MAX_ATTEMPTS) record.attempts.splice(0, record.attempts.length - MAX_ATTEMPTS);
    record.count = Math.min(MAX_COUNT, record.count + 1);
    record.solved ||= Boolean(correct);
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
    this.#pendingWidgets.add(key);
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
  importText(text, m = messagesFor('en')) {
    const parsed = parseCopyText(text, this.options, m);
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
 * into the widgets and resets those it has none for (after an import), reset() resets every
 * widget (start over).
 */
export function keepWidgetStates(copy, root, tags, { onRefused, titleOf = (tag) => tag } = {}) {
  const elements = [...root.querySelectorAll(tags.join(','))];
  let resetting = null;
  // `fresh`: a widget the copy has no state for goes back to its start (after an import or
  // its undo, the page shows that copy, not what this page had before).
  const put = (el, fresh = false) => {
    const saved = copy.widgetState(el.stateKey, el.localName);
    if (!saved) {
      // Not written back: the copy has no state for it, as the imported file had none.
      if (fresh) {
        resetting = el;
        try { el.reset(); } finally { resetting = null; }
      }
      return;
    }
    try {
      el.setState(saved);
    } catch (error) {
      // In the widget's own language, as is its title (the reason is the widget's own message).
      const m = messagesFor(el);
      const name = Object.keys(WIDGETS).find((key) => WIDGETS[key].tag === el.localName);
      const title = name ? m.widgetTitle(name, titleOf(el.localName)) : titleOf(el.localName);
      onRefused?.(say(m, 'widgetRefused', { title, why: reasonIn(error, m) }));
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
      if (restored && resetting !== el && event.detail?.state) copy.setWidgetState(el.stateKey, el.localName, event.detail.state);
    });
    if (el.hasAttribute('ready')) restore();
    else el.addEventListener('ready', restore, { once: true });
  }
  return {
    apply() {
      for (const el of elements) if (el.hasAttribute('ready')) put(el, true);
    },
    reset() {
      for (const el of elements) if (el.hasAttribute('ready')) el.reset();
    },
  };
}
