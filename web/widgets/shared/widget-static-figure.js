// A widget's static figure, for MhaWidget (widget-base.js). The figure is the element's own
// children (e.g. the one the lesson's build computes with <name>-static.js): shown through a
// slot while the core loads, kept if it cannot load, hidden once the widget is ready, and
// what prints (widget-base.css). So it must show the current state: after each change it is
// redrawn by the widget's own renderer, with the core, once the edits stop; printing before
// that draws every stale figure at once (beforeprint). Only a figure that is there is
// redrawn (the lesson's build put it there): an author's element gets no children it did
// not have.
import { WIDGETS } from '../registry.js';
import { THE_WORLD } from './world.js';
import { localeOf, messagesFor } from './i18n.js';

// Each widget's static renderer (web/widgets/<name>/<name>-static.js), loaded on first use.
const STATIC_RENDERERS = import.meta.glob('../*/*-static.js');
// The figures' helpers (replaceFigure, liveNote) too: a page that is never edited or printed
// does not download them (about 1.5 kB gzipped of every one-widget page, issue 23); the
// renderers import the same module, so it comes with the first one.
const loadHelpers = () => import('./static-figure.js');
// Redraw the static figure for print this long after the last change (a drag is many changes).
const STATIC_REFRESH_MS = 1000;
// The figures that do not show their widget's current state yet.
const STALE_FIGURES = new Set();

// Printing right after an edit, before a redraw was due: stale figures are drawn now,
// synchronously (their renderers were loaded at the edit), before the page is laid out.
globalThis.addEventListener?.('beforeprint', () => {
  for (const figure of [...STALE_FIGURES]) figure.draw();
});

export class StaticFigure {
  #widget;
  #timer = 0;
  #renderer = null;
  #helpers = null;

  /** @param {HTMLElement} widget  the MhaWidget (its body, staticSlot, engine and state) */
  constructor(widget) {
    this.#widget = widget;
  }

  get #figure() {
    return this.#widget.querySelector(':scope > [data-static-figure]');
  }

  /**
   * Marks the widget as having a static figure in its slot (or not), for widget-base.css.
   * Only the build's figure counts: an author's fallback text is not what prints.
   */
  mark() {
    const { body, staticSlot } = this.#widget;
    const has = staticSlot.assignedElements().some((el) => el.matches('[data-static-figure]'));
    body.classList.toggle('has-static-figure', has);
    staticSlot.classList.toggle('has-static-figure', has);
  }

  /**
   * Once the widget is built: the built figure shows the starting state in the build's
   * language; a state from the address, or a widget in another language, needs a redraw.
   */
  built() {
    const widget = this.#widget;
    this.mark();
    const figureLocale = this.#figure?.dataset.locale;
    const otherLanguage = figureLocale !== undefined && figureLocale !== messagesFor(widget).locale;
    if (otherLanguage || JSON.stringify(widget.state) !== JSON.stringify(widget.defaultState())) this.schedule();
  }

  /** After a change: the figure is stale, and redrawn once the edits stop. */
  schedule() {
    if (!this.#widget.hasAttribute('ready') || !this.#figure) return;
    STALE_FIGURES.add(this);
    this.#load(); // loaded ahead, so that a print right after an edit can draw
    clearTimeout(this.#timer);
    // After the edits stop, when the page is idle: a redraw runs the core again (the head
    // splitting figure's passes at d_model 512 take tens of milliseconds), never mid-drag.
    this.#timer = setTimeout(() => {
      const run = () => this.#refresh();
      if (globalThis.requestIdleCallback) requestIdleCallback(run, { timeout: 2000 }); else run();
    }, STATIC_REFRESH_MS);
  }

  /** Loads the renderer ahead of the first change (the reader is about to edit). */
  warm() {
    if (this.#figure) this.#load();
  }

  async #load() {
    if (this.#renderer) return;
    const { localName } = this.#widget;
    const name = Object.keys(WIDGETS).find((key) => WIDGETS[key].tag === localName);
    const load = STATIC_RENDERERS[`../${name}/${name}-static.js`];
    try {
      if (!load) return;
      const [renderer, helpers] = await Promise.all([load(), loadHelpers()]);
      [this.#renderer, this.#helpers] = [renderer.renderStaticFigure, helpers];
    } catch {
      // No renderer: the figure keeps its last drawing.
    }
  }

  async #refresh() {
    await this.#load();
    this.draw();
  }

  /** Draws a stale figure for the widget's current state, now (nothing if it is not stale). */
  draw() {
    const widget = this.#widget;
    const figure = this.#figure;
    if (!figure || !widget.engine || !this.#renderer || !STALE_FIGURES.has(this)) return;
    const { liveNote, replaceFigure } = this.#helpers;
    STALE_FIGURES.delete(this);
    try {
      const attributes = Object.fromEntries([...widget.attributes].map((a) => [a.name, a.value]));
      attributes.state = JSON.stringify(widget.state);
      // A figure the page cannot compute again (the build's training comparison) keeps its data.
      const kept = figure.dataset.figure ? { trainingComparison: JSON.parse(figure.dataset.figure) } : {};
      // A widget may lend its live model (`figureModel`): the head splitting's caches hold the
      // counts its state needed, which a fresh model computed again on the main thread (passes
      // at d_model 512: an idle task of 128-176 ms on a 4x slower CPU, issue 25).
      const lent = widget.figureModel ?? null;
      const html = this.#renderer(attributes, { engine: widget.engine, world: widget.world ?? THE_WORLD, locale: localeOf(widget), lent, ...kept });
      // Its note says it shows the widget's state, unless it was drawn from kept data (the
      // build's training comparison): that one keeps the build's note, in the new language.
      replaceFigure(figure, html, (fresh) => {
        if (!figure.dataset.figure) fresh.querySelector('.mha-static-note')?.replaceChildren(liveNote(messagesFor(widget)));
      });
    } catch {
      // The figure keeps its last good drawing: the live widget is what the reader uses.
    }
  }
}
