// <mha-training>'s static figure (see shared/static-figure.js): the lesson's comparison,
// trained by the core when the page was built. The two-jobs task at the core's defaults
// (d_model = 16, 1,500 Adam steps, seed 1) with 1, 2 and 4 heads: accuracy per output on the
// held-out sequences as bars (each figure written beside its bar), and the 2-head run's
// attention maps, with what each of its heads does and what switching it off alone costs.
//
// Two parts, because training is the costly bit (seconds, in a wasm module of its own):
//   trainComparison(trainingEngine)  runs the core and returns plain data (JSON-safe); the
//                                    lesson's build calls it once and keeps the result
//                                    (scripts/lib/lesson-plugin.mjs)
//   renderStaticFigure(attributes, { trainingComparison, world })  draws that data; pure.
// In the browser (the print redraw of widget-static-figure.js) there is no comparison to draw, and
// training it there would take seconds: the renderer throws, and the built figure stays.
import { escapeHtml, figureMessages, messageHtml, rawHtml, staticFigure, svgGrid, svgImage, svgRect, svgText, coordinate } from '../shared/static-figure.js';
import { HEAD_COUNTS, TASK_TEXT, TrainingSession } from './training-model.js';

/** The comparison the lesson's prose states (tests/node/training-claims.test.mjs checks it). */
export const COMPARISON = { task: 'back-and-first', seed: 1, heads: HEAD_COUNTS, mapsOf: 2 };

/** The text of this figure in one language (staticFigure.training in the locale files). */
function words(m) {
  const t = (key, params) => m.t(`staticFigure.training.${key}`, params);
  return {
    m,
    t,
    percent: (value) => m.percent(value, 1),
    head: (i) => t('head', { number: String(i + 1) }),
    heads: (h) => t('heads', { count: h }),
    width: (w) => t('width', { width: String(w) }),
    looksAt: [t('looksAtFirst'), t('looksAtBack')],
  };
}

/**
 * Trains the comparison with the core's training module, through the widget's own
 * TrainingSession (the same steps and evaluation the live widget runs): for each h, the
 * final evaluation; for the h = mapsOf run also every head's attention on held-out sequence
 * 0 and each head switched off alone. Plain numbers, so the build can keep them as JSON.
 */
export function trainComparison(trainingEngine, { task, seed, heads, mapsOf } = COMPARISON) {
  const runs = [];
  let maps = null;
  for (const h of heads) {
    const session = new TrainingSession(trainingEngine, { task, heads: h, seed });
    try {
      session.step(session.totalSteps);
      const look = session.look();
      runs.push({ heads: h, width: session.config.dModel / h, steps: look.steps, accuracy: look.accuracy, outputAccuracy: look.outputAccuracy, loss: look.loss });
      if (h === mapsOf) {
        const offAlone = Array.from({ length: h }, (_, i) => session.setOff([i]).outputAccuracy);
        maps = { heads: h, tokens: look.tokens, patterns: look.patterns, offAlone };
      }
    } finally {
      session.dispose();
    }
  }
  const { dModel, steps, vocabSize, evalSize, seqLen, offset } = trainingEngine.defaultTrainingConfig(task);
  return { task, seed, dModel, steps, vocabSize, evalSize, seqLen, offset, runs, maps };
}

/**
 * The mean weight a head's rows put on the first token and on the token `offset` back, over
 * the positions where the two are different keys (from offset + 2 on, counting from 1).
 */
export function headRole(pattern, L, offset) {
  let first = 0;
  let back = 0;
  // 0-based rows: row t's token `offset` back is key t - offset, the first token itself up to
  // row `offset`, so the two are told apart from row offset + 1 (position offset + 2) on.
  const from = offset + 1;
  for (let t = from; t < L; t++) {
    first += pattern[t * L];
    back += pattern[t * L + t - offset];
  }
  const n = L - from;
  return { first: first / n, back: back / n, from: from + 1 };
}

export function renderStaticFigure(attributes, { trainingComparison: data, world, locale } = {}) {
  const text = words(figureMessages(attributes, locale));
  const { m, t } = text;
  if (!data?.runs?.length || !data.maps) throw new Error(t('noData'));
  const outputs = TASK_TEXT[data.task].outputs.map((_, o) => m.t(`training.tasks.${data.task}.outputs.${o}`));
  return staticFigure({
    name: 'training',
    title: t('title'),
    caption: messageHtml(m, 'staticFigure.training.caption', {
      task: m.t(`training.tasks.${data.task}.name`), seed: String(data.seed), steps: m.count(data.steps), dModel: String(data.dModel),
      dModelName: rawHtml('d<sub>model</sub>'),
      evalSize: m.count(data.evalSize), mapsOf: String(COMPARISON.mapsOf),
    }),
    body: barsAndMaps(data, outputs, world, text),
    m,
    // Kept in the figure: a widget in another language draws it again from the same runs.
    data,
  });
}

// One row per run: its name, then a thin bar per output (full width = 100%) with its figure,
// and a dashed line at chance. Output 0 solid, output 1 lighter; the key under the bars.
function accuracyBars(data, outputs, chance, text) {
  const { t, percent } = text;
  const width = 360;
  const labelWidth = 92;
  const barWidth = width - labelWidth - 44;
  const bar = 10;
  const rowHeight = outputs.length * (bar + 2) + 8;
  const parts = [];
  data.runs.forEach((run, r) => {
    const y = r * rowHeight + 2;
    parts.push(svgText(0, y + 10, text.heads(run.heads), { className: 'label' }));
    parts.push(svgText(0, y + 21, text.width(run.width), { className: 'small' }));
    outputs.forEach((name, o) => {
      const by = y + o * (bar + 2);
      parts.push(svgRect(labelWidth, by, barWidth, bar, { className: 'grid-base' }));
      parts.push(svgRect(labelWidth, by, barWidth * run.outputAccuracy[o], bar, { className: 'accent', fillOpacity: o === 0 ? 1 : 0.5 }));
      parts.push(svgText(width, by + 8.5, percent(run.outputAccuracy[o]), { anchor: 'end', className: 'small' }));
    });
  });
  const height = data.runs.length * rowHeight + 14;
  const cx = labelWidth + barWidth * chance;
  parts.push(`<line class="outline" x1="${coordinate(cx)}" y1="0" x2="${coordinate(cx)}" y2="${coordinate(height - 14)}" stroke-dasharray="2 2"/>`);
  const ky = height - 3;
  parts.push(svgRect(labelWidth, ky - 8, 10, 8, { className: 'accent', fillOpacity: 1 }), svgText(labelWidth + 13, ky, outputs[0], { className: 'small' }));
  // The second key after the first one's words (about 6.5 units a letter; German's are longer).
  const second = labelWidth + Math.max(88, Math.ceil(outputs[0].length * 6.5) + 8);
  if (outputs[1]) parts.push(svgRect(second, ky - 8, 10, 8, { className: 'accent', fillOpacity: 0.5 }), svgText(second + 13, ky, outputs[1], { className: 'small' }));
  parts.push(svgText(width, ky, t('chance', { chance: percent(chance) }), { anchor: 'end', className: 'small' }));
  const rows = data.runs.map((run) => t('run', {
    heads: text.heads(run.heads), width: text.width(run.width), outputs: outputs.map((name, o) => `${name} ${percent(run.outputAccuracy[o])}`).join(t('separator')),
  })).join('; ');
  return svgImage({ width, height, label: t('barsLabel', { rows, chance: percent(chance) }), body: parts.join('') });
}

// The bars, and beside them (where both fit, static-figures.css) the h-head run's maps side
// by side, in the trained heads' own colours (as the live widget draws them); under both, in words, what each head's rows look at and what switching
// it off alone leaves of each output.
function barsAndMaps(data, outputs, world, text) {
  const { t, percent } = text;
  const bars = accuracyBars(data, outputs, 1 / data.vocabSize, text);
  const { maps, seqLen: L, offset } = data;
  const cell = 10;
  const gap = 40;
  const top = 16;
  const size = L * cell;
  const parts = [];
  const roles = [];
  const items = [];
  maps.patterns.forEach((pattern, i) => {
    const x = 14 + i * (size + gap);
    // Trained heads have colours of their own, not the lesson's hand-built heads'.
    const cls = `trained-${i % 4}`;
    parts.push(svgText(x, 11, text.head(i), { className: 'label' }));
    parts.push(svgGrid({ x, y: top, rows: L, cols: L, data: pattern, cell, max: 1, headClass: cls }));
    for (const at of [0, L - 1]) {
      parts.push(svgText(x - 3, top + at * cell + 8, String(at + 1), { anchor: 'end', className: 'tiny' }));
      parts.push(svgText(x + at * cell + cell / 2, top + size + 9, String(at + 1), { anchor: 'middle', className: 'tiny' }));
    }
    // Named by where most of its weight goes (the core's numbers decide, not the head's index).
    const role = headRole(pattern, L, offset);
    const [target, share] = role.back > role.first ? [text.looksAt[1], role.back] : [text.looksAt[0], role.first];
    roles.push(t('role', { name: text.head(i), target, share: percent(share), from: String(role.from), to: String(L) }));
    items.push(`${roles[i]}; ${t('offAlone', { outputs: maps.offAlone[i].map((a, o) => `${outputs[o]} ${percent(a)}`).join(t('separator')) })}.`);
  });
  const width = Math.max(14 + maps.patterns.length * (size + gap) - gap + 6, 250);
  parts.push(svgText(0, top + size + 22, t('axes'), { className: 'tiny' }));
  const height = top + size + 26;
  const svg = svgImage({ width, height, label: t('mapsLabel', { count: maps.heads, tokens: maps.tokens.join(' '), heads: roles.join('; ') }), body: parts.join('') });
  return `<div class="mha-static-parts"><div>${bars}</div><div>${svg}</div></div>`
    + `<ul class="mha-static-readouts">${items.map((item) => `<li>${escapeHtml(item)}</li>`).join('')}</ul>`;
}
