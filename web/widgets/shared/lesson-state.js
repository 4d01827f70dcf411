// The lesson's state: one object, one key per widget, kept in the URL hash so that a
// reload, a bookmark or a shared link shows exactly what the learner saw (as TensorFlow
// Playground does). Format: #blend=<JSON>&split=<JSON>..., URL-encoded.
//
// Parsing is strict and never throws: each widget sanitizes its own entry (see
// MhaWidget.sanitizeState); anything malformed is dropped and reported to that widget,
// which shows its starting state and a notice.

const MAX_HASH_LENGTH = 20000;
// Keys are the widgets' state-key attributes: any name of up to 32 letters, digits, '_' and
// '-' not starting with a digit or '-', including 'constructor' or '__proto__'. Entries are
// kept in objects without a prototype (and pending writes in a Map), so such keys are
// plain keys: with {} 'constructor' in entries was always true, and a widget with
// state-key="constructor" showed a false notice.
const STATE_KEY = /^[A-Za-z_][A-Za-z0-9_-]{0,31}$/;
const listeners = new Set();
let pending = null;

/** The parsed hash: { key: unknown JSON value } plus { key: error message } for bad entries. */
export function readLessonState(hash = globalThis.location?.hash ?? '') {
  const entries = Object.create(null);
  const errors = Object.create(null);
  if (typeof hash !== 'string' || hash.length <= 1) return { entries, errors };
  if (hash.length > MAX_HASH_LENGTH) {
    errors['*'] = `The link's state is too long (${hash.length} characters) and was ignored.`;
    return { entries, errors };
  }
  let params;
  try {
    params = new URLSearchParams(hash.slice(1));
  } catch {
    errors['*'] = 'The link’s state could not be read and was ignored.';
    return { entries, errors };
  }
  for (const [key, text] of params) {
    if (!STATE_KEY.test(key)) continue;
    try {
      entries[key] = JSON.parse(text);
    } catch {
      errors[key] = 'The link’s state for this widget is not valid JSON.';
    }
  }
  return { entries, errors };
}

/** Records one widget's state; the hash is rewritten once per frame, without a history entry. */
export function writeLessonState(key, state) {
  pending ??= new Map();
  pending.set(key, state);
  queueMicrotask(flush);
}

function flush() {
  if (!pending || !globalThis.location) return;
  const params = new URLSearchParams(location.hash.slice(1));
  for (const [key, state] of pending) {
    if (state === undefined) params.delete(key);
    else params.set(key, JSON.stringify(state));
  }
  pending = null;
  const hash = params.toString();
  try {
    history.replaceState(history.state, '', hash ? `#${hash}` : location.pathname + location.search);
  } catch {
    // Sandboxed frames may refuse; the state then simply is not kept in the URL.
  }
  for (const listener of listeners) listener(hash);
}

export function onLessonStateWritten(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
