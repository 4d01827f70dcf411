// <mha-heads-questions>'s static figure (see shared/static-figure.js): the four heads'
// attention maps (L x L, each in its head's colour, the query word's row framed) and, for
// each, where the query word looks most (describeRow, the widget's own words). Every
// number from the core through HeadsQuestionsModel, for the `state` attribute's state or
// the starting one (with the query attribute).
import { headClass, headsAt } from '../shared/world.js';
import { escapeHtml, staticFigure, stateAttribute, svgGrid, svgImage, svgText } from '../shared/static-figure.js';
import { HeadsQuestionsModel, defaultHeadsQuestionsState, describeRow, queryFromAttribute, sanitizeHeadsQuestionsState, sourceHead } from './heads-questions-model.js';

const CELL = 8;
const GAP = 20;

export function renderStaticFigure(attributes, { engine, world }) {
  let query;
  try {
    if (typeof attributes?.query === 'string') query = queryFromAttribute(world, attributes.query);
  } catch { /* the live widget reports a bad query attribute */ }
  let state = defaultHeadsQuestionsState(world, query === undefined ? {} : { query });
  try {
    const raw = stateAttribute(attributes);
    if (raw) state = sanitizeHeadsQuestionsState(raw, world);
  } catch { /* the live widget reports a bad state; the figure shows the start */ }
  const model = new HeadsQuestionsModel(engine, world);
  try {
    return figure(world, model.compute(state), state);
  } finally {
    model.dispose();
  }
}

function figure(w, view, state) {
  const heads = headsAt(w, w.numHeads);
  const size = w.L * CELL;
  // Each map in the colour of the head whose projections it uses (tied: the selected head's).
  const body = view.weights.map((weights, i) => {
    const x = i * (size + GAP);
    const own = heads[sourceHead(state, i)];
    return svgText(x, 11, heads[i].name, { className: 'tiny label' })
      + svgGrid({ x, y: 16, rows: w.L, cols: w.L, data: weights, cell: CELL, headClass: headClass(own), outlineRow: state.query });
  }).join('');
  const width = w.numHeads * (size + GAP) - GAP;
  const lines = view.rows.map((row, i) => `<li><span class="head-chip ${headClass(heads[sourceHead(state, i)])}">${escapeHtml(heads[i].name)}</span>: ${escapeHtml(describeRow(w.tokens, state.query, row, { maxNames: 3 }))}.</li>`);
  const label = `Attention weights of the ${w.numHeads} heads (${w.L} × ${w.L} each, rows: query words, columns: the words they look at), the row of “${w.tokens[state.query]}” framed. ${view.rows.map((row, i) => `${heads[i].name}: ${describeRow(w.tokens, state.query, row, { maxNames: 3 })}`).join('. ')}.`;
  return staticFigure({
    name: 'heads-questions',
    title: 'Heads ask different questions',
    caption: `${state.tied ? 'Tied: every head uses one head’s projections, so the maps are copies.' : 'Each head has its own projections, so its own map: the same sentence, different questions.'} Where “${escapeHtml(w.tokens[state.query])}” looks:`,
    body: `<ul class="mha-static-readouts">${lines.join('')}</ul>${svgImage({ width, height: 16 + size, label, body, scale: 1.2 })}`,
  });
}
