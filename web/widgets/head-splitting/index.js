// <mha-head-splitting>: h heads of width d_model / h cost what one head of width d_model
// costs (the core's own operation counts show the head count cancelling), timed on the
// learner's device in a worker; and the price: head i's similarity matrix W_Q^i (W_K^i)^T
// has only d_k non-zero singular values. See README.md for attributes and events.
import { MhaWidget, element } from '../shared/widget-base.js';
import { formatCount, formatNumber } from '../shared/format.js';
import { parseNumber } from '../shared/parse-number.js';
import {
  SplitModels, divisors, nearestDivisor, sanitizeSplitState, splitConfig, startingState,
} from './head-splitting-model.js';
import { labelledSelect, mathText, setOptions } from './math-text.js';
import { MeasureRunner } from './measure-runner.js';
import { SpectrumChart } from './spectrum-chart.js';
import styles from './head-splitting.css?inline';

const HEAD_CLASSES = ['head-a', 'head-b', 'head-c', 'head-d'];
const headClass = (i) => HEAD_CLASSES[i % HEAD_CLASSES.length];
/** Up to this many heads every slice of the width bar carries its head's number. */
const LABEL_EVERY_SLICE = 16;

// The parts of one forward pass, in the order the core does them.
const PARTS = [
  { key: 'projections', name: 'Projections', what: 'X W_Q, X W_K, X W_V', formula: '3 · L · d_model^2' },
  { key: 'scores', name: 'Scores', what: 'Q_i K_i^T, every head', formula: 'h · L^2 · d_k' },
  { key: 'weightedSum', name: 'Weighted sum', what: 'weights_i V_i, every head', formula: 'h · L^2 · d_k' },
  { key: 'attention', name: 'Attention', what: 'scores + weighted sum', formula: '2 · L^2 · d_model', className: 'attention-row' },
  { key: 'output', name: 'Output', what: 'Concat(head_1 … head_h) W_O', formula: 'L · d_model^2' },
  { key: 'exponentials', name: 'exp() calls', what: 'softmax; not multiply-adds, and they do grow with h', formula: 'h · L^2', className: 'exp-row' },
];
// The configurations' table shows attention (= scores + weighted sum, as the core adds them)
// beside the h-independent projections and output; the parts are in the table above.
const TABLE_COLUMNS = [
  { key: 'attention', label: 'attention' },
  { key: 'projections', label: 'projections' },
  { key: 'output', label: 'output' },
];

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

  dispose() {
    if (this.runner?.running) this.#cancelMeasure();
    this.runner?.dispose();
    this.models?.dispose();
    cancelAnimationFrame(this.pendingFrame);
    this.pendingFrame = 0;
  }

  #propose(patch) {
    return this.commit({ ...this.state, ...patch });
  }

  build() {
    this.models = new SplitModels(this.engine, this.config);
    this.runner = new MeasureRunner(this.engine);
    this.measurement = null;
    this.announcer = element('p', { className: 'sr-only', ariaLive: 'polite' });
    this.body.append(
      this.historyToolbar('Undo or reset the head-splitting widget'),
      this.#buildControls(),
      this.#buildWidth(),
      this.#buildCounts(),
      this.#buildTable(),
      this.#buildSpectrum(),
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
    this.seqSlider = element('input', {
      type: 'range', min: String(min), max: String(max), step: '1', className: 'slider', ariaLabel: 'Sequence length L',
    });
    this.seqField = element('input', {
      type: 'text', inputMode: 'numeric', autocomplete: 'off', spellcheck: false, className: 'num',
      ariaLabel: 'Sequence length L, exact value',
    });
    this.seqError = element('p', { className: 'field-error', role: 'alert', id: 'seq-error' });
    this.seqField.setAttribute('aria-describedby', this.seqError.id);
    // Dragging the slider fires many events; commit at most once per frame (the counts at
    // L = 256 take several forward passes of tens of milliseconds each the first time).
    this.seqSlider.addEventListener('input', () => {
      this.pendingSeqLen = Number(this.seqSlider.value);
      this.pendingFrame ||= requestAnimationFrame(() => {
        this.pendingFrame = 0;
        this.#setSeqError('');
        this.#propose({ seqLen: this.pendingSeqLen });
      });
    });
    this.seqField.addEventListener('input', () => this.#typeSeqLen());
    this.seqField.addEventListener('blur', () => {
      if (this.seqField.getAttribute('aria-invalid') !== 'true') this.seqField.value = String(this.state.seqLen);
    });
    const seqLabel = element('span', { className: 'field-label', id: 'seq-label' }, [
      'sequence length ', mathText('L'), ` (${min} to ${max} tokens)`,
    ]);
    const seqGroup = element('div', { className: 'field seq-field', role: 'group' }, [
      seqLabel, element('div', { className: 'seq-inputs' }, [this.seqSlider, this.seqField]), this.seqError,
    ]);
    seqGroup.setAttribute('aria-labelledby', seqLabel.id);
    return element('div', { className: 'controls', dataset: { panel: 'controls' } }, [
      element('div', { className: 'selects' }, [dModel.field, heads.field]),
      seqGroup,
      this.headsNote,
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

  #typeSeqLen() {
    const { min, max } = this.config.seqLen;
    const what = 'The sequence length L';
    const parsed = parseNumber(this.seqField.value, { min, max, what });
    if (!parsed.ok) return this.#setSeqError(parsed.message);
    if (!Number.isInteger(parsed.value)) return this.#setSeqError(`${what} counts tokens: type a whole number from ${min} to ${max}.`);
    if (parsed.value === this.state.seqLen) return this.#setSeqError(''); // "064": nothing to undo
    this.typingSeq = true; // keep the learner's own text ("2e1", "064") while they type
    const error = this.#propose({ seqLen: parsed.value });
    this.typingSeq = false;
    this.#setSeqError(error ?? '');
  }

  #setSeqError(message) {
    this.seqField.setAttribute('aria-invalid', String(Boolean(message)));
    this.seqError.textContent = message;
  }

  // ---- the width, split into heads ---------------------------------------------------

  #buildWidth() {
    this.dkLine = element('p', { className: 'dk-line num' });
    this.widthBar = element('div', { className: 'width-bar', role: 'img', ariaLabel: 'How the model width is split between the heads' });
    this.widthStart = element('span', { className: 'num' });
    this.widthEnd = element('span', { className: 'num' });
    this.widthCaption = element('p', { className: 'muted width-caption' });
    return element('section', { className: 'panel', ariaLabel: 'The width, split into heads', dataset: { panel: 'width' } }, [
      element('h3', { textContent: 'One width, split into heads' }),
      this.dkLine,
      this.widthBar,
      element('div', { className: 'width-axis', ariaHidden: 'true' }, [this.widthStart, this.widthEnd]),
      this.widthCaption,
    ]);
  }

  #renderWidth(main) {
    const { dModel, numHeads, dK } = main.config;
    this.dkLine.replaceChildren(
      mathText('d_k = d_model / h = '), `${dModel} / ${numHeads} = `, element('strong', { className: 'dk-value', textContent: String(dK) }),
    );
    const label = numHeads <= LABEL_EVERY_SLICE;
    this.widthBar.replaceChildren(...main.headWidths.map((width, i) => {
      const slice = element('span', { className: `slice ${headClass(i)}`, textContent: label ? String(i + 1) : '' });
      slice.style.flexGrow = String(width); // each slice as wide as the core's head output
      return slice;
    }));
    this.widthBar.setAttribute('aria-label',
      `d_model = ${dModel} coordinates split into ${numHeads} slices of ${dK}, one per head`);
    this.widthStart.textContent = 'coordinate 1';
    this.widthEnd.textContent = `coordinate ${dModel}`;
    this.widthCaption.textContent = numHeads === 1
      ? `One head owns all ${dModel} coordinates.`
      : `Each ${label ? 'numbered ' : ''}slice is one head’s ${dK} coordinates${label ? '' : ' (too many heads to number them)'}; the colours repeat every four heads.`;
  }

  // ---- the core's operation counts and the formula -----------------------------------

  #buildCounts() {
    this.countCells = new Map();
    const rows = PARTS.map((part) => {
      const cell = element('td', { className: 'num count' });
      this.countCells.set(part.key, cell);
      return element('tr', { className: part.className ?? '', dataset: { part: part.key } }, [
        element('th', { scope: 'row' }, [
          element('span', { className: 'part-name', textContent: part.name }), ' ',
          element('span', { className: 'part-what muted' }, [mathText(part.what)]),
        ]),
        element('td', { className: 'formula-cell' }, [mathText(part.formula)]),
        cell,
      ]);
    });
    this.countsCaption = element('caption');
    this.formula = element('div', { className: 'formula' });
    return element('section', { className: 'panel', ariaLabel: 'Operation counts', dataset: { panel: 'counts' } }, [
      element('h3', { textContent: 'What one forward pass costs, counted by the core' }),
      element('table', { className: 'counts' }, [
        this.countsCaption,
        element('thead', {}, [element('tr', {}, [
          element('th', { scope: 'col', textContent: 'part' }),
          element('th', { scope: 'col', textContent: 'formula' }),
          element('th', { scope: 'col', className: 'num', textContent: 'count' }),
        ])]),
        element('tbody', {}, rows),
      ]),
      element('h4', { textContent: 'The head count cancels' }),
      this.formula,
    ]);
  }

  #renderCounts(main, oneHead) {
    const { config, counts } = main;
    this.countsCaption.replaceChildren('Multiply-adds (and exp() calls) of one forward pass with ', mathText('d_model'),
      ` = ${config.dModel}, h = ${config.numHeads}, L = ${config.seqLen}`);
    for (const [key, cell] of this.countCells) cell.textContent = formatCount(counts[key]);
    const n = (value, className = '') => element('span', { className: `num ${className}`, textContent: value });
    const line = (symbols, factors, product, note) => element('p', { className: 'formula-line' }, [
      mathText(symbols), ' = ', ...factors, ' = ', element('strong', {}, [n(formatCount(product), 'product')]),
      element('span', { className: 'muted formula-note' }, [note]),
    ]);
    const one = oneHead.config;
    const same = counts.scores === oneHead.counts.scores;
    this.formula.replaceChildren(
      line('h · L^2 · d_k', [n(String(config.numHeads)), ' · ', n(String(config.seqLen)), element('sup', { textContent: '2' }), ' · ', n(String(config.dK))],
        counts.scores, ` scores of ${config.numHeads} ${config.numHeads === 1 ? 'head' : 'heads'} of width ${config.dK}`),
      line('L^2 · d_model', [n(String(one.seqLen)), element('sup', { textContent: '2' }), ' · ', n(String(one.dModel))],
        oneHead.counts.scores, ` scores of 1 head of width ${one.dK}`),
      element('p', {
        className: 'formula-verdict',
        textContent: same
          ? 'Both products are the core’s own tallies from two forward passes, and they are equal: splitting the width into heads adds no multiply-adds. The weighted sum is the same story.'
          : 'The core’s two tallies differ, which the formula says cannot happen: please report this.',
      }),
    );
  }

  // ---- the three configurations, and timing them ------------------------------------

  #buildTable() {
    this.tableCaption = element('caption');
    this.tableBody = element('tbody');
    this.measureButton = element('button', { type: 'button', textContent: 'Measure on this device' });
    this.cancelButton = element('button', { type: 'button', className: 'secondary', textContent: 'Cancel', disabled: true });
    this.measureButton.addEventListener('click', () => this.#measure());
    this.cancelButton.addEventListener('click', () => this.#cancelMeasure());
    this.progress = element('progress', { max: 1, value: 0, ariaLabel: 'Measurement progress', hidden: true });
    this.measureStatus = element('p', { className: 'measure-status', role: 'status' });
    const headRow = element('tr', {}, [
      element('th', { scope: 'col', textContent: 'configuration' }),
      ...TABLE_COLUMNS.map((c) => element('th', { scope: 'col', className: 'num', textContent: c.label })),
      element('th', { scope: 'col', className: 'num', textContent: 'median time per forward pass' }),
    ]);
    return element('section', { className: 'panel', ariaLabel: 'Configurations compared', dataset: { panel: 'configurations' } }, [
      element('h3', { textContent: 'One wide head or many narrow ones' }),
      element('table', { className: 'configs' }, [this.tableCaption, element('thead', {}, [headRow]), this.tableBody]),
      element('div', { className: 'toolbar measure-bar' }, [this.measureButton, this.cancelButton, this.progress]),
      this.measureStatus,
      element('p', {
        className: 'muted honesty',
        textContent: 'The times are real: each configuration runs the same core on this device, in a worker off the page’s main thread, and the median of repeated runs is shown. They include everything a forward pass costs here, not just multiply-adds: calls into WebAssembly, copying the input in and the output out, and the softmax (the L × L weights themselves are not kept for timing). At small L those fixed costs dominate, so the times say little about the counts. Even at large L, equal counts need not mean equal times: many narrow heads mean many small matrix products and more exp() calls.',
      }),
    ]);
  }

  #renderTable(table, state) {
    this.tableCaption.textContent = `Counts from the core for L = ${table[0].config.seqLen}`;
    const measured = this.measurement;
    const stale = measured && measured.seqLen !== state.seqLen;
    this.tableBody.replaceChildren(...table.map((row, i) => {
      const { numHeads, dK } = row.config;
      const result = measured?.results[i];
      const time = element('td', { className: `num time${stale ? ' stale' : ''}`, dataset: { label: 'median time' } });
      time.textContent = result ? `${formatNumber(result.medianMs, 2)} ms` : '—';
      if (result && stale) time.append(element('span', { className: 'stale-note', textContent: ` (at L = ${result.config.seqLen})` }));
      return element('tr', { dataset: { heads: String(numHeads) } }, [
        element('th', { scope: 'row' }, [
          element('span', { className: 'config-label', textContent: row.label }),
          element('span', { className: 'config-shape num', textContent: `${numHeads} × ${dK}` }),
        ]),
        ...TABLE_COLUMNS.map((c) => element('td', {
          className: `num${c.key === 'attention' ? ' attention-cell' : ''}`,
          dataset: { label: c.label, part: c.key },
          textContent: formatCount(row.counts[c.key]),
        })),
        time,
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
    this.#renderTable(this.view.table, this.state);
    this.runner.start(this.config, seqLen, {
      onProgress: (fraction) => { this.progress.value = fraction; },
      onResult: (index, result) => {
        this.measurement.results[index] = result;
        this.#renderTable(this.view.table, this.state);
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
    this.#endMeasure('Measurement cancelled; times already measured stay in the table.');
  }

  #endMeasure(text) {
    const hadFocus = this.root.activeElement === this.cancelButton;
    this.measureButton.disabled = false;
    this.cancelButton.disabled = true;
    this.progress.hidden = true;
    this.measureStatus.textContent = text;
    if (hadFocus) this.measureButton.focus();
  }

  // ---- the price: the rank of W_Q^i (W_K^i)^T ---------------------------------------

  #buildSpectrum() {
    const choices = this.config.spectrum.dModelChoices;
    const dModel = labelledSelect('d_model', 'Spectrum panel: model width d_model', (value) => this.#changeSpectrumDModel(value));
    setOptions(dModel.select, choices);
    const heads = labelledSelect('heads h', 'Spectrum panel: number of heads h', (value) => (
      this.#propose({ spectrumHeads: value, spectrumHead: Math.min(this.state.spectrumHead, value - 1) })));
    const head = labelledSelect('head', 'Spectrum panel: head', (value) => this.#propose({ spectrumHead: value }));
    this.spectrumDModelSelect = dModel.select;
    this.spectrumHeadsSelect = heads.select;
    this.spectrumHeadSelect = head.select;
    this.spectrumNote = element('p', { className: 'note', role: 'status' });
    this.rankLine = element('p', { className: 'rank-line num' });
    this.spectrumChart = new SpectrumChart({ label: 'Singular values' });
    this.spectrumTable = element('tbody');
    this.spectrumSummary = element('summary', { textContent: 'All singular values' });
    return element('section', { className: 'panel', ariaLabel: 'Rank of one head’s similarity matrix', dataset: { panel: 'spectrum' } }, [
      element('h3', {}, ['The price: head ', mathText('i'), ' compares tokens through a matrix of rank at most ', mathText('d_k')]),
      element('p', {}, [
        'The singular values of ', mathText('W_Q^i (W_K^i)^T'),
        ' (random weights), largest first. This panel uses its own small model, with ', mathText('d_model'),
        ` at most ${Math.max(...choices)}: decomposing a full-width matrix takes too long to redo on every edit.`,
      ]),
      element('div', { className: 'selects' }, [dModel.field, heads.field, head.field]),
      this.spectrumNote,
      this.rankLine,
      this.spectrumChart.element,
      element('details', {}, [
        this.spectrumSummary,
        element('table', { className: 'spectrum-table' }, [
          element('caption', {
            textContent: `Values below ${this.config.spectrum.relativeTolerance.toExponential(0)} × σ1 count as zero: rounding in the core’s double-precision arithmetic leaves them near 1e-16 rather than exactly 0.`,
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

  #changeSpectrumDModel(dModel) {
    const { spectrumHeads: heads, spectrumHead: head } = this.state;
    const fits = dModel % heads === 0;
    const next = fits ? heads : nearestDivisor(dModel, heads);
    const error = this.#propose({ spectrumDModel: dModel, spectrumHeads: next, spectrumHead: Math.min(head, next - 1) });
    this.spectrumNote.textContent = error
      ? `The core refused this width: ${error}`
      : fits ? '' : `h = ${heads} does not divide d_model = ${dModel}, so h is now ${next}, the nearest divisor.`;
  }

  #renderSpectrum(spectrum) {
    const { dModel, numHeads, dK } = spectrum.config;
    const { values, nonZero, head } = spectrum;
    this.rankLine.replaceChildren(
      'non-zero singular values: ', element('strong', { className: 'nonzero-count', textContent: String(nonZero) }),
      ' (', mathText('d_k'), ' = ', element('strong', { className: 'spectrum-dk', textContent: String(dK) }), ')',
    );
    const largest = values[0];
    this.spectrumChart.draw(values, {
      nonZero,
      className: headClass(head),
      scaleText: `top of the scale: σ1 = ${formatNumber(largest, 3)}`,
      description: `Singular values of head ${head + 1} of ${numHeads} (d_model = ${dModel}): ${nonZero} non-zero, ${values.slice(0, nonZero).map((v) => formatNumber(v, 3)).join(', ')}; the other ${values.length - nonZero} are zero.`,
    });
    this.spectrumSummary.textContent = `All ${values.length} singular values of head ${head + 1}`;
    this.spectrumTable.replaceChildren(...values.map((v, i) => element('tr', { className: i < nonZero ? '' : 'zero-row' }, [
      element('th', { scope: 'row', className: 'num', textContent: `σ${i + 1}` }),
      element('td', { className: 'num', textContent: i < nonZero ? formatNumber(v, 4) : v.toExponential(1) }),
      element('td', { textContent: i < nonZero ? 'non-zero' : 'zero' }),
    ])));
  }

  // ---- everything ---------------------------------------------------------------------

  render(view, state) {
    // A note about a replaced h belongs to the edit that made it (set after this render).
    this.headsNote.textContent = '';
    this.spectrumNote.textContent = '';
    this.dModelSelect.value = String(state.dModel);
    setOptions(this.headsSelect, divisors(state.dModel, this.config.maxHeads));
    this.headsSelect.value = String(state.heads);
    this.seqSlider.value = String(state.seqLen);
    this.seqSlider.setAttribute('aria-valuetext', `${state.seqLen} tokens`);
    if (!this.typingSeq && this.seqField.getAttribute('aria-invalid') !== 'true') this.seqField.value = String(state.seqLen);
    this.spectrumDModelSelect.value = String(state.spectrumDModel);
    setOptions(this.spectrumHeadsSelect, divisors(state.spectrumDModel));
    this.spectrumHeadsSelect.value = String(state.spectrumHeads);
    setOptions(this.spectrumHeadSelect, Array.from({ length: state.spectrumHeads }, (_, i) => i), (i) => `head ${i + 1}`);
    this.spectrumHeadSelect.value = String(state.spectrumHead);

    this.#renderWidth(view.main);
    this.#renderCounts(view.main, view.oneHead);
    this.#renderTable(view.table, state);
    this.#renderSpectrum(view.spectrum);

    const { config, counts } = view.main;
    const s = view.spectrum;
    this.announcer.textContent = `d_model ${config.dModel} in ${config.numHeads} heads of width ${config.dK}, L ${config.seqLen}: ` +
      `attention costs ${formatCount(counts.attention)} multiply-adds, the same as one head of width ${view.oneHead.config.dK} ` +
      `(${formatCount(view.oneHead.counts.attention)}). Spectrum: ${s.nonZero} non-zero singular values, d_k ${s.config.dK}.`;
  }
}

HeadSplittingWidget.define();
