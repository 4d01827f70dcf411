// <mha-head-splitting>'s static figure (see shared/static-figure.js): the comparison of the
// lesson's configurations (one wide head, 8 x 64, 32 x 16) as the core counted one forward
// pass of each, with bars for the multiply-adds (equal) and the exp() calls (growing with h),
// and the rank of one world head's similarity matrix. Every number from the core through
// SplitModels, for the `state` attribute's state (or the starting one).
import { escapeHtml, figureFromState, figureMessages, htmlTable, messageHtml, rawHtml, staticFigure, svgImage, svgRect, svgText } from '../shared/static-figure.js';
import { attributeWords } from '../registry.js';
import { SplitModels, sanitizeSplitState, splitConfig, startingState } from './head-splitting-model.js';

export function renderStaticFigure(attributes, { engine, locale, lent = null }) {
  const m = figureMessages(attributes, locale);
  let config;
  try {
    config = splitConfig(JSON.parse(attributes?.config ?? '{}'));
  } catch {
    config = splitConfig();
  }
  return figureFromState(attributes, {
    start: startingState(config),
    sanitize: (raw) => sanitizeSplitState(raw, config),
    createModel: () => new SplitModels(engine, config),
    // The live widget's models, if they count with this figure's configuration and core.
    lent: lent instanceof SplitModels && lent.engine === engine && JSON.stringify(lent.config) === JSON.stringify(config) ? lent : null,
    draw: (models, state) => figure(models.compute(state), state, m, shownParts(attributes?.panels)),
  });
}

/**
 * What the figure shows for the widget's panels="…": the counts (for the controls, counts
 * or configurations panels), the rank (for spectrum), or both (no attribute, or names the
 * widget does not know: the live widget then shows every panel too).
 */
function shownParts(panels) {
  const names = attributeWords(panels);
  const counts = names.some((name) => ['controls', 'counts', 'configurations'].includes(name));
  const rank = names.includes('spectrum');
  return counts || rank ? { counts, rank } : { counts: true, rank: true };
}

function figure(view, state, m, parts) {
  const { table, spectrum } = view;
  const L = state.seqLen;
  const t = (key, params) => m.t(`staticFigure.headSplitting.${key}`, params);
  const html = (key, params) => messageHtml(m, `staticFigure.headSplitting.${key}`, params);
  const most = (key) => Math.max(...table.map((row) => row.counts[key]));
  const shape = (row) => `${row.config.numHeads} × ${row.config.dK}`;
  const labelOf = (row) => m.dataText('data.headSplittingConfigurations', row.label);
  // Two bars per configuration, as long as its count relative to the largest: multiply-adds
  // (the accent colour; equal for every split) and exp() calls (hatched grey; one per entry
  // of the h weight matrices of L x L).
  const width = 600;
  const labelWidth = 150;
  const barWidth = width - labelWidth - 10;
  const rowHeight = 40;
  const body = table.map((row, i) => {
    const y = i * rowHeight;
    return svgText(0, y + 13, labelOf(row), { className: 'label' })
      + svgText(0, y + 29, shape(row), { className: 'small' })
      + svgRect(labelWidth, y + 3, barWidth * (row.counts.attention / most('attention')), 14, { className: 'accent' })
      + svgRect(labelWidth, y + 20, barWidth * (row.counts.exponentials / most('exponentials')), 10, { className: 'exp' });
  }).join('');
  const rows = table.map((row) => t('labelRow', { label: labelOf(row), shape: shape(row), attention: m.count(row.counts.attention), exponentials: m.count(row.counts.exponentials) }));
  const label = t('label', { L: String(L), rows: rows.join('; ') });
  const svg = svgImage({ width, height: table.length * rowHeight, label, body });
  const counts = htmlTable({
    caption: html('tableCaption', { dModel: String(table[0].config.dModel), L: String(L) }),
    head: ['configuration', 'shape', 'attention', 'exponentials'].map((key) => html(`column.${key}`)),
    rows: table.map((row) => [escapeHtml(labelOf(row)), shape(row), m.count(row.counts.attention), m.count(row.counts.exponentials)]),
    className: 'num',
  });
  const same = table.every((row) => row.counts.attention === table[0].counts.attention);
  const head = spectrum.head;
  const dK = spectrum.config.dK;
  const values = spectrum.values.slice(0, Math.max(spectrum.nonZero + 1, 1)).map((v) => m.number(v, 2));
  const chip = `<b class="head-chip ${head.merged ? 'head-merged' : `head-${head.members[0].id}`}">${escapeHtml(m.headName(head))}</b>`;
  const rank = `<p class="mha-static-readouts">${html('rank', {
    head: rawHtml(chip), h: String(spectrum.config.numHeads), dK: String(dK), count: spectrum.nonZero,
    nonZero: rawHtml(`<strong>${spectrum.nonZero}</strong>`),
    values: values.join(t('valueSeparator')) + (spectrum.values.length > values.length ? `${t('valueSeparator')}…` : ''),
  })}</p>`;
  if (!parts.counts) return staticFigure({ name: 'head-splitting', title: t('titleRank'), caption: html('captionRank'), body: rank, m });
  return staticFigure({
    name: 'head-splitting',
    title: t('title'),
    caption: same ? html('captionSame', { attention: m.count(table[0].counts.attention) }) : html('captionCounts'),
    body: svg + counts + (parts.rank ? rank : ''),
    m,
  });
}
