// <mha-wo-mixing>'s static figure (see shared/static-figure.js): the word's row of the
// concatenation (each head's slice in its colour), W_O, the output row, and what a later
// layer reading direction u hears from each head with this W_O and with W_O = I. Every
// number from the core through WoMixingModel, for the `state` attribute's state or the
// starting one (with the heads / token attributes).
import { headClass } from '../shared/world.js';
import { escapeHtml, figureFromState, figureMessages, htmlTable, messageHtml, staticFigure, stringAttribute, svgGrid, svgImage, svgRect, svgText } from '../shared/static-figure.js';
import { WoMixingModel, attributeOverrides, describeAlong, matchingDirection, matchingPreset, sanitizeWoState, startingState, woMixingConfig } from './wo-mixing-model.js';

export function renderStaticFigure(attributes, { engine, world, locale }) {
  const m = figureMessages(attributes, locale);
  const config = woMixingConfig(undefined, world);
  const { overrides } = attributeOverrides(config, { heads: stringAttribute(attributes, 'heads'), token: stringAttribute(attributes, 'token') });
  return figureFromState(attributes, {
    start: startingState(config, overrides),
    sanitize: (raw) => sanitizeWoState(config, raw),
    createModel: () => new WoMixingModel(engine, config),
    draw: (model, state) => figure(config, model.compute(state), state, m),
  });
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

function figure(config, view, state, m) {
  const t = (key, params) => m.t(`staticFigure.woMixing.${key}`, params);
  const html = (key, params) => messageHtml(m, `staticFigure.woMixing.${key}`, params);
  const { w } = config;
  const word = w.tokens[state.token];
  const d = w.dModel;
  const max = Math.max(...view.concat.map(Math.abs), ...view.output.map(Math.abs)) || 1;
  const barWidth = 14;
  const rowWidth = d * barWidth;
  const height = 40;
  const cell = 5;
  const woMax = Math.max(...state.wo.map(Math.abs)) || 1;
  const body = rowBars({ x: 0, y: 14, values: view.concat, heads: view.heads, barWidth, height, max, title: t('concatRow', { word }) })
    + svgText(rowWidth + 24, 14 - 4, t('wo'), { className: 'small label' })
    + svgGrid({ x: rowWidth + 24, y: 14, rows: d, cols: d, data: state.wo, cell, max: woMax, diverging: true })
    + rowBars({ x: rowWidth + 24 + d * cell + 24, y: 14, values: view.output, heads: view.heads, barWidth, height, max, title: t('output') });
  const width = rowWidth * 2 + d * cell + 48;
  const numbers = (values) => values.map((v) => m.number(v)).join(t('valueSeparator'));
  const label = t('label', { word, concat: numbers(view.concat), output: numbers(view.output) });
  const svg = svgImage({ width, height: 14 + Math.max(height, d * cell) + 2, label, body, scale: 1.3 });
  const preset = matchingPreset(config, state.wo);
  const direction = matchingDirection(config, state.u);
  const heard = htmlTable({
    caption: html('heardCaption', { direction: direction ? m.dataText('data.woMixing', direction.label) : t('directionU') }),
    head: [html('column.head'), html(preset ? 'column.thisWo' : 'column.yourWo'), html('column.identity')],
    rows: view.heads.map((head, i) => [`<span class="head-chip ${headClass(head)}">${escapeHtml(m.headName(head))}</span>`, m.number(view.withMixing.heads[i]), m.number(view.withoutMixing.heads[i])]),
    className: 'num',
  });
  return staticFigure({
    name: 'wo-mixing',
    title: t('title'),
    caption: `${preset ? html('captionPreset', { preset: m.dataText('data.woMixing', preset.label) }) : html('captionEdited')} ${escapeHtml(describeAlong(config, view, m))}`,
    body: svg + heard,
    m,
  });
}
