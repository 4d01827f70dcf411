// One view per kind of practice problem. Each builds its DOM once and marks answers through
// `marker` (the session's checkers, on the core): every verdict comes with its reason.
//
//   const view = problemView(problem, { number, seed, copy, marker, findWidget });
//   view.element      a <fieldset> to append
//   view.restore()    puts the learner's last answer back and marks it again (not a new attempt)
import { element } from '../../ui/dom.js';
import { notation } from '../../ui/notation.js';
import { messagesFor } from '../shared/i18n.js';
import { fillReason, localizedProblem, optionOrder, practiceLanguage } from './practice-data.js';
import { MAX_TEXT } from '../shared/learner-copy.js';

// UI strings of this file: practice.* in the message files (lessons/multiple-heads/locales/),
// in the language of the <mha-practice> element (ctx.messages). The problems themselves
// are in that language where a translation ships (practice.de.json); where not, they are the
// lesson's English, marked lang="en" so that screen readers read them in their own language.
function textFor(m) {
  return {
    right: m.t('practice.right'),
    wrong: m.t('practice.wrong'),
    check: m.t('practice.check'),
    pickFirst: m.t('practice.pickFirst'),
    commit: m.t('practice.commit'),
    seeWidget: m.t('practice.seeWidget'),
    numberLabel: m.t('practice.numberLabel'),
    checkWidget: m.t('practice.checkWidget'),
    impossible: m.t('practice.impossible'),
    goToWidget: m.t('practice.goToWidget'),
    noWidget: (tag) => m.t('practice.noWidget', { tag }),
    busy: m.t('practice.busy'),
    coreFailed: (why) => m.t('practice.coreFailed', { why }),
    predicted: m.t('practice.predicted'),
    seen: m.t('practice.seen'),
    solvedEarlier: m.t('practice.solvedEarlier'),
    stale: m.t('practice.stale'),
    tooLong: m.t('practice.tooLong', { max: MAX_TEXT }),
    tryAgain: m.t('practice.tryAgain'),
    showWhy: m.t('practice.showWhy'),
  };
}
let uid = 0;

/** A feedback line: the verdict once, then the reason (typeset notation). */
/** Lesson text (a prompt, an option, a reason): marked with its own lang where the UI's differs. */
function lessonText(T, text) {
  return T.textLang === T.lang ? notation(text) : [element('span', { lang: T.textLang }, notation(text))];
}

function setFeedback(T, node, correct, reason, prefix = '', suffix = '') {
  node.className = `feedback ${correct ? 'right' : 'wrong'}`;
  node.replaceChildren(element('strong', { textContent: correct ? T.right : T.wrong }), prefix, ...lessonText(T, reason), suffix);
}

// A wrong answer on the first try does not give the answer away (a reason often says what
// is right): the verdict, a nudge and a button that shows the reason on request; from the
// second wrong try on, the reason itself. `focusAfter` takes the focus when the button goes.
function setVerdict(T, node, correct, reason, { wrongTries, focusAfter }) {
  if (correct || wrongTries >= 2) {
    setFeedback(T, node, correct, reason);
    return;
  }
  const why = element('button', { type: 'button', className: 'secondary show-why', textContent: T.showWhy });
  why.addEventListener('click', () => {
    setFeedback(T, node, false, reason);
    focusAfter?.focus();
  });
  node.className = 'feedback wrong first-try';
  node.replaceChildren(element('strong', { textContent: T.wrong }), T.tryAgain, ' ', why);
}

// Wrong answers among the attempts the copy keeps for this problem.
const wrongTries = (ctx, id) => (ctx.copy.record(id)?.attempts ?? []).filter((a) => !a.correct).length;

function setMessage(node, message, className = 'message') {
  node.className = `feedback ${className}`;
  node.textContent = message;
}

function frame(T, problem, number, children) {
  const legend = element('legend', {}, [`${number}. `, ...lessonText(T, problem.prompt)]);
  return element('fieldset', { className: `problem kind-${problem.kind}`, dataset: { problem: problem.id, kind: problem.kind } }, [legend, ...children]);
}

// The widget's host element scrolled into view and its first tab stop focused, so a keyboard
// user lands where the task is done.
function goTo(widget) {
  widget.scrollIntoView({ block: 'start' });
  // The first control the learner can see (a widget cut into panels hides the others).
  const controls = [...(widget.shadowRoot?.querySelectorAll('button, [tabindex="0"], input, select') ?? [])];
  const first = controls.find((el) => !el.closest('.skip-widget, .widget-end') && el.checkVisibility?.() !== false && !el.disabled);
  (first ?? widget).focus?.({ preventScroll: true });
}

async function marked(T, feedback, marker, work) {
  setMessage(feedback, T.busy, 'busy');
  try {
    const checkers = await marker();
    return work(checkers);
  } catch (error) {
    setMessage(feedback, T.coreFailed(error.message), 'wrong');
    return null;
  }
}

function options(T, problem, seed, name) {
  return optionOrder(problem, seed).map((option) => {
    const input = element('input', { type: 'radio', name, value: option.id });
    return element('label', { className: 'choice' }, [input, element('span', {}, lessonText(T, option.text))]);
  });
}

const picked = (labels) => labels.map((l) => l.querySelector('input')).find((i) => i.checked)?.value ?? null;
const pick = (labels, id) => { for (const l of labels) { const input = l.querySelector('input'); input.checked = input.value === id; } };

function chooseView(problem, ctx) {
  const { T } = ctx;
  const labels = options(T, problem, ctx.seed, `practice-${problem.id}-${++uid}`);
  const feedback = element('p', { className: 'feedback', role: 'status' });
  const check = element('button', { type: 'button', textContent: T.check });
  const mark = (id, record) => {
    const option = problem.options.find((o) => o.id === id);
    if (record) ctx.copy.recordAttempt(problem.id, { option: id }, option.correct);
    setVerdict(T, feedback, option.correct, option.reason, { wrongTries: wrongTries(ctx, problem.id), focusAfter: check });
  };
  check.addEventListener('click', () => {
    const id = picked(labels);
    if (id === null) setMessage(feedback, T.pickFirst);
    else mark(id, true);
  });
  return {
    element: frame(T, problem, ctx.number, [element('div', { className: 'choices-list' }, labels), element('div', { className: 'check-row' }, [check]), feedback]),
    restore() {
      const last = ctx.copy.lastAnswer(problem.id);
      if (!last) return;
      pick(labels, last.answer.option);
      mark(last.answer.option, false);
    },
  };
}

function predictView(problem, ctx) {
  const { T } = ctx;
  const labels = options(T, problem, ctx.seed, `practice-${problem.id}-${++uid}`);
  const feedback = element('p', { className: 'feedback', role: 'status' });
  const commit = element('button', { type: 'button', textContent: T.commit });
  const show = element('button', { type: 'button', className: 'secondary', textContent: T.seeWidget, hidden: true });
  show.addEventListener('click', () => { const w = ctx.findWidget(problem); if (w) goTo(w); });
  const mark = async (id, record) => {
    await marked(T, feedback, ctx.marker, (checkers) => {
      const { option: actual, figures } = checkers.outcome(problem);
      const chosen = problem.options.find((o) => o.id === id);
      const correct = actual === id;
      // The widget runs: it is set to the case predicted about (through its public setState).
      const widget = ctx.findWidget(problem);
      if (record && widget?.hasAttribute('ready')) widget.setState(checkers.seeState(problem, widget.state));
      if (record) ctx.copy.recordAttempt(problem.id, { option: id }, correct);
      setFeedback(T, feedback, correct, fillReason(chosen.reason, figures), '', record && widget ? T.seen : '');
      show.hidden = !widget;
    });
  };
  commit.addEventListener('click', () => {
    const id = picked(labels);
    if (id === null) setMessage(feedback, T.pickFirst);
    else mark(id, true);
  });
  return {
    element: frame(T, problem, ctx.number, [element('div', { className: 'choices-list' }, labels), element('div', { className: 'check-row' }, [commit, show]), feedback]),
    restore() {
      const last = ctx.copy.lastAnswer(problem.id);
      if (!last) return null;
      pick(labels, last.answer.option);
      return mark(last.answer.option, false);
    },
  };
}

function numberView(problem, ctx) {
  const { T } = ctx;
  const id = `practice-number-${++uid}`;
  const feedbackId = `${id}-feedback`;
  const input = element('input', { type: 'text', id, inputMode: 'decimal', autocomplete: 'off', spellcheck: false, className: 'answer' });
  input.setAttribute('aria-describedby', feedbackId);
  const feedback = element('p', { className: 'feedback', role: 'status', id: feedbackId });
  const check = element('button', { type: 'button', textContent: T.check });
  const mark = async (typed, record) => {
    // Kept as the copy keeps it (trimmed), so what is shown after a reload is what was checked.
    const text = String(typed).trim();
    await marked(T, feedback, ctx.marker, (checkers) => {
      const result = text.length > MAX_TEXT ? { status: 'invalid', message: T.tooLong } : checkers.checkNumber(problem, text);
      if (result.status === 'invalid') {
        input.setAttribute('aria-invalid', 'true');
        setMessage(feedback, result.message, 'wrong');
        return;
      }
      input.removeAttribute('aria-invalid');
      // The field shows what was checked and kept (spaces around it dropped), as a reload will.
      if (input.value !== text) input.value = text;
      if (record) ctx.copy.recordAttempt(problem.id, { text }, result.correct);
      feedback.dataset.status = result.status;
      setVerdict(T, feedback, result.correct, result.reason, { wrongTries: wrongTries(ctx, problem.id), focusAfter: input });
    });
  };
  check.addEventListener('click', () => mark(input.value, true));
  input.addEventListener('keydown', (event) => { if (event.key === 'Enter') mark(input.value, true); });
  const label = element('label', { htmlFor: id, className: 'answer-label', textContent: T.numberLabel });
  return {
    element: frame(T, problem, ctx.number, [element('div', { className: 'check-row' }, [label, input, check]), feedback]),
    restore() {
      const last = ctx.copy.lastAnswer(problem.id);
      if (!last) return null;
      input.value = last.answer.text;
      return mark(last.answer.text, false);
    },
  };
}

function widgetView(problem, ctx) {
  const { T } = ctx;
  const feedback = element('p', { className: 'feedback', role: 'status' });
  const check = element('button', { type: 'button', textContent: T.checkWidget });
  const cannot = element('button', { type: 'button', className: 'secondary', textContent: T.impossible });
  const go = element('button', { type: 'button', className: 'secondary', textContent: T.goToWidget });
  const missing = element('p', { className: 'missing', textContent: T.noWidget(problem.widget), hidden: true });
  const widget = () => {
    const found = ctx.findWidget(problem);
    missing.hidden = Boolean(found);
    for (const button of [check, cannot, go]) button.disabled = !found;
    return found?.hasAttribute('ready') ? found : null;
  };
  go.addEventListener('click', () => { const w = ctx.findWidget(problem); if (w) goTo(w); });
  // A reason quotes the widget's state when it was checked: once the widget changes, say so
  // (the widget's own change event), so an old reason is never read as the current one.
  const stale = element('p', { className: 'stale', textContent: T.stale, hidden: true });
  let watched = null;
  let checkedState = false;
  const watch = () => {
    const target = ctx.findWidget(problem);
    if (!target || watched === target) return;
    watched = target;
    target.addEventListener('change', () => { if (checkedState) stale.hidden = false; });
  };
  const mark = (claim, state, record, prefix = '') => marked(T, feedback, ctx.marker, (checkers) => {
    const result = claim === 'impossible' ? checkers.claimImpossible(problem, state) : checkers.goal(problem, state);
    const correct = claim === 'impossible' ? result.correct : result.done;
    if (record) ctx.copy.recordAttempt(problem.id, { claim, state }, correct);
    setFeedback(T, feedback, correct, result.reason, prefix);
    if (record) {
      stale.hidden = true;
      checkedState = claim === 'done';
      watch();
    }
  });
  const attempt = (claim) => {
    const target = widget();
    if (target) mark(claim, target.state, true);
  };
  check.addEventListener('click', () => attempt('done'));
  cannot.addEventListener('click', () => attempt('impossible'));
  return {
    element: frame(T, problem, ctx.number, [missing, element('div', { className: 'check-row' }, [go, check, cannot]), feedback, stale]),
    restore() {
      widget();
      const last = ctx.copy.lastAnswer(problem.id);
      if (!last) return null;
      return mark(last.answer.claim, last.answer.state, false, T.solvedEarlier);
    },
  };
}

const VIEWS = { choose: chooseView, predict: predictView, number: numberView, widget: widgetView };

export function problemView(problem, ctx) {
  const m = ctx.messages ?? messagesFor('en');
  const T = { ...textFor(m), lang: m.locale, textLang: practiceLanguage(m.locale) };
  // The checkers write their figures in the same language (the session keeps one per locale).
  const marker = () => ctx.marker(m);
  return VIEWS[problem.kind](localizedProblem(problem, m.locale), { ...ctx, marker, T, messages: m });
}
