// <mha-blend>'s static figure (see shared/static-figure.js): the one head's budget for
// "said" and the two heads' budgets as bars, and the readouts: how often the reader is
// right with one head and with two, and the other weights with the same output. Every
// number from the core through BlendModel, for the state in the `state` attribute (or the
// starting state).
import { formatNumber } from '../shared/format.js';
import { headClass } from '../shared/world.js';
import { escapeHtml, staticFigure, stateAttribute, svgBudgetBar, svgImage, svgText } from '../shared/static-figure.js';
import { BlendModel, defaultBlendState, describeShare, sanitizeBlendState } from './blend-model.js';

export function renderStaticFigure(attributes, { engine, world }) {
  const model = new BlendModel(engine, world);
  try {
    let state = defaultBlendState();
    try {
      const raw = stateAttribute(attributes);
      if (raw) state = sanitizeBlendState(raw, world.L);
    } catch { /* a bad state attribute: the live widget says so; the figure shows the start */ }
    const view = model.compute(state);
    return figure(model, view);
  } finally {
    model.dispose();
  }
}

function figure(model, view) {
  const { w, oneHead, subjectHead, complementHead } = model;
  const said = w.tokens[w.queryIndex];
  const keys = [w.subjectIndex, w.complementIndex];
  const format = (v) => formatNumber(v, 2);
  const bars = [
    { title: `One head (${oneHead.name}), width ${model.fairness.one.width}`, weights: view.budget, labelled: keys, cls: headClass(oneHead) },
    { title: `${subjectHead.name}, width ${model.fairness.two.width}`, weights: model.subjectBudget, labelled: [w.subjectIndex], cls: headClass(subjectHead) },
    { title: `${complementHead.name}, width ${model.fairness.two.width}`, weights: model.complementBudget, labelled: [w.complementIndex], cls: headClass(complementHead) },
  ];
  const width = 600;
  const rowHeight = 52;
  const body = bars.map((bar, i) => svgText(0, i * rowHeight + 12, bar.title, { className: 'label' })
    + svgBudgetBar({ x: 0, y: i * rowHeight + 17, width, height: 14, weights: bar.weights, tokens: w.tokens, labelled: bar.labelled, headClass: bar.cls, format })).join('');
  const describe = (bar) => bar.labelled.map((t) => `${w.tokens[t]} ${format(bar.weights[t])}`).join(', ');
  const label = `Attention budget of “${said}”: ${bars.map((bar) => `${bar.title}: ${describe(bar)}`).join('; ')}.`;
  const svg = svgImage({ width, height: bars.length * rowHeight, label, body });

  const score = (r) => `who did the saying? right in <strong>${r.subjectCorrect} of ${r.total}</strong>, what was said? in <strong>${r.complementCorrect} of ${r.total}</strong>`;
  const alt = view.alternative;
  const undo = alt.meaningful
    ? `Undo it? The core finds other weights (${escapeHtml(describeShare(alt.moved))} of the budget moved) with the same output, to within ${escapeHtml(alt.maxOutputDifference.toExponential(0))}: the output cannot say which weighting made it.`
    : 'Undo it? No other weighting gives this output.';
  const readouts = `<ul class="mha-static-readouts">`
    + `<li><b>One head</b> (one budget for both questions): ${score(view.one)}.</li>`
    + `<li><b>Two heads</b> (a budget each): ${score(view.two)}.</li>`
    + `<li>${undo}</li></ul>`;
  return staticFigure({
    name: 'blend',
    title: 'One head, one average',
    caption: `Where “${escapeHtml(said)}” spends its attention budget of 1, and what a later layer reads from its output over ${view.one.total} versions of the sentence. Same W_Q, W_K, W_V, W_O and d_model = ${model.fairness.one.dModel}; only the split into heads differs.`,
    body: svg + readouts,
  });
}
