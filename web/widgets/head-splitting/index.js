// <mha-head-splitting>: h heads of width d_model / h cost what one head of width d_model
// costs. The attention's multiply-adds are drawn as areas: h blocks of L x L x d_k beside
// one block of L x L x d_model, at one scale, from the core's own tallies of real forward
// passes; the exp() calls, the one part that grows with h, are drawn beside them. The
// lesson's three configurations are block rows that can be timed on the learner's device
// in a worker. The price: in the lesson's one world, head i's similarity matrix
// W_Q^i (W_K^i)^T has at most d_k non-zero singular values (counted by the core).
// See README.md for attributes and events.
import { MhaWidget } from '../shared/widget-base.js';
import { editHint } from '../shared/widget-attributes.js';
import { element, morphChildren } from '../../ui/dom.js';
import { messagesFor } from '../shared/i18n.js';
import { headClass } from '../shared/world.js';
import { NumberField } from '../../ui/number-field.js';
import { mathText, notation } from '../../ui/notation.js';
import { kitSheet } from '../../ui/styles.js';
import { NarrowSwitch } from '../../ui/narrow-switch.js';
import { layerLink } from '../shared/page-links.js';
import {
  SplitModels, divisors, nearestDivisor, sanitizeSplitState, splitConfig, startingState,
} from './head-splitting-model.js';
import { BlockRow } from './cost-blocks.js';
import { CountsPrefetch } from './counts-prefetch.js';
import { MeasureRunner } from './measure-runner.js';
import { SpectrumChart } from './spectrum-chart.js';
import styles from './head-splitting.css?inline';

// The parts of one forward pass, in the order the core does them (the "values" table);
// their names and descriptions are headSplitting.parts.<key> in the message files.
const PARTS = [
  { key: 'projections', formula: '3 · L · d_model^2' },
  { key: 'scores', formula: 'h · L^2 · d_k' },
  { key: 'weightedSum', formula: 'h · L^2 · d_k' },
  { key: 'attention', formula: '2 · L^2 · d_model', className: 'attention-row' },
  { key: 'output', formula: 'L · d_model^2' },
  { key: 'exponentials', formula: 'h · L^2', className: 'exp-row' },
];

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
    return splitConfig(this.configAttribute(), this.world);
  }

  defaultState() {
    return startingState(this.config);
  }

  sanitizeState(raw) {
    return sanitizeSplitState(raw, this.config);
  }

  compute(state) {
    const view = this.models.compute(state);
    // Once L has changed (the learner steps it), or the reader has come to L's controls
    // (#prefetchAhead), the counts of L - 1 and L + 1 are computed ahead in a worker after
    // each change, so the next step needs no forward pass here.
    if (this.prefetch || (this.shownSeqLen !== undefined && state.seqLen !== this.shownSeqLen)) this.#wantCounts(state);
    this.shownSeqLen = state.seqLen;
    return view;
  }

  #dropPrefetch() {
    this.prefetch?.dispose();
    this.prefetch = null;
    this.shownSeqLen = undefined;
  }

  /** Reset also clears text still being typed in the L field, and its message. */
  reset() {
    this.lengthField?.revert();
    super.reset();
  }

  dispose() {
    if (this.runner?.running) this.#cancelMeasure();
    this.runner?.dispose();
    this.#dropPrefetch();
    this.models?.dispose();
    cancelAnimationFrame(this.pendingFrame);
    this.pendingFrame = 0;
  }

  /** Lent to the static figure's redraw (widget-static-figure.js): its counts are cached here. */
  get figureModel() {
    return this.models ?? null;
  }

  #propose(patch, edited = 'cost') {
    const error = this.commit({ ...this.state, ...patch });
    if (!error) this.#announce(edited);
    return error;
  }

  build() {
    if (!this.root.adoptedStyleSheets.includes(kitSheet())) this.root.adoptedStyleSheets = [...this.root.adoptedStyleSheets, kitSheet()];
    const m = this.m = messagesFor(this);
    this.models = new SplitModels(this.engine, this.config);
    this.#dropPrefetch(); // it filled the models of the last build
    this.runner = new MeasureRunner(this.engine);
    this.measurement = null;
    this.announcer = element('p', { className: 'sr-only', ariaLive: 'polite' });
    const [controls, blocks, configurations, spectrum] = [this.#buildControls(), this.#buildBlocks(), this.#buildConfigurations(), this.#buildSpectrum()];
    // On a phone, the three parts one at a time (the controls go with the two they change).
    this.narrow = new NarrowSwitch({
      label: m.t('headSplitting.narrow.label'), value: 'areas', messages: m, options: [
        { value: 'areas', content: m.t('headSplitting.narrow.areas'), label: m.t('headSplitting.narrow.areasLabel'), panels: [controls, blocks] },
        { value: 'times', content: m.t('headSplitting.narrow.times'), label: m.t('headSplitting.narrow.timesLabel'), panels: [controls, configurations] },
        { value: 'rank', content: m.t('headSplitting.narrow.rank'), label: m.t('headSplitting.narrow.rankLabel'), panels: [spectrum] },
      ],
    });
    this.body.append(
      // The "try" line is about the blocks: it goes where they go (panels="spectrum" hides both).
      element('p', { className: 'try', dataset: { panel: 'counts' } }, [
        ...m.nodes('headSplitting.try', { h: mathText('h'), L: mathText('L'), h2: mathText('h') }),
        ' ', layerLink('attend', undefined, m),
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
    const { m } = this;
    const dModel = labelledSelect(m.t('headSplitting.controls.width'), m.t('headSplitting.controls.widthLabel'), (value) => this.#changeDModel(value));
    setOptions(dModel.select, this.config.dModelChoices);
    const heads = labelledSelect(m.t('headSplitting.controls.heads'), m.t('headSplitting.controls.headsLabel'), (value) => this.#propose({ heads: value }));
    this.dModelSelect = dModel.select;
    this.headsSelect = heads.select;
    this.headsNote = element('p', { className: 'note', role: 'status' });

    const { min, max } = this.config.seqLen;
    this.lengthField = new NumberField({
      label: m.t('headSplitting.controls.length', { min, max }), value: this.config.start.seqLen, min, max, decimals: 0, messages: m,
      onPropose: (value) => {
        if (!Number.isInteger(value)) return m.t('headSplitting.controls.wholeNumber', { min, max });
        return this.#propose({ seqLen: value });
      },
    });
    this.seqSlider = element('input', {
      type: 'range', min: String(min), max: String(max), step: '1', className: 'slider', ariaLabel: m.t('headSplitting.controls.slider'),
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
    const history = this.historyToolbar(m.t('headSplitting.history'));
    for (const control of [this.dModelSelect, this.headsSelect, this.lengthField.input, this.seqSlider, ...history.querySelectorAll('button')]) {
      control.setAttribute('aria-controls', COST_FIGURE);
    }
    return element('div', { className: 'controls', dataset: { panel: 'controls' } }, [
      dModel.field,
      heads.field,
      this.headsNote,
      this.#lengthRow(),
      history,
    ]);
  }

  // L's field and slider: a drag of the slider (committed once a frame), or a length typed,
  // is one undo step (the base's edit groups); a key step on the slider is one of its own.
  #lengthRow() {
    const row = element('div', { className: 'length' }, [this.lengthField.element, this.seqSlider]);
    this.groupEdits(row);
    // The reader is about to step L (the pointer over its field or slider, or the focus in
    // them): the counts worker starts now, so that the first steps find L - 1 and L + 1
    // computed. Started by the first step instead, it was still loading during the next two,
    // which computed their counts here: the first three steps took 280-340 ms of a slowed
    // CPU's main thread against about 100 for the steps after (issue 25).
    for (const type of ['pointerenter', 'focusin']) row.addEventListener(type, () => this.#prefetchAhead());
    return row;
  }

  #prefetchAhead() {
    if (!this.prefetch && !this.readOnly && this.hasAttribute('ready')) this.#wantCounts(this.state);
  }

  // The counts of L - 1 and L + 1 around `state`, asked of the worker (started on first use).
  #wantCounts(state) {
    (this.prefetch ??= new CountsPrefetch(this.models, this.config)).want(state);
  }

  #changeDModel(dModel) {
    const { heads } = this.state;
    const max = this.config.maxHeads;
    const fits = dModel % heads === 0 && heads <= max;
    const next = fits ? heads : nearestDivisor(dModel, heads, max);
    const error = this.#propose({ dModel, heads: next });
    this.headsNote.textContent = error
      ? this.m.t('headSplitting.controls.refused', { error })
      : fits ? '' : this.m.t('headSplitting.controls.nearest', { heads, dModel, next });
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
    const { m } = this;
    return element('section', { className: 'panel blocks-panel', id: COST_FIGURE, ariaLabel: m.t('headSplitting.narrow.areasLabel'), dataset: { panel: 'counts' } }, [
      element('h3', { textContent: m.t('headSplitting.blocks.heading') }),
      this.dkLine,
      this.legend,
      element('div', { className: 'figure' }, [this.oneRow.element, this.headsRow.element]),
      this.verdict,
      element('h4', { className: 'grows' }, m.nodes('headSplitting.blocks.grows', { h: mathText('h') })),
      element('div', { className: 'figure exp-figure' }, [this.expOneRow.element, this.expHeadsRow.element]),
      element('details', { className: 'values' }, [
        withControls(element('summary', { textContent: m.t('headSplitting.blocks.values') }), COST_VALUES),
        element('table', { className: 'counts', id: COST_VALUES }, [
          this.valuesCaption, element('thead', {}, [this.valuesHead]), this.valuesBody,
        ]),
      ]),
    ]);
  }

  #renderBlocks(main, oneHead) {
    const { m } = this;
    const formatCount = (value) => m.count(value);
    const { dModel, numHeads: h, dK, seqLen: L } = main.config;
    morphChildren(this.dkLine, [mathText('d_k = d_model / h'), ' = ', n(`${dModel} / ${h}`), ' = ', element('strong', { className: 'num dk-value', textContent: String(dK) })]);
    // L^2 as the core counted it: one head makes one exp() call per (query, key) pair.
    morphChildren(this.legend, [...m.nodes('headSplitting.blocks.legend', {
      area: mathText('2 · L^2 · d_k'), L2: mathText('L^2'), pairs: formatCount(oneHead.counts.exponentials), dk: mathText('d_k'),
    })]);
    const many = main.counts.attention;
    const one = oneHead.counts.attention;
    const largest = Math.max(many, one);
    const squared = () => [n(String(L)), element('sup', { textContent: '2' })]; // fresh nodes per label
    this.oneRow.draw({
      pieces: 1,
      share: one / largest,
      label: [element('strong', { textContent: m.t('headSplitting.blocks.heads', { count: 1 }) }), m.t('headSplitting.blocks.ofWidth'), n(String(oneHead.config.dK)), ': 2 · ', ...squared(), ' · ', n(String(oneHead.config.dK)), ' = ', n(formatCount(one), 'count')],
      description: m.t('headSplitting.blocks.oneDescription', { dK: oneHead.config.dK, total: formatCount(one) }),
    });
    const perHead = many / h;
    this.headsRow.element.classList.toggle('one-head', h === 1);
    this.headsRow.element.classList.toggle('many-heads', h !== 1);
    this.headsRow.draw({
      pieces: h,
      share: many / largest,
      label: h === 1
        ? [element('strong', { textContent: m.t('headSplitting.blocks.heads', { count: 1 }) }), m.t('headSplitting.blocks.ofWidth'), n(String(dK)), ' (h = 1): 2 · ', ...squared(), ' · ', n(String(dK)), ' = ', n(formatCount(many), 'count')]
        : [element('strong', { textContent: m.t('headSplitting.blocks.heads', { count: h }) }), m.t('headSplitting.blocks.ofWidth'), n(String(dK)), ': ', n(String(h)), ' × 2 · ', ...squared(), ' · ', n(String(dK)),
          ' = ', n(String(h)), ' × ', n(formatCount(perHead), 'per-head'), ' = ', n(formatCount(many), 'count')],
      description: m.t('headSplitting.blocks.manyDescription', { count: h, dK, each: formatCount(perHead), total: formatCount(many) }),
    });
    morphChildren(this.verdict, [...(many === one
      ? m.nodes('headSplitting.blocks.same', { total: n(formatCount(many)), h: mathText('h'), h2: mathText('h') })
      : m.nodes('headSplitting.blocks.differ', { many: n(formatCount(many)), one: n(formatCount(one)) }))]);

    const expMany = main.counts.exponentials;
    const expOne = oneHead.counts.exponentials;
    const expLargest = Math.max(expMany, expOne);
    this.expOneRow.draw({
      pieces: 1,
      share: expOne / expLargest,
      label: m.nodes('headSplitting.blocks.expLabel', { count: 1, size: n(`${L} × ${L}`), total: n(formatCount(expOne), 'count') }),
      description: m.t('headSplitting.blocks.expOneDescription', { total: formatCount(expOne) }),
    });
    this.expHeadsRow.draw({
      pieces: h,
      share: expMany / expLargest,
      label: m.nodes('headSplitting.blocks.expLabel', { count: h, size: n(`${L} × ${L}`), total: n(formatCount(expMany), 'count') }),
      description: m.t('headSplitting.blocks.expManyDescription', { count: h, total: formatCount(expMany) }),
    });

    morphChildren(this.valuesCaption, [...m.nodes('headSplitting.blocks.caption', { dModelName: mathText('d_model'), dModel, L })]);
    morphChildren(this.valuesHead, [
      element('th', { scope: 'col', textContent: m.t('headSplitting.blocks.part') }),
      element('th', { scope: 'col', className: 'formula-cell', textContent: m.t('headSplitting.blocks.formula') }),
      element('th', { scope: 'col', className: 'num', textContent: `${h} × ${dK}` }),
      element('th', { scope: 'col', className: 'num', textContent: `1 × ${oneHead.config.dK}` }),
    ]);
    morphChildren(this.valuesBody, [...PARTS.map((part) => element('tr', { className: part.className ?? '', dataset: { part: part.key } }, [
      element('th', { scope: 'row' }, [
        element('span', { className: 'part-name', textContent: m.t(`headSplitting.parts.${part.key}.name`) }), ' ',
        element('span', { className: 'part-what muted' }, [mathText(m.t(`headSplitting.parts.${part.key}.what`))]),
      ]),
      element('td', { className: 'formula-cell' }, [mathText(part.formula)]),
      element('td', { className: 'num count', textContent: formatCount(main.counts[part.key]) }),
      element('td', { className: 'num count-one', textContent: formatCount(oneHead.counts[part.key]) }),
    ]))]);
  }

  // ---- the three configurations, and timing them ------------------------------------

  #buildConfigurations() {
    const { m } = this;
    this.configHeading = element('h3');
    this.configRows = element('div', { className: 'config-rows', id: CONFIG_ROWS });
    this.measureButton = element('button', { type: 'button', textContent: m.t('headSplitting.measure.button') });
    this.cancelButton = element('button', { type: 'button', className: 'secondary', textContent: m.t('headSplitting.measure.cancel'), disabled: true });
    for (const button of [this.measureButton, this.cancelButton]) button.setAttribute('aria-controls', CONFIG_ROWS);
    this.measureButton.addEventListener('click', () => this.#measure());
    this.cancelButton.addEventListener('click', () => this.#cancelMeasure());
    this.progress = element('progress', { max: 1, value: 0, ariaLabel: m.t('headSplitting.measure.progress'), hidden: true });
    this.measureStatus = element('p', { className: 'measure-status', role: 'status' });
    return element('section', { className: 'panel', ariaLabel: m.t('headSplitting.measure.panel'), dataset: { panel: 'configurations' } }, [
      this.configHeading,
      this.configRows,
      element('div', { className: 'toolbar measure-bar' }, [this.measureButton, this.cancelButton, this.progress]),
      this.measureStatus,
      element('details', { className: 'values honesty' }, [
        withControls(element('summary', { textContent: m.t('headSplitting.measure.honestyTitle') }), HONESTY),
        element('p', { className: 'muted', id: HONESTY, textContent: m.t('headSplitting.measure.honesty') }),
      ]),
    ]);
  }

  #renderConfigurations(table, state) {
    const L = table[0].config.seqLen;
    const { m } = this;
    const formatCount = (value) => m.count(value);
    morphChildren(this.configHeading, [...m.nodes('headSplitting.measure.heading', { L: mathText('L'), value: L })]);
    const measured = this.measurement;
    const stale = measured && measured.seqLen !== state.seqLen;
    const largest = Math.max(...table.map((row) => row.counts.attention));
    const largestExp = Math.max(...table.map((row) => row.counts.exponentials));
    morphChildren(this.configRows, [...table.map((row, i) => {
      const { numHeads: h, dK } = row.config;
      const { attention, exponentials } = row.counts;
      // One wide head is drawn grey everywhere, split heads in the accent colour.
      const bar = new BlockRow({ className: h === 1 ? 'one-head' : 'many-heads', kind: 'multiply-adds' });
      bar.draw({
        pieces: h, share: attention / largest, label: [],
        description: m.t('headSplitting.measure.rowDescription', { label: m.dataText('data.headSplittingConfigurations', row.label), shape: `${h} × ${dK}`, total: formatCount(attention), count: h }),
      });
      const exp = new BlockRow({ className: 'exp-row many-heads', kind: 'exp' });
      exp.draw({ pieces: h, share: exponentials / largestExp, label: [], description: m.t('headSplitting.measure.expDescription', { total: formatCount(exponentials) }) });
      const counts = element('p', { className: 'config-counts' }, m.nodes('headSplitting.measure.counts', {
        multiplyAdds: n(formatCount(attention), 'count'), exps: n(formatCount(exponentials), 'exp-count'),
      }));
      const result = measured?.results[i];
      const time = element('p', { className: `time num${stale ? ' stale' : ''}` });
      time.textContent = result ? `${m.number(result.medianMs, 2)} ms` : '— ms';
      if (result && stale) time.append(element('span', { className: 'stale-note', textContent: m.t('headSplitting.measure.staleAt', { L: result.config.seqLen }) }));
      return element('div', { className: 'config-row', dataset: { heads: String(h) } }, [
        element('p', { className: 'config-name' }, [
          element('span', { className: 'config-label', textContent: m.dataText('data.headSplittingConfigurations', row.label) }),
          element('span', { className: 'config-shape num', textContent: `${h} × ${dK}` }),
        ]),
        element('div', { className: 'config-bars' }, [bar.element, exp.element, counts]),
        element('div', { className: 'config-time' }, [element('span', { className: 'time-label muted', textContent: m.t('headSplitting.measure.median') }), time]),
      ]);
    })]);
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
    const { m } = this;
    this.measureStatus.textContent = m.t('headSplitting.measure.measuring', { L: seqLen });
    this.#renderConfigurations(this.view.table, this.state);
    this.runner.start(this.config, seqLen, {
      onProgress: (fraction) => { this.progress.value = fraction; },
      onResult: (index, result) => {
        this.measurement.results[index] = result;
        this.#renderConfigurations(this.view.table, this.state);
        const { numHeads, dK } = result.config;
        this.measureStatus.textContent = m.t('headSplitting.measure.result', { shape: `${numHeads} × ${dK}`, ms: m.number(result.medianMs, 2), count: result.samples });
      },
      onDone: ({ target, inWorker }) => {
        const times = this.measurement.results.map((r) => `${r.config.numHeads} × ${r.config.dK}: ${m.number(r.medianMs, 2)} ms`);
        this.#endMeasure(m.t(inWorker ? 'headSplitting.measure.done' : 'headSplitting.measure.doneMainThread', { L: seqLen, target, times: times.join('; ') }));
      },
      onError: (message) => this.#endMeasure(m.t('headSplitting.measure.stopped', { message })),
    });
  }

  #cancelMeasure() {
    this.runner.cancel();
    this.#endMeasure(this.m.t('headSplitting.measure.cancelled'));
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
    const { m } = this;
    const heads = labelledSelect(m.t('headSplitting.controls.heads'), m.t('headSplitting.rank.headsLabel'), (value) => (
      this.#propose({ spectrumHeads: value, spectrumHead: Math.min(this.state.spectrumHead, value - 1) }, 'spectrum')));
    setOptions(heads.select, this.world.headCounts);
    const head = labelledSelect(m.t('headSplitting.rank.head'), m.t('headSplitting.rank.headLabel'), (value) => this.#propose({ spectrumHead: value }, 'spectrum'));
    this.spectrumHeadsSelect = heads.select;
    this.spectrumHeadSelect = head.select;
    this.rankLine = element('p', { className: 'rank-line' });
    this.rankNote = element('p', { className: 'rank-note' });
    this.spectrumChart = new SpectrumChart({ label: m.t('headSplitting.rank.chart'), messages: m });
    this.spectrumTable = element('tbody');
    this.spectrumSummary = withControls(element('summary', { textContent: m.t('headSplitting.rank.valuesAll') }), SPECTRUM_VALUES);
    for (const select of [heads.select, head.select]) select.setAttribute('aria-controls', SPECTRUM_FIGURE);
    return element('section', { className: 'panel', ariaLabel: m.t('headSplitting.narrow.rankPanel'), dataset: { panel: 'spectrum' } }, [
      element('h3', {}, m.nodes('headSplitting.rank.heading', { i: mathText('i'), dk: mathText('d_k') })),
      ...editHint(element('p', { className: 'try' }, m.nodes('headSplitting.rank.try', { dk: mathText('d_k') })),
        element('p', { className: 'try' }, m.nodes('headSplitting.rank.tryReadOnly', { dk: mathText('d_k') }))),
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
            textContent: m.t('headSplitting.rank.caption', { tolerance: this.config.spectrum.relativeTolerance.toExponential(0) }),
          }),
          element('thead', {}, [element('tr', {}, [
            element('th', { scope: 'col', textContent: m.t('headSplitting.rank.rank') }),
            element('th', { scope: 'col', className: 'num', textContent: m.t('headSplitting.rank.singularValue') }),
            element('th', { scope: 'col', textContent: m.t('headSplitting.rank.countedAs') }),
          ])]),
          this.spectrumTable,
        ]),
      ]),
    ]);
  }

  #renderSpectrum(spectrum, members) {
    const { dModel, numHeads, dK } = spectrum.config;
    const { values, nonZero, head } = spectrum;
    const { m } = this;
    const name = m.headName(head);
    const figure = this.spectrumChart.element.parentElement;
    figure.className = `spectrum-figure ${headClass(head)}`;
    this.rankLine.replaceChildren(
      element('span', { className: 'swatch' }), ' ',
      element('strong', { className: 'head-name', textContent: name }), ': ',
      ...m.nodes('headSplitting.rank.line', {
        count: nonZero, nonZero: element('strong', { className: 'nonzero-count num', textContent: String(nonZero) }),
        matrix: mathText('W_Q^i (W_K^i)^T'), dk: mathText('d_k'), dK: element('strong', { className: 'spectrum-dk num', textContent: String(dK) }),
      }),
    );
    const list = m.decimalSeparator === ',' ? '; ' : ', ';
    this.spectrumChart.draw(values, {
      nonZero,
      dK,
      scaleText: m.t('headSplitting.rank.scale', { value: m.number(values[0], 3) }),
      description: m.t('headSplitting.rank.description', {
        name, number: head.index + 1, heads: numHeads, dModel, dK, count: nonZero,
        values: values.slice(0, nonZero).map((v) => m.number(v, 3)).join(list), zeros: values.length - nonZero,
      }),
    });
    this.rankNote.replaceChildren(...this.#rankNote(spectrum, members));
    this.spectrumSummary.textContent = m.t('headSplitting.rank.valuesOf', { count: values.length, name });
    this.spectrumTable.replaceChildren(...values.map((v, i) => element('tr', { className: i < nonZero ? '' : 'zero-row' }, [
      element('th', { scope: 'row', className: 'num', textContent: `σ${i + 1}` }),
      element('td', { className: 'num', textContent: i < nonZero ? m.number(v, 4) : exponential(v, m) }),
      element('td', { textContent: m.t(i < nonZero ? 'headSplitting.rank.nonZero' : 'headSplitting.rank.zero') }),
    ])));
  }

  /** What the count means for this head, in words; every number from the core. */
  #rankNote({ nonZero, head, config }, members) {
    const { dK } = config;
    const { m } = this;
    if (head.merged) {
      const sum = members.reduce((total, member) => total + member.nonZero, 0);
      const parts = members.map((member) => `${m.headName(member.head)} ${member.nonZero}`).join(', ');
      return [
        m.t('headSplitting.rank.merged', { count: head.members.length, dK, parts }),
        m.t(nonZero < sum ? 'headSplitting.rank.mergedLess' : 'headSplitting.rank.mergedKeeps', { rank: nonZero, sum }),
      ];
    }
    if (nonZero < dK) return m.nodes('headSplitting.rank.fewer', { rank: nonZero, dK, dk: mathText('d_k') });
    return [m.t('headSplitting.rank.all', { dK })];
  }

  // ---- everything ---------------------------------------------------------------------

  #announce(edited) {
    const { main, oneHead, spectrum } = this.view;
    const { config, counts } = main;
    const { m } = this;
    this.announcer.textContent = edited === 'spectrum'
      ? m.t('headSplitting.announce.spectrum', { name: m.headName(spectrum.head), count: spectrum.config.numHeads, dK: spectrum.config.dK, rank: spectrum.nonZero })
      : m.t(counts.attention === oneHead.counts.attention ? 'headSplitting.announce.same' : 'headSplitting.announce.notSame', {
        count: config.numHeads, dK: config.dK, L: config.seqLen, total: m.count(counts.attention), oneDK: oneHead.config.dK,
        exps: m.count(counts.exponentials), oneExps: m.count(oneHead.counts.exponentials),
      });
  }

  render(view, state) {
    // A note about a replaced h belongs to the edit that made it (set after this render).
    this.headsNote.textContent = '';
    this.dModelSelect.value = String(state.dModel);
    setOptions(this.headsSelect, divisors(state.dModel, this.config.maxHeads));
    this.headsSelect.value = String(state.heads);
    this.seqSlider.value = String(state.seqLen);
    this.seqSlider.setAttribute('aria-valuetext', this.m.t('headSplitting.controls.tokens', { count: state.seqLen }));
    this.lengthField.setValue(state.seqLen);
    this.spectrumHeadsSelect.value = String(state.spectrumHeads);
    setOptions(this.spectrumHeadSelect, view.spectrumHeads.map((head) => head.index), (i) => this.m.headName(view.spectrumHeads[i]));
    this.spectrumHeadSelect.value = String(state.spectrumHead);

    this.#renderBlocks(view.main, view.oneHead);
    this.#renderConfigurations(view.table, state);
    // The rank panel depends only on its own h and head: the model hands back the same cached
    // spectra for them, so a step of L or d_model leaves it as it is (its chart, its text and
    // its table of singular values were rebuilt at every step of the L slider, issue 25).
    const spectra = [view.spectrum, ...view.spectrumMembers];
    if (spectra.length !== this.spectraShown?.length || spectra.some((s, i) => s !== this.spectraShown[i])) {
      this.#renderSpectrum(view.spectrum, view.spectrumMembers);
      this.spectraShown = spectra;
    }
  }
}

/** A tiny value as the table writes it ("3.2e-17"; in German "3,2e−17"). */
function exponential(value, m) {
  return value.toExponential(1).replace('.', m.decimalSeparator).replace('-', '−');
}

HeadSplittingWidget.define();
