// <mha-heads-questions>'s static figure (see shared/static-figure.js): the four heads'
// attention maps (L x L, each in its head's colour, the query word's row framed) and, for
// each, where the query word looks most (describeRow, the widget's own words). Every
// number from the core through HeadsQuestionsModel, for the `state` attribute's state or
// the starting one (with the query attribute).
import { headClass, headsAt } from '../shared/world.js';
import { escapeHtml, figureFromState, figureMessages, messageHtml, staticFigure, svgGrid, svgImage, svgText } from '../shared/static-figure.js';
import { HeadsQuestionsModel, defaultHeadsQuestionsState, describeRow, queryFromAttribute, sanitizeHeadsQuestionsState, sourceHead } from './heads-questions-model.js';

const CELL = 8;
const GAP = 20;

export function renderStaticFigure(attributes, { engine, world, locale }) {
  const m = figureMessages(attributes, locale);
  let query;
  try {
    if (typeof attributes?.query === 'string') query = queryFromAttribute(world, attributes.query);
  } catch { /* the live widget reports a bad query attribute */ }
  return figureFromState(attributes, {
    start: defaultHeadsQuestionsState(world, query === undefined ? {} : { query }),
    sanitize: (raw) => sanitizeHeadsQuestionsState(raw, world),
    createModel: () => new HeadsQuestionsModel(engine, world),
    draw: (model, state) => figure(world, model.compute(state), state, m),
  });
}

function figure(w, view, state, m) {
  const t = (key, params) => m.t(`staticFigure.headsQuestions.${key}`, params);
  const html = (key, params) => messageHtml(m, `staticFigure.headsQuestions.${key}`, params);
  const heads = headsAt(w, w.numHeads);
  const name = (i) => m.headName(heads[i]);
  const size = w.L * CELL;
  // Each map in the colour of the head whose projections it uses (tied: the selected head's).
  const body = view.weights.map((weights, i) => {
    const x = i * (size + GAP);
    const own = heads[sourceHead(state, i)];
    return svgText(x, 11, name(i), { className: 'tiny label' })
      + svgGrid({ x, y: 16, rows: w.L, cols: w.L, data: weights, cell: CELL, headClass: headClass(own), outlineRow: state.query });
  }).join('');
  const width = w.numHeads * (size + GAP) - GAP;
  const row = (i) => describeRow(w.tokens, state.query, view.rows[i], { maxNames: 3, messages: m });
  const lines = view.rows.map((_, i) => `<li><span class="head-chip ${headClass(heads[sourceHead(state, i)])}">${escapeHtml(name(i))}</span>: ${escapeHtml(row(i))}.</li>`);
  const word = w.tokens[state.query];
  const label = t('label', { count: w.numHeads, L: String(w.L), word, rows: view.rows.map((_, i) => `${name(i)}: ${row(i)}`).join('. ') });
  return staticFigure({
    name: 'heads-questions',
    title: t('title'),
    caption: html(state.tied ? 'captionTied' : 'captionOwn', { word }),
    body: `<ul class="mha-static-readouts">${lines.join('')}</ul>${svgImage({ width, height: 16 + size, label, body, scale: 1.2 })}`,
    m,
  });
}
