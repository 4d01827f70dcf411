// <mha-head-splitting>'s static figure (see shared/static-figure.js): the comparison of the
// lesson's configurations (one wide head, 8 x 64, 32 x 16) as the core counted one forward
// pass of each, with bars for the multiply-adds (equal) and the exp() calls (growing with h),
// and the rank of one world head's similarity matrix. Every number from the core through
// SplitModels, for the `state` attribute's state (or the starting one).
import { formatCount, formatNumber } from '../shared/format.js';
import { escapeHtml, htmlTable, staticFigure, stateAttribute, svgImage, svgRect, svgText } from '../shared/static-figure.js';
import { SplitModels, sanitizeSplitState, splitConfig, startingState } from './head-splitting-model.js';

export function renderStaticFigure(attributes, { engine }) {
  let config;
  try {
    config = splitConfig(JSON.parse(attributes?.config ?? '{}'));
  } catch {
    config = splitConfig();
  }
  let state = startingState(config);
  try {
    const raw = stateAttribute(attributes);
    if (raw) state = sanitizeSplitState(raw, config);
  } catch { /* the live widget reports a bad state; the figure shows the start */ }
  const models = new SplitModels(engine, config);
  try {
    return figure(models.compute(state), state);
  } finally {
    models.dispose();
  }
}

function figure(view, state) {
  const { table, spectrum } = view;
  const L = state.seqLen;
  const most = (key) => Math.max(...table.map((row) => row.counts[key]));
  const shape = (row) => `${row.config.numHeads} × ${row.config.dK}`;
  // Two bars per configuration, as long as its count relative to the largest: multiply-adds
  // (the accent colour; equal for every split) and exp() calls (hatched grey; one per entry
  // of the h weight matrices of L x L).
  const width = 600;
  const labelWidth = 150;
  const barWidth = width - labelWidth - 10;
  const rowHeight = 40;
  const body = table.map((row, i) => {
    const y = i * rowHeight;
    return svgText(0, y + 13, `${row.label}`, { className: 'label' })
      + svgText(0, y + 29, shape(row), { className: 'small' })
      + svgRect(labelWidth, y + 3, barWidth * (row.counts.attention / most('attention')), 14, { className: 'accent' })
      + svgRect(labelWidth, y + 20, barWidth * (row.counts.exponentials / most('exponentials')), 10, { className: 'exp' });
  }).join('');
  const label = `Multiply-adds of attention and exp() calls at L = ${L}: ${table.map((row) => `${row.label} (${shape(row)}): ${formatCount(row.counts.attention)} multiply-adds, ${formatCount(row.counts.exponentials)} exp() calls`).join('; ')}.`;
  const svg = svgImage({ width, height: table.length * rowHeight, label, body });
  const counts = htmlTable({
    caption: `One forward pass at d_model = ${table[0].config.dModel}, L = ${L}, counted by the core`,
    head: ['configuration', 'h × d_k', 'multiply-adds (scores + weighted sum)', 'exp() calls'],
    rows: table.map((row) => [escapeHtml(row.label), shape(row), formatCount(row.counts.attention), formatCount(row.counts.exponentials)]),
    className: 'num',
  });
  const same = table.every((row) => row.counts.attention === table[0].counts.attention);
  const head = spectrum.head;
  const dK = spectrum.config.dK;
  const values = spectrum.values.slice(0, Math.max(spectrum.nonZero + 1, 1)).map((v) => formatNumber(v, 2));
  const rank = `<p class="mha-static-readouts">The price: the world's <b class="head-chip ${head.merged ? 'head-merged' : `head-${head.members[0].id}`}">${escapeHtml(head.name)}</b> (h = ${spectrum.config.numHeads}, d_k = ${dK}) compares words through W_Q W_Kᵀ with <strong>${spectrum.nonZero}</strong> non-zero singular ${spectrum.nonZero === 1 ? 'value' : 'values'} (at most d_k = ${dK}): ${values.join(', ')}${spectrum.values.length > values.length ? ', …' : ''}.</p>`;
  return staticFigure({
    name: 'head-splitting',
    title: 'Head splitting',
    caption: same
      ? `Splitting d_model into more, narrower heads leaves the attention's multiply-adds the same (${formatCount(table[0].counts.attention)} in each row); only the exp() calls grow with h.`
      : 'The core’s counts for each configuration.',
    body: svg + counts + rank,
  });
}
