// MhaWidget: what every lesson widget shares.
//
//   * a shadow root with the shared and the widget's own constructable stylesheets
//     (no inline styles: pages with style-src 'self' accept these);
//   * the page's one shared engine (the wasm core), loaded on first use;
//   * one state object per widget, committed through commit(): the core computes the new
//     view first, and only if that succeeds does the state change and the widget repaint.
//     A rejected edit leaves the last good state in force and on screen;
//   * undo of the last edits and reset to the starting state;
//   * read-only, enforced here for every control at once: while the element has `readonly`,
//     every commit that a learner's action causes is refused (see commit's `origin`);
//   * the state mirrored into the page's address (lesson-state.js: a query parameter per
//     widget, so #section anchors keep working), restored on Back and Forward, and a
//     `change` event;
//   * while the core loads, the widget's usual height reserved and a #section the page was
//     opened at kept in place (anchor-hold.js), so links to sections below widgets land right.
//
// A subclass defines:
//   static tag, static stateKey, static styles (CSS text)
//   defaultConfig()            starting configuration (from lessons/ data)
//   defaultState()             starting state for this.config
//   sanitizeState(raw)         a clean state from untrusted JSON (URL, API), or throw Error
//   build()                    creates the DOM once, in this.body
//   compute(state)             runs the core; returns a view; throws on invalid state
//   render(view, state)        updates the DOM from a view
//
// Attributes every widget understands (see docs/EMBEDDING.md):
//   state="<JSON>"    starting state (the address, when it holds one for this widget, wins)
//   readonly          shows the state but offers no editing
//   panels="a b"      shows only these panels (elements marked data-panel="name")
//   state-key="key"   the key of this widget's state in the address (?mha.<key>=); two
//                     widgets with the same key: the later gets <key>-2 and a console warning
//   url-state="off"   the widget neither reads nor writes the address
//   heading-level="2" the outline level of the widget's top headings (default 3, for a
//                     widget placed under an h2); lower headings follow
//
// A static figure (the element's children, e.g. the one the lesson's build computes with
// <name>-static.js) is shown through a slot while the core loads, stays if it cannot load,
// is hidden once the widget is ready, and is what prints: after each change it is redrawn
// for the current state (see #refreshStaticFigure).
import { sharedEngine } from '../../engine/engine.js';
import { claimStateKey, linkProblemIn, readLessonState, releaseStateKey, upgradeLegacyAddress, writeLessonState } from './lesson-state.js';
import { widgetLoading, widgetSettled } from './anchor-hold.js';
import baseStyles from './widget-base.css?inline';
import { THE_WORLD, headColourStyles } from './world.js';
import { liveNote, replaceFigure } from './static-figure.js';
import { reasonIn } from './state-error.js';
import { kitSheet } from '../../ui/styles.js';
import { WIDGETS, attributeWords } from '../registry.js';
import { localeOf, messagesFor } from './i18n.js';
import { element } from '../../ui/dom.js';

// Each widget's static renderer (web/widgets/<name>/<name>-static.js), loaded on first use.
const STATIC_RENDERERS = import.meta.glob('../*/*-static.js');
// Redraw the static figure for print this long after the last change (a drag is many changes).
const STATIC_REFRESH_MS = 1000;
// Widgets whose static figure does not show their current state yet.
const STALE_FIGURES = new Set();

const HEAD_COLOUR_STYLES = headColourStyles();

const UNDO_LIMIT = 100;
// What commit() returns for a learner's edit of a read-only widget, in English (the widget says
// it in its own language: base.readOnly in the message files).
export const READ_ONLY_MESSAGE = 'this widget is read-only';

// The last kind of input on the page: 'key' or 'pointer' (for bringFiguresIntoView).
let lastInput = 'key';
globalThis.addEventListener?.('keydown', () => { lastInput = 'key'; }, { capture: true });
globalThis.addEventListener?.('pointerdown', () => { lastInput = 'pointer'; }, { capture: true });
const sheetCache = new Map();

// While the core loads, the widget's box keeps the height it will have (the registry's
// loadingHeight, measured on the lesson page, for wide and narrow containers), so the page
// below does not move when it appears. Only while the loading line is shown (:has), so an
// error message or the built widget are never stretched. With panels="…" the height depends
// on the panels chosen: reserved only for the values the registry has measured.
function loadingSheetText(tag) {
  const entry = Object.values(WIDGETS).find((widget) => widget.tag === tag);
  const heights = [
    [':host(:not([panels]))', entry?.loadingHeight],
    ...Object.entries(entry?.panelsLoadingHeight ?? {}).map(([panels, height]) => [`:host([panels="${panels}"])`, height]),
  ].filter(([, height]) => height);
  const rule = (host, px) => `${host} .widget:has(> .loading) { min-height: ${Math.round(px)}px; }`;
  return heights.map(([host, height]) => `${rule(host, height.wide)} @container (max-width: 34rem) { ${rule(host, height.narrow)} }`).join(' ');
}

function sheetFor(cssText) {
  let sheet = sheetCache.get(cssText);
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(cssText);
    sheetCache.set(cssText, sheet);
  }
  return sheet;
}

export class MhaWidget extends HTMLElement {
  #started = false;
  #undo = [];
  #state = null;
  #view = null;

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

  // Built on connection; taken down (models deleted) when removed from the page, and
  // rebuilt with the same state if it is put back (moving an element in the DOM removes
  // and re-inserts it in one task, so take-down waits a microtask).
  #built = false;
  #connecting = false;

  async connectedCallback() {
    if (this.#built || this.#connecting) return;
    this.#connecting = true;
    // The URL key is claimed now, synchronously: elements connect in document order, so two
    // same-kind widgets get the same keys (blend, blend-2) on every load.
    this.#claimUrlKey();
    widgetLoading(this);
    try {
      await this.#connect();
    } finally {
      this.#connecting = false;
      widgetSettled(this);
    }
  }

  // The key of this widget's state in the address, or null with url-state="off".
  #urlKey = null;

  #claimUrlKey() {
    if (this.#urlKey !== null || this.getAttribute('url-state') === 'off') return;
    const fallback = this.constructor.stateKey;
    let wanted = this.getAttribute('state-key') ?? fallback;
    if (!/^[A-Za-z_][A-Za-z0-9_-]{0,31}$/.test(wanted)) {
      console.warn(`Multiple Heads: state-key “${wanted.slice(0, 40)}” is not a key (up to 32 letters, digits, _ and -, not starting with a digit or -); <${this.localName}> uses “${fallback}”.`);
      wanted = fallback;
    }
    this.#urlKey = claimStateKey(this, wanted, (entry) => this.#navigated(entry));
    // An old #key=… link becomes ?mha.key=… as soon as every key in it is a widget's: at
    // once, before a host's script (a scroll tracker) can replace the hash. Widgets claim
    // in document order as the page is parsed, so the last one's claim completes the set.
    upgradeLegacyAddress();
  }

  async #connect() {
    if (!this.root) {
      this.root = this.attachShadow({ mode: 'open' });
      // The kit's sheet from the start (widgets' styles take their colours from its --ui-*
      // properties): a widget whose core failed to load still gives its static figure, shown
      // through the slot, the colours it inherits.
      this.root.adoptedStyleSheets = [sheetFor(baseStyles), sheetFor(HEAD_COLOUR_STYLES), sheetFor(this.constructor.styles ?? ''),
        sheetFor(loadingSheetText(this.localName)), kitSheet()];
      this.body = document.createElement('div');
      this.body.className = 'widget';
      this.noticeBox = element('p', { className: 'notice', role: 'status', hidden: true });
      // The element's own children (a static figure) show through this slot until ready.
      this.staticSlot = element('slot', { className: 'static-figure' });
      this.staticSlot.addEventListener('slotchange', () => this.#markStaticFigure());
      this.root.append(this.#skipLink(), this.noticeBox, this.body, this.staticSlot, this.#endMarker);
      this.body.id = 'widget-body';
      this.body.addEventListener('focusin', (event) => this.bringFiguresIntoView(event.composedPath()[0]));
    }
    // While loading, the static figure shows inside the box that keeps the widget's height.
    this.body.replaceChildren(element('p', { className: 'loading', textContent: messagesFor(this).t('base.loading') }), this.staticSlot);
    try {
      this.engine = await sharedEngine();
    } catch (error) {
      // An EngineLoadError says what failed and how to fix it (CSP, CORS, a missing file);
      // the author's own content inside the element stays visible below (the slot).
      this.body.replaceChildren(element('p', {
        className: 'error', role: 'alert',
        textContent: error?.name === 'EngineLoadError' ? error.message : messagesFor(this).t('base.loadFailed', { error: error.message }),
      }));
      this.body.after(this.staticSlot);
      return;
    }
    if (!this.isConnected) return;
    try {
      this.config = this.defaultConfig();
    } catch (error) {
      this.body.replaceChildren(element('p', {
        className: 'error', role: 'alert', textContent: messagesFor(this).t('base.configInvalid', { error: error.message }),
      }));
      this.body.after(this.staticSlot);
      return;
    }
    this.body.replaceChildren();
    this.body.after(this.staticSlot);
    this.build();
    this.#applyHeadingLevel();
    this.#applyPanels();
    if (this.#state !== null) this.commit(this.#state, { record: false, writeUrl: false, origin: 'author' });
    else this.#restore();
    this.#built = true;
    this.setAttribute('ready', '');
    this.#markStaticFigure();
    // The built figure shows the starting state in the build's language; a state from the
    // address, or a widget in another language, needs a redraw.
    const figureLocale = this.querySelector(':scope > [data-static-figure]')?.dataset.locale;
    const otherLanguage = figureLocale !== undefined && figureLocale !== messagesFor(this).locale;
    if (otherLanguage || JSON.stringify(this.#state) !== JSON.stringify(this.defaultState())) this.#scheduleStaticRefresh();
    this.dispatchEvent(new CustomEvent('ready'));
  }

  // "Skip this widget": the first tab stop of every widget (visible when focused) moves focus
  // to a marker at the widget's end, so the next Tab leaves the widget. A keyboard user
  // passes a widget in two key presses instead of its every control. The marker is a tab
  // stop only while it holds focus: Tab from an element with tabindex -1 at the end of a
  // shadow tree would start the tree again instead of leaving it.
  #endMarker = this.#makeEndMarker();

  #makeEndMarker() {
    const marker = element('span', { className: 'widget-end', tabIndex: -1 });
    marker.addEventListener('blur', () => { marker.tabIndex = -1; });
    return marker;
  }

  #skipLink() {
    const m = messagesFor(this);
    const [key, entry] = Object.entries(WIDGETS).find(([, widget]) => widget.tag === this.localName) ?? [this.localName, { title: this.localName }];
    const link = element('a', { className: 'skip-widget', href: '#', textContent: m.t('base.skip', { title: m.widgetTitle(key, entry.title) }) });
    link.addEventListener('click', (event) => {
      event.preventDefault();
      this.#endMarker.tabIndex = 0;
      this.#endMarker.focus();
    });
    return link;
  }

  // Control and effect together: every control names the figures it changes in
  // aria-controls (ids in this shadow root). When a control gets keyboard focus and those
  // figures are out of view, the page scrolls so that they and the control are in view
  // together (or, if they cannot all fit, the control at the window's edge nearest them).
  // Keyboard focus only: a page that scrolled under a pointer would lose the click.
  bringFiguresIntoView(control) {
    // A component that focuses a part under a finger (a budget bar's segment on touch) can
    // match :focus-visible too, so the last input decides: a scroll under a drag breaks it.
    if (lastInput === 'pointer' || !control?.matches?.(':focus-visible')) return;
    const ids = (control.getAttribute('aria-controls') ?? '').split(/\s+/).filter(Boolean);
    const figures = ids.map((id) => this.root.getElementById(id)).filter((el) => el && el.getClientRects().length > 0);
    if (figures.length === 0) return;
    const boxes = figures.map((el) => el.getBoundingClientRect());
    if (boxes.every((b) => b.top >= 0 && b.bottom <= innerHeight)) return;
    const own = control.getBoundingClientRect();
    const top = Math.min(own.top, ...boxes.map((b) => b.top));
    const bottom = Math.max(own.bottom, ...boxes.map((b) => b.bottom));
    const margin = 8;
    let by;
    if (bottom - top + 2 * margin <= innerHeight) {
      // Everything fits: scroll just enough.
      by = top < margin ? top - margin : bottom - innerHeight + margin;
    } else if (own.bottom - top + 2 * margin <= innerHeight) {
      // The figures start above (or around) the control: show them from their top, with
      // the control still on screen.
      by = top - margin;
    } else {
      // Too tall: the control at the window's edge nearest its figures.
      by = own.top <= top ? own.top - margin : own.bottom - innerHeight + margin;
    }
    window.scrollBy({ top: by, behavior: 'instant' });
  }

  disconnectedCallback() {
    queueMicrotask(() => {
      if (this.isConnected) return;
      releaseStateKey(this);
      this.#urlKey = null;
      if (!this.#built) return;
      this.dispose?.();
      this.#built = false;
      this.removeAttribute('ready');
    });
  }

  /** The key of this widget's state in the address (after resolving clashes: blend-2). */
  get stateKey() {
    return this.#urlKey ?? this.getAttribute('state-key') ?? this.constructor.stateKey;
  }

  get readOnly() {
    return this.hasAttribute('readonly');
  }

  /** The `config` attribute as an object, for subclasses' defaultConfig(); strict. */
  configAttribute() {
    const text = this.getAttribute('config');
    if (text === null) return {};
    if (text.length > 20000) throw new Error('the config attribute is too long');
    let value;
    try {
      value = JSON.parse(text);
    } catch {
      throw new Error('the config attribute is not valid JSON');
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new Error('the config attribute must be a JSON object');
    }
    return value;
  }

  // Widgets write h3 (and h4) headings; a page that places a widget elsewhere in its
  // outline says where with heading-level, and the levels shift to match.
  #applyHeadingLevel() {
    const level = Number(this.getAttribute('heading-level') ?? 3);
    if (!Number.isInteger(level) || level < 1 || level > 6 || level === 3) return;
    for (const heading of this.body.querySelectorAll('h3, h4, h5, h6')) {
      const shifted = Math.min(6, Math.max(1, Number(heading.tagName[1]) + level - 3));
      heading.setAttribute('role', 'heading');
      heading.setAttribute('aria-level', String(shifted));
    }
  }

  // panels="a b": only these panels. A name that is not one of this widget's (a typo, or
  // "Plane" for "plane": names are matched exactly) is named in a notice at the top with the
  // widget's panel names, and when no name is known every panel stays shown: a wrong
  // attribute never leaves an empty widget.
  #applyPanels() {
    const wanted = this.getAttribute('panels');
    if (wanted === null) return;
    const panels = [...this.body.querySelectorAll('[data-panel]')];
    const known = [...new Set(panels.map((panel) => panel.dataset.panel))];
    const names = attributeWords(wanted);
    const shown = new Set(names.filter((name) => known.includes(name)));
    const unknown = names.filter((name) => !known.includes(name));
    if (unknown.length > 0 || shown.size === 0) {
      const m = messagesFor(this);
      const quoted = (text) => m.t('common.quoted', { text });
      const hint = (name) => {
        const same = known.find((panel) => panel.toLowerCase() === name.toLowerCase());
        return same ? m.t('base.didYouMean', { name: quoted(name.slice(0, 40)), same: quoted(same) }) : quoted(name.slice(0, 40));
      };
      const what = unknown.length > 0 ? m.t('base.panelsUnknown', { names: unknown.slice(0, 5).map(hint).join(', ') }) : m.t('base.panelsEmpty');
      const fallback = shown.size === 0 ? m.t('base.panelsFallback') : '';
      this.body.prepend(element('p', {
        className: 'notice panels-notice', role: 'status',
        textContent: known.length === 0 ? m.t('base.panelsNone', { what, fallback })
          : m.t('base.panelsKnown', { what, fallback, names: known.map(quoted).join(', ') }),
      }));
    }
    for (const panel of panels) panel.hidden = shown.size > 0 && !shown.has(panel.dataset.panel);
    // On a phone the widget's switch offers only the parts still shown.
    for (const narrow of this.body.querySelectorAll('.narrow-switch')) narrow.narrowSwitch?.keepShownPanels();
  }

  // Read-only: controls stay visible and readable (text fields are readOnly, not removed)
  // but nothing can be changed.
  #applyReadOnly() {
    if (!this.readOnly) return;
    for (const toolbar of this.body.querySelectorAll('.history')) toolbar.hidden = true;
    for (const control of this.body.querySelectorAll('input, select, button, textarea')) {
      if (control.closest('.narrow-switch')) continue; // choosing what to show changes nothing
      if (control.type === 'text' || control.tagName === 'TEXTAREA') control.readOnly = true;
      else control.disabled = true;
    }
  }

  #restore() {
    const key = this.#urlKey;
    const { entries, problems } = key === null ? { entries: {}, problems: {} } : readLessonState();
    // Own keys only (readLessonState's objects have no prototype; hasOwn says so here too).
    const inHash = key !== null && Object.hasOwn(entries, key);
    const problem = key === null ? null : Object.hasOwn(problems, key) ? problems[key] : problems['*'];
    if (!inHash && this.hasAttribute('state')) {
      try {
        const error = this.commit(this.sanitizeState(JSON.parse(this.getAttribute('state'))), { record: false, writeUrl: false, origin: 'author' });
        if (!error) return;
        this.showNotice(messagesFor(this).t('base.stateRejected', { error }));
      } catch (error) {
        this.showNotice(messagesFor(this).t('base.stateIgnored', { error: reasonIn(error, messagesFor(this)) }));
      }
    }
    if (inHash) {
      try {
        const error = this.commit(this.sanitizeState(entries[key]), { record: false, origin: 'author' });
        if (!error) return;
        this.showNotice(messagesFor(this).t('base.linkRejected', { error }));
      } catch (error) {
        this.showNotice(messagesFor(this).t('base.linkIgnored', { error: reasonIn(error, messagesFor(this)) }));
      }
    } else if (problem) {
      this.showNotice(messagesFor(this).t('base.problem', { problem: linkProblemIn(problem, messagesFor(this)) }));
    }
    this.commit(this.defaultState(), { record: false, writeUrl: false, origin: 'author' });
  }

  // Back, Forward or a pasted link changed this widget's entry in the address: show that
  // state, or the starting one (the state attribute, else the default) when the entry has
  // none. An undoable step, so Undo takes a Back that was not meant back.
  #navigated({ present, value, problem }) {
    if (!this.#built) return; // still loading: #restore reads the address when it is built
    this.clearNotice();
    const options = { writeUrl: false, origin: 'author' };
    if (present) {
      try {
        const refused = this.commit(this.sanitizeState(value), options);
        if (!refused) return;
        this.showNotice(messagesFor(this).t('base.linkRejected', { error: refused }));
      } catch (failure) {
        this.showNotice(messagesFor(this).t('base.linkIgnored', { error: reasonIn(failure, messagesFor(this)) }));
      }
    } else if (problem) {
      this.showNotice(messagesFor(this).t('base.problem', { problem: linkProblemIn(problem, messagesFor(this)) }));
    }
    if (!present && this.hasAttribute('state')) {
      try {
        if (!this.commit(this.sanitizeState(JSON.parse(this.getAttribute('state'))), options)) return;
      } catch {
        // Reported when the widget was built; the default follows.
      }
    }
    this.commit(this.defaultState(), options);
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
   */
  commit(next, { record = true, writeUrl = true, origin = 'learner' } = {}) {
    if (origin === 'learner' && this.readOnly) return messagesFor(this).t('base.readOnly');
    let view;
    try {
      view = this.compute(next);
    } catch (error) {
      return error.message;
    }
    if (record && this.#state !== null) {
      this.#undo.push(this.#state);
      if (this.#undo.length > UNDO_LIMIT) this.#undo.shift();
    }
    this.#state = next;
    this.#view = view;
    this.render(view, next);
    this.updateHistoryButtons?.();
    this.#applyReadOnly();
    if (writeUrl && this.#urlKey !== null) writeLessonState(this.#urlKey, next);
    this.#scheduleStaticRefresh();
    this.dispatchEvent(new CustomEvent('change', { detail: { state: this.state } }));
    return null;
  }

  // Print shows the static figure instead of the live one (see widget-base.css), so it
  // must show the current state: redrawn by the widget's own renderer, with the core,
  // shortly after the last change. Only a figure that is there is redrawn (the lesson's
  // build put it there); an author's element gets no children it did not have.
  #staticTimer = 0;

  #markStaticFigure() {
    const has = this.staticSlot.assignedElements().length > 0;
    this.body.classList.toggle('has-static-figure', has);
    this.staticSlot.classList.toggle('has-static-figure', has);
  }

  #scheduleStaticRefresh() {
    if (!this.hasAttribute('ready') || !this.querySelector(':scope > [data-static-figure]')) return;
    STALE_FIGURES.add(this);
    this.#loadStaticRenderer(); // loaded ahead, so that a print right after an edit can draw
    clearTimeout(this.#staticTimer);
    // After the edits stop, when the page is idle: a redraw runs the core again (the head
    // splitting figure's passes at d_model 512 take tens of milliseconds), never mid-drag.
    this.#staticTimer = setTimeout(() => {
      const run = () => this.#refreshStaticFigure();
      if (globalThis.requestIdleCallback) requestIdleCallback(run, { timeout: 2000 }); else run();
    }, STATIC_REFRESH_MS);
  }

  #staticRenderer = null;

  async #loadStaticRenderer() {
    if (this.#staticRenderer) return;
    const name = Object.keys(WIDGETS).find((key) => WIDGETS[key].tag === this.localName);
    const load = STATIC_RENDERERS[`../${name}/${name}-static.js`];
    try {
      if (load) this.#staticRenderer = (await load()).renderStaticFigure;
    } catch {
      // No renderer: the figure keeps its last drawing.
    }
  }

  async #refreshStaticFigure() {
    await this.#loadStaticRenderer();
    this.#drawStaticFigure();
  }

  #drawStaticFigure() {
    const figure = this.querySelector(':scope > [data-static-figure]');
    if (!figure || !this.engine || !this.#staticRenderer || !STALE_FIGURES.has(this)) return;
    STALE_FIGURES.delete(this);
    try {
      const attributes = Object.fromEntries([...this.attributes].map((a) => [a.name, a.value]));
      attributes.state = JSON.stringify(this.#state);
      // A figure the page cannot compute again (the build's training comparison) keeps its data.
      const kept = figure.dataset.figure ? { trainingComparison: JSON.parse(figure.dataset.figure) } : {};
      const html = this.#staticRenderer(attributes, { engine: this.engine, world: THE_WORLD, locale: localeOf(this), ...kept });
      // Its note says it shows the widget's state, unless it was drawn from kept data (the
      // build's training comparison): that one keeps the build's note, in the new language.
      replaceFigure(figure, html, (fresh) => {
        if (!figure.dataset.figure) fresh.querySelector('.mha-static-note')?.replaceChildren(liveNote(messagesFor(this)));
      });
    } catch {
      // The figure keeps its last good drawing: the live widget is what the reader uses.
    }
  }

  // Printing right after an edit, before a redraw was due: stale figures are drawn now,
  // synchronously (their renderers were loaded at the edit), before the page is laid out.
  static {
    globalThis.addEventListener?.('beforeprint', () => {
      for (const widget of [...STALE_FIGURES]) widget.#drawStaticFigure();
    });
  }

  undo() {
    if (this.readOnly) return; // a learner's action: nothing to undo in a read-only widget
    const previous = this.#undo.pop();
    if (previous) this.commit(previous, { record: false });
    this.updateHistoryButtons?.();
  }

  reset() {
    if (this.readOnly) return;
    this.clearNotice();
    this.commit(this.defaultState());
  }

  showNotice(message) {
    this.noticeBox.textContent = message;
    this.noticeBox.hidden = false;
  }

  clearNotice() {
    this.noticeBox.hidden = true;
    this.noticeBox.textContent = '';
  }

  /** A toolbar with Undo and Reset buttons, wired to this widget. */
  historyToolbar(label) {
    const m = messagesFor(this);
    const undo = element('button', { type: 'button', textContent: m.t('common.undo'), className: 'secondary' });
    const reset = element('button', { type: 'button', textContent: m.t('common.reset'), className: 'secondary' });
    // Undo and Reset change the whole widget: their figure is the widget itself.
    for (const button of [undo, reset]) button.setAttribute('aria-controls', 'widget-body');
    undo.addEventListener('click', () => this.undo());
    reset.addEventListener('click', () => this.reset());
    this.updateHistoryButtons = () => {
      const disable = !this.canUndo;
      // Disabling the focused button would drop focus to <body>, and a keyboard user would
      // start again from the top of the page: hand focus to Reset, its neighbour, first.
      if (disable && this.root.activeElement === undo) reset.focus();
      undo.disabled = disable;
    };
    return element('div', { className: 'toolbar history', role: 'group', ariaLabel: label }, [undo, reset]);
  }
}
