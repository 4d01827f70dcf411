// <mha-wo-mixing>'s static figure (see shared/static-figure.js): the word's row of the
// concatenation (each head's slice in its colour), W_O, the output row, and what a later
// layer reading direction u hears from each head with this W_O and with W_O = I. Every
// number from the core through WoMixingModel, for the `state` attribute's state or the
// starting one (with the heads / token attributes).
import { formatNumber } from '../shared/format.js';
import { headClass } from '../shared/world.js';
import { escapeHtml, htmlTable, staticFigure, stateAttribute, svgGrid, svgImage, svgRect, svgText } from '../shared/static-figure.js';
import { WoMixingModel, attributeOverrides, describeAlong, matchingDirection, matchingPreset, sanitizeWoState, startingState, woMixingConfig } from './wo-mixing-model.js';

export function renderStaticFigure(attributes, { engine, world }) {
  const config = woMixingConfig(undefined, world);
  const read = (name) => (typeof attributes?.[name] === 'string' ? attributes[name] : null);
  let state = startingState(config, attributeOverrides(config, { heads: read('heads'), token: read('token') }).overrides);
  try {
    const raw = stateAttribute(attributes);
    if (raw) state = sanitizeWoState(config, raw);
  } catch { /* the live widget reports a bad state; the figure shows the start */ }
  const model = new WoMixingModel(engine, config);
  try {
    return figure(config, model.compute(state), state);
  } finally {
    model.dispose();
  }
}

/** A row of d numbers as vertical bars around a zero line, each in its head's colour. */
function rowBars({ x, y, values, heads, barWidth, height, max, title }) {
  const zero = y + height / 2;
  const parts = [svgText(x, y - 4, title, { className: 'small label' }), svgRect(x, zero, values.length * barWidth, 0.6, { className: 'axis' })];
  values.forEach((v, j) => {
    const head = heads.find((hd) => j >= hd.start && j < hd.end);
    const h = (Math.abs(v) / max) * (height / 2);
    parts.push(`<g class="${headClass(head)}">${svgRect(x + j * barWidth + 1, v >= 0 ? zero - h : zero, barWidth - 2, h, { className: 'fill' })}</g>`);
  });
  return parts.join('');
}

function figure(config, view, state) {
  const { w } = config;
  const word = w.tokens[state.token];
  const d = w.dModel;
  const max = Math.max(...view.concat.map(Math.abs), ...view.output.map(Math.abs)) || 1;
  const barWidth = 14;
  const rowWidth = d * barWidth;
  const height = 40;
  const cell = 5;
  const woMax = Math.max(...state.wo.map(Math.abs)) || 1;
  const body = rowBars({ x: 0, y: 14, values: view.concat, heads: view.heads, barWidth, height, max, title: `Concat, row of “${word}”` })
    + svgText(rowWidth + 24, 14 - 4, 'W_O', { className: 'small label' })
    + svgGrid({ x: rowWidth + 24, y: 14, rows: d, cols: d, data: state.wo, cell, max: woMax, diverging: true })
    + rowBars({ x: rowWidth + 24 + d * cell + 24, y: 14, values: view.output, heads: view.heads, barWidth, height, max, title: 'output = Concat · W_O' });
  const width = rowWidth * 2 + d * cell + 48;
  const label = `Row of “${word}”: Concat (${view.concat.map((v) => formatNumber(v)).join(', ')}), times W_O, gives the output (${view.output.map((v) => formatNumber(v)).join(', ')}).`;
  const svg = svgImage({ width, height: 14 + Math.max(height, d * cell) + 2, label, body, scale: 1.3 });
  const preset = matchingPreset(config, state.wo);
  const direction = matchingDirection(config, state.u);
  const heard = htmlTable({
    caption: `What a later layer reading ${escapeHtml(direction?.label ?? 'direction u')} hears from each head`,
    head: ['head', `with ${escapeHtml(preset ? 'this W_O' : 'your W_O')}`, 'with W_O = I'],
    rows: view.heads.map((head, i) => [`<span class="head-chip ${headClass(head)}">${escapeHtml(head.name)}</span>`, formatNumber(view.withMixing.heads[i]), formatNumber(view.withoutMixing.heads[i])]),
    className: 'num',
  });
  return staticFigure({
    name: 'wo-mixing',
    title: 'What W_O is for',
    caption: `${escapeHtml(preset ? `W_O: ${preset.label}.` : 'W_O: edited.')} ${escapeHtml(describeAlong(config, view))}`,
    body: svg + heard,
  });
}
