// The lesson's state in the page's address, so that a reload, a bookmark or a shared link
// shows exactly what the learner saw (as TensorFlow Playground does), while the address's
// #fragment stays what it is on every other page: a section anchor.
//
// Format: one query parameter per widget, its state key behind the prefix "mha.", its
// value the state as URL-encoded JSON, after the host page's own parameters:
//
//   lesson.html?mha.blend=%7B%22budget%22%3Anull%7D&mha.split=%7B...%7D#same-arithmetic
//
// Why the query and not the hash: a table-of-contents click, a "¶" link, a static-site
// generator's scroll tracking (history.replaceState('#id')) and the browser's own
// scroll-to-anchor all replace or read the whole fragment; they all keep the query. So
// plain #section links work before and after an edit, the state survives them, and every
// history entry they make carries the state it was made with, which Back and Forward
// restore (popstate, see onNavigation). The prefix keeps the parameters apart from the
// host's (an LMS's ?id=12) and from embed.html's attribute parameters (?widget=blend).
// The host's parameters are kept byte for byte: only "mha." parameters are rewritten.
//
// Old links put the state in the hash (#blend=<JSON>&split=<JSON>, or after an anchor as
// #section=&blend=<JSON>); they are still read, and rewritten to this form on load, but
// only if every part of the hash is the state of a widget on the page, or that leading
// anchor: a hash router's #/path?x=1, or a host page's own #tab=2, is not ours and is left
// alone.
//
// Parsing is strict and never throws: each widget sanitizes its own entry (see
// MhaWidget.sanitizeState); anything malformed is dropped and reported to that widget,
// which shows its starting state and a notice.

import { messagesFor } from './i18n.js';

export const STATE_PREFIX = 'mha.';
const MAX_ADDRESS_LENGTH = 20000;
// Keys are the widgets' state-key attributes: any name of up to 32 letters, digits, '_' and
// '-' not starting with a digit or '-', including 'constructor' or '__proto__'. Entries are
// kept in objects without a prototype (and pending writes in a Map), so such keys are
// plain keys: with {} 'constructor' in entries was always true, and a widget with
// state-key="constructor" showed a false notice.
const STATE_KEY = /^[A-Za-z_][A-Za-z0-9_-]{0,31}$/;
// A problem with a link is kept as its message (a key of the locales' linkState group and
// its parameters) in `problems`, which each widget says in its own language; `errors` has
// the same problem in English (the lesson's language), for callers of readLessonState.
function linkProblem(result, key, name, params = {}) {
  result.problems[key] = { message: name, params };
  result.errors[key] = messagesFor('en').t(`linkState.${name}`, params);
}

/** A problem from readLessonState's `problems` in the language of `m`. */
export function linkProblemIn(problem, m) {
  return m.t(`linkState.${problem.message}`, problem.params);
}
const listeners = new Set();
let pending = null;

/** Whether a query parameter's name is one of ours (embed.html skips these). */
export function isStateParameter(name) {
  return typeof name === 'string' && name.startsWith(STATE_PREFIX);
}

// "a=1&b" -> [['a', '1'], ['b', '']] with form decoding ('+' is a space); a part that is
// not valid percent-encoding decodes to null (reported, never thrown).
function splitPairs(text) {
  if (text === '') return [];
  return text.split('&').filter((part) => part !== '').map((part) => {
    const at = part.indexOf('=');
    const decode = (s) => {
      try {
        return decodeURIComponent(s.replaceAll('+', ' '));
      } catch {
        return null;
      }
    };
    return at < 0 ? [decode(part), '', part] : [decode(part.slice(0, at)), decode(part.slice(at + 1)), part];
  });
}

function parseEntry(result, key, text) {
  if (!STATE_KEY.test(key)) return;
  if (text === null) {
    linkProblem(result, key, 'notJson');
    return;
  }
  try {
    result.entries[key] = JSON.parse(text);
  } catch {
    linkProblem(result, key, 'notJson');
  }
}

/**
 * The old hash format, if this hash is one: { anchor, pairs } (anchor '' when none), else
 * null. Every part must be a state entry (a key with a value), except that the first may
 * be a bare anchor ("#section=" or "#section", as the old writer left it).
 */
function legacyHash(hash, isOurs = () => true) {
  if (!hash.includes('=')) return null;
  const pairs = splitPairs(hash);
  let anchor = '';
  const state = [];
  for (const [index, [key, value, raw]] of pairs.entries()) {
    if (index === 0 && value === '' && !raw.slice(0, -1).includes('=') && key) anchor = key;
    else if (key !== null && STATE_KEY.test(key) && raw.includes('=') && isOurs(key)) state.push([key, value]);
    else return null;
  }
  return state.length > 0 ? { anchor, pairs: state } : null;
}

function splitAddress(address) {
  const text = String(address ?? '');
  const hashAt = text.indexOf('#');
  const beforeHash = hashAt < 0 ? text : text.slice(0, hashAt);
  const hash = hashAt < 0 ? '' : text.slice(hashAt + 1);
  const queryAt = beforeHash.indexOf('?');
  const query = queryAt < 0 ? '' : beforeHash.slice(queryAt + 1);
  return { base: queryAt < 0 ? beforeHash : beforeHash.slice(0, queryAt), query, hash };
}

/**
 * The state in an address: a whole URL, or just its "?query" or "#hash" (the default is
 * the page's own address). Returns { entries: { key: unknown JSON value }, errors: { key:
 * message in English } (key '*' for the whole address), problems: { key: { message, params } }
 * (the same problems as keys of the locales' linkState messages, for linkProblemIn), anchor:
 * the section the fragment names ('' if none), legacy: whether the state came from the old
 * hash format }. Never throws.
 */
export function readLessonState(address = globalThis.location?.href ?? '') {
  const entries = Object.create(null);
  const errors = Object.create(null);
  const problems = Object.create(null);
  const result = { entries, errors, problems, anchor: '', legacy: false };
  if (typeof address !== 'string' && !(address instanceof URL)) return result;
  const { query, hash } = splitAddress(address);
  if (query.length + hash.length > MAX_ADDRESS_LENGTH) {
    linkProblem(result, '*', 'tooLong', { count: query.length + hash.length });
    return result;
  }
  const old = legacyHash(hash);
  if (old) {
    result.legacy = true;
    result.anchor = old.anchor;
    for (const [key, text] of old.pairs) parseEntry(result, key, text);
  } else if (hash !== '') {
    try {
      result.anchor = decodeURIComponent(hash);
    } catch {
      result.anchor = hash;
    }
  }
  // The query wins over an old hash entry for the same key (it is the newer writer's).
  for (const [name, text] of splitPairs(query)) {
    if (name === null || !isStateParameter(name)) continue;
    const key = name.slice(STATE_PREFIX.length);
    delete entries[key];
    delete errors[key];
    delete problems[key];
    parseEntry(result, key, text);
  }
  return result;
}

/**
 * `address` with the given states written in (a Map of key -> state; undefined removes the
 * key), an old-format hash turned into its anchor (if each of its keys passes `isOurs`),
 * and everything else kept byte for byte.
 */
export function addressWithState(address, states, isOurs = () => true) {
  const { base, query, hash } = splitAddress(address);
  const old = legacyHash(hash, isOurs);
  const kept = [];
  const ours = new Map(); // key -> its URL-encoded value
  if (old) for (const [key, text] of old.pairs) ours.set(key, encodeURIComponent(text ?? ''));
  for (const part of query.split('&')) {
    if (part === '') continue;
    const [name] = splitPairs(part)[0];
    if (name !== null && isStateParameter(name)) {
      ours.set(name.slice(STATE_PREFIX.length), part.includes('=') ? part.slice(part.indexOf('=') + 1) : '');
    } else {
      kept.push(part);
    }
  }
  for (const [key, state] of states) {
    if (state === undefined) ours.delete(key);
    else ours.set(key, encodeURIComponent(JSON.stringify(state)));
  }
  for (const [key, value] of ours) kept.push(`${STATE_PREFIX}${encodeURIComponent(key)}=${value}`);
  const newHash = old ? (old.anchor ? `#${encodeURIComponent(old.anchor)}` : '') : (hash ? `#${hash}` : '');
  return `${base}${kept.length ? `?${kept.join('&')}` : ''}${newHash}`;
}

/** Records one widget's state; the address is rewritten once per task, without a history entry. */
export function writeLessonState(key, state) {
  pending ??= new Map();
  pending.set(key, state);
  queueMicrotask(flush);
}

function flush() {
  if (!pending || !globalThis.location) return;
  const states = pending;
  pending = null;
  replaceAddress(addressWithState(location.href, states, isClaimed));
  const { query } = splitAddress(location.href);
  for (const listener of listeners) listener(query);
}

function replaceAddress(address) {
  if (address === location.href) return;
  try {
    history.replaceState(history.state, '', address);
  } catch {
    // Some frames (a sandboxed one in an older browser, a file:// page) refuse to change
    // their address: the state then simply is not kept in it.
  }
}

/**
 * Rewrites an old-format hash (#blend=…) into the current form, if every key in it is a
 * widget's on this page (call it once the page's widgets have their keys).
 */
export function upgradeLegacyAddress() {
  if (!globalThis.location || !legacyHash(splitAddress(location.href).hash, isClaimed)) return;
  // A page whose element id really is that whole hash keeps it (the hash is an anchor).
  const raw = location.hash.slice(1);
  let id = raw;
  try { id = decodeURIComponent(raw); } catch { /* keep raw */ }
  if (globalThis.document?.getElementById(id)) return;
  replaceAddress(addressWithState(location.href, new Map(), isClaimed));
}

export function onLessonStateWritten(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

// --- Keys: one per widget on the page -------------------------------------------------

const claimed = new Map(); // key -> { owner, onNavigate, text }
const isClaimed = (key) => claimed.has(key);

/**
 * Reserves `wanted` as the URL key of `owner` (a widget). If another widget on the page
 * holds it already (two same-kind widgets without state-key, or two with the same one),
 * `owner` gets `wanted-2` (then -3, ...): widgets claim in document order as they connect,
 * so the keys are the same on every load, and a console warning tells the author to give
 * each a state-key. `onNavigate(entry)` is called when Back, Forward or a pasted link
 * changes the address to a different state for this key. Returns the key.
 */
export function claimStateKey(owner, wanted, onNavigate) {
  for (const [key, claim] of claimed) if (claim.owner === owner) return key;
  let key = wanted;
  for (let n = 2; claimed.has(key); n++) {
    const suffix = `-${n}`;
    key = wanted.slice(0, 32 - suffix.length) + suffix;
  }
  if (key !== wanted) {
    console.warn(`Multiple Heads: two widgets on this page use the URL state key “${wanted}”; this <${owner.localName}> uses “${key}” instead. Give each widget its own state-key attribute so that links keep working when the page changes (see docs/EMBEDDING.md, “state-key”).`);
  }
  claimed.set(key, { owner, onNavigate, text: currentText(key) });
  listenForNavigation();
  return key;
}

export function releaseStateKey(owner) {
  for (const [key, claim] of claimed) if (claim.owner === owner) claimed.delete(key);
}

// The raw text of a key's entry in the current address (to tell which widgets a
// navigation changed): JSON text, an error marker, or null when absent.
function currentText(key, state = readLessonState()) {
  if (Object.hasOwn(state.entries, key)) return JSON.stringify(state.entries[key]);
  if (Object.hasOwn(state.errors, key)) return `\u0000error:${state.errors[key]}`;
  return null;
}

let navigationListened = false;
function listenForNavigation() {
  if (navigationListened || !globalThis.addEventListener) return;
  navigationListened = true;
  // Back and Forward between entries of this document fire popstate; a pasted link that
  // differs only in its hash (an old #blend=… link) fires hashchange. Either way, each
  // widget whose entry differs from what it last saw is given the new one.
  const onNavigation = () => {
    upgradeLegacyAddress();
    const state = readLessonState();
    for (const [key, claim] of claimed) {
      const text = currentText(key, state);
      if (text === claim.text) continue;
      claim.text = text;
      claim.onNavigate({
        present: Object.hasOwn(state.entries, key),
        value: state.entries[key],
        problem: Object.hasOwn(state.problems, key) ? state.problems[key] : state.problems['*'],
      });
    }
  };
  addEventListener('popstate', onNavigation);
  addEventListener('hashchange', onNavigation);
  onLessonStateWritten(() => {
    // Our own writes are what each widget already shows.
    const state = readLessonState();
    for (const [key, claim] of claimed) claim.text = currentText(key, state);
  });
}
