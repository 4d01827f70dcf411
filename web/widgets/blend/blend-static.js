// <mha-blend>'s static figure (see shared/static-figure.js): the one head's budget for
// "said" and the two heads' budgets as bars, and the readouts: how often the reader is
// right with one head and with two, and the other weights with the same output. Every
// number from the core through BlendModel, for the state in the `state` attribute (or the
// starting state).
import { headClass } from '../shared/world.js';
import { escapeHtml, figureFromState, figureMessages, messageHtml, rawHtml, staticFigure, svgBudgetBar, svgImage, svgText } from '../shared/static-figure.js';
import { BlendModel, defaultBlendState, describeShare, heardText, sanitizeBlendState, undoVerdict } from './blend-model.js';

export function renderStaticFigure(attributes, { engine, world, locale }) {
  const m = figureMessages(attributes, locale);
  return figureFromState(attributes, {
    start: defaultBlendState(),
    sanitize: (raw) => sanitizeBlendState(raw, world.L),
    createModel: () => new BlendModel(engine, world),
    draw: (model, state) => figure(model, model.compute(state), m),
  });
}

function figure(model, view, m) {
  const { w, oneHead, subjectHead, complementHead } = model;
  const said = w.tokens[w.queryIndex];
  const keys = [w.subjectIndex, w.complementIndex];
  const format = (v) => m.number(v, 2);
  const t = (key, params) => m.t(`staticFigure.blend.${key}`, params);
  const twoWidth = String(model.fairness.two.width);
  const bars = [
    { title: t('oneBar', { name: m.headName(oneHead), width: String(model.fairness.one.width) }), weights: view.budget, labelled: keys, cls: headClass(oneHead) },
    { title: t('headBar', { name: m.headName(subjectHead), width: twoWidth }), weights: model.subjectBudget, labelled: [w.subjectIndex], cls: headClass(subjectHead) },
    { title: t('headBar', { name: m.headName(complementHead), width: twoWidth }), weights: model.complementBudget, labelled: [w.complementIndex], cls: headClass(complementHead) },
  ];
  const width = 600;
  const rowHeight = 52;
  const body = bars.map((bar, i) => svgText(0, i * rowHeight + 12, bar.title, { className: 'label' })
    + svgBudgetBar({ x: 0, y: i * rowHeight + 17, width, height: 14, weights: bar.weights, tokens: w.tokens, labelled: bar.labelled, headClass: bar.cls, format })).join('');
  const describe = (bar) => bar.labelled.map((k) => `${w.tokens[k]} ${format(bar.weights[k])}`).join(', ');
  const label = t('label', { word: said, bars: bars.map((bar) => t('barDescription', { title: bar.title, weights: describe(bar) })).join('; ') });
  const svg = svgImage({ width, height: bars.length * rowHeight, label, body });

  const html = (key, params) => messageHtml(m, `staticFigure.blend.${key}`, params);
  const strong = (text) => rawHtml(`<strong>${escapeHtml(text)}</strong>`);
  const bold = (text) => rawHtml(`<b>${escapeHtml(text)}</b>`);
  // Ties (the reader finds two words equally similar: neither right nor wrong) said apart.
  const outOf = (count, ties, total) => t(ties ? 'outOfTies' : 'outOf', { count: String(count), total: String(total), ties: String(ties) });
  const score = (r) => html('score', {
    subject: strong(outOf(r.subjectCorrect, r.subjectTies, r.total)),
    complement: strong(outOf(r.complementCorrect, r.complementTies, r.total)),
  });
  const alt = view.alternative;
  // Only what the core established: the farthest other weighting (every candidate checked),
  // one it found, or that there is none; a move below a thousandth of the budget is no line.
  const moved = { share: describeShare(alt.moved, m), difference: alt.maxOutputDifference.toExponential(0) };
  const undo = { farthest: () => html('undoFarthest', moved), found: () => html('undoOther', moved), only: () => html('undoNone') }[undoVerdict(alt)]?.() ?? null;
  // The page's own sentence as each reader hears it (✓ right, ✗ wrong, = a tie).
  const heard = (answer) => strong(heardText(answer, m));
  const sentence = html('sentence', {
    said, oneWho: heard(view.sentence.one.who), oneWhat: heard(view.sentence.one.what),
    twoWho: heard(view.sentence.two.who), twoWhat: heard(view.sentence.two.what),
  });
  const readouts = `<ul class="mha-static-readouts">`
    + `<li>${sentence}</li>`
    + `<li>${html('oneHead', { label: bold(t('oneHeadLabel')), score: rawHtml(score(view.one)) })}</li>`
    + `<li>${html('twoHeads', { label: bold(t('twoHeadsLabel')), score: rawHtml(score(view.two)) })}</li>`
    + `${undo === null ? '' : `<li>${undo}</li>`}</ul>`;
  return staticFigure({
    name: 'blend',
    title: t('title'),
    caption: html('caption', { word: said, total: String(view.one.total), dModel: String(model.fairness.one.dModel) }),
    body: svg + readouts,
    m,
  });
}
