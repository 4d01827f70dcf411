// A widget's state in the page's address (lesson-state.js: a query parameter per widget,
// ?mha.<key>=, so #section anchors keep working), for MhaWidget (widget-base.js):
//   * the key, claimed when the element connects (state-key="…", else the widget's own;
//     a clash gets <key>-2), released when it leaves the page;
//   * the starting state: the address's entry for the key, else the `state` attribute, else
//     the default, with a notice when one of them is refused;
//   * Back, Forward or a pasted link that changes the key's entry: shown as an undoable step;
//   * the state written after each commit.
// With url-state="off" the widget has no key and neither reads nor writes the address.
import { claimStateKey, linkProblemIn, readLessonState, releaseStateKey, upgradeLegacyAddress, writeLessonState } from './lesson-state.js';
import { reasonIn } from './state-error.js';
import { messagesFor } from './i18n.js';

// Up to 32 letters, digits, _ and -, not starting with a digit or -.
const KEY = /^[A-Za-z_][A-Za-z0-9_-]{0,31}$/;

export class UrlBinding {
  /** The key of the widget's state in the address, or null (url-state="off", or not claimed). */
  key = null;
  #widget;
  #isBuilt;

  /**
   * @param {HTMLElement} widget  the MhaWidget whose state this is
   * @param {() => boolean} isBuilt  whether the widget is built (before, Back and Forward wait
   *                                 for restore(), which reads the address when it is)
   */
  constructor(widget, isBuilt) {
    this.#widget = widget;
    this.#isBuilt = isBuilt;
  }

  /** Claims the widget's key, synchronously on connection (see MhaWidget.connectedCallback). */
  claim() {
    const widget = this.#widget;
    if (this.key !== null || widget.getAttribute('url-state') === 'off') return;
    const fallback = widget.constructor.stateKey;
    let wanted = widget.getAttribute('state-key') ?? fallback;
    if (!KEY.test(wanted)) {
      console.warn(`Multiple Heads: state-key “${wanted.slice(0, 40)}” is not a key (up to 32 letters, digits, _ and -, not starting with a digit or -); <${widget.localName}> uses “${fallback}”.`);
      wanted = fallback;
    }
    this.key = claimStateKey(widget, wanted, (entry) => this.#navigated(entry));
    // An old #key=… link becomes ?mha.key=… as soon as every key in it is a widget's: at
    // once, before a host's script (a scroll tracker) can replace the hash. Widgets claim
    // in document order as the page is parsed, so the last one's claim completes the set.
    upgradeLegacyAddress();
  }

  /** Whether the address holds an entry (or a problem) for this widget's key. */
  inAddress() {
    if (this.key === null) return false;
    const { entries, problems } = readLessonState();
    return Object.hasOwn(entries, this.key) || Object.hasOwn(problems, this.key);
  }

  release() {
    releaseStateKey(this.#widget);
    this.key = null;
  }

  /** Writes a committed state into the address (nothing without a key). */
  write(state) {
    if (this.key !== null) writeLessonState(this.key, state);
  }

  /** Commits the starting state: the address's, else the state attribute's, else the default. */
  restore() {
    const widget = this.#widget;
    const { key } = this;
    const { entries, problems } = key === null ? { entries: {}, problems: {} } : readLessonState();
    // Own keys only (readLessonState's objects have no prototype; hasOwn says so here too).
    const inAddress = key !== null && Object.hasOwn(entries, key);
    const problem = key === null ? null : Object.hasOwn(problems, key) ? problems[key] : problems['*'];
    const quiet = { record: false, writeUrl: false, origin: 'author' };
    if (!inAddress && widget.hasAttribute('state')
      && this.#tryState(() => JSON.parse(widget.getAttribute('state')), quiet, 'base.stateRejected', 'base.stateIgnored')) return;
    if (inAddress) {
      if (this.#tryState(() => entries[key], { record: false, origin: 'author' }, 'base.linkRejected', 'base.linkIgnored')) return;
    } else if (problem) {
      this.#showProblem(problem);
    }
    widget.commit(widget.defaultState(), quiet);
  }

  // Back, Forward or a pasted link changed this widget's entry in the address: show that
  // state, or the starting one (the state attribute, else the default) when the entry has
  // none. An undoable step, so Undo takes a Back that was not meant back.
  #navigated({ present, value, problem }) {
    if (!this.#isBuilt()) return; // still loading: restore() reads the address when it is built
    const widget = this.#widget;
    widget.clearNotice();
    const options = { writeUrl: false, origin: 'author' };
    if (present) {
      if (this.#tryState(() => value, options, 'base.linkRejected', 'base.linkIgnored')) return;
    } else if (problem) {
      this.#showProblem(problem);
    }
    // A state attribute that fails was reported when the widget was built; the default follows.
    if (!present && widget.hasAttribute('state') && this.#tryState(() => JSON.parse(widget.getAttribute('state')), options)) return;
    widget.commit(widget.defaultState(), options);
  }

  // Commits a state from outside (the address, the state attribute): true if it took. A
  // refusal (message `rejected`) or an invalid state (`ignored`) is named in a notice.
  #tryState(read, options, rejected = null, ignored = null) {
    const widget = this.#widget;
    const m = messagesFor(widget);
    try {
      const error = widget.commit(widget.sanitizeState(read()), options);
      if (!error) return true;
      if (rejected) widget.showNotice(m.t(rejected, { error }));
    } catch (failure) {
      if (ignored) widget.showNotice(m.t(ignored, { error: reasonIn(failure, m) }));
    }
    return false;
  }

  #showProblem(problem) {
    const m = messagesFor(this.#widget);
    this.#widget.showNotice(m.t('base.problem', { problem: linkProblemIn(problem, m) }));
  }
}
