// MhaWidget: what every lesson widget shares. This file is its core; the helpers beside it
// do the rest, called with what they need:
//   widget-frame.js           the shadow root: stylesheets (the loading height among them),
//                             notice line, body, slot; the loading line, load failures;
//                             the Undo / Reset toolbar
//   widget-url-binding.js     the state in the page's address: state-key, url-state, the
//                             starting state, Back and Forward, the state written on commit
//   widget-static-figure.js   the static figure: shown while loading, redrawn for print
//   widget-accessibility.js   the skip link, figures brought into view, heading-level
//   widget-attributes.js      panels and readonly applied to the built DOM; config read
//   widget-edit-groups.js     edit groups: the commits of one drag make one undo step
//
// The core: the lifecycle (a shadow root; the page's one shared engine, the wasm core,
// loaded on first use while anchor-hold.js keeps a #section in place; build; take-down when
// the element leaves the page); one state object per widget, committed through commit():
// the core computes the new view first, and only if that succeeds does the state change
// and the widget repaint (a rejected edit leaves the last good state in force and on
// screen); read-only enforced for every control at once (a learner's commit is refused);
// undo (a drag, or an exact value typed, is one step: groupEdits(control), or
// beginEditGroup() / endEditGroup()), reset, notices and the Undo / Reset toolbar; the
// events `ready` once built and `change` after every commit.
//
// A subclass defines:
//   static tag, static stateKey, static styles (CSS text)
//   defaultConfig()            starting configuration (from lessons/ data)
//   defaultState()             starting state for this.config
//   sanitizeState(raw)         a clean state from untrusted JSON (URL, API), or throw Error
//   build()                    creates the DOM once, in this.body (a part drawn later, on
//                              first use, is passed to this.adoptContent(root))
//   compute(state)             runs the core; returns a view; throws on invalid state
//   render(view, state)        updates the DOM from a view
//   dispose()                  optional: frees what build() made when the element leaves
//
// Attributes every widget understands (docs/EMBEDDING.md): state="<JSON>" (the starting
// state; the address, when it holds one for this widget, wins), readonly, panels="a b",
// state-key="key", url-state="off", heading-level="2", loading="eager" (built as soon as the
// core is there, not when it comes near the view: build-queue.js); each explained where it
// is applied.
import { sharedEngine } from '../../engine/engine.js';
import { anchorElement, widgetLoading, widgetSettled } from './anchor-hold.js';
import { buildTurn, leaveQueue } from './build-queue.js';
import { attachFrame, historyToolbar, showCannotShow, showLoadFailure, showLoading, useWorldColours } from './widget-frame.js';
import { UrlBinding } from './widget-url-binding.js';
import { StaticFigure } from './widget-static-figure.js';
import { applyHeadingLevel, bringFiguresIntoView } from './widget-accessibility.js';
import { applyPanels, applyPanelsTo, applyReadOnly, parseConfigAttribute } from './widget-attributes.js';
import { EditGroups } from './widget-edit-groups.js';
import { loadLocale, messagesFor } from './i18n.js';
import { checkWorldWithCore, worldForAttribute } from './world-source.js';

const UNDO_LIMIT = 100;
// What commit() returns for a learner's edit of a read-only widget, in English (the widget says
// it in its own language: base.readOnly in the message files).
export const READ_ONLY_MESSAGE = 'this widget is read-only';

export class MhaWidget extends HTMLElement {
  #undo = [];
  #state = null;
  #view = null;
  // Built on connection; taken down (models deleted) when removed from the page, and
  // rebuilt with the same state if it is put back (moving an element in the DOM removes
  // and re-inserts it in one task, so take-down waits a microtask).
  #built = false;
  #warmed = false;
  #connecting = false;
  #url = new UrlBinding(this, () => this.#built);
  #figure = new StaticFigure(this);
  #groups = new EditGroups();
  // The world attribute's value the widget loaded (null: none, the lesson's world).
  #worldLoaded = null;

  // `world` is the one attribute a built widget answers to at once: the widget is built again
  // for the new world (its state and undo steps belonged to the old one).
  static observedAttributes = ['world'];

  static define() {
    if (!customElements.get(this.tag)) customElements.define(this.tag, this);
  }

  get state() {
    return structuredClone(this.#state);
  }

  /**
   * Frameworks that set a property when the element has one (React 19, Preact) pass the
   * `state` attribute's text here. Text is the `state` attribute (the starting state);
   * an object, once the widget is drawn, is setState() (before that, the starting state).
   */
  set state(value) {
    if (typeof value === 'string') this.setAttribute('state', value);
    else if (value === null || value === undefined) this.removeAttribute('state');
    else if (this.#built) this.setState(value);
    else this.setAttribute('state', JSON.stringify(value));
  }

  /** Replaces the state (e.g. from an author's script, also when read-only); throws Error if it is invalid. */
  setState(raw) {
    const state = this.sanitizeState(structuredClone(raw));
    const error = this.commit(state, { origin: 'author' });
    if (error) throw new Error(error);
  }

  get view() {
    return this.#view;
  }

  get canUndo() {
    return this.#undo.length > 0;
  }

  /** The key of this widget's state in the address (after resolving clashes: blend-2). */
  get stateKey() {
    return this.#url.key ?? this.getAttribute('state-key') ?? this.constructor.stateKey;
  }

  /**
   * Whether the element has `readonly`, other than readonly="false": React 18 writes
   * `readonly={false}` on a custom element as that text, and an author who wrote it meant
   * an editable widget.
   */
  get readOnly() {
    const value = this.getAttribute('readonly');
    return value !== null && value.trim().toLowerCase() !== 'false';
  }

  async connectedCallback() {
    if (this.#built || this.#connecting) return;
    this.#connecting = true;
    // The URL key is claimed now, synchronously: elements connect in document order, so two
    // same-kind widgets get the same keys (blend, blend-2) on every load.
    this.#url.claim();
    widgetLoading(this);
    try {
      if (!this.root) this.#attachRoot();
      // Built in a task of its own when near the view, the nearest first (build-queue.js).
      // Waiting far from the view it counts as settled: its box keeps the loading height.
      let loaded = await this.#load();
      if (loaded) {
        // The core is here; until its turn comes the widget says it is being prepared.
        this.body.querySelector(':scope > .loading')?.replaceChildren(messagesFor(this).t('base.preparing'));
        await buildTurn(this, { eager: this.#eager(), onPark: () => widgetSettled(this) });
      }
      // The world attribute changed while this widget waited for its turn: load that one.
      while (loaded && this.isConnected && this.getAttribute('world') !== this.#worldLoaded) loaded = await this.#load();
      if (loaded && this.isConnected) this.#build();
    } finally {
      this.#connecting = false;
      widgetSettled(this);
    }
  }

  attributeChangedCallback(name, before, after) {
    // (!this.root: the element is being upgraded; connectedCallback reads the attribute.)
    if (name !== 'world' || before === after || this.#connecting || !this.isConnected || !this.root) return;
    // Not built: a world that could not be used (its message in place of the widget); try this one.
    if (!this.#built) {
      this.clearNotice();
      this.connectedCallback();
      return;
    }
    this.dispose?.();
    this.#built = false;
    this.removeAttribute('ready');
    this.#state = null;
    this.#view = null;
    this.#undo = [];
    this.clearNotice();
    this.connectedCallback();
  }

  disconnectedCallback() {
    queueMicrotask(() => {
      if (this.isConnected) return;
      this.#url.release();
      leaveQueue(this);
      if (!this.#built) return;
      this.dispose?.();
      this.#built = false;
      this.removeAttribute('ready');
    });
  }

  // The shadow root, once (widget-frame.js), wired to the helpers that watch it.
  #attachRoot() {
    attachFrame(this);
    this.staticSlot.addEventListener('slotchange', () => this.#figure.mark());
    this.body.addEventListener('focusin', (event) => this.bringFiguresIntoView(event.composedPath()[0]));
    this.#groups.listen(this.root);
    for (const type of ['pointerenter', 'focusin']) this.addEventListener(type, () => this.#warmUp());
  }

  // The reader is about to edit (the pointer comes over the widget, or the focus into it):
  // the static figure's renderer (drawn again after edits, for print), which the first edit
  // would load, is loaded now, once. The first edit of each widget paid for it, up to 1.3-3
  // times the time of the edits after it on a slowed CPU (issue 25). A page nobody edits or
  // points at still loads none of it (issue 23).
  #warmUp() {
    if (this.#warmed || !this.#built || this.readOnly) return;
    this.#warmed = true;
    this.#figure.warm();
  }

  // Built as soon as the core is there, wherever the widget is: when the author asks
  // (loading="eager"), when the address holds a state for it (a shared link's figure must
  // show that state, on screen and on paper), and when the page's #anchor is in it or
  // around it (the reader was sent there).
  #eager() {
    if (this.getAttribute('loading') === 'eager' || this.#url.inAddress()) return true;
    const anchor = anchorElement();
    return anchor !== null && (anchor.contains(this) || this.contains(anchor));
  }

  // Loads the engine and the configuration; false (with a message in the body) if either
  // fails or the element left the page meanwhile.
  async #load() {
    // The core, and this widget's language if the page has yet to fetch it (the one-widget
    // entries fetch languages other than English when a widget needs them), load together.
    const core = sharedEngine();
    core.catch(() => {}); // handled below, once the messages are in
    const messages = loadLocale(this);
    if (messages) await messages;
    const m = messagesFor(this);
    showLoading(this, m.t('base.loading'));
    try {
      this.engine = await core;
    } catch (error) {
      // An EngineLoadError says what failed and how to fix it (CSP, CORS, a missing file).
      return showLoadFailure(this, error?.name === 'EngineLoadError' ? error.message : m.t('base.loadFailed', { error: error.message }));
    }
    if (!this.isConnected || !(await this.#loadWorld(m))) return false;
    try {
      this.config = this.defaultConfig();
    } catch (error) {
      return showLoadFailure(this, m.t('base.configInvalid', { error: error.message }));
    }
    // A widget that does not show a world (static worldNotUsed: the message key saying why)
    // still checks one it is given, and says it is not used rather than ignore it silently.
    const notUsed = this.constructor.worldNotUsed;
    const unused = notUsed && this.hasAttribute('world') ? m.t(notUsed) : '';
    if (unused && !this.noticeBox.textContent.includes(unused)) this.showNotice([this.noticeBox.textContent, unused].filter(Boolean).join(' '));
    return true;
  }

  // The world (the `world` attribute, or the lesson's): read, checked by field and by the
  // core, and asked whether it can show what this widget teaches (static worldNeeds(w):
  // null, or what the world lacks, in an author's terms). False, with the reason shown,
  // if not. An attribute changed while loading is loaded instead.
  async #loadWorld(m) {
    let asked;
    do {
      asked = this.getAttribute('world');
      try {
        this.world = await worldForAttribute(asked);
        checkWorldWithCore(this.engine, this.world);
      } catch (error) {
        if (this.getAttribute('world') !== asked) continue;
        return showLoadFailure(this, m.t('base.worldInvalid', { error: error.message }));
      }
    } while (this.getAttribute('world') !== asked);
    this.#worldLoaded = asked;
    if (!this.isConnected) return false;
    useWorldColours(this, this.world);
    const lacks = this.constructor.worldNeeds?.(this.world, m);
    return lacks ? showCannotShow(this, m.t('base.worldCannotShow', { reason: lacks })) : true;
  }

  #build() {
    this.body.replaceChildren();
    this.body.after(this.staticSlot);
    this.build();
    applyHeadingLevel(this.body, this.getAttribute('heading-level'));
    applyPanels(this);
    if (this.#state !== null) this.commit(this.#state, { record: false, writeUrl: false, origin: 'author' });
    else this.#url.restore();
    this.#built = true;
    this.setAttribute('ready', '');
    this.#figure.built();
    this.dispatchEvent(new CustomEvent('ready'));
  }

  /**
   * For content a subclass adds to its body after build() (drawn on first use): the
   * heading level and panels the widget's attributes ask for apply to it as to the rest.
   * (Read-only is applied after every render, to the whole body.)
   */
  adoptContent(root) {
    applyHeadingLevel(root, this.getAttribute('heading-level'));
    applyPanelsTo(this, root);
  }

  /** The `config` attribute as an object, for subclasses' defaultConfig(); strict. */
  configAttribute() {
    return parseConfigAttribute(this.getAttribute('config'));
  }

  /** Scrolls the figures a focused control names (aria-controls) into view with it. */
  bringFiguresIntoView(control) {
    bringFiguresIntoView(this.root, control);
  }

  /**
   * Makes `next` the state if the core accepts it. Returns null on success, else the error
   * message (the caller shows it beside the field that caused it).
   *
   * `origin` says who asked: 'learner' (the default: every control, key, drag and click in
   * a widget commits through here) or 'author' (setState() from a page's script, and the
   * starting state from the `state` attribute or the link). While the element has
   * `readonly`, learner commits are refused with READ_ONLY_MESSAGE: nothing changes, the
   * URL hash included. Checking here, not in each control, keeps read-only true for every
   * control, present and future (arrow keys on grids, drags and heatmap clicks once slipped
   * through).
   *
   * `group`: the edit group the commit belongs to (a learner's commit: the open one, if
   * any; see widget-edit-groups.js). Every commit of a group after its first replaces the
   * state without recording an undo step.
   */
  commit(next, { record = true, writeUrl = true, origin = 'learner', group = origin === 'learner' ? this.#groups.open : null } = {}) {
    if (origin === 'learner' && this.readOnly) return messagesFor(this).t('base.readOnly');
    let view;
    try {
      view = this.compute(next);
    } catch (error) {
      return error.message;
    }
    const newStep = this.#groups.committed(group);
    if (record && newStep && this.#state !== null) {
      this.#undo.push(this.#state);
      if (this.#undo.length > UNDO_LIMIT) this.#undo.shift();
    }
    this.#state = next;
    this.#view = view;
    this.render(view, next);
    this.updateHistoryButtons?.();
    if (this.readOnly) applyReadOnly(this.body);
    if (writeUrl) this.#url.write(next);
    this.#figure.schedule();
    this.dispatchEvent(new CustomEvent('change', { detail: { state: this.state } }));
    return null;
  }

  /** Presses on `control` (a drag), and an exact value typed in its text fields, are one undo step each. */
  groupEdits(control) {
    this.#groups.add(control);
  }

  /** Opens an edit group: the learner's commits until endEditGroup() are one undo step. */
  beginEditGroup() {
    this.#groups.begin();
  }

  endEditGroup() {
    this.#groups.end();
  }

  undo() {
    if (this.readOnly) return; // a learner's action: nothing to undo in a read-only widget
    this.#groups.end();
    const previous = this.#undo.pop();
    if (previous) this.commit(previous, { record: false, group: null });
    this.updateHistoryButtons?.();
  }

  reset() {
    if (this.readOnly) return;
    this.#groups.end();
    this.clearNotice();
    this.commit(this.defaultState(), { group: null });
  }

  showNotice(message) {
    this.noticeBox.textContent = message;
    this.noticeBox.hidden = false;
  }

  clearNotice() {
    this.noticeBox.hidden = true;
    this.noticeBox.textContent = '';
  }

  /** A toolbar with Undo and Reset buttons, wired to this widget (sets updateHistoryButtons). */
  historyToolbar(label) {
    return historyToolbar(this, label);
  }
}
