// <mha-blend>: one head must split its attention budget and returns a blend; two heads
// keep both relationships. See README.md for attributes and events.
import { MhaWidget, element } from '../shared/widget-base.js';
import { formatNumber } from '../shared/format.js';
import { StackedBars } from '../shared/stacked-bars.js';
import { WeightsEditor } from '../shared/weights-editor.js';
import { BlendModels, blendConfig, presetRow, uniformRow } from './blend-model.js';
import styles from './blend.css?inline';

const MODES = ['weights', 'scores'];

export class BlendWidget extends MhaWidget {
  static tag = 'mha-blend';
  static stateKey = 'blend';
  static styles = styles;

  defaultConfig() {
    const overrides = this.configAttribute();
    for (const name of ['sentence', 'query', 'subject', 'complement']) {
      if (this.hasAttribute(name)) overrides[name] = this.getAttribute(name);
    }
    return blendConfig(overrides);
  }

  defaultState() {
    const { presets, startingPreset, queryIndex } = this.config;
    const preset = presets[startingPreset];
    return {
      query: queryIndex,
      mode: 'weights',
      weights: presetRow(this.config, preset),
      scores: this.config.tokens.map(() => 0),
      headA: presetRow(this.config, presets.twoHeads.headA),
      headB: presetRow(this.config, presets.twoHeads.headB),
    };
  }

  sanitizeState(raw) {
    const L = this.config.tokens.length;
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new Error('expected an object');
    const row = (name, { budget }) => {
      const value = raw[name];
      if (!Array.isArray(value) || value.length !== L) throw new Error(`${name}: expected ${L} numbers`);
      if (!value.every((v) => typeof v === 'number' && Number.isFinite(v) && Math.abs(v) <= 1e6)) {
        throw new Error(`${name}: every entry must be a finite number`);
      }
      if (budget) {
        if (value.some((v) => v < 0)) throw new Error(`${name}: weights cannot be negative`);
        const sum = value.reduce((a, b) => a + b, 0);
        if (Math.abs(sum - 1) > 1e-4) throw new Error(`${name}: weights must sum to 1`);
      }
      return value.slice();
    };
    if (!Number.isInteger(raw.query) || raw.query < 0 || raw.query >= L) throw new Error('query: not a token position');
    if (!MODES.includes(raw.mode)) throw new Error('mode: expected "weights" or "scores"');
    return {
      query: raw.query,
      mode: raw.mode,
      weights: row('weights', { budget: true }),
      scores: row('scores', { budget: false }),
      headA: row('headA', { budget: true }),
      headB: row('headB', { budget: true }),
    };
  }

  build() {
    const { tokens, subjectIndex, complementIndex, valueWidth } = this.config;
    this.models = new BlendModels(this.engine, this.config);
    const tokenClass = (_, i) => (i === subjectIndex ? 'token-subject' : i === complementIndex ? 'token-complement' : '');

    // The sentence, with the query token chosen from a menu.
    this.sentence = element('p', { className: 'sentence', ariaLabel: 'The sentence' });
    this.querySelect = element('select', { ariaLabel: 'Query token' },
      tokens.map((token, i) => element('option', { value: String(i), textContent: `${token} (${i + 1})` })));
    this.querySelect.addEventListener('change', () => this.#changeQuery(Number(this.querySelect.value)));
    const queryField = element('label', { className: 'field' }, ['Query token', this.querySelect]);

    // The two value vectors that matter, as small bar charts.
    const coordinates = Array.from({ length: valueWidth }, (_, j) => `${j + 1}`);
    const vectorChart = (index, className) => {
      const chart = new StackedBars({ label: `value vector of “${tokens[index]}”`, columnLabels: coordinates, height: 90 });
      chart.draw([{ values: Array.from(this.models.valueRow(index)), className }], { scale: 1 });
      return element('figure', { className: 'vector' }, [
        chart.element, element('figcaption', { textContent: `v(${tokens[index]})` }),
      ]);
    };
    const vectors = element('div', { className: 'vectors', dataset: { panel: 'vectors' } }, [
      vectorChart(subjectIndex, 'token-subject'), vectorChart(complementIndex, 'token-complement'),
    ]);

    // One head: edit weights (a budget) or scores (softmax turns them into weights).
    this.modeButtons = MODES.map((mode) => {
      const button = element('button', { type: 'button', className: 'secondary', textContent: mode === 'weights' ? 'Edit weights' : 'Edit scores' });
      button.addEventListener('click', () => this.#propose({ mode }));
      return button;
    });
    const presetButtons = ['split', 'subject', 'uniform'].map((name) => {
      const preset = this.config.presets[name];
      const button = element('button', { type: 'button', className: 'secondary', textContent: preset.label });
      button.addEventListener('click', () => this.#propose({
        mode: 'weights', query: this.config.queryIndex, weights: presetRow(this.config, preset),
      }));
      return button;
    });
    this.weightsEditor = new WeightsEditor({
      tokens, label: 'One head: attention weights', kind: 'weights', tokenClass,
      onPropose: (row) => this.#propose({ weights: row }),
    });
    this.scoresEditor = new WeightsEditor({
      tokens, label: 'One head: scores', kind: 'scores', tokenClass,
      onPropose: (row) => this.#propose({ scores: row }),
    });
    this.outputChart = new StackedBars({ label: 'Output of the head', columnLabels: coordinates });
    this.readout = element('p', { className: 'readout num' });
    this.alternative = element('div', { className: 'alternative' });

    const oneHead = element('section', { className: 'panel', ariaLabel: 'One head', dataset: { panel: 'one-head' } }, [
      element('h3', { textContent: 'One head, one budget' }),
      element('div', { className: 'toolbar', role: 'group', ariaLabel: 'What to edit' }, this.modeButtons),
      element('div', { className: 'toolbar', role: 'group', ariaLabel: 'Presets for one head' }, presetButtons),
      // Wide containers put the editor and its results side by side (see blend.css).
      element('div', { className: 'one-head-grid' }, [
        element('div', { className: 'editor-column' }, [this.weightsEditor.element, this.scoresEditor.element]),
        element('div', { className: 'result-column' }, [
          element('h4', { textContent: 'Its output: the weighted sum of all value vectors' }),
          this.outputChart.element,
          this.readout,
          element('h4', { textContent: 'Undo it?' }),
          this.alternative,
        ]),
      ]),
    ]);

    // Two heads: each with its own budget.
    this.headAEditor = new WeightsEditor({
      tokens, label: 'Head A: attention weights', kind: 'weights', tokenClass,
      onPropose: (row) => this.#propose({ headA: row }),
    });
    this.headBEditor = new WeightsEditor({
      tokens, label: 'Head B: attention weights', kind: 'weights', tokenClass,
      onPropose: (row) => this.#propose({ headB: row }),
    });
    const twoPreset = element('button', { type: 'button', className: 'secondary', textContent: this.config.presets.twoHeads.label });
    twoPreset.addEventListener('click', () => this.#propose({
      query: this.config.queryIndex,
      headA: presetRow(this.config, this.config.presets.twoHeads.headA),
      headB: presetRow(this.config, this.config.presets.twoHeads.headB),
    }));
    const concatLabels = [...coordinates.map((c) => `A${c}`), ...coordinates.map((c) => `B${c}`)];
    this.concatChart = new StackedBars({ label: 'Concatenated output of heads A and B', columnLabels: concatLabels });
    this.readoutTwo = element('div', { className: 'readout-two num' });
    const twoHeads = element('section', { className: 'panel', ariaLabel: 'Two heads', dataset: { panel: 'two-heads' } }, [
      element('h3', { textContent: 'Two heads, two budgets' }),
      element('div', { className: 'toolbar', role: 'group', ariaLabel: 'Presets for two heads' }, [twoPreset]),
      element('div', { className: 'heads' }, [
        element('div', { className: 'head head-a' }, [element('h4', { textContent: 'Head A' }), this.headAEditor.element]),
        element('div', { className: 'head head-b' }, [element('h4', { textContent: 'Head B' }), this.headBEditor.element]),
      ]),
      element('h4', { textContent: 'Concatenated output: each head keeps its own slice' }),
      this.concatChart.element,
      this.readoutTwo,
    ]);

    this.announcer = element('p', { className: 'sr-only', ariaLive: 'polite' });
    this.body.append(
      this.historyToolbar('Undo or reset the blend widget'),
      element('div', { className: 'top' }, [this.sentence, queryField]),
      vectors, oneHead, twoHeads, this.announcer,
    );
  }

  dispose() {
    this.models?.dispose();
    this.models = null;
  }

  compute(state) {
    return this.models.compute(state);
  }

  #propose(patch) {
    return this.commit({ ...this.state, ...patch });
  }

  #changeQuery(query) {
    this.#propose({
      query,
      weights: uniformRow(this.config),
      scores: this.config.tokens.map(() => 0),
      headA: uniformRow(this.config),
      headB: uniformRow(this.config),
    });
  }

  render(view, state) {
    const { tokens, subjectIndex, complementIndex } = this.config;
    const query = tokens[state.query];
    this.sentence.replaceChildren(...tokens.map((token, i) => element('span', {
      className: ['chip', i === state.query ? 'query' : '', i === subjectIndex ? 'token-subject' : '', i === complementIndex ? 'token-complement' : ''].join(' '),
      textContent: token,
    })));
    this.querySelect.value = String(state.query);
    this.modeButtons.forEach((button, i) => button.setAttribute('aria-pressed', String(MODES[i] === state.mode)));
    this.weightsEditor.element.hidden = state.mode !== 'weights';
    this.scoresEditor.element.hidden = state.mode !== 'scores';
    if (state.mode === 'weights') this.weightsEditor.show(state.weights);
    else this.scoresEditor.show(state.scores, view.weights);

    const partClass = (s) => (s === subjectIndex ? 'token-subject' : s === complementIndex ? 'token-complement' : `token-other other-${s % 3}`);
    const parts = (weights) => tokens.map((_, s) => ({
      values: Array.from(this.models.valueRow(s), (v) => weights[s] * v), className: partClass(s),
    }));
    this.outputChart.draw(parts(view.weights), {
      totals: view.output,
      description: `Output of the head for “${query}”: ${view.output.map((v) => formatNumber(v)).join(', ')}`,
    });
    const like = (r) => `like “${tokens[subjectIndex]}”: cos = ${formatNumber(r.subject)} · like “${tokens[complementIndex]}”: cos = ${formatNumber(r.complement)}`;
    this.readout.textContent = `Output for “${query}” = (${view.output.map((v) => formatNumber(v)).join(', ')}); ${like(view.readout)}`;
    this.#renderAlternative(view, state);

    this.headAEditor.show(state.headA);
    this.headBEditor.show(state.headB);
    const d = view.headA.length;
    const slice = (weights, from) => tokens.map((_, s) => ({
      values: [...(from === 0 ? [] : new Array(d).fill(0)), ...Array.from(this.models.valueRow(s), (v) => weights[s] * v), ...(from === 0 ? new Array(d).fill(0) : [])],
      className: partClass(s),
    }));
    this.concatChart.draw([...slice(state.headA, 0), ...slice(state.headB, d)], {
      totals: view.concat,
      columnClasses: [...new Array(d).fill('head-a'), ...new Array(d).fill('head-b')],
      description: `Concatenated output: head A (${view.headA.map((v) => formatNumber(v)).join(', ')}), head B (${view.headB.map((v) => formatNumber(v)).join(', ')})`,
    });
    this.readoutTwo.replaceChildren(
      element('p', { className: 'head-a-text', textContent: `Head A slice ${like(view.readoutA)}` }),
      element('p', { className: 'head-b-text', textContent: `Head B slice ${like(view.readoutB)}` }),
    );
    this.announcer.textContent = `One head output for ${query}: ${formatNumber(view.readout.subject)} like ${tokens[subjectIndex]}, ${formatNumber(view.readout.complement)} like ${tokens[complementIndex]}. ` +
      `Head A: ${formatNumber(view.readoutA.subject)} like ${tokens[subjectIndex]}. Head B: ${formatNumber(view.readoutB.complement)} like ${tokens[complementIndex]}.`;
  }

  #renderAlternative(view) {
    const { tokens } = this.config;
    const alt = view.alternative;
    if (!alt.found) {
      this.alternative.replaceChildren(element('p', {
        textContent: 'For these weights the core finds no other non-negative weighting with the same output.',
      }));
      return;
    }
    const rows = tokens.map((token, s) => element('tr', {}, [
      element('th', { scope: 'row', textContent: token }),
      element('td', { className: 'num', textContent: formatNumber(view.weights[s]) }),
      element('td', { className: 'num', textContent: formatNumber(alt.weights[s]) }),
    ]));
    this.alternative.replaceChildren(
      element('p', { textContent: `The core found different weights with the same output: ${formatNumber(alt.totalWeightMoved * 100, 0)}% of the budget moved, and the two outputs differ by at most ${alt.maxOutputDifference.toExponential(1)}. From the output alone, nothing can tell which weighting made it.` }),
      element('table', { className: 'alt-table' }, [
        element('caption', { className: 'sr-only', textContent: 'Your weights beside other weights that give the same output' }),
        element('thead', {}, [element('tr', {}, [
          element('th', { scope: 'col', textContent: 'token' }),
          element('th', { scope: 'col', textContent: 'your weights' }),
          element('th', { scope: 'col', textContent: 'same output' }),
        ])]),
        element('tbody', {}, rows),
      ]),
    );
  }
}

BlendWidget.define();
