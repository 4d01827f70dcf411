// One view per kind of practice problem. Each builds its DOM once and marks answers through
// `marker` (the session's checkers, on the core): every verdict comes with its reason.
//
//   const view = problemView(problem, { number, seed, copy, marker, findWidget });
//   view.element      a <fieldset> to append
//   view.restore()    puts the learner's last answer back and marks it again (not a new attempt)
import { element } from '../shared/widget-base.js';
import { notation } from '../../ui/notation.js';
import { fillReason, optionOrder } from './practice-data.js';

// UI strings of this file (one table, for the message files).
const TEXT = {
  right: 'Right. ',
  wrong: 'Not quite. ',
  check: 'Check',
  pickFirst: 'Pick an answer first.',
  commit: 'Commit and see',
  seeWidget: 'Show me the widget',
  numberLabel: 'Your answer',
  checkWidget: 'Check my widget',
  impossible: 'It cannot be done',
  goToWidget: 'Go to the widget',
  noWidget: (tag) => `This task needs the ${tag} widget, which is not on this page.`,
  busy: 'Marking with the attention core…',
  coreFailed: (why) => `The attention core could not mark this answer (${why}).`,
  predicted: 'Your prediction: ',
  seen: ' The widget above now shows it.',
  solvedEarlier: 'Marked from your copy: ',
  stale: 'The widget has changed since this check; check again to mark what it shows now.',
};

let uid = 0;

/** A feedback line: the verdict once, then the reason (typeset notation). */
function setFeedback(node, correct, reason, prefix = '') {
  node.className = `feedback ${correct ? 'right' : 'wrong'}`;
  node.replaceChildren(element('strong', { textContent: correct ? TEXT.right : TEXT.wrong }), prefix, ...notation(reason));
}

function setMessage(node, message, className = 'message') {
  node.className = `feedback ${className}`;
  node.textContent = message;
}

function frame(problem, number, children) {
  const legend = element('legend', {}, [`${number}. `, ...notation(problem.prompt)]);
  return element('fieldset', { className: `problem kind-${problem.kind}`, dataset: { problem: problem.id, kind: problem.kind } }, [legend, ...children]);
}

// The widget's host element scrolled into view and its first tab stop focused, so a keyboard
// user lands where the task is done.
function goTo(widget) {
  widget.scrollIntoView({ block: 'start' });
  const first = widget.shadowRoot?.querySelector('a.skip-widget + * button, button, [tabindex="0"], input, select');
  (first ?? widget).focus?.({ preventScroll: true });
}

async function marked(feedback, marker, work) {
  setMessage(feedback, TEXT.busy, 'busy');
  try {
    const checkers = await marker();
    return work(checkers);
  } catch (error) {
    setMessage(feedback, TEXT.coreFailed(error.message), 'wrong');
    return null;
  }
}

function options(problem, seed, name) {
  return optionOrder(problem, seed).map((option) => {
    const input = element('input', { type: 'radio', name, value: option.id });
    return element('label', { className: 'choice' }, [input, element('span', {}, notation(option.text))]);
  });
}

const picked = (labels) => labels.map((l) => l.querySelector('input')).find((i) => i.checked)?.value ?? null;
const pick = (labels, id) => { for (const l of labels) { const input = l.querySelector('input'); input.checked = input.value === id; } };

function chooseView(problem, ctx) {
  const labels = options(problem, ctx.seed, `practice-${problem.id}-${++uid}`);
  const feedback = element('p', { className: 'feedback', role: 'status' });
  const check = element('button', { type: 'button', textContent: TEXT.check });
  const mark = (id, record) => {
    const option = problem.options.find((o) => o.id === id);
    if (record) ctx.copy.recordAttempt(problem.id, { option: id }, option.correct);
    setFeedback(feedback, option.correct, option.reason);
  };
  check.addEventListener('click', () => {
    const id = picked(labels);
    if (id === null) setMessage(feedback, TEXT.pickFirst);
    else mark(id, true);
  });
  return {
    element: frame(problem, ctx.number, [element('div', { className: 'choices-list' }, labels), element('div', { className: 'check-row' }, [check]), feedback]),
    restore() {
      const last = ctx.copy.lastAnswer(problem.id);
      if (!last) return;
      pick(labels, last.answer.option);
      mark(last.answer.option, false);
    },
  };
}

function predictView(problem, ctx) {
  const labels = options(problem, ctx.seed, `practice-${problem.id}-${++uid}`);
  const feedback = element('p', { className: 'feedback', role: 'status' });
  const commit = element('button', { type: 'button', textContent: TEXT.commit });
  const show = element('button', { type: 'button', className: 'secondary', textContent: TEXT.seeWidget, hidden: true });
  show.addEventListener('click', () => { const w = ctx.findWidget(problem.widget); if (w) goTo(w); });
  const mark = async (id, record) => {
    await marked(feedback, ctx.marker, (checkers) => {
      const { option: actual, figures } = checkers.outcome(problem);
      const chosen = problem.options.find((o) => o.id === id);
      const correct = actual === id;
      // The widget runs: it is set to the case predicted about (through its public setState).
      const widget = ctx.findWidget(problem.widget);
      if (record && widget?.hasAttribute('ready')) widget.setState(checkers.seeState(problem, widget.state));
      if (record) ctx.copy.recordAttempt(problem.id, { option: id }, correct);
      setFeedback(feedback, correct, fillReason(chosen.reason, figures) + (record && widget ? TEXT.seen : ''));
      show.hidden = !widget;
    });
  };
  commit.addEventListener('click', () => {
    const id = picked(labels);
    if (id === null) setMessage(feedback, TEXT.pickFirst);
    else mark(id, true);
  });
  return {
    element: frame(problem, ctx.number, [element('div', { className: 'choices-list' }, labels), element('div', { className: 'check-row' }, [commit, show]), feedback]),
    restore() {
      const last = ctx.copy.lastAnswer(problem.id);
      if (!last) return null;
      pick(labels, last.answer.option);
      return mark(last.answer.option, false);
    },
  };
}

function numberView(problem, ctx) {
  const id = `practice-number-${++uid}`;
  const feedbackId = `${id}-feedback`;
  const input = element('input', { type: 'text', id, inputMode: 'decimal', autocomplete: 'off', spellcheck: false, className: 'answer' });
  input.setAttribute('aria-describedby', feedbackId);
  const feedback = element('p', { className: 'feedback', role: 'status', id: feedbackId });
  const check = element('button', { type: 'button', textContent: TEXT.check });
  const mark = async (text, record) => {
    await marked(feedback, ctx.marker, (checkers) => {
      const result = checkers.checkNumber(problem, text);
      if (result.status === 'invalid') {
        input.setAttribute('aria-invalid', 'true');
        setMessage(feedback, result.message, 'wrong');
        return;
      }
      input.removeAttribute('aria-invalid');
      if (record) ctx.copy.recordAttempt(problem.id, { text }, result.correct);
      feedback.dataset.status = result.status;
      setFeedback(feedback, result.correct, result.reason);
    });
  };
  check.addEventListener('click', () => mark(input.value, true));
  input.addEventListener('keydown', (event) => { if (event.key === 'Enter') mark(input.value, true); });
  const label = element('label', { htmlFor: id, className: 'answer-label', textContent: TEXT.numberLabel });
  return {
    element: frame(problem, ctx.number, [element('div', { className: 'check-row' }, [label, input, check]), feedback]),
    restore() {
      const last = ctx.copy.lastAnswer(problem.id);
      if (!last) return null;
      input.value = last.answer.text;
      return mark(last.answer.text, false);
    },
  };
}

function widgetView(problem, ctx) {
  const feedback = element('p', { className: 'feedback', role: 'status' });
  const check = element('button', { type: 'button', textContent: TEXT.checkWidget });
  const cannot = element('button', { type: 'button', className: 'secondary', textContent: TEXT.impossible });
  const go = element('button', { type: 'button', className: 'secondary', textContent: TEXT.goToWidget });
  const missing = element('p', { className: 'missing', textContent: TEXT.noWidget(problem.widget), hidden: true });
  const widget = () => {
    const found = ctx.findWidget(problem.widget);
    missing.hidden = Boolean(found);
    for (const button of [check, cannot, go]) button.disabled = !found;
    return found?.hasAttribute('ready') ? found : null;
  };
  go.addEventListener('click', () => { const w = ctx.findWidget(problem.widget); if (w) goTo(w); });
  // A reason quotes the widget's state when it was checked: once the widget changes, say so
  // (the widget's own change event), so an old reason is never read as the current one.
  const stale = element('p', { className: 'stale', textContent: TEXT.stale, hidden: true });
  let watched = null;
  let checkedState = false;
  const watch = () => {
    const target = ctx.findWidget(problem.widget);
    if (!target || watched === target) return;
    watched = target;
    target.addEventListener('change', () => { if (checkedState) stale.hidden = false; });
  };
  const mark = (claim, state, record, prefix = '') => marked(feedback, ctx.marker, (checkers) => {
    const result = claim === 'impossible' ? checkers.claimImpossible(problem, state) : checkers.goal(problem, state);
    const correct = claim === 'impossible' ? result.correct : result.done;
    if (record) ctx.copy.recordAttempt(problem.id, { claim, state }, correct);
    setFeedback(feedback, correct, result.reason, prefix);
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
    element: frame(problem, ctx.number, [missing, element('div', { className: 'check-row' }, [go, check, cannot]), feedback, stale]),
    restore() {
      widget();
      const last = ctx.copy.lastAnswer(problem.id);
      if (!last) return null;
      return mark(last.answer.claim, last.answer.state, false, TEXT.solvedEarlier);
    },
  };
}

const VIEWS = { choose: chooseView, predict: predictView, number: numberView, widget: widgetView };

export function problemView(problem, ctx) {
  return VIEWS[problem.kind](problem, ctx);
}
