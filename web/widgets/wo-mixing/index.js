// <mha-wo-mixing>: concatenation keeps every head in a private slice of coordinates; W_O can
// write each head into any direction. In the lesson's one world (world.js) the learner
// edits W_O (a colour grid: drag, keys, exact values; presets), sees the output for one
// token as a stack of per-head contributions head_i W_O^i, and measures who a later layer
// reading direction u hears, with this W_O and with W_O = I. Every number comes from the
// core (wo-mixing-model.js). See README.md.
import { MhaWidget } from '../shared/widget-base.js';
import { editHint } from '../shared/widget-attributes.js';
import { element, morphChildren } from '../../ui/dom.js';
import { THE_WORLD, headClass } from '../shared/world.js';
import { messagesFor } from '../shared/i18n.js';
import { NarrowSwitch } from '../../ui/narrow-switch.js';
import { revealInRow } from '../../ui/choice-group.js';
import { MatrixGrid } from '../../ui/matrix-grid.js';
import { StackedBars, stackExtent } from '../../ui/stacked-bars.js';
import { notation, spoken } from '../../ui/notation.js';
import { kitSheet } from '../../ui/styles.js';
import { layerLink } from '../shared/page-links.js';
import {
  WoMixingModel, attributeOverrides, describeAlong, directionValues, matchingDirection, matchingPreset,
  presetValues, sanitizeWoState, startingState, woMixingConfig, woMixingWorldNeeds, worldWoMixingData,
} from './wo-mixing-model.js';
import styles from './wo-mixing.css?inline';

const numbers = (n) => Array.from({ length: n }, (_, k) => String(k + 1));
const headColour = (head) => `var(--${headClass(head)})`;
/** A band label that fits beside three rows: merged heads by their members' first words. */
const shortName = (head, m) => (!head.merged ? m.headName(head)
  : head.members.length > 2 ? m.t('woMixing.allMerged', { count: head.members.length })
    : head.members.map((member) => m.headName(member).split(/[ -]/)[0]).join(' + '));

// Ids of the figures the controls change (each control names them in aria-controls, and the
// base brings them into view with a focused control).
const HEADS_PANEL = 'wo-heads';
const WO_PANEL = 'wo-matrix';
const OUTPUT_PANEL = 'wo-output';
const READER_PANEL = 'wo-reader';

export class WoMixingWidget extends MhaWidget {
  static tag = 'mha-wo-mixing';
  static stateKey = 'wo-mixing';
  static styles = styles;

  static worldNeeds(w, m) {
    return woMixingWorldNeeds(w, m);
  }

  defaultConfig() {
    const m = messagesFor(this);
    // The lesson's presets name the lesson's heads; another world gets the same ones laid out on its heads.
    const config = this.world === THE_WORLD ? woMixingConfig() : woMixingConfig(worldWoMixingData(this.world, m), this.world);
    const { overrides, problems } = attributeOverrides(config, {
      heads: this.getAttribute('heads'), token: this.getAttribute('token'),
    }, m);
    // This widget's layer is the lesson's one world: there is nothing an author could
    // configure that would keep it the same world, so `config` is refused, not ignored.
    if (this.hasAttribute('config')) problems.push(m.t('woMixing.noConfig'));
    if (problems.length) this.showNotice(m.t('woMixing.ignored', { problems: problems.join('; ') }));
    this.overrides = overrides;
    return config;
  }

  defaultState() {
    return startingState(this.config, this.overrides);
  }

  sanitizeState(raw) {
    return sanitizeWoState(this.config, raw);
  }

  build() {
    // The kit's sheet goes before this widget's own, so the widget can adjust the kit's look.
    const sheets = [...this.root.adoptedStyleSheets];
    sheets.splice(sheets.length - 1, 0, kitSheet());
    this.root.adoptedStyleSheets = sheets;
    const m = this.m = messagesFor(this);
    this.models = new WoMixingModel(this.engine, this.config);
    this.gridsFor = null; // the head count the grids are built for
    this.valuesMode = false;

    const caption = this.#buildCaption();
    const top = this.#buildTop();
    const headsPanel = this.#buildHeadsPanel();
    const { woPanel, woPresets } = this.#buildWoPanel();
    const outputPanel = this.#buildOutputPanel();
    const readerPanel = this.#buildReaderPanel();

    // On a phone, W_O (the control) stays and one figure at a time is shown with it: the
    // output it makes (under the grid), who a reader along u hears, or the heads' outputs
    // that go in (above the grid).
    this.narrow = new NarrowSwitch({
      label: m.t('woMixing.narrow.label'), value: 'output', messages: m, options: [
        { value: 'output', content: m.t('woMixing.narrow.output'), label: m.t('woMixing.narrow.outputLabel'), panels: [outputPanel] },
        { value: 'reader', content: m.t('woMixing.narrow.reader'), panels: [readerPanel] },
        { value: 'heads', content: m.t('woMixing.narrow.heads'), label: m.t('woMixing.narrow.headsLabel'), panels: [headsPanel] },
      ],
    });
    this.announcer = element('p', { className: 'sr-only', ariaLive: 'polite' });
    this.body.append(
      caption, top, this.narrow.element, headsPanel,
      element('div', { className: 'pair' }, [woPanel, woPresets, element('div', { className: 'effect' }, [outputPanel, readerPanel])]),
      this.announcer,
    );
  }

  // ---- building: the caption, the controls and the four panels --------------------------

  // The row is the Complement finder's first coordinate of Concat; the column is where the
  // Subject finder's first coordinate already goes (the "shared" preset says so in words).
  // A world without a reader: the second head's first coordinate and the first head's, as
  // its own "shared" preset has them; a world of one head has no second head to bring in.
  #buildCaption() {
    const { m } = this;
    const { w } = this.config;
    const [into, from] = w.reader ? [w.reader.subjectHead, w.reader.complementHead] : [0, 1];
    const caption = element('p', { className: 'caption' });
    if (from < w.numHeads) {
      const cell = { row: from * w.dK + 1, column: into * w.dK + 1 };
      caption.append(...editHint(
        element('span', {}, notation(m.t('woMixing.caption', cell))),
        element('span', {}, notation(m.t('woMixing.captionReadOnly', cell))),
      ));
    }
    caption.append(' ', layerLink('mix', undefined, m));
    return caption;
  }

  // The layer's shape and the token whose vectors are shown.
  #buildTop() {
    const { m } = this;
    const { w } = this.config;
    this.headsSelect = element('select', { ariaLabel: m.t('woMixing.headsLabel') }, w.headCounts.slice().reverse().map((h) =>
      element('option', { value: String(h), textContent: m.t(h < w.numHeads ? 'woMixing.headsOptionMerged' : 'woMixing.headsOption', { count: h, width: w.dModel / h }) })));
    this.headsSelect.setAttribute('aria-controls', `${HEADS_PANEL} ${OUTPUT_PANEL}`);
    this.headsSelect.addEventListener('change', () => this.#propose({ heads: Number(this.headsSelect.value) }));
    this.tokenChips = w.tokens.map((word, i) => {
      const chip = element('button', { type: 'button', className: 'chip', textContent: word, tabIndex: -1 });
      chip.setAttribute('role', 'radio');
      chip.setAttribute('aria-label', m.t('woMixing.chip', { word, number: i + 1 }));
      chip.setAttribute('aria-controls', `${HEADS_PANEL} ${OUTPUT_PANEL}`);
      chip.addEventListener('click', () => this.#propose({ token: i }));
      return chip;
    });
    const tokens = element('div', { className: 'chips ui-row-narrow', role: 'radiogroup', ariaLabel: m.t('woMixing.tokensLabel') }, this.tokenChips);
    tokens.addEventListener('keydown', (event) => this.#tokenKey(event));
    return element('div', { className: 'top' }, [
      this.historyToolbar(m.t('woMixing.history')),
      element('label', { className: 'field' }, [element('span', { textContent: m.t('woMixing.heads') }), this.headsSelect]),
      element('div', { className: 'field tokens' }, [element('span', { textContent: m.t('woMixing.token'), ariaHidden: 'true' }), tokens]),
    ]);
  }

  // 1. The heads' outputs for the token, and their concatenation.
  #buildHeadsPanel() {
    this.headsTitle = element('h3');
    this.headOutputs = element('div', { className: 'head-outputs' });
    this.concatHost = element('div', { className: 'concat' });
    return element('section', { className: 'panel heads-panel', id: HEADS_PANEL, dataset: { panel: 'heads' } }, [
      this.headsTitle,
      element('div', { className: 'heads-row' }, [
        this.headOutputs,
        element('div', { className: 'concat-box' }, [
          element('h4', {}, notation(this.m.t('woMixing.concatHeading'))),
          this.concatHost,
        ]),
      ]),
    ]);
  }

  // 2. W_O: presets and the editable grid (the control).
  #buildWoPanel() {
    const { config, m } = this;
    this.presetButtons = config.presets.map((preset) => {
      const button = element('button', { type: 'button', className: 'secondary', textContent: m.dataText('data.woMixing', preset.label) });
      button.setAttribute('aria-controls', `${OUTPUT_PANEL} ${READER_PANEL}`);
      button.addEventListener('click', () => this.#propose({ wo: presetValues(config, preset.id) }));
      return button;
    });
    this.presetAbout = element('p', { className: 'muted preset-about' });
    this.woHost = element('div', { className: 'wo-grid' });
    this.valuesButton = element('button', { type: 'button', className: 'secondary', textContent: m.t('woMixing.showNumbers') });
    this.valuesButton.setAttribute('aria-pressed', 'false');
    this.valuesButton.setAttribute('aria-controls', WO_PANEL);
    this.valuesButton.addEventListener('click', () => this.#setValuesMode(!this.valuesMode));
    // "Show the numbers" changes how the grid is drawn, so it sits on the grid's heading line.
    const woPanel = element('section', { className: 'panel wo-panel', id: WO_PANEL, dataset: { panel: 'wo' } }, [
      element('div', { className: 'wo-heading' }, [element('h3', {}, notation(m.t('woMixing.woHeading'))), this.valuesButton]),
      element('p', { className: 'hint' }, [
        ...notation(m.t('woMixing.woHint')), ' ',
        ...editHint(element('span', {}, notation(m.t('woMixing.woHintEdit')))),
      ]),
      this.woHost,
    ]);
    // Presets sit under the grid when wide; on a phone they are drawn under the figures
    // (wo-mixing.css), so that the grid and what it changes stay next to each other. The
    // DOM (tab) order is the wide one: grid, presets, then the figures and u.
    const woPresets = element('div', { className: 'wo-presets', dataset: { panel: 'wo' } }, [
      element('div', { className: 'toolbar presets', role: 'group', ariaLabel: m.t('woMixing.presets') }, this.presetButtons),
      this.presetAbout,
    ]);
    return { woPanel, woPresets };
  }

  // 3. The output for the token as the stack of the heads' contributions (the effect).
  #buildOutputPanel() {
    const { m } = this;
    const { w } = this.config;
    this.outputTitle = element('h3');
    this.contributionBars = new StackedBars({ label: m.t('woMixing.contributionsLabel'), columnLabels: numbers(w.dModel), height: 124, columnWidth: 26, gap: 6 });
    this.legend = element('ul', { className: 'legend' });
    return element('section', { className: 'panel output-panel', id: OUTPUT_PANEL, dataset: { panel: 'output' } }, [
      this.outputTitle,
      element('figure', { className: 'bars' }, [
        this.contributionBars.element,
        element('figcaption', {}, [this.legend, element('span', { className: 'muted', textContent: m.t('woMixing.contributionsNote') })]),
      ]),
    ]);
  }

  // 4. Who a later layer reading direction u hears.
  #buildReaderPanel() {
    const { config, m } = this;
    const { w } = config;
    this.directionButtons = config.directions.map((direction) => {
      const button = element('button', { type: 'button', className: 'secondary' }, notation(direction.label));
      // The name starts with the visible text ("u = e1"), then says what the direction is.
      button.setAttribute('aria-label', `${button.textContent} (${m.dataText('data.woMixing', direction.about)})`);
      button.setAttribute('aria-controls', READER_PANEL);
      button.addEventListener('click', () => this.#propose({ u: directionValues(config, direction.id) }));
      return button;
    });
    this.uGrid = new MatrixGrid({
      label: m.t('woMixing.uLabel', { count: w.dModel }), rows: 1, cols: w.dModel, data: config.directions[0].values, messages: m,
      max: config.colourMax, colLabels: numbers(w.dModel), rowLabels: ['u'],
      rowName: () => 'u', colName: (c) => m.t('woMixing.coordinate', { number: c + 1 }),
      limits: { min: -config.uLimit, max: config.uLimit }, ...this.#steps(), readonly: this.readOnly, controls: READER_PANEL,
      onPropose: (r, c, value) => this.#propose({ u: this.shown.u.map((v, k) => (k === c ? value : v)) }),
    });
    this.groupEdits(this.uGrid.element); // a drag, or a typed value, is one undo step
    this.heardBars = new StackedBars({ label: m.t('woMixing.heardLabel'), columnLabels: [m.t('woMixing.thisMatrix'), m.t('woMixing.identity')], height: 170, columnWidth: 84, gap: 34 });
    this.sentence = element('p', { className: 'sentence' });
    return element('section', { className: 'panel reader-panel', id: READER_PANEL, dataset: { panel: 'reader' } }, [
      element('h3', { textContent: m.t('woMixing.readerHeading') }),
      element('div', { className: 'toolbar directions', role: 'group', ariaLabel: m.t('woMixing.directions') }, this.directionButtons),
      this.uGrid.element,
      element('div', { className: 'heard' }, [
        element('figure', { className: 'bars' }, [
          this.heardBars.element,
          element('figcaption', { className: 'muted' }, notation(m.t('woMixing.heardNote'))),
        ]),
        this.sentence,
      ]),
    ]);
  }

  dispose() {
    this.models?.dispose();
    this.models = null;
  }

  compute(state) {
    return this.models.compute(state);
  }

  #steps() {
    const { step, fineStep, bigStep, dragPerPixel } = this.config;
    return { step, fineStep, bigStep, dragPerPixel, decimals: 2 };
  }

  #propose(patch) {
    return this.commit({ ...this.shown, ...patch });
  }

  // Token chips are one radio group: one Tab stop, arrows move and pick.
  #tokenKey(event) {
    const moves = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
    const L = this.tokenChips.length;
    let next = null;
    if (event.key in moves) next = (this.shown.token + moves[event.key] + L) % L;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = L - 1;
    if (next === null || this.readOnly) return;
    event.preventDefault();
    this.#propose({ token: next });
    this.tokenChips[next].focus();
  }

  #setValuesMode(on) {
    this.valuesMode = on;
    this.valuesButton.setAttribute('aria-pressed', String(on));
    this.body.classList.toggle('values-mode', on); // the W_O column widens to show its numbers
    for (const grid of [this.woGrid, this.concatGrid, this.uGrid]) grid?.setValuesMode(on);
  }

  // The grids' bands follow the heads, so they are made anew when the head count changes.
  #buildGrids(heads, view) {
    const { config, m } = this;
    const d = config.w.dModel;
    const headOf = (k) => heads.find((head) => k >= head.start && k < head.end);
    const active = this.woGrid ? [Math.floor(this.woGrid.active / d), this.woGrid.active % d] : null;
    this.woGrid = new MatrixGrid({
      label: m.t('woMixing.woLabel', { rows: d, cols: d }), messages: m,
      rows: d, cols: d, data: this.shown.wo, max: config.colourMax,
      rowLabels: numbers(d), colLabels: numbers(d),
      rowGroups: heads.map((head) => ({ start: head.start, end: head.end, colour: headColour(head), label: shortName(head, m) })),
      rowName: (r) => m.t('woMixing.rowName', { number: r + 1, name: m.headName(headOf(r)), coordinate: r - headOf(r).start + 1 }),
      colName: (c) => m.t('woMixing.output', { number: c + 1 }),
      limits: { min: -config.woLimit, max: config.woLimit }, ...this.#steps(), readonly: this.readOnly,
      controls: `${OUTPUT_PANEL} ${READER_PANEL}`,
      onPropose: (r, c, value) => this.#propose({ wo: this.shown.wo.map((v, k) => (k === r * d + c ? value : v)) }),
    });
    this.concatGrid = new MatrixGrid({
      label: m.t('woMixing.concatLabel'), rows: 1, cols: d, data: view.concat, max: config.colourMax, messages: m,
      colLabels: numbers(d), readonly: true, decimals: 2,
      columnGroups: heads.map((head) => ({ start: head.start, end: head.end, colour: headColour(head), label: shortName(head, m) })),
      rowName: () => 'Concat', colName: (c) => m.t('woMixing.concatColumn', { number: c + 1, name: m.headName(headOf(c)) }),
    });
    if (active) this.woGrid.focusCell(active[0], active[1], false);
    // One drag, or one exact value typed character by character, is one undo step (the
    // base's edit groups); a key step on a cell is an edit of its own.
    this.groupEdits(this.woGrid.element);
    // The focused cell's path: W_O[r, c] multiplies Concat coordinate r and writes output c.
    this.woGrid.element.addEventListener('focusin', (event) => {
      const cell = event.target.closest?.('.ui-cell');
      if (cell) this.#showPath({ row: Number(cell.dataset.row), col: Number(cell.dataset.col) });
    });
    this.woGrid.element.addEventListener('focusout', (event) => {
      if (!this.woGrid.element.contains(event.relatedTarget)) this.#showPath(null);
    });
    this.path = null;
    this.woHost.replaceChildren(this.woGrid.element);
    this.concatHost.replaceChildren(this.concatGrid.element);
    this.#setValuesMode(this.valuesMode);
    this.headCharts = heads.map((head) => {
      const chart = new StackedBars({ label: m.t('woMixing.headOutput', { name: m.headName(head) }), columnLabels: numbers(head.end - head.start), height: 96, columnWidth: 18, gap: 4 });
      const box = element('figure', { className: `head-output ${headClass(head)}` }, [
        element('figcaption', { textContent: m.headName(head) }), chart.element,
      ]);
      return { chart, box };
    });
    this.headOutputs.replaceChildren(...this.headCharts.map((c) => c.box));
    this.legend.replaceChildren(...heads.map((head) => element('li', { className: headClass(head) }, [
      element('span', { className: 'swatch', ariaHidden: 'true' }), m.headName(head),
    ])));
    this.gridsFor = heads.length;
  }

  #showPath(path) {
    this.path = path;
    this.concatGrid.highlight(path ? { cols: [path.row] } : null);
    this.#drawContributions(this.view, this.config.w.tokens[this.shown.token]);
  }

  #drawContributions(view, token) {
    const { heads } = view;
    const { m } = this;
    const d = this.config.w.dModel;
    const parts = view.contributions.map((values, i) => ({ values, colour: headColour(heads[i]) }));
    this.contributionBars.draw(parts, {
      scale: Math.max(1, stackExtent(parts, d)),
      totals: view.output,
      columnClasses: Array.from({ length: d }, (_, j) => (j === this.path?.col ? 'current' : '')),
      description: m.t('woMixing.outputDescription', {
        token, values: vector(view.output, m),
        parts: view.contributions.map((c, i) => m.t('woMixing.contributes', { name: m.headName(heads[i]), values: vector(c, m) })).join('; '),
      }),
    });
  }

  render(view, state) {
    this.shown = state;
    const { config, m } = this;
    const { w } = config;
    const { heads } = view;
    const token = w.tokens[state.token];
    if (this.gridsFor !== state.heads) this.#buildGrids(heads, view);
    this.headsSelect.value = String(state.heads);
    this.tokenChips.forEach((chip, i) => {
      chip.setAttribute('aria-checked', String(i === state.token));
      chip.tabIndex = i === state.token ? 0 : -1;
    });
    // On a phone the chips are one row that scrolls sideways: the chosen word is shown.
    if (this.chipShown !== state.token && revealInRow(this.tokenChips[0].parentElement, this.tokenChips[state.token])) this.chipShown = state.token;

    // 1. Head outputs (one scale for all heads, so their sizes compare) and Concat.
    morphChildren(this.headsTitle, notation(m.t('woMixing.headsTitle', { token, width: view.headWidth })));
    const headScale = Math.max(...view.headOutputs.map((o) => stackExtent([{ values: o }], o.length)));
    view.headOutputs.forEach((values, i) => this.headCharts[i].chart.draw([{ values, colour: headColour(heads[i]) }], {
      scale: headScale,
      description: m.t('woMixing.headOutputDescription', { name: m.headName(heads[i]), token, values: vector(values, m) }),
    }));
    this.concatGrid.setData(view.concat);

    // 2. W_O, with whatever a refused edit left on the grids cleared (a commit succeeded).
    const preset = matchingPreset(config, state.wo);
    this.presetButtons.forEach((button, k) => button.setAttribute('aria-pressed', String(config.presets[k] === preset)));
    morphChildren(this.presetAbout, notation(preset ? m.dataText('data.woMixing', preset.about) : m.t('woMixing.ownWo')));
    this.woGrid.setData(state.wo);
    this.uGrid.setData(state.u);
    for (const grid of [this.woGrid, this.uGrid]) {
      grid.showError('');
      for (const cell of grid.cells) cell.removeAttribute('aria-invalid');
    }

    // 3. The output as stacked contributions head_i W_O^i (the core's), totals marked.
    morphChildren(this.outputTitle, notation(m.t('woMixing.outputTitle', { token })));
    this.#drawContributions(view, token);

    // 4. Who is heard along u: with this W_O and with W_O = I, side by side.
    const direction = matchingDirection(config, state.u);
    this.directionButtons.forEach((button, k) => button.setAttribute('aria-pressed', String(config.directions[k] === direction)));
    const heard = heads.map((head, i) => ({ values: [view.withMixing.heads[i], view.withoutMixing.heads[i]], colour: headColour(head) }));
    const sentence = describeAlong(config, view, m);
    this.heardBars.draw(heard, {
      scale: Math.max(1, stackExtent(heard, 2)),
      totals: [view.withMixing.total, view.withoutMixing.total],
      description: spoken(sentence),
    });
    morphChildren(this.sentence, notation(sentence));
    const spokenText = spoken(sentence);
    if (this.announcer.textContent !== spokenText) this.announcer.textContent = spokenText;
  }
}

/** Numbers in a list: "0.50, −0.20" (in German "0,50; −0,20", since the comma is taken). */
function vector(values, m) {
  return values.map((v) => m.number(v)).join(m.decimalSeparator === ',' ? '; ' : ', ');
}

WoMixingWidget.define();
