// <mha-training>: train a tiny transformer on the learner's device and watch what its heads
// do. The learner picks a task (two relationships at once, or one) and h = 1, 2 or 4 heads at
// the same d_model = 16, and trains it with the core's backward pass and Adam in a Web Worker
// (on the page in short slices where no worker can run). While it trains: a progress bar,
// the loss and each output's accuracy as curves, and every head's attention pattern. Once
// trained: switch heads off in any combination and see the accuracy, the heads ranked by
// the core's importance score, and "prune the k least important" with the accuracy-vs-heads-
// removed curve. Runs finished at this seed are kept in a comparison table. See README.md.
import { MhaWidget, element } from '../shared/widget-base.js';
import { THE_WORLD } from '../shared/world.js';
import { formatPercent } from '../shared/format.js';
import { ChoiceGroup } from '../../ui/choice-group.js';
import { Heatmap } from '../../ui/heatmap.js';
import { NumberField } from '../../ui/number-field.js';
import { adoptKitStyles } from '../../ui/styles.js';
import { CurveChart } from './curve-chart.js';
import { TrainingRunner } from './training-runner.js';
import {
  HEAD_COUNTS, MAX_SEED, TASKS, TASK_TEXT, defaultTrainingState, sanitizeTrainingState,
} from './training-model.js';
import styles from './training.css?inline';

// Trained head i is drawn in the colour of the world's head i (the lesson's one palette);
// the trained heads are not the world's heads, so they are named by number only.
const headColour = (i) => `var(--head-${THE_WORLD.heads[i % THE_WORLD.heads.length].id})`;
const headName = (i) => `Head ${i + 1}`;
const OUTPUT_COLOURS = ['var(--ui-accent)', 'var(--ui-diverging-positive)'];

export class TrainingWidget extends MhaWidget {
  static tag = 'mha-training';
  static stateKey = 'training';
  static styles = styles;

  // The run in this widget: 'idle' (nothing trained), 'loading', 'training', 'paused',
  // 'trained', 'failed'. Not lesson state: a reload starts untrained.
  phase = 'idle';
  looks = [];
  analysis = null;
  comparison = new Map(); // "task/heads/seed" -> the final look of a finished run

  defaultConfig() {
    if (this.hasAttribute('config')) {
      this.showNotice('This widget does not take a config attribute: the core’s task sizes are the lesson’s. The attribute was ignored.');
    }
    return {};
  }

  defaultState() {
    return defaultTrainingState();
  }

  sanitizeState(raw) {
    return sanitizeTrainingState(raw);
  }

  build() {
    adoptKitStyles(this.root);
    this.runner = new TrainingRunner();
    const caption = element('p', { className: 'caption', textContent:
      'Train a one-layer transformer (d_model = 16) here, on this device, and watch its heads. Then switch heads off.' });

    this.taskChoice = new ChoiceGroup({ label: 'Task', controls: 'curves maps', onChoose: (task) => this.#choose({ task }) });
    this.taskChoice.setOptions(TASKS.map((task) => ({ value: task, content: TASK_TEXT[task].name, label: TASK_TEXT[task].long })));
    this.headsChoice = new ChoiceGroup({ label: 'Number of heads h', controls: 'curves maps', onChoose: (heads) => this.#choose({ heads }) });
    this.headsChoice.setOptions(HEAD_COUNTS.map((h) => ({ value: h, content: String(h), label: `${h} head${h === 1 ? '' : 's'} of width ${16 / h}` })));
    this.seedField = new NumberField({
      label: 'Seed', value: 1, min: 1, max: MAX_SEED, decimals: 0,
      onPropose: (seed) => this.#choose({ seed }),
    });
    this.seedField.element.classList.add('seed-field');

    this.trainButton = element('button', { type: 'button', className: 'train', textContent: 'Train' });
    this.trainButton.setAttribute('aria-controls', 'curves maps');
    this.trainButton.addEventListener('click', () => this.#trainOrPause());
    this.resetButton = element('button', { type: 'button', className: 'secondary', textContent: 'Reset' });
    this.resetButton.setAttribute('aria-controls', 'curves maps');
    this.resetButton.addEventListener('click', () => this.#resetRun());
    this.progress = element('progress', { max: 1, value: 0, ariaLabel: 'Training progress' });
    this.progressText = element('span', { className: 'progress-text' });
    this.status = element('p', { className: 'status', role: 'status' });
    this.taskNote = element('p', { className: 'task-note muted' });

    const controls = element('div', { className: 'controls', dataset: { panel: 'controls' } }, [
      element('div', { className: 'control' }, [element('span', { className: 'control-label', textContent: 'Task' }), this.taskChoice.element]),
      element('div', { className: 'control' }, [element('span', { className: 'control-label', textContent: 'Heads h' }), this.headsChoice.element]),
      this.seedField.element,
    ]);
    const runBar = element('div', { className: 'toolbar run-bar', dataset: { panel: 'controls' } }, [
      this.trainButton, this.resetButton, this.progress, this.progressText,
    ]);

    // While it trains: the curves and the heads' patterns.
    this.accuracyChart = new CurveChart({ title: 'Accuracy on held-out sequences, per output', xLabel: 'training steps', percent: true });
    this.lossChart = new CurveChart({ title: 'Loss on held-out sequences', xLabel: 'training steps' });
    this.legend = element('ul', { className: 'legend' });
    this.scores = element('p', { className: 'scores' });
    const curves = element('section', { id: 'curves', className: 'curves', dataset: { panel: 'curves' } }, [
      element('h3', { textContent: 'Learning' }), this.scores, this.legend,
      element('div', { className: 'charts' }, [this.accuracyChart.element, this.lossChart.element]),
    ]);
    this.mapsBox = element('div', { className: 'maps' });
    this.example = element('p', { className: 'example muted' });
    const maps = element('section', { id: 'maps', className: 'heads', dataset: { panel: 'heads' } }, [
      element('h3', { textContent: 'What each head looks at' }), this.example, this.mapsBox,
    ]);

    // Once trained: importance and pruning.
    this.rankingList = element('ol', { className: 'ranking' });
    this.pruneField = new NumberField({ label: 'Heads to prune, k', value: 1, min: 0, max: 4, decimals: 0, onPropose: (k) => this.#checkPruneCount(k) });
    this.pruneField.element.classList.add('prune-field');
    this.pruneButton = element('button', { type: 'button', textContent: 'Prune the k least important' });
    this.pruneButton.setAttribute('aria-controls', 'maps curves prune-chart');
    this.pruneButton.addEventListener('click', () => this.#prune());
    this.pruneChart = new CurveChart({ title: 'Accuracy with the k least important heads removed', xLabel: 'heads removed (least important first)', percent: true, dots: true });
    this.pruneChart.element.id = 'prune-chart';
    this.afterNote = element('p', { className: 'muted after-note', textContent: 'Train the model first: then its heads can be switched off, ranked and pruned.' });
    const after = element('section', { className: 'after', dataset: { panel: 'pruning' } }, [
      element('h3', { textContent: 'Which heads matter' }), this.afterNote, this.rankingList,
      element('div', { className: 'toolbar prune-bar' }, [this.pruneField.element, this.pruneButton]),
      this.pruneChart.element,
    ]);

    this.comparisonBody = element('tbody');
    this.comparisonTable = element('table', { className: 'comparison' }, [
      element('caption', { textContent: 'Finished runs (accuracy on held-out sequences, every head on)' }),
      element('thead', {}, [element('tr', {}, ['Task', 'h', 'Accuracy', 'Per output'].map((t) => element('th', { scope: 'col', textContent: t })))]),
      this.comparisonBody,
    ]);
    const compare = element('section', { className: 'compare', dataset: { panel: 'comparison' } }, [this.comparisonTable]);

    this.body.append(caption, controls, this.taskNote, runBar, this.status,
      element('div', { className: 'board' }, [curves, maps]), after, compare);
    this.#clearRun();
  }

  dispose() {
    this.runner?.dispose();
  }

  compute(state) {
    return { state };
  }

  render(view, state) {
    this.taskChoice.setValue(state.task);
    this.taskNote.textContent = `${TASK_TEXT[state.task].long}, at every position of 10-token sequences; ${state.heads} head${state.heads === 1 ? '' : 's'} of width ${16 / state.heads}.`;
    this.headsChoice.setValue(state.heads);
    this.seedField.setValue(state.seed);
    if (this.heads?.length !== state.heads || this.builtFor !== `${state.task}/${state.heads}/${state.seed}`) {
      this.#stopRun();
      this.#buildMaps(state.heads);
      this.builtFor = `${state.task}/${state.heads}/${state.seed}`;
      this.#clearRun();
    }
    this.heads.forEach((head, i) => { head.toggle.checked = !state.off.includes(i); });
    if (this.phase === 'trained') this.#applyOff(state.off);
    this.#paintButtons();
  }

  // ---- the run --------------------------------------------------------------------------

  #choose(change) {
    if (this.phase === 'training' || this.phase === 'loading') this.#stopRun();
    const error = this.commit({ ...this.state, ...change, off: [] });
    return error;
  }

  #trainOrPause() {
    if (this.readOnly) return;
    if (this.phase === 'training') {
      this.runner.pause();
      this.phase = 'paused';
      this.#say('Paused.');
    } else if (this.phase === 'paused') {
      this.runner.resume();
      this.phase = 'training';
      this.#say('Training again.');
    } else {
      this.#startRun();
    }
    this.#paintButtons();
  }

  #startRun() {
    const { task, heads, seed, off } = this.state;
    this.#clearRun();
    if (off.length) this.commit({ ...this.state, off: [] }); // a new model starts with every head on
    this.phase = 'loading';
    this.#say('Loading the training core…');
    this.runner.start({ task, heads, seed }, {
      onLoaded: ({ target, inWorker }) => {
        this.phase = 'training';
        this.where = `${inWorker ? 'in a background thread' : 'on this page, in short slices (no worker here)'}, wasm ${target === 'wasmsimd' ? 'SIMD' : 'scalar'}`;
        this.#say(`Training ${this.where}.`);
        this.#paintButtons();
      },
      onLook: (look) => this.#showLook(look),
      onDone: (look, analysis) => this.#finish(look, analysis),
      onError: (message) => {
        this.phase = 'failed';
        this.#say(`Training stopped: ${message}`);
        this.#paintButtons();
      },
    });
    this.#paintButtons();
  }

  #stopRun() {
    this.runner?.stop();
    if (this.phase !== 'idle') this.phase = 'idle';
  }

  #resetRun() {
    if (this.readOnly) return;
    this.#stopRun();
    this.#clearRun();
    if (this.state.off.length) this.commit({ ...this.state, off: [] });
    this.#say('Reset: the model is untrained again.');
    this.#paintButtons();
    this.trainButton.focus();
  }

  #clearRun() {
    this.phase = 'idle';
    this.looks = [];
    this.lastLook = null;
    this.analysis = null;
    this.appliedOff = null;
    this.progress.value = 0;
    this.progressText.textContent = '';
    this.scores.textContent = 'Not trained yet: press Train.';
    this.legend.replaceChildren();
    this.accuracyChart.clear();
    this.lossChart.clear();
    this.pruneChart.clear();
    this.rankingList.replaceChildren();
    this.example.textContent = '';
    for (const head of this.heads ?? []) {
      head.map.setData(new Float32Array(head.L * head.L));
      head.result.textContent = '';
    }
    this.#paintButtons();
  }

  #showLook(look) {
    if (this.phase === 'loading') this.phase = 'training';
    this.lastLook = look;
    this.looks.push(look);
    this.progress.value = look.steps / look.totalSteps;
    this.progressText.textContent = `step ${look.steps.toLocaleString('en')} of ${look.totalSteps.toLocaleString('en')}`;
    this.#drawCurves();
    this.#drawPatterns(look);
    if (this.phase === 'paused') this.#say(`Paused at step ${look.steps.toLocaleString('en')}.`);
  }

  #finish(look, analysis) {
    this.phase = 'trained';
    this.analysis = analysis;
    this.#showLook(look);
    this.looks.pop(); // the final look repeats the last slice's
    const key = `${this.state.task}/${this.state.heads}/${this.state.seed}`;
    this.comparison.set(key, { ...this.state, accuracy: look.accuracy, outputAccuracy: look.outputAccuracy });
    this.#drawComparison();
    this.#drawAnalysis();
    this.#say(`Trained: ${formatPercent(look.accuracy, 1)} of held-out positions right. Switch heads off to see what each one does.`);
    this.#paintButtons();
    if (this.state.off.length) this.#applyOff(this.state.off);
  }

  async #applyOff(off) {
    const key = off.join(',');
    if (this.appliedOff === key) return;
    this.appliedOff = key;
    try {
      const look = await this.runner.setOff(off);
      if (this.appliedOff !== key) return;
      this.lastLook = look;
      this.#drawScores(look);
      this.#drawPatterns(look);
      this.#drawPruneChart();
      this.#say(off.length === 0 ? `Every head on: ${formatPercent(look.accuracy, 1)} right.`
        : `${off.map(headName).join(', ')} off: ${formatPercent(look.accuracy, 1)} right.`);
    } catch {
      // The run was stopped meanwhile: nothing to show.
    }
  }

  #toggleHead(i, on) {
    if (this.phase !== 'trained') return;
    const off = on ? this.state.off.filter((h) => h !== i) : [...this.state.off, i].sort((a, b) => a - b);
    const error = this.commit({ ...this.state, off });
    if (error) this.heads[i].toggle.checked = !this.state.off.includes(i);
  }

  #checkPruneCount(k) {
    return k <= this.state.heads ? null : `k: at most ${this.state.heads} (the model has ${this.state.heads} head${this.state.heads === 1 ? '' : 's'})`;
  }

  #prune() {
    if (this.phase !== 'trained' || !this.analysis) return;
    const k = Math.min(this.pruneField.value, this.state.heads);
    const off = this.analysis.ranking.slice(0, k).map((r) => r.head).sort((a, b) => a - b);
    this.commit({ ...this.state, off });
  }

  // ---- drawing ------------------------------------------------------------------------

  #buildMaps(h) {
    const L = 10;
    this.heads = Array.from({ length: h }, (_, i) => {
      const map = new Heatmap({
        label: `${headName(i)}: attention weights, one row per position, one column per position it looks at`,
        tokens: Array.from({ length: L }, (_, t) => String(t + 1)), weights: new Float32Array(L * L), colour: headColour(i),
        compact: true,
      });
      const toggle = element('input', { type: 'checkbox', role: 'switch', className: 'head-toggle', checked: true, disabled: true });
      toggle.setAttribute('aria-controls', 'curves maps');
      toggle.addEventListener('change', () => this.#toggleHead(i, toggle.checked));
      const result = element('span', { className: 'head-result' });
      const label = element('label', { className: 'head-switch' }, [toggle, element('span', { className: 'head-name', textContent: `${headName(i)} on` })]);
      const panel = element('div', { className: 'head-panel', dataset: { head: String(i) } }, [label, result, map.element]);
      panel.style.setProperty('--head', headColour(i));
      return { map, toggle, result, panel, L };
    });
    this.mapsBox.replaceChildren(...this.heads.map((head) => head.panel));
    this.pruneField.setValue(Math.min(1, h));
  }

  #drawCurves() {
    const looks = this.looks;
    if (!looks.length) return;
    const last = looks[looks.length - 1];
    const outputs = TASK_TEXT[this.state.task].outputs;
    const xMax = last.totalSteps;
    const xTicks = [0, Math.round(xMax / 2), xMax];
    const accuracySeries = outputs.map((name, o) => ({
      className: `output-${o}`, colour: OUTPUT_COLOURS[o], points: looks.map((l) => [l.steps, l.outputAccuracy[o]]),
    }));
    accuracySeries.push({ className: 'chance', points: [[0, last.chance], [xMax, last.chance]] });
    this.accuracyChart.draw(accuracySeries, {
      xMax, yMax: 1, xTicks,
      description: `Accuracy after ${last.steps} of ${xMax} steps: ${outputs.map((n, o) => `${n} ${formatPercent(last.outputAccuracy[o], 1)}`).join(', ')}; chance is ${formatPercent(last.chance, 1)}.`,
    });
    const lossMax = Math.max(...looks.map((l) => l.loss).filter(Number.isFinite), 0.1);
    this.lossChart.draw([{ className: 'loss', colour: 'var(--ui-ink)', points: looks.map((l) => [l.steps, l.loss]) }], {
      xMax, yMax: Math.ceil(lossMax), xTicks, description: `Loss after ${last.steps} steps: ${last.loss.toFixed(3)}.`,
    });
    this.legend.replaceChildren(...outputs.map((name, o) => {
      const item = element('li', { className: `output-${o}` }, [element('span', { className: 'swatch' }), name]);
      item.style.setProperty('--line', OUTPUT_COLOURS[o]);
      return item;
    }), element('li', { className: 'chance' }, [element('span', { className: 'swatch' }), `chance (1 in ${Math.round(1 / last.chance)})`]));
    this.#drawScores(last);
  }

  #drawScores(look) {
    const outputs = TASK_TEXT[this.state.task].outputs;
    const off = look.mask.filter(Boolean).length;
    this.scores.textContent = `${off ? `With ${off} head${off === 1 ? '' : 's'} off: ` : ''}${formatPercent(look.accuracy, 1)} right`
      + (outputs.length > 1 ? ` (${outputs.map((n, o) => `${n}: ${formatPercent(look.outputAccuracy[o], 1)}`).join(', ')})` : '')
      + `, loss ${look.loss.toFixed(3)}.`;
  }

  #drawPatterns(look) {
    this.example.textContent = `Held-out sequence (tokens): ${look.tokens.join(' ')}. Row = the position predicting, column = where it looks.`;
    look.patterns.forEach((weights, i) => {
      const head = this.heads[i];
      if (!head) return;
      head.map.setData(look.mask[i] ? new Float32Array(weights.length) : weights);
      head.panel.classList.toggle('off', look.mask[i]);
    });
  }

  #drawAnalysis() {
    const { ranking } = this.analysis;
    // Most important first, as a reader expects a ranking.
    this.rankingList.replaceChildren(...[...ranking].reverse().map((r) => {
      const item = element('li', {}, [
        element('span', { className: 'head-name', textContent: headName(r.head) }),
        `: switched off alone, ${formatPercent(r.accuracyWithout, 1)} right (loss +${r.lossChange.toFixed(2)}); gradient score ${r.gradientScore.toPrecision(2)}.`,
      ]);
      item.style.setProperty('--head', headColour(r.head));
      return item;
    }));
    for (const head of this.heads) head.toggle.disabled = this.readOnly;
    this.heads.forEach((head, i) => {
      const r = ranking.find((x) => x.head === i);
      head.result.textContent = r ? `off alone: ${formatPercent(r.accuracyWithout, 0)} right` : '';
    });
    this.#drawPruneChart();
  }

  #drawPruneChart() {
    if (!this.analysis) return;
    const { curve } = this.analysis;
    const h = this.state.heads;
    const removed = this.state.off.length;
    const matches = curve[removed]?.off.join(',') === this.state.off.join(',');
    this.pruneChart.draw([{ className: 'prune', colour: 'var(--ui-accent)', points: curve.map((c) => [c.removed, c.accuracy]) }], {
      xMax: h, yMax: 1, xTicks: curve.map((c) => c.removed), marker: matches ? removed : null,
      description: `Accuracy with the k least important heads removed: ${curve.map((c) => `k = ${c.removed}: ${formatPercent(c.accuracy, 1)}`).join(', ')}.`,
    });
  }

  #drawComparison() {
    const rows = [...this.comparison.values()].sort((a, b) => (a.task.localeCompare(b.task)) || (a.heads - b.heads) || (a.seed - b.seed));
    this.comparisonBody.replaceChildren(...rows.map((r) => element('tr', {}, [
      element('td', { textContent: `${TASK_TEXT[r.task].name}${r.seed === 1 ? '' : ` (seed ${r.seed})`}` }),
      element('td', { textContent: String(r.heads) }),
      element('td', { textContent: formatPercent(r.accuracy, 1) }),
      element('td', { textContent: TASK_TEXT[r.task].outputs.map((n, o) => `${n} ${formatPercent(r.outputAccuracy[o], 1)}`).join(', ') }),
    ])));
    this.comparisonTable.hidden = rows.length === 0;
  }

  #paintButtons() {
    if (!this.trainButton) return;
    const label = { training: 'Pause', paused: 'Resume', loading: 'Pause', trained: 'Train again', failed: 'Train again' }[this.phase] ?? 'Train';
    this.trainButton.textContent = label;
    this.trainButton.disabled = this.readOnly || this.phase === 'loading';
    this.resetButton.disabled = this.readOnly || this.phase === 'idle';
    const trained = this.phase === 'trained';
    this.pruneButton.disabled = this.readOnly || !trained;
    this.pruneField.setReadonly?.(this.readOnly);
    for (const head of this.heads ?? []) head.toggle.disabled = this.readOnly || !trained;
    this.afterNote.hidden = trained;
    this.progress.hidden = this.phase === 'idle';
    this.comparisonTable.hidden = this.comparison.size === 0;
  }

  #say(text) {
    this.status.textContent = text;
  }
}

TrainingWidget.define();
