// <mha-training>: train a tiny transformer on the learner's device and watch what its heads
// do. The learner picks a task (two relationships at once, or one) and h = 1, 2 or 4 heads at
// the same d_model = 16, and trains it with the core's backward pass and Adam in a Web Worker
// (on the page in short slices where no worker can run). While it trains: a progress bar,
// the loss and each output's accuracy as curves, and every head's attention pattern. Once
// trained: switch heads off in any combination and see the accuracy, the heads ranked by
// the core's importance score, and "prune the k least important" with the accuracy-vs-heads-
// removed curve. Runs finished at this seed are kept in a comparison table. See README.md.
import { MhaWidget } from '../shared/widget-base.js';
import { element } from '../../ui/dom.js';
import { messagesFor } from '../shared/i18n.js';
import { NarrowSwitch } from '../../ui/narrow-switch.js';
import { adoptKitStyles } from '../../ui/styles.js';
import { TrainingRunner } from './training-runner.js';
import { TASKS, TASK_TEXT, defaultTrainingState, sanitizeTrainingState } from './training-model.js';
import { comparisonPanel, learningPanels, pruningPanel, runControls, trainedHeadPanel } from './training-panels.js';
import styles from './training.css?inline';

// Trained head i is drawn in a colour of its own, --trained-(i mod 4) (training.css), not in
// a world head's colour: the trained heads are not the lesson's hand-built heads and must
// not look like them; for the same reason they are named by number only.
const headColour = (i) => `var(--trained-${i % 4})`;
const OUTPUT_COLOURS = ['var(--ui-accent)', 'var(--ui-diverging-positive)'];

export class TrainingWidget extends MhaWidget {
  static tag = 'mha-training';
  static stateKey = 'training';
  static styles = styles;
  // Its lesson does not depend on the world: a `world` attribute is checked, then said to be unused.
  static worldNotUsed = 'training.worldNotUsed';

  // The run in this widget: 'idle' (nothing trained), 'loading', 'training', 'paused',
  // 'trained', 'failed'. Not lesson state: a reload starts untrained.
  phase = 'idle';
  looks = [];
  analysis = null;
  comparison = new Map(); // "task/heads/seed" -> the final look of a finished run

  defaultConfig() {
    if (this.hasAttribute('config')) this.showNotice(messagesFor(this).t('training.noConfig'));
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
    const m = this.m = messagesFor(this);
    this.runner = new TrainingRunner();
    const caption = element('p', { className: 'caption', textContent: m.t('training.caption') });
    // The panels' parts are kept on the widget under the names the builders give them.
    const tasks = TASKS.map((task) => ({ value: task, content: this.#task(task).name, label: this.#task(task).long }));
    const { controls, runBar, ...runParts } = runControls(m, tasks, {
      choose: (change) => this.#choose(change), trainOrPause: () => this.#trainOrPause(), reset: () => this.#resetRun(),
    });
    const { curves, maps, ...learningParts } = learningPanels(m);
    const { after, ...pruningParts } = pruningPanel(m, { checkPruneCount: (k) => this.#checkPruneCount(k), prune: () => this.#prune() });
    const { compare, ...comparisonParts } = comparisonPanel(m);
    Object.assign(this, runParts, learningParts, pruningParts, comparisonParts);

    // On a phone the curves, the maps (with the switches that turn heads off) and the
    // ranking and pruning take turns (a view choice, not state).
    const narrow = new NarrowSwitch({
      label: m.t('training.narrow.label'), messages: m,
      options: [
        { value: 'curves', content: m.t('training.narrow.curves'), panels: [curves] },
        { value: 'heads', content: m.t('training.narrow.heads'), panels: [maps] },
        { value: 'pruning', content: m.t('training.narrow.pruning'), panels: [after] },
      ],
    });
    this.body.append(caption, controls, this.taskNote, runBar, this.status, narrow.element,
      element('div', { className: 'board' }, [curves, maps]), after, compare);
    this.#clearRun();
  }

  dispose() {
    this.runner?.dispose();
  }

  /** A task's words in this widget's language: { name, long, outputs }. */
  #task(task) {
    const { m } = this;
    return {
      name: m.t(`training.tasks.${task}.name`),
      long: m.t(`training.tasks.${task}.long`),
      outputs: TASK_TEXT[task].outputs.map((_, o) => m.t(`training.tasks.${task}.outputs.${o}`)),
    };
  }

  #headName(i) {
    return this.m.t('training.head', { number: i + 1 });
  }

  compute(state) {
    return { state };
  }

  render(view, state) {
    this.taskChoice.setValue(state.task);
    this.taskNote.textContent = this.m.t('training.taskNote', { task: this.#task(state.task).long, count: state.heads, width: 16 / state.heads });
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
      // Paused first: on the page (no worker) the loop sends its pause look at once.
      this.phase = 'paused';
      this.pausedLook = null;
      this.runner.pause();
      this.#say(this.m.t('training.say.paused'));
    } else if (this.phase === 'paused') {
      this.pausedLook = null;
      this.runner.resume();
      this.phase = 'training';
      this.#say(this.m.t('training.say.again'));
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
    const { m } = this;
    this.#say(m.t('training.say.loading'));
    this.runner.start({ task, heads, seed }, {
      onLoaded: ({ target, inWorker }) => {
        this.phase = 'training';
        this.where = m.t(inWorker ? 'training.where.worker' : 'training.where.page', { kernels: target === 'wasmsimd' ? 'SIMD' : m.t('training.where.scalar') });
        this.#say(m.t('training.say.training', { where: this.where }));
        this.#paintButtons();
      },
      onLook: (look, { paused }) => this.#showLook(look, paused),
      onDone: (look, analysis) => this.#finish(look, analysis),
      onError: (message) => {
        this.phase = 'failed';
        this.#say(m.t('training.say.stopped', { message }));
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
    this.#say(this.m.t('training.say.reset'));
    this.#paintButtons();
    this.trainButton.focus();
  }

  #clearRun() {
    this.phase = 'idle';
    this.looks = [];
    this.lastLook = null;
    this.pausedLook = null;
    cancelAnimationFrame(this.drawFrame);
    this.drawFrame = 0;
    this.analysis = null;
    this.appliedOff = null;
    this.progress.value = 0;
    this.progressText.textContent = '';
    this.scores.textContent = this.m.t(this.readOnly ? 'training.notTrainedReadOnly' : 'training.notTrained');
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

  #showLook(look, paused = false) {
    if (this.phase === 'loading') this.phase = 'training';
    this.lastLook = look;
    // Looks the run sent before the pause reached it may still come in: the step it paused
    // at is said only with the look it sent on pausing.
    if (paused && this.phase === 'paused') this.pausedLook = look;
    this.looks.push(look);
    this.progress.value = look.steps / look.totalSteps;
    this.progressText.textContent = this.m.t('training.stepOf', { step: look.steps, total: look.totalSteps });
    // Drawn once per frame: when the page's thread is busy, the worker's looks queue up, and
    // only the newest needs drawing (the curves hold every look already).
    if (!this.drawFrame) {
      this.drawFrame = requestAnimationFrame(() => {
        this.drawFrame = 0;
        this.#drawLook(this.lastLook);
      });
    }
  }

  #drawLook(look) {
    if (!look) return;
    this.#drawCurves();
    this.#drawPatterns(look, { oneHead: this.phase === 'training' });
    if (this.phase === 'paused' && this.pausedLook) this.#say(this.m.t('training.say.pausedAt', { step: this.pausedLook.steps }));
  }

  #finish(look, analysis) {
    this.phase = 'trained';
    this.analysis = analysis;
    this.#showLook(look);
    this.looks.pop(); // the final look repeats the last slice's
    cancelAnimationFrame(this.drawFrame);
    this.drawFrame = 0;
    this.#drawLook(look);
    const key = `${this.state.task}/${this.state.heads}/${this.state.seed}`;
    this.comparison.set(key, { ...this.state, accuracy: look.accuracy, outputAccuracy: look.outputAccuracy });
    this.#drawComparison();
    this.#drawAnalysis();
    this.trainedLook = look;
    this.#say(this.m.t('training.say.trained', { jobs: this.#jobs(look.outputAccuracy), chance: this.m.percent(look.chance, 1), count: look.outputAccuracy.length }));
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
      // Job by job, with the change from every head on where there is one ("token 2 back:
      // 100.0% → 6.4%"): which job the switched-off heads took down.
      const jobs = this.#jobs(look.outputAccuracy, this.trainedLook?.outputAccuracy);
      this.#say(off.length === 0 ? this.m.t('training.say.allOn', { jobs })
        : this.m.t('training.say.off', { heads: off.map((i) => this.#headName(i)).join(', '), jobs, count: off.length }));
    } catch {
      // The run was stopped meanwhile: nothing to show.
    }
  }

  /**
   * Accuracy job by job ("token 2 back 100.0%, first token 6.4%"); with `before`, a job that
   * moved by half a point or more is given as before → after.
   */
  #jobs(outputAccuracy, before = null, decimals = 1) {
    const { m } = this;
    const percent = (v) => m.percent(v, decimals);
    return this.#task(this.state.task).outputs.map((name, o) => {
      const moved = before && Math.abs(before[o] - outputAccuracy[o]) >= 0.005;
      return m.t('training.job', { name, accuracy: moved ? `${percent(before[o])} → ${percent(outputAccuracy[o])}` : percent(outputAccuracy[o]) });
    }).join(', ');
  }

  #toggleHead(i, on) {
    if (this.phase !== 'trained') return;
    const off = on ? this.state.off.filter((h) => h !== i) : [...this.state.off, i].sort((a, b) => a - b);
    const error = this.commit({ ...this.state, off });
    if (error) this.heads[i].toggle.checked = !this.state.off.includes(i);
  }

  #checkPruneCount(k) {
    return k <= this.state.heads ? null : this.m.t('training.pruneTooMany', { count: this.state.heads });
  }

  #prune() {
    if (this.phase !== 'trained' || !this.analysis) return;
    const k = Math.min(this.pruneField.value, this.state.heads);
    const off = this.analysis.ranking.slice(0, k).map((r) => r.head).sort((a, b) => a - b);
    this.commit({ ...this.state, off });
  }

  // ---- drawing ------------------------------------------------------------------------

  #buildMaps(h) {
    this.heads = Array.from({ length: h }, (_, i) => trainedHeadPanel(this.m, i, {
      name: this.#headName(i), colour: headColour(i), onToggle: (on) => this.#toggleHead(i, on),
    }));
    this.mapsBox.replaceChildren(...this.heads.map((head) => head.panel));
    this.pruneField.setValue(Math.min(1, h));
  }

  #drawCurves() {
    const looks = this.looks;
    if (!looks.length) return;
    const last = looks[looks.length - 1];
    const { m } = this;
    const percent = (v) => m.percent(v, 1);
    const outputs = this.#task(this.state.task).outputs;
    const xMax = last.totalSteps;
    const xTicks = [0, Math.round(xMax / 2), xMax];
    const accuracySeries = outputs.map((name, o) => ({
      className: `output-${o}`, colour: OUTPUT_COLOURS[o], points: looks.map((l) => [l.steps, l.outputAccuracy[o]]),
    }));
    accuracySeries.push({ className: 'chance', points: [[0, last.chance], [xMax, last.chance]] });
    this.accuracyChart.draw(accuracySeries, {
      xMax, yMax: 1, xTicks,
      description: m.t('training.accuracyDescription', {
        step: last.steps, total: xMax, outputs: outputs.map((n, o) => `${n} ${percent(last.outputAccuracy[o])}`).join(', '), chance: percent(last.chance),
      }),
    });
    const lossMax = Math.max(...looks.map((l) => l.loss).filter(Number.isFinite), 0.1);
    this.lossChart.draw([{ className: 'loss', colour: 'var(--ui-ink)', points: looks.map((l) => [l.steps, l.loss]) }], {
      xMax, yMax: Math.ceil(lossMax), xTicks, description: m.t('training.lossDescription', { step: last.steps, loss: m.number(last.loss, 3) }),
    });
    // The legend is the same for the whole run: built once.
    if (this.legend.childElementCount === 0) this.legend.replaceChildren(...outputs.map((name, o) => {
      const item = element('li', { className: `output-${o}` }, [element('span', { className: 'swatch' }), name]);
      item.style.setProperty('--line', OUTPUT_COLOURS[o]);
      return item;
    }), element('li', { className: 'chance' }, [element('span', { className: 'swatch' }), m.t('training.chance', { count: Math.round(1 / last.chance) })]));
    this.#drawScores(last);
  }

  #drawScores(look) {
    const { m } = this;
    const outputs = this.#task(this.state.task).outputs;
    const off = look.mask.filter(Boolean).length;
    // Job by job, each against chance (1 in the vocabulary); with two jobs also both at once,
    // whose chance is the product (1 in 256), said beside it.
    const both = outputs.length > 1 ? m.t('training.both', { accuracy: m.percent(look.accuracy, 1), count: Math.round(1 / look.chance ** outputs.length) }) : '';
    this.scores.textContent = m.t(off ? 'training.scoreOff' : 'training.score', {
      count: off, jobs: this.#jobs(look.outputAccuracy), both, loss: m.number(look.loss, 3),
    });
  }

  // Recolouring a map is the costliest part of drawing a look (100 cells restyled and their
  // numbers re-laid out: 3 ms on a quiet machine, 15 ms under load), so while training one
  // head's map is redrawn per look, in turn; at every other moment (paused, trained, heads
  // switched off) all of them.
  #drawPatterns(look, { oneHead = false } = {}) {
    this.example.textContent = this.m.t('training.example', { tokens: look.tokens.join(' ') });
    this.nextMap = ((this.nextMap ?? -1) + 1) % look.patterns.length;
    look.patterns.forEach((weights, i) => {
      const head = this.heads[i];
      if (!head || (oneHead && i !== this.nextMap)) return;
      head.map.setData(look.mask[i] ? new Float32Array(weights.length) : weights);
      head.panel.classList.toggle('off', look.mask[i]);
    });
  }

  #drawAnalysis() {
    const { ranking } = this.analysis;
    // Most important first, as a reader expects a ranking.
    this.rankingList.replaceChildren(...[...ranking].reverse().map((r) => {
      const { m } = this;
      const item = element('li', {}, [
        element('span', { className: 'head-name', textContent: this.#headName(r.head) }),
        m.t('training.ranking', {
          jobs: this.#jobs(r.outputAccuracyWithout), loss: m.number(r.lossChange, 2),
          score: r.gradientScore.toPrecision(2).replace('.', m.decimalSeparator).replace('-', '−'),
        }),
      ]);
      item.style.setProperty('--head', headColour(r.head));
      return item;
    }));
    this.scoresNote.hidden = false;
    for (const head of this.heads) head.toggle.disabled = this.readOnly;
    this.heads.forEach((head, i) => {
      const r = ranking.find((x) => x.head === i);
      head.result.textContent = r ? this.m.t('training.offAlone', { jobs: this.#jobs(r.outputAccuracyWithout, null, 0) }) : '';
    });
    this.#drawPruneChart();
  }

  #drawPruneChart() {
    if (!this.analysis) return;
    const { curve } = this.analysis;
    const h = this.state.heads;
    const removed = this.state.off.length;
    const matches = curve[removed]?.off.join(',') === this.state.off.join(',');
    // One line per job, as the learning curves, and chance.
    const outputs = this.#task(this.state.task).outputs;
    const chance = this.trainedLook?.chance ?? 1 / 16;
    const series = outputs.map((name, o) => ({ className: `prune output-${o}`, colour: OUTPUT_COLOURS[o], points: curve.map((c) => [c.removed, c.outputAccuracy[o]]) }));
    series.push({ className: 'chance', points: [[0, chance], [h, chance]] });
    this.pruneChart.draw(series, {
      xMax: h, yMax: 1, xTicks: curve.map((c) => c.removed), marker: matches ? removed : null,
      description: this.m.t('training.pruneDescription', { points: curve.map((c) => `k = ${c.removed}: ${this.#jobs(c.outputAccuracy)}`).join('; ') }),
    });
  }

  #drawComparison() {
    const rows = [...this.comparison.values()].sort((a, b) => (a.task.localeCompare(b.task)) || (a.heads - b.heads) || (a.seed - b.seed));
    const { m } = this;
    this.comparisonBody.replaceChildren(...rows.map((r) => element('tr', {}, [
      element('td', { textContent: r.seed === 1 ? this.#task(r.task).name : m.t('training.withSeed', { task: this.#task(r.task).name, seed: r.seed }) }),
      element('td', { textContent: String(r.heads) }),
      element('td', { textContent: this.#task(r.task).outputs.map((n, o) => `${n} ${m.percent(r.outputAccuracy[o], 1)}`).join(', ') }),
      // All jobs right at once; its chance (1 in 16 per job, multiplied) in the header.
      element('td', { textContent: m.percent(r.accuracy, 1) }),
    ])));
    this.comparisonTable.hidden = rows.length === 0;
  }

  #paintButtons() {
    if (!this.trainButton) return;
    const button = { training: 'pause', paused: 'resume', loading: 'pause', trained: 'again', failed: 'again' }[this.phase] ?? 'train';
    this.trainButton.textContent = this.m.t(`training.button.${button}`);
    this.trainButton.disabled = this.readOnly || this.phase === 'loading';
    this.resetButton.disabled = this.readOnly || this.phase === 'idle';
    const trained = this.phase === 'trained';
    this.pruneButton.disabled = this.readOnly || !trained;
    this.pruneField.setReadonly?.(this.readOnly);
    for (const head of this.heads ?? []) head.toggle.disabled = this.readOnly || !trained;
    this.afterNote.hidden = trained;
    // Untrained, the pruning controls and their empty chart would only lengthen the page.
    this.pruneBox.hidden = !trained;
    this.progress.hidden = this.phase === 'idle';
    this.comparisonTable.hidden = this.comparison.size === 0;
  }

  #say(text) {
    this.status.textContent = text;
  }
}

TrainingWidget.define();
