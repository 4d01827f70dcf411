// <mha-head-splitting>: h heads of width d_model / h cost what one head of width d_model
// costs. The attention's multiply-adds are drawn as areas: h blocks of L x L x d_k beside
// one block of L x L x d_model, at one scale, from the core's own tallies of real forward
// passes; the exp() calls, the one part that grows with h, are drawn beside them. The
// lesson's three configurations are block rows that can be timed on the learner's device
// in a worker. The price: in the lesson's one world, head i's similarity matrix
// W_Q^i (W_K^i)^T has at most d_k non-zero singular values (counted by the core).
// See README.md for attributes and events.
import { MhaWidget, element } from '../shared/widget-base.js';
import { formatCount, formatNumber } from '../shared/format.js';
import { THE_WORLD, headClass } from '../shared/world.js';
import { NumberField } from '../../ui/number-field.js';
import { mathText, notation } from '../../ui/notation.js';
import { kitSheet } from '../../ui/styles.js';
import { NarrowSwitch } from '../../ui/narrow-switch.js';
import { layerLink } from '../layer/layer-link.js';
import {
  SplitModels, divisors, nearestDivisor, sanitizeSplitState, splitConfig, startingState,
} from './head-splitting-model.js';
import { BlockRow } from './cost-blocks.js';
import { MeasureRunner } from './measure-runner.js';
import { SpectrumChart } from './spectrum-chart.js';
import styles from './head-splitting.css?inline';

// The parts of one forward pass, in the order the core does them (the "values" table).
const PARTS = [
  { key: 'projections', name: 'Projections', what: 'X W_Q, X W_K, X W_V', formula: '3 · L · d_model^2' },
  { key: 'scores', name: 'Scores', what: 'Q_i K_i^T, every head', formula: 'h · L^2 · d_k' },
  { key: 'weightedSum', name: 'Weighted sum', what: 'weights_i V_i, every head', formula: 'h · L^2 · d_k' },
  { key: 'attention', name: 'Attention', what: 'scores + weighted sum (the blocks)', formula: '2 · L^2 · d_model', className: 'attention-row' },
  { key: 'output', name: 'Output', what: 'Concat(head_1 … head_h) W_O', formula: 'L · d_model^2' },
  { key: 'exponentials', name: 'exp() calls', what: 'softmax; not multiply-adds, and they grow with h', formula: 'h · L^2', className: 'exp-row' },
];

const plural = (n, one, many = `${one}s`) => `${formatCount(n)} ${n === 1 ? one : many}`;
const n = (value, className = '') => element('span', { className: `num ${className}`.trim(), textContent: value });

/** A <select> labelled by visible text (with notation) and an accessible name. */
function labelledSelect(visible, accessibleName, onChange) {
  const select = element('select', { ariaLabel: accessibleName });
  select.addEventListener('change', () => onChange(Number(select.value)));
  const field = element('label', { className: 'field' }, [mathText(visible, 'field-label'), select]);
  return { select, field };
}

/** Replaces a select's options only when the list changed (keeps focus and scroll). */
function setOptions(select, values, label = String) {
  const key = values.map((v) => `${v}:${label(v)}`).join(',');
  if (select.dataset.options !== key) {
    select.replaceChildren(...values.map((v) => element('option', { value: String(v), textContent: label(v) })));
    select.dataset.options = key;
  }
}

// Ids of the figures the controls change (each control names its figure in aria-controls).
const COST_FIGURE = 'cost-figure';
const COST_VALUES = 'cost-values';
const CONFIG_ROWS = 'config-rows';
const SPECTRUM_FIGURE = 'spectrum-figure';
const SPECTRUM_VALUES = 'spectrum-values';
const HONESTY = 'times-note';

const withControls = (control, id) => {
  control.setAttribute('aria-controls', id);
  return control;
};


export class HeadSplittingWidget extends MhaWidget {
  static tag = 'mha-head-splitting';
  static stateKey = 'split';
  static styles = styles;

  defaultConfig() {
    return splitConfig(this.configAttribute());
  }

  defaultState() {
    return startingState(this.config);
  }

  sanitizeState(raw) {
    return sanitizeSplitState(raw, this.config);
  }

  compute(state) {
    return this.models.compute(state);
  }

  /** Reset also clears text still being typed in the L field, and its message. */
  reset() {
    this.lengthField?.revert();
    super.reset();
  }

  dispose() {
    if (this.runner?.running) this.#cancelMeasure();
    this.runner?.dispose();
    this.models?.dispose();
    cancelAnimationFrame(this.pendingFrame);
    this.pendingFrame = 0;
  }

  #propose(patch, edited = 'cost') {
    const error = this.commit({ ...this.state, ...patch });
    if (!error) this.#announce(edited);
    return error;
  }

  build() {
    if (!this.root.adoptedStyleSheets.includes(kitSheet())) this.root.adoptedStyleSheets = [...this.root.adoptedStyleSheets, kitSheet()];
    this.models = new SplitModels(this.engine, this.config);
    this.runner = new MeasureRunner(this.engine);
    this.measurement = null;
    this.announcer = element('p', { className: 'sr-only', ariaLive: 'polite' });
    const [controls, blocks, configurations, spectrum] = [this.#buildControls(), this.#buildBlocks(), this.#buildConfigurations(), this.#buildSpectrum()];
    // On a phone, the three parts one at a time (the controls go with the two they change).
    this.narrow = new NarrowSwitch({
      label: 'Part of the widget shown', value: 'areas', options: [
        { value: 'areas', content: 'Areas', label: 'Multiply-adds as areas', panels: [controls, blocks] },
        { value: 'times', content: 'Times', label: 'Configurations compared, with times', panels: [controls, configurations] },
        { value: 'rank', content: 'Rank', label: 'Rank of one head', panels: [spectrum] },
      ],
    });
    this.body.append(
      element('p', { className: 'try' }, [
        'Change ', mathText('h'), ' or ', mathText('L'), ': the ', mathText('h'), ' narrow blocks always cover the one wide block. Only the exp() strip grows.',
        ' ', layerLink('attend'),
      ]),
      this.narrow.element,
      element('div', { className: 'cost-layout' }, [controls, blocks]),
      configurations,
      spectrum,
      this.announcer,
    );
  }

  // ---- controls: d_model, h, L -------------------------------------------------------

  #buildControls() {
    const dModel = labelledSelect('width d_model', 'Model width d_model', (value) => this.#changeDModel(value));
    setOptions(dModel.select, this.config.dModelChoices);
    const heads = labelledSelect('heads h', 'Number of heads h', (value) => this.#propose({ heads: value }));
    this.dModelSelect = dModel.select;
    this.headsSelect = heads.select;
    this.headsNote = element('p', { className: 'note', role: 'status' });

    const { min, max } = this.config.seqLen;
    this.lengthField = new NumberField({
      label: `Sequence length L (${min} to ${max})`, value: this.config.start.seqLen, min, max, decimals: 0,
      onPropose: (value) => {
        if (!Number.isInteger(value)) return `The sequence length L counts tokens: type a whole number from ${min} to ${max}.`;
        return this.#propose({ seqLen: value });
      },
    });
    this.seqSlider = element('input', {
      type: 'range', min: String(min), max: String(max), step: '1', className: 'slider', ariaLabel: 'Sequence length L, slider',
    });
    // Dragging the slider fires many events; commit at most once per frame (the counts at
    // L = 256 take several forward passes of tens of milliseconds each the first time).
    this.seqSlider.addEventListener('input', () => {
      this.pendingSeqLen = Number(this.seqSlider.value);
      this.pendingFrame ||= requestAnimationFrame(() => {
        this.pendingFrame = 0;
        this.lengthField.revert();
        this.#propose({ seqLen: this.pendingSeqLen });
      });
    });
    const history = this.historyToolbar('Undo or reset the head-splitting widget');
    for (const control of [this.dModelSelect, this.headsSelect, this.lengthField.input, this.seqSlider, ...history.querySelectorAll('button')]) {
      control.setAttribute('aria-controls', COST_FIGURE);
    }
    return element('div', { className: 'controls', dataset: { panel: 'controls' } }, [
      dModel.field,
      heads.field,
      this.headsNote,
      element('div', { className: 'length' }, [this.lengthField.element, this.seqSlider]),
      history,
    ]);
  }

  #changeDModel(dModel) {
    const { heads } = this.state;
    const max = this.config.maxHeads;
    const fits = dModel % heads === 0 && heads <= max;
    const next = fits ? heads : nearestDivisor(dModel, heads, max);
    const error = this.#propose({ dModel, heads: next });
    this.headsNote.textContent = error
      ? `The core refused this width: ${error}`
      : fits ? '' : `h = ${heads} does not divide d_model = ${dModel}, so h is now ${next}, the nearest divisor.`;
  }

  // ---- the blocks: h heads beside one wide head ---------------------------------------

  #buildBlocks() {
    this.dkLine = element('p', { className: 'dk-line' });
    this.legend = element('p', { className: 'legend muted' });
    this.oneRow = new BlockRow({ className: 'one-head', kind: 'multiply-adds' });
    this.headsRow = new BlockRow({ className: 'many-heads', kind: 'multiply-adds' });
    this.verdict = element('p', { className: 'verdict' });
    this.expHeadsRow = new BlockRow({ className: 'exp-row many-heads', kind: 'exp' });
    this.expOneRow = new BlockRow({ className: 'exp-row one-head', kind: 'exp' });
    this.valuesCaption = element('caption');
    this.valuesHead = element('tr');
    this.valuesBody = element('tbody');
    return element('section', { className: 'panel blocks-panel', id: COST_FIGURE, ariaLabel: 'Multiply-adds as areas', dataset: { panel: 'counts' } }, [
      element('h3', { textContent: 'The attention’s multiply-adds, as areas' }),
      this.dkLine,
      this.legend,
      element('div', { className: 'figure' }, [this.oneRow.element, this.headsRow.element]),
      this.verdict,
      element('h4', { className: 'grows' }, ['What does grow with ', mathText('h'), ' (own scale)']),
      element('div', { className: 'figure exp-figure' }, [this.expOneRow.element, this.expHeadsRow.element]),
      element('details', { className: 'values' }, [
        withControls(element('summary', { textContent: 'Values: every count of the forward pass' }), COST_VALUES),
        element('table', { className: 'counts', id: COST_VALUES }, [
          this.valuesCaption, element('thead', {}, [this.valuesHead]), this.valuesBody,
        ]),
      ]),
    ]);
  }

  #renderBlocks(main, oneHead) {
    const { dModel, numHeads: h, dK, seqLen: L } = main.config;
    this.dkLine.replaceChildren(mathText('d_k = d_model / h'), ' = ', n(`${dModel} / ${h}`), ' = ', element('strong', { className: 'num dk-value', textContent: String(dK) }));
    // L^2 as the core counted it: one head makes one exp() call per (query, key) pair.
    this.legend.replaceChildren(
      'Area = a head’s multiply-adds for scores and weighted sum, ', mathText('2 · L^2 · d_k'),
      ': height ', mathText('L^2'), ` = ${formatCount(oneHead.counts.exponentials)} (query, key) pairs, width `, mathText('d_k'), '.',
    );
    const many = main.counts.attention;
    const one = oneHead.counts.attention;
    const largest = Math.max(many, one);
    const squared = () => [n(String(L)), element('sup', { textContent: '2' })]; // fresh nodes per label
    this.oneRow.draw({
      pieces: 1,
      share: one / largest,
      label: [element('strong', { textContent: '1 head' }), ' of width ', n(String(oneHead.config.dK)), ': 2 · ', ...squared(), ' · ', n(String(oneHead.config.dK)), ' = ', n(formatCount(one), 'count')],
      description: `One head of width ${oneHead.config.dK}: ${formatCount(one)} multiply-adds.`,
    });
    const perHead = many / h;
    this.headsRow.element.classList.toggle('one-head', h === 1);
    this.headsRow.element.classList.toggle('many-heads', h !== 1);
    this.headsRow.draw({
      pieces: h,
      share: many / largest,
      label: h === 1
        ? [element('strong', { textContent: '1 head' }), ' of width ', n(String(dK)), ' (h = 1): 2 · ', ...squared(), ' · ', n(String(dK)), ' = ', n(formatCount(many), 'count')]
        : [element('strong', { textContent: `${h} heads` }), ' of width ', n(String(dK)), ': ', n(String(h)), ' × 2 · ', ...squared(), ' · ', n(String(dK)),
          ' = ', n(String(h)), ' × ', n(formatCount(perHead), 'per-head'), ' = ', n(formatCount(many), 'count')],
      description: `${plural(h, 'head')} of width ${dK}: ${h} blocks of ${formatCount(perHead)}, ${formatCount(many)} multiply-adds in all.`,
    });
    this.verdict.replaceChildren(...(many === one
      ? ['Same area: ', n(formatCount(many)), ' multiply-adds both ways, as the core counted them. “Same” means multiply-adds: the exp() calls, one per entry of the ', mathText('h'), ' weight matrices, grow with ', mathText('h'), '.']
      : ['The core’s two counts differ (', n(formatCount(many)), ' and ', n(formatCount(one)), '), which the formula says cannot happen: please report this.']));

    const expMany = main.counts.exponentials;
    const expOne = oneHead.counts.exponentials;
    const expLargest = Math.max(expMany, expOne);
    this.expOneRow.draw({
      pieces: 1,
      share: expOne / expLargest,
      label: ['exp() calls, 1 head: one weight matrix of ', n(`${L} × ${L}`), ', ', n(formatCount(expOne), 'count')],
      description: `One head: ${formatCount(expOne)} exp() calls.`,
    });
    this.expHeadsRow.draw({
      pieces: h,
      share: expMany / expLargest,
      label: [`exp() calls, ${h} ${h === 1 ? 'head' : 'heads'}: ${h === 1 ? 'one weight matrix' : `${h} weight matrices`} of `, n(`${L} × ${L}`), ', ', n(formatCount(expMany), 'count')],
      description: `${plural(h, 'head')}: ${formatCount(expMany)} exp() calls, ${h} times as many.`,
    });

    this.valuesCaption.replaceChildren('One forward pass with ', mathText('d_model'), ` = ${dModel}, L = ${L}, counted by the core`);
    this.valuesHead.replaceChildren(
      element('th', { scope: 'col', textContent: 'part' }),
      element('th', { scope: 'col', className: 'formula-cell', textContent: 'formula' }),
      element('th', { scope: 'col', className: 'num', textContent: `${h} × ${dK}` }),
      element('th', { scope: 'col', className: 'num', textContent: `1 × ${oneHead.config.dK}` }),
    );
    this.valuesBody.replaceChildren(...PARTS.map((part) => element('tr', { className: part.className ?? '', dataset: { part: part.key } }, [
      element('th', { scope: 'row' }, [
        element('span', { className: 'part-name', textContent: part.name }), ' ',
        element('span', { className: 'part-what muted' }, [mathText(part.what)]),
      ]),
      element('td', { className: 'formula-cell' }, [mathText(part.formula)]),
      element('td', { className: 'num count', textContent: formatCount(main.counts[part.key]) }),
      element('td', { className: 'num count-one', textContent: formatCount(oneHead.counts[part.key]) }),
    ])));
  }

  // ---- the three configurations, and timing them ------------------------------------

  #buildConfigurations() {
    this.configHeading = element('h3');
    this.configRows = element('div', { className: 'config-rows', id: CONFIG_ROWS });
    this.measureButton = element('button', { type: 'button', textContent: 'Measure on this device' });
    this.cancelButton = element('button', { type: 'button', className: 'secondary', textContent: 'Cancel', disabled: true });
    for (const button of [this.measureButton, this.cancelButton]) button.setAttribute('aria-controls', CONFIG_ROWS);
    this.measureButton.addEventListener('click', () => this.#measure());
    this.cancelButton.addEventListener('click', () => this.#cancelMeasure());
    this.progress = element('progress', { max: 1, value: 0, ariaLabel: 'Measurement progress', hidden: true });
    this.measureStatus = element('p', { className: 'measure-status', role: 'status' });
    return element('section', { className: 'panel', ariaLabel: 'Configurations compared', dataset: { panel: 'configurations' } }, [
      this.configHeading,
      this.configRows,
      element('div', { className: 'toolbar measure-bar' }, [this.measureButton, this.cancelButton, this.progress]),
      this.measureStatus,
      element('details', { className: 'values honesty' }, [
        withControls(element('summary', { textContent: 'What the times include' }), HONESTY),
        element('p', {
          className: 'muted', id: HONESTY,
          textContent: 'The times are real: the same core runs each configuration on this device, in a worker off the page’s main thread, and the median of repeated runs is shown. They include everything a forward pass costs here, not only multiply-adds: calls into WebAssembly, copying data in and out, the softmax. Equal areas need not mean equal times: many narrow heads mean many small matrix products and more exp() calls (the hatched strips).',
        }),
      ]),
    ]);
  }

  #renderConfigurations(table, state) {
    const L = table[0].config.seqLen;
    this.configHeading.replaceChildren('One wide head or many narrow ones, at ', mathText('L'), ` = ${L}`);
    const measured = this.measurement;
    const stale = measured && measured.seqLen !== state.seqLen;
    const largest = Math.max(...table.map((row) => row.counts.attention));
    const largestExp = Math.max(...table.map((row) => row.counts.exponentials));
    this.configRows.replaceChildren(...table.map((row, i) => {
      const { numHeads: h, dK } = row.config;
      const { attention, exponentials } = row.counts;
      // One wide head is drawn grey everywhere, split heads in the accent colour.
      const bar = new BlockRow({ className: h === 1 ? 'one-head' : 'many-heads', kind: 'multiply-adds' });
      bar.draw({
        pieces: h, share: attention / largest, label: [],
        description: `${row.label}, ${h} × ${dK}: ${formatCount(attention)} multiply-adds in ${plural(h, 'block')}.`,
      });
      const exp = new BlockRow({ className: 'exp-row many-heads', kind: 'exp' });
      exp.draw({ pieces: h, share: exponentials / largestExp, label: [], description: `${formatCount(exponentials)} exp() calls.` });
      const counts = element('p', { className: 'config-counts' }, [
        n(formatCount(attention), 'count'), ' multiply-adds, ', n(formatCount(exponentials), 'exp-count'), ' exp() calls',
      ]);
      const result = measured?.results[i];
      const time = element('p', { className: `time num${stale ? ' stale' : ''}` });
      time.textContent = result ? `${formatNumber(result.medianMs, 2)} ms` : '— ms';
      if (result && stale) time.append(element('span', { className: 'stale-note', textContent: ` (at L = ${result.config.seqLen})` }));
      return element('div', { className: 'config-row', dataset: { heads: String(h) } }, [
        element('p', { className: 'config-name' }, [
          element('span', { className: 'config-label', textContent: row.label }),
          element('span', { className: 'config-shape num', textContent: `${h} × ${dK}` }),
        ]),
        element('div', { className: 'config-bars' }, [bar.element, exp.element, counts]),
        element('div', { className: 'config-time' }, [element('span', { className: 'time-label muted', textContent: 'median time' }), time]),
      ]);
    }));
  }

  #measure() {
    if (this.runner.running) return;
    const seqLen = this.state.seqLen;
    this.measurement = { seqLen, results: [] };
    this.measureButton.disabled = true;
    this.cancelButton.disabled = false;
    this.cancelButton.focus();
    this.progress.hidden = false;
    this.progress.value = 0;
    this.measureStatus.textContent = `Measuring the configurations at L = ${seqLen} on this device…`;
    this.#renderConfigurations(this.view.table, this.state);
    this.runner.start(this.config, seqLen, {
      onProgress: (fraction) => { this.progress.value = fraction; },
      onResult: (index, result) => {
        this.measurement.results[index] = result;
        this.#renderConfigurations(this.view.table, this.state);
        const { numHeads, dK } = result.config;
        this.measureStatus.textContent = `${numHeads} × ${dK}: ${formatNumber(result.medianMs, 2)} ms per forward pass (median of ${result.samples} samples).`;
      },
      onDone: ({ target, inWorker }) => {
        const times = this.measurement.results.map((r) => `${r.config.numHeads} × ${r.config.dK}: ${formatNumber(r.medianMs, 2)} ms`);
        const where = inWorker ? '' : ' (on the page’s main thread: this frame does not allow a worker)';
        this.#endMeasure(`Measured at L = ${seqLen} with the ${target} kernels${where}: ${times.join('; ')}.`);
      },
      onError: (message) => this.#endMeasure(`The measurement stopped: ${message}.`),
    });
  }

  #cancelMeasure() {
    this.runner.cancel();
    this.#endMeasure('Measurement cancelled; times already measured stay beside their blocks.');
  }

  #endMeasure(text) {
    const hadFocus = this.root.activeElement === this.cancelButton;
    this.measureButton.disabled = false;
    this.cancelButton.disabled = true;
    this.progress.hidden = true;
    this.measureStatus.textContent = text;
    if (hadFocus) this.measureButton.focus();
  }

  // ---- the price: the rank of W_Q^i (W_K^i)^T, for the world's heads ------------------

  #buildSpectrum() {
    const heads = labelledSelect('heads h', 'Rank panel: number of heads h', (value) => (
      this.#propose({ spectrumHeads: value, spectrumHead: Math.min(this.state.spectrumHead, value - 1) }, 'spectrum')));
    setOptions(heads.select, THE_WORLD.headCounts);
    const head = labelledSelect('head', 'Rank panel: head', (value) => this.#propose({ spectrumHead: value }, 'spectrum'));
    this.spectrumHeadsSelect = heads.select;
    this.spectrumHeadSelect = head.select;
    this.rankLine = element('p', { className: 'rank-line' });
    this.rankNote = element('p', { className: 'rank-note' });
    this.spectrumChart = new SpectrumChart({ label: 'Singular values' });
    this.spectrumTable = element('tbody');
    this.spectrumSummary = withControls(element('summary', { textContent: 'Values: all singular values' }), SPECTRUM_VALUES);
    for (const select of [heads.select, head.select]) select.setAttribute('aria-controls', SPECTRUM_FIGURE);
    return element('section', { className: 'panel', ariaLabel: 'Rank of one head’s similarity matrix', dataset: { panel: 'spectrum' } }, [
      element('h3', {}, ['The price: head ', mathText('i'), ' compares words through a matrix of rank at most ', mathText('d_k')]),
      element('p', { className: 'try' }, [
        'Pick a head of the sentence’s layer and count its bars: never more than ', mathText('d_k'), ', often fewer.',
      ]),
      element('div', { className: 'spectrum-layout' }, [
        element('div', { className: 'controls spectrum-controls' }, [heads.field, head.field]),
        element('div', { className: 'spectrum-figure', id: SPECTRUM_FIGURE }, [
          this.rankLine,
          this.spectrumChart.element,
          this.rankNote,
        ]),
      ]),
      element('details', { className: 'values' }, [
        this.spectrumSummary,
        element('table', { className: 'spectrum-table', id: SPECTRUM_VALUES }, [
          element('caption', {
            textContent: `Values below ${this.config.spectrum.relativeTolerance.toExponential(0)} × σ1 count as zero (the core’s count): rounding in double-precision arithmetic can leave a true zero near 1e-16 rather than exactly 0.`,
          }),
          element('thead', {}, [element('tr', {}, [
            element('th', { scope: 'col', textContent: 'rank' }),
            element('th', { scope: 'col', className: 'num', textContent: 'singular value' }),
            element('th', { scope: 'col', textContent: 'counted as' }),
          ])]),
          this.spectrumTable,
        ]),
      ]),
    ]);
  }

  #renderSpectrum(spectrum, members) {
    const { dModel, numHeads, dK } = spectrum.config;
    const { values, nonZero, head } = spectrum;
    const figure = this.spectrumChart.element.parentElement;
    figure.className = `spectrum-figure ${headClass(head)}`;
    this.rankLine.replaceChildren(
      element('span', { className: 'swatch' }), ' ',
      element('strong', { className: 'head-name', textContent: head.name }), ': ',
      element('strong', { className: 'nonzero-count num', textContent: String(nonZero) }), ` non-zero singular ${nonZero === 1 ? 'value' : 'values'} of `,
      mathText('W_Q^i (W_K^i)^T'), '; its width ', mathText('d_k'), ' = ', element('strong', { className: 'spectrum-dk num', textContent: String(dK) }), '.',
    );
    this.spectrumChart.draw(values, {
      nonZero,
      dK,
      scaleText: `top of the scale: σ1 = ${formatNumber(values[0], 3)}`,
      description: `Singular values of ${head.name} (head ${head.index + 1} of ${numHeads}, d_model = ${dModel}, d_k = ${dK}): ${nonZero} non-zero, ${values.slice(0, nonZero).map((v) => formatNumber(v, 3)).join(', ')}; the other ${values.length - nonZero} are zero.`,
    });
    this.rankNote.replaceChildren(...this.#rankNote(spectrum, members));
    this.spectrumSummary.textContent = `Values: all ${values.length} singular values of ${head.name}`;
    this.spectrumTable.replaceChildren(...values.map((v, i) => element('tr', { className: i < nonZero ? '' : 'zero-row' }, [
      element('th', { scope: 'row', className: 'num', textContent: `σ${i + 1}` }),
      element('td', { className: 'num', textContent: i < nonZero ? formatNumber(v, 4) : v.toExponential(1) }),
      element('td', { textContent: i < nonZero ? 'non-zero' : 'zero' }),
    ])));
  }

  /** What the count means for this head, in words; every number from the core. */
  #rankNote({ nonZero, head, config }, members) {
    const { dK } = config;
    if (head.merged) {
      const sum = members.reduce((total, m) => total + m.nonZero, 0);
      const parts = members.map((m) => `${m.head.name} ${m.nonZero}`).join(', ');
      return [
        `${head.members.length} designed heads merged into one of width ${dK}. Alone they use ${parts}. `,
        nonZero < sum
          ? `Merged, their similarities add up in one matrix of rank ${nonZero}, less than ${sum}: their directions overlap, so the merged head cannot keep its members’ comparisons apart.`
          : `Merged, their similarities add up in one matrix of rank ${nonZero}: each member keeps its own directions.`,
      ];
    }
    if (nonZero < dK) {
      return [`This head uses ${nonZero} of the ${dK} directions its width allows: “at most `, mathText('d_k'), '” is a ceiling, and a hand-built head can need fewer.'];
    }
    return [`This head uses all ${dK} directions its width allows: a narrower head could not ask the same question.`];
  }

  // ---- everything ---------------------------------------------------------------------

  #announce(edited) {
    const { main, oneHead, spectrum } = this.view;
    const { config, counts } = main;
    this.announcer.textContent = edited === 'spectrum'
      ? `${spectrum.head.name}, ${spectrum.config.numHeads} ${spectrum.config.numHeads === 1 ? 'head' : 'heads'} of width ${spectrum.config.dK}: ${spectrum.nonZero} non-zero singular values, at most ${spectrum.config.dK}.`
      : `${plural(config.numHeads, 'head')} of width ${config.dK}, L ${config.seqLen}: ${formatCount(counts.attention)} multiply-adds, ` +
        `${counts.attention === oneHead.counts.attention ? 'the same area as' : 'not the same as'} one head of width ${oneHead.config.dK}. ` +
        `exp() calls: ${formatCount(counts.exponentials)}, against ${formatCount(oneHead.counts.exponentials)} for one head.`;
  }

  render(view, state) {
    // A note about a replaced h belongs to the edit that made it (set after this render).
    this.headsNote.textContent = '';
    this.dModelSelect.value = String(state.dModel);
    setOptions(this.headsSelect, divisors(state.dModel, this.config.maxHeads));
    this.headsSelect.value = String(state.heads);
    this.seqSlider.value = String(state.seqLen);
    this.seqSlider.setAttribute('aria-valuetext', `${state.seqLen} tokens`);
    this.lengthField.setValue(state.seqLen);
    this.spectrumHeadsSelect.value = String(state.spectrumHeads);
    setOptions(this.spectrumHeadSelect, view.spectrumHeads.map((head) => head.index), (i) => view.spectrumHeads[i].name);
    this.spectrumHeadSelect.value = String(state.spectrumHead);

    this.#renderBlocks(view.main, view.oneHead);
    this.#renderConfigurations(view.table, state);
    this.#renderSpectrum(view.spectrum, view.spectrumMembers);
  }
}

HeadSplittingWidget.define();
