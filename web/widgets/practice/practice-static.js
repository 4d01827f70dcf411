// <mha-practice>'s static figure (see shared/static-figure.js): one idea's problems with
// their answers and reasons inside <details>, readable without JavaScript and on paper.
// Pure: an HTML string from the practice data; the figures in the reasons (counts, widths,
// ranks, the bound of an impossible task) come from the core when the build passes
// { engine }, through the same checkers the live widget uses. Options are listed in the
// data's order (a reader without JavaScript has no copy, so no shuffled order).
import { parseNotation } from '../../ui/notation.js';
import { blockProblems, fillReason, ideaTitle, localizedProblem, parseKinds, practiceLanguage, predictsOnly, problemsFor } from './practice-data.js';
import { PracticeCheckers } from './checkers.js';
import { WIDGET_STARTS } from './widget-states.js';
import { WIDGETS } from '../registry.js';
import { figureMessages } from '../shared/static-figure.js';

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

/** A widget's title in this language (the registry's in English), by its tag. */
function widgetTitle(tag, m) {
  const key = Object.keys(WIDGETS).find((name) => WIDGETS[name].tag === tag);
  return key ? m.widgetTitle(key, WIDGETS[key].title) : tag;
}

/**
 * The words of this figure in one language. The problems (prompts, options, reasons) are in
 * that language where a translation ships (practice.de.json), else in the lesson's English:
 * then, in another UI language, each part of the problems' text says lang="en" (`lang` on an
 * element, `english()` around inline text). In English the whole block says lang="en" (also
 * inside a page marked lang="de").
 */
function words(m) {
  const textLang = practiceLanguage(m.locale);
  const own = textLang === m.locale;
  return {
    t: (key, params) => m.t(`staticFigure.practice.${key}`, params),
    lang: own ? '' : ` lang="${textLang}"`,
    english: (html) => (own ? html : `<span lang="${textLang}">${html}</span>`),
    block: m.locale === 'en' ? ' lang="en"' : '',
    m,
  };
}

const answerBox = (html, { t }) => `<details class="mha-static-answer"><summary>${escapeHtml(t('answer'))}</summary>${html}</details>`;

function problemHtml(problem, checkers, text) {
  const { t, lang, english } = text;
  const prompt = `<p class="mha-static-prompt"${lang}>${notationHtml(problem.prompt)}</p>`;
  const reason = (template, figures) => english(notationHtml(checkers ? fillReason(template, figures) : template.replace(/\{[a-zA-Z]+\}/g, '…')));
  const note = checkers ? '' : `<p>${escapeHtml(t('noCore'))}</p>`;
  if (problem.kind === 'choose' || problem.kind === 'predict') {
    let right = null;
    let figures = {};
    if (problem.kind === 'choose') right = problem.options.find((o) => o.correct).id;
    else if (checkers) ({ option: right, figures } = checkers.outcome(problem));
    const list = `<ol type="a"${lang}>${problem.options.map((o) => `<li>${notationHtml(o.text)}</li>`).join('')}</ol>`;
    // The wrong options' reasons carry class mha-static-wrong: print leaves them out (the
    // answer key on paper is each right answer with its reason; see print.css).
    const reasons = problem.options.map((o) => (o.id === right
      ? `<p>${escapeHtml(t('right'))}<b${lang}>${notationHtml(o.text)}</b> ${reason(o.reason, figures)}</p>`
      : `<p class="mha-static-wrong">${escapeHtml(t('wrong'))}<b${lang}>${notationHtml(o.text)}</b> ${reason(o.reason, figures)}</p>`)).join('');
    return prompt + list + answerBox(reasons + note, text);
  }
  if (problem.kind === 'number') {
    const figures = checkers ? checkers.numberFigures(problem) : {};
    const missteps = (problem.missteps ?? []).map((m) => `<li>${checkers ? escapeHtml(checkers.figure(checkers.evaluate(m.value))) : '…'}: ${reason(m.reason, figures)}</li>`).join('');
    return prompt + answerBox(`<p>${escapeHtml(t('typeNumber'))}<b${lang}>${escapeHtml(figures.answer ?? '…')}</b>. ${reason(problem.right, figures)}</p>${missteps ? `<ul class="mha-static-wrong"${lang}>${missteps}</ul>` : ''}${note}`, text);
  }
  // A widget task: what it asks, and why it can or cannot be done (from the widget's start).
  let figures = {};
  if (checkers) ({ figures } = checkers.claimImpossible(problem, WIDGET_STARTS[problem.widget]()));
  const why = problem.impossible ? escapeHtml(t('impossible')) + reason(problem.reasons.bound, figures) : escapeHtml(t('possible')) + reason(problem.reasons.possible, figures);
  return `${prompt}<p class="mha-static-note">${escapeHtml(t('inWidget', { title: widgetTitle(problem.widget, text.m) }))}</p>${answerBox(`<p>${why}</p>${note}`, text)}`;
}

/** The static figure for `<mha-practice idea="…">` (attributes as { name: value }). */
export function renderStaticFigure(attributes = {}, context = {}) {
  const idea = attributes.idea;
  const text = words(figureMessages(attributes, context.locale));
  const { t, block, english } = text;
  if (idea === undefined) return `<p class="mha-static-note"${block}>${escapeHtml(t('copy'))}</p>`;
  const { kinds } = parseKinds(attributes.kinds);
  const problems = problemsFor(idea).length && kinds ? blockProblems(idea, kinds) : [];
  if (problems.length === 0) return `<p class="mha-static-note"${block}>${escapeHtml(t('unknownIdea', { idea: String(idea).slice(0, 40) }))}</p>`;
  const title = ideaTitle(idea, text.m.locale);
  const checkers = context.engine ? new PracticeCheckers(context.engine, text.m) : null;
  try {
    // Numbered within the idea, as the live block numbers them (value= keeps the number when
    // a block shows only some of the idea's problems).
    const items = problems.map(({ problem, number }) => `<li value="${number}">${problemHtml(localizedProblem(problem, text.m.locale), checkers, text)}</li>`).join('');
    const summary = t(predictsOnly(kinds) ? 'summaryPredict' : 'summary', { count: problems.length });
    return `<details class="mha-static mha-static-practice" data-static-figure="practice" data-locale="${escapeHtml(text.m.locale)}"${block}><summary>${escapeHtml(summary)}: ${english(notationHtml(title))}</summary><ol>${items}</ol></details>`;
  } finally {
    checkers?.dispose();
  }
}
