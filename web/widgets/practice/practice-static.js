// <mha-practice>'s static figure (see shared/static-figure.js): one idea's problems with
// their answers and reasons inside <details>, readable without JavaScript and on paper.
// Pure: an HTML string from the practice data; the figures in the reasons (counts, widths,
// ranks, the bound of an impossible task) come from the core when the build passes
// { engine }, through the same checkers the live widget uses. Options are listed in the
// data's order (a reader without JavaScript has no copy, so no shuffled order).
import { parseNotation } from '../../ui/notation.js';
import { IDEAS, fillReason, problemsFor } from './practice-data.js';
import { PracticeCheckers } from './checkers.js';
import { WIDGET_STARTS } from './widget-states.js';
import { WIDGETS } from '../registry.js';

// UI strings of this file (one table, for the message files).
const TEXT = {
  summary: (count) => `Practice: ${count} ${count === 1 ? 'problem' : 'problems'}`,
  answer: 'Answer and reason',
  right: 'Right: ',
  wrong: 'Not this: ',
  typeNumber: 'The answer: ',
  impossible: 'It cannot be done. ',
  possible: 'It can be done. ',
  predictOutcome: 'What the core computes: ',
  inWidget: (title) => `A task in the “${title}” widget (needs JavaScript).`,
  noCore: 'The figures are computed by the attention core when the page runs.',
  copy: 'Your progress is kept only with JavaScript: then your answers stay in your copy of this lesson on this device, to export and import.',
  unknownIdea: (idea) => `No practice problems for “${idea}”.`,
};

const escapeHtml = (text) => String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

/** Text with the widgets' notation (d_{model}, W_O^i) as HTML: <var>, <sub>, <sup>. */
export function notationHtml(text) {
  return parseNotation(text).map((piece) => {
    if (typeof piece === 'string') return escapeHtml(piece);
    const base = piece.base.length === 1 ? `<var>${escapeHtml(piece.base)}</var>` : escapeHtml(piece.base);
    const sub = piece.sub !== undefined ? `<sub>${escapeHtml(piece.sub)}</sub>` : '';
    const sup = piece.sup !== undefined ? `<sup>${escapeHtml(piece.sup)}</sup>` : '';
    return `${base}${sub}${sup}`;
  }).join('');
}

/** A widget's title (the registry's), by its tag. */
const widgetTitle = (tag) => Object.values(WIDGETS).find((widget) => widget.tag === tag)?.title ?? tag;

const answerBox = (html) => `<details class="mha-static-answer"><summary>${TEXT.answer}</summary>${html}</details>`;

function problemHtml(problem, checkers) {
  const prompt = `<p class="mha-static-prompt">${notationHtml(problem.prompt)}</p>`;
  const reason = (template, figures) => notationHtml(checkers ? fillReason(template, figures) : template.replace(/\{[a-zA-Z]+\}/g, '…'));
  const note = checkers ? '' : `<p>${TEXT.noCore}</p>`;
  if (problem.kind === 'choose' || problem.kind === 'predict') {
    let right = null;
    let figures = {};
    if (problem.kind === 'choose') right = problem.options.find((o) => o.correct).id;
    else if (checkers) ({ option: right, figures } = checkers.outcome(problem));
    const list = `<ol type="a">${problem.options.map((o) => `<li>${notationHtml(o.text)}</li>`).join('')}</ol>`;
    // The wrong options' reasons carry class mha-static-wrong: print leaves them out (the
    // answer key on paper is each right answer with its reason; see print.css).
    const reasons = problem.options.map((o) => (o.id === right
      ? `<p>${TEXT.right}<b>${notationHtml(o.text)}</b> ${reason(o.reason, figures)}</p>`
      : `<p class="mha-static-wrong">${TEXT.wrong}<b>${notationHtml(o.text)}</b> ${reason(o.reason, figures)}</p>`)).join('');
    return prompt + list + answerBox(reasons + note);
  }
  if (problem.kind === 'number') {
    const figures = checkers ? checkers.numberFigures(problem) : {};
    const missteps = (problem.missteps ?? []).map((m) => `<li>${checkers ? escapeHtml(checkers.figure(checkers.evaluate(m.value))) : '…'}: ${reason(m.reason, figures)}</li>`).join('');
    return prompt + answerBox(`<p>${TEXT.typeNumber}<b>${escapeHtml(figures.answer ?? '…')}</b>. ${reason(problem.right, figures)}</p>${missteps ? `<ul class="mha-static-wrong">${missteps}</ul>` : ''}${note}`);
  }
  // A widget task: what it asks, and why it can or cannot be done (from the widget's start).
  let figures = {};
  if (checkers) ({ figures } = checkers.claimImpossible(problem, WIDGET_STARTS[problem.widget]()));
  const why = problem.impossible ? TEXT.impossible + reason(problem.reasons.bound, figures) : TEXT.possible + reason(problem.reasons.possible, figures);
  return `${prompt}<p class="mha-static-note">${escapeHtml(TEXT.inWidget(widgetTitle(problem.widget)))}</p>${answerBox(`<p>${why}</p>${note}`)}`;
}

/** The static figure for `<mha-practice idea="…">` (attributes as { name: value }). */
export function renderStaticFigure(attributes = {}, context = {}) {
  const idea = attributes.idea;
  // lang="en": this text is English (the lesson's and this file's), also inside a block a
  // German page marks lang="de", so that screen readers read it as English.
  if (idea === undefined) return `<p class="mha-static-note" lang="en">${TEXT.copy}</p>`;
  const problems = problemsFor(idea);
  if (problems.length === 0) return `<p class="mha-static-note" lang="en">${escapeHtml(TEXT.unknownIdea(String(idea).slice(0, 40)))}</p>`;
  const title = IDEAS.find((i) => i.id === idea).title;
  const checkers = context.engine ? new PracticeCheckers(context.engine) : null;
  try {
    const items = problems.map((problem) => `<li>${problemHtml(problem, checkers)}</li>`).join('');
    return `<details class="mha-static mha-static-practice" data-static-figure="practice" lang="en"><summary>${escapeHtml(TEXT.summary(problems.length))}: ${notationHtml(title)}</summary><ol>${items}</ol></details>`;
  } finally {
    checkers?.dispose();
  }
}
