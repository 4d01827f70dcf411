// The panels of <mha-training> (index.js), each built once: a builder makes its panel's
// elements and returns them, the panel (or panels) under its own name and every part the
// widget keeps and updates under the name the widget keeps it by. What a press or an entry
// does is the widget's, handed in as `on`. Nothing here draws a run's numbers.
import { element } from '../../ui/dom.js';
import { ChoiceGroup } from '../../ui/choice-group.js';
import { Heatmap } from '../../ui/heatmap.js';
import { NumberField } from '../../ui/number-field.js';
import { CurveChart } from './curve-chart.js';
import { HEAD_COUNTS, MAX_SEED } from './training-model.js';

/**
 * The task, h and seed, Train, Reset and the progress: `controls` and `runBar`, with the
 * parts. `tasks`: the task choice's options, in the widget's language.
 */
export function runControls(m, tasks, on) {
  const taskChoice = new ChoiceGroup({ label: m.t('training.task'), controls: 'curves maps', onChoose: (task) => on.choose({ task }) });
  taskChoice.setOptions(tasks);
  const headsChoice = new ChoiceGroup({ label: m.t('training.headsLabel'), controls: 'curves maps', onChoose: (heads) => on.choose({ heads }) });
  headsChoice.setOptions(HEAD_COUNTS.map((h) => ({ value: h, content: String(h), label: m.t('training.headsOption', { count: h, width: 16 / h }) })));
  const seedField = new NumberField({
    label: m.t('training.seed'), value: 1, min: 1, max: MAX_SEED, decimals: 0, messages: m,
    onPropose: (seed) => on.choose({ seed }),
  });
  seedField.element.classList.add('seed-field');
  seedField.input.setAttribute('aria-controls', 'curves maps');

  const trainButton = element('button', { type: 'button', className: 'train', textContent: m.t('training.button.train') });
  trainButton.setAttribute('aria-controls', 'curves maps');
  trainButton.addEventListener('click', () => on.trainOrPause());
  const resetButton = element('button', { type: 'button', className: 'secondary', textContent: m.t('common.reset') });
  resetButton.setAttribute('aria-controls', 'curves maps');
  resetButton.addEventListener('click', () => on.reset());
  const progress = element('progress', { max: 1, value: 0, ariaLabel: m.t('training.progress') });
  const progressText = element('span', { className: 'progress-text' });
  const status = element('p', { className: 'status', role: 'status' });
  const taskNote = element('p', { className: 'task-note muted' });

  const controls = element('div', { className: 'controls', dataset: { panel: 'controls' } }, [
    element('div', { className: 'control' }, [element('span', { className: 'control-label', textContent: m.t('training.task') }), taskChoice.element]),
    element('div', { className: 'control' }, [element('span', { className: 'control-label', textContent: m.t('training.heads') }), headsChoice.element]),
  ]);
  // The seed sits with Train: it picks the run that Train starts (and on a phone the row of
  // buttons has room for it, where the row of choices has none).
  const runBar = element('div', { className: 'toolbar run-bar', dataset: { panel: 'controls' } }, [
    trainButton, resetButton, seedField.element, progress, progressText,
  ]);
  return {
    controls, runBar,
    taskChoice, headsChoice, seedField, trainButton, resetButton, progress, progressText, status, taskNote,
  };
}

/** While it trains: the curves and the heads' patterns, `curves` and `maps`, with the parts. */
export function learningPanels(m) {
  const accuracyChart = new CurveChart({ title: m.t('training.accuracyChart'), xLabel: m.t('training.steps'), percent: true, messages: m });
  const lossChart = new CurveChart({ title: m.t('training.lossChart'), xLabel: m.t('training.steps'), messages: m });
  const legend = element('ul', { className: 'legend' });
  const scores = element('p', { className: 'scores' });
  const curves = element('section', { id: 'curves', className: 'curves', dataset: { panel: 'curves' } }, [
    element('h3', { textContent: m.t('training.learning') }), scores, legend,
    element('div', { className: 'charts' }, [accuracyChart.element, lossChart.element]),
  ]);
  const mapsBox = element('div', { className: 'maps' });
  const example = element('p', { className: 'example muted' });
  const maps = element('section', { id: 'maps', className: 'heads', dataset: { panel: 'heads' } }, [
    element('h3', { textContent: m.t('training.mapsHeading') }), example, mapsBox,
  ]);
  return { curves, maps, accuracyChart, lossChart, legend, scores, mapsBox, example };
}

/** Trained head i's map with its on/off switch: `{ map, toggle, result, panel, L }`. */
export function trainedHeadPanel(m, i, { name, colour, onToggle }) {
  const L = 10;
  const map = new Heatmap({
    label: m.t('training.mapLabel', { name }), messages: m,
    tokens: Array.from({ length: L }, (_, t) => String(t + 1)), weights: new Float32Array(L * L), colour,
    // Small static maps (no tab stop, no 15 px tap targets): each row one painted cell
    // named by its numbers (redrawn often while training: 10 cells a map, not 100), and
    // the scores above say what the heads achieve.
    compact: true, focusable: false, paintRows: true,
  });
  const toggle = element('input', { type: 'checkbox', role: 'switch', className: 'head-toggle', checked: true, disabled: true });
  toggle.setAttribute('aria-controls', 'curves maps');
  toggle.addEventListener('change', () => onToggle(toggle.checked));
  const result = element('span', { className: 'head-result' });
  const label = element('label', { className: 'head-switch' }, [toggle, element('span', { className: 'head-name', textContent: m.t('training.headOn', { name }) })]);
  const panel = element('div', { className: 'head-panel', dataset: { head: String(i) } }, [label, result, map.element]);
  panel.style.setProperty('--head', colour);
  return { map, toggle, result, panel, L };
}

/** Once trained: importance and pruning, `after`, with the parts. */
export function pruningPanel(m, on) {
  const rankingList = element('ol', { className: 'ranking' });
  const pruneField = new NumberField({ label: m.t('training.pruneField'), value: 1, min: 0, max: 4, decimals: 0, messages: m, onPropose: (k) => on.checkPruneCount(k),
    onEnter: () => on.prune() });
  pruneField.element.classList.add('prune-field');
  pruneField.input.setAttribute('aria-controls', 'prune-chart');
  const pruneButton = element('button', { type: 'button', textContent: m.t('training.pruneButton') });
  pruneButton.setAttribute('aria-controls', 'prune-chart');
  pruneButton.addEventListener('click', () => on.prune());
  const pruneChart = new CurveChart({ title: m.t('training.pruneChart'), xLabel: m.t('training.pruneAxis'), percent: true, dots: true, messages: m });
  pruneChart.element.id = 'prune-chart';
  const afterNote = element('p', { className: 'muted after-note', textContent: m.t('training.afterNote') });
  const scoresNote = element('p', { className: 'muted scores-note', textContent: m.t('training.scoresNote'), hidden: true });
  const pruneBox = element('div', { className: 'prune-box' }, [
    element('div', { className: 'toolbar prune-bar' }, [pruneField.element, pruneButton]),
    pruneChart.element,
  ]);
  const after = element('section', { className: 'after', dataset: { panel: 'pruning' } }, [
    element('h3', { textContent: m.t('training.whichMatter') }), afterNote, rankingList, scoresNote, pruneBox,
  ]);
  return { after, rankingList, pruneField, pruneButton, pruneChart, afterNote, scoresNote, pruneBox };
}

/** The runs finished at this seed, side by side: `compare`, with its table and body. */
export function comparisonPanel(m) {
  const comparisonBody = element('tbody');
  const comparisonTable = element('table', { className: 'comparison' }, [
    element('caption', { textContent: m.t('training.comparison') }),
    element('thead', {}, [element('tr', {}, [m.t('training.task'), 'h', m.t('training.perOutput'), m.t('training.bothColumn')].map((t) => element('th', { scope: 'col', textContent: t })))]),
    comparisonBody,
  ]);
  const compare = element('section', { className: 'compare', dataset: { panel: 'comparison' } }, [comparisonTable]);
  return { compare, comparisonTable, comparisonBody };
}
