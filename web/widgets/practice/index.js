// <mha-practice>: practice problems under an idea of the lesson, marked "with a reason
// rather than a tick" by the attention core, kept in the learner's own copy.
//
//   <mha-practice idea="one-average"></mha-practice>   that idea's problems (practice.json),
//       collapsed to one line ("Practice: 3 problems, 0 done") until opened
//   <mha-practice idea="wo" kinds="predict"></mha-practice>   only its predict problems, open,
//       "Predict first" (placed before the widget that would give the answer away)
//   <mha-practice></mha-practice>                      "Your copy": progress, export, import,
//       start over
//
// Files: practice-data.js (the problems, the learner's order of options), checkers.js (the
// marking, on the core), problem-views.js (one view per kind), copy-panel.js, session.js (the
// copy and the checkers shared by the page), practice-static.js (the no-JavaScript figure).
import { element, setText } from '../../ui/dom.js';
import { loadLocale, messagesFor } from '../shared/i18n.js';
import { IDEAS, KINDS, blockProblems, parseKinds, predictsOnly, problemsFor } from './practice-data.js';
import { problemView } from './problem-views.js';
import { copyPanel } from './copy-panel.js';
import { practiceSession } from './session.js';
import { sharedEngine } from '../../engine/engine.js';
import { replaceFigure } from '../shared/static-figure.js';
import { buildTurn } from '../shared/build-queue.js';
import baseStyles from '../shared/widget-base.css?inline';
import styles from './practice.css?inline';

// UI strings of this file: practice.* in the message files (lessons/multiple-heads/locales/),
// in this element's language (its lang, or the page's).
function textFor(m) {
  return {
    summary: (count, done) => m.t('practice.summary', { count, done }),
    summaryPredict: (count, done) => m.t('practice.summaryPredict', { count, done }),
    unknownIdea: (idea) => m.t('practice.unknownIdea', { idea, ideas: IDEAS.map((i) => i.id).join(', ') }),
    unknownKinds: (words) => m.t('practice.unknownKinds', { words: words.join(', ').slice(0, 60), kinds: KINDS.join(', ') }),
    noneOfKinds: (idea, kinds) => m.t('practice.noneOfKinds', { idea, kinds: kinds.join(', ') }),
    kept: m.t('practice.kept'),
  };
}

const sheets = new Map();
function sheet(cssText) {
  if (!sheets.has(cssText)) {
    const s = new CSSStyleSheet();
    s.replaceSync(cssText);
    sheets.set(cssText, s);
  }
  return sheets.get(cssText);
}

export class PracticeProblems extends HTMLElement {
  #session = null;
  #views = [];
  #restored = false;
  #reportAuth = null;
  #reportActor = null;

  // Credentials and the learner's identity for report="xapi" can be set as properties, so
  // they need not be written into the page's HTML (see reporting/index.js).
  get reportAuth() { return this.#reportAuth; }
  set reportAuth(value) { this.#reportAuth = value ?? null; }
  get reportActor() { return this.#reportActor; }
  set reportActor(value) { this.#reportActor = value ?? null; }

  connectedCallback() {
    if (this.shadowRoot) return;
    // Built once its language's messages are in (the one-widget entries fetch them on use).
    const messages = loadLocale(this);
    if (messages) {
      messages.then(() => { if (this.isConnected) this.connectedCallback(); });
      return;
    }
    // A property set before the element was defined sits on the instance: move it behind the setter.
    for (const name of ['reportAuth', 'reportActor']) {
      if (Object.hasOwn(this, name)) {
        const value = this[name];
        delete this[name];
        this[name] = value;
      }
    }
    const root = this.attachShadow({ mode: 'open' });
    root.adoptedStyleSheets = [sheet(baseStyles), sheet(styles)];
    this.#session = practiceSession();
    this.m = messagesFor(this);
    this.text = textFor(this.m);
    this.body = element('div', { className: 'widget' });
    // The build's static problems (practice-static.js, the element's children) are hidden
    // on screen once the live block is built; on paper they print instead of it (see
    // practice.css): every question with its answer and reason, no fields or buttons.
    const slot = element('slot', { className: 'static-figure' });
    slot.addEventListener('slotchange', () => this.#markStatic(slot));
    root.append(this.body, slot);
    this.#markStatic(slot);
    const idea = this.getAttribute('idea');
    let pending = false;
    if (idea === null) this.body.append(copyPanel(this.#session, this.m));
    else {
      pending = this.#buildIdea(idea);
      this.#redrawFigureInLanguage();
    }
    // Practice asks about the lesson's own world; a `world` attribute is said not to change it.
    if (this.hasAttribute('world')) this.body.prepend(element('p', { className: 'notice world-not-used', role: 'status', textContent: this.m.t('practice.worldNotUsed') }));
    if (this.hasAttribute('report')) this.#startReporting();
    if (!pending) this.#ready();
  }

  #ready() {
    this.setAttribute('ready', '');
    this.dispatchEvent(new CustomEvent('ready'));
  }

  // Scores to the course platform (reporting/): loaded only by a block that asks, so the
  // practice costs nothing more where reporting is off, as it is by default.
  #startReporting() {
    this.reporting = import('./reporting/index.js').then(async ({ reportingLine }) => {
      const line = await reportingLine(this, this.#session, this.m);
      if (line) this.body.append(line);
    });
  }

  #markStatic(slot) {
    const has = slot.assignedElements().some((el) => el.matches('[data-static-figure]'));
    this.body.classList.toggle('has-static-figure', has);
    slot.classList.toggle('has-static-figure', has);
  }

  #buildIdea(idea) {
    const error = (text) => this.body.append(element('p', { className: 'error', role: 'alert', textContent: text }));
    if (problemsFor(idea).length === 0) return error(this.text.unknownIdea(idea.slice(0, 40)));
    const { kinds, unknown } = parseKinds(this.getAttribute('kinds'));
    if (unknown) return error(this.text.unknownKinds(unknown));
    const numbered = blockProblems(idea, kinds);
    if (numbered.length === 0) return error(this.text.noneOfKinds(idea, kinds));
    const problems = numbered.map(({ problem }) => problem);
    // A block of predictions stands before its widget: on a wide screen it is open, so the
    // question is met before the widget shows the answer; on a phone, where an open block is
    // more than half a screen, it is one line ("Predict first: 1 problem") like the others.
    const predictFirst = predictsOnly(kinds);
    const openAtStart = predictFirst && globalThis.matchMedia?.('(min-width: 40rem)').matches === true;
    const { copy } = this.#session;
    const summary = element('summary', { className: 'practice-summary' });
    const notice = element('p', { className: 'notice', role: 'status', hidden: true });
    const list = element('div', { className: 'problems' });
    const details = element('details', { className: 'practice' }, [summary, notice, list, element('p', { className: 'kept', textContent: this.text.kept })]);
    // The problems' views are made when the block comes near the view (build-queue.js: in a
    // task of its own, the nearest first, as the widgets) or is opened, whichever is first:
    // made for the page's blocks at load, in one task with the page's scripts, they delayed
    // the first widget (issue 25). The block is `ready` once they are made. (Closed, the
    // block's height does not change when they are.)
    const build = () => {
      this.#views = numbered.map(({ problem, number }) => problemView(problem, {
        number, seed: copy.seed, copy, marker: this.#session.marker, findWidget: this.#session.findWidget, messages: this.m,
      }));
      list.replaceChildren(...this.#views.map((view) => view.element));
      this.#restored = false;
      if (details.open) this.#restore();
    };
    let built = false;
    const buildOnce = () => {
      if (built) return;
      built = true;
      build();
      if (!openAtStart) this.#ready(); // (an open block is ready with the rest of the element)
    };
    const refresh = () => {
      const { done } = copy.progress(problems.map((p) => p.id));
      setText(summary, (predictFirst ? this.text.summaryPredict : this.text.summary)(problems.length, done));
      notice.hidden = !copy.notice;
      setText(notice, copy.noticeIn(this.m) ?? '');
    };
    // Restoring marks every kept answer again with the core: done when first opened.
    details.addEventListener('toggle', () => {
      if (!details.open) return;
      buildOnce();
      this.#restore();
    });
    copy.addEventListener('change', refresh);
    copy.addEventListener('replaced', () => { if (built) build(); });
    details.open = openAtStart;
    if (openAtStart) buildOnce();
    else buildTurn(this).then(buildOnce);
    refresh();
    this.body.append(details);
    this.details = details;
    return !openAtStart; // ready later, with its problems
  }

  // The build drew the answer key (what prints) in its own language; a block in another
  // language (a page whose lang differs) draws it again in its own, with the core.
  #redrawFigureInLanguage() {
    const figure = this.querySelector(':scope > [data-static-figure]');
    if (!figure?.dataset.locale || figure.dataset.locale === this.m.locale) return;
    Promise.all([import('./practice-static.js'), sharedEngine()]).then(([{ renderStaticFigure }, engine]) => {
      const attributes = Object.fromEntries([...this.attributes].map((a) => [a.name, a.value]));
      replaceFigure(figure, renderStaticFigure(attributes, { engine, locale: this.m.locale }));
    }).catch(() => {
      // The figure keeps the build's drawing: the live block is what the learner uses.
    });
  }

  #restore() {
    if (this.#restored) return;
    this.#restored = true;
    this.restoring = Promise.all(this.#views.map((view) => view.restore()));
  }
}

if (!customElements.get('mha-practice')) customElements.define('mha-practice', PracticeProblems);
