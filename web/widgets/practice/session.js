// The page's one practice session: the learner's copy (web/widgets/shared/learner-copy.js),
// the widgets' states kept in it, and the checkers on the shared core (loaded on the first
// answer that needs it). Every <mha-practice> on the page shares it.
import { sharedEngine } from '../../engine/engine.js';
import { WIDGETS, WIDGET_TAGS } from '../registry.js';
import { LearnerCopy, keepWidgetStates, openStorage } from '../shared/learner-copy.js';
import { PracticeCheckers } from './checkers.js';
import { COPY_OPTIONS } from './widget-states.js';

let session = null;

const titleOf = (tag) => Object.values(WIDGETS).find((w) => w.tag === tag)?.title ?? tag;

export function practiceSession() {
  if (session) return session;
  const { storage, persistent } = openStorage();
  const copy = new LearnerCopy({ storage, persistent, ...COPY_OPTIONS });
  let checkers = null;
  session = {
    copy,
    titleOf,
    widgets: { apply() {}, reset() {} },
    /** The checkers, once the core is loaded. */
    marker: () => (checkers ??= sharedEngine().then((engine) => new PracticeCheckers(engine))),
    /** The first widget with this tag on the page (the one the lesson's tasks are about). */
    findWidget: (tag) => document.querySelector(tag),
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
