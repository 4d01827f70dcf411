// The page's one practice session: the learner's copy (web/widgets/shared/learner-copy.js),
// the widgets' states kept in it, and the checkers on the shared core (loaded on the first
// answer that needs it). Every <mha-practice> on the page shares it.
import { sharedEngine } from '../../engine/engine.js';
import { WIDGETS, WIDGET_TAGS, attributeWords } from '../registry.js';
import { LearnerCopy, keepWidgetStates, openStorage } from '../shared/learner-copy.js';
import { PracticeCheckers } from './checkers.js';
import { COPY_OPTIONS } from './widget-states.js';

let session = null;

const titleOf = (tag) => Object.values(WIDGETS).find((w) => w.tag === tag)?.title ?? tag;

export function practiceSession() {
  if (session) return session;
  const { storage, persistent } = openStorage();
  const copy = new LearnerCopy({ storage, persistent, ...COPY_OPTIONS });
  const checkers = new Map();
  session = {
    copy,
    titleOf,
    widgets: { apply() {}, reset() {} },
    /** The checkers in this language (a Messages object), once the core is loaded. */
    marker: (messages) => {
      const locale = messages?.locale ?? 'en';
      if (!checkers.has(locale)) checkers.set(locale, sharedEngine().then((engine) => new PracticeCheckers(engine, messages ?? undefined)));
      return checkers.get(locale);
    },
    /**
     * The widget a problem is about: the first on the page with its tag that shows its
     * `panel` (a lesson may show one widget twice, cut into panels: the head-splitting
     * widget's counts where the lesson counts, its rank panel where it introduces rank).
     */
    findWidget: ({ widget, panel }) => {
      const all = [...document.querySelectorAll(widget)];
      const shows = (el) => !el.hasAttribute('panels') || attributeWords(el.getAttribute('panels')).includes(panel);
      return (panel ? all.find(shows) : null) ?? all[0] ?? null;
    },
    report(message) {
      copy.dispatchEvent(new CustomEvent('message', { detail: message }));
    },
  };
  const attach = () => {
    session.widgets = keepWidgetStates(copy, document, WIDGET_TAGS, { onRefused: (m) => session.report(m), titleOf });
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', attach, { once: true });
  else attach();
  return session;
}
