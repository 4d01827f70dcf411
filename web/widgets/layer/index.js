// <mha-layer>: the whole multi-head attention layer of the lesson's one world at a glance,
// every intermediate drawn as a colour grid with its real shape and the core's values:
//   X -> Q, K, V (each head's slice in its colour) -> each head's weights -> Concat -> W_O
//   -> output.
// Pick a word and a head and its path lights up; switch h (1, 2, 4 at the same d_model)
// and the heads' slices widen or narrow. It is the map the other widgets zoom into.
// See README.md for attributes, state and events.
import { MhaWidget } from '../shared/widget-base.js';
import { editHint } from '../shared/widget-attributes.js';
import { element } from '../../ui/dom.js';
import { messagesFor } from '../shared/i18n.js';
import { headClass } from '../shared/world.js';
import { roundToSum } from '../../ui/budget-math.js';
import { MatrixGrid } from '../../ui/matrix-grid.js';
import { mathText } from '../../ui/notation.js';
import { kitSheet } from '../../ui/styles.js';
import { WIDGETS } from '../registry.js';
import { ChoiceGroup } from '../../ui/choice-group.js';
import { HeightFloor } from './height-floor.js';
import { bringIntoView, zoomLink } from '../shared/page-links.js';
import {
  LayerModel, defaultLayerState, headAcrossSwitch, layerOverrides, pathSentence, sanitizeLayerState,
} from './layer-model.js';
import styles from './layer.css?inline';

/** The colour of a head of headsAt() as a CSS value (its custom property, light or dark). */
const headColour = (head) => `var(--${headClass(head)})`;
const columns = (head) => `${head.start + 1}–${head.end}`;

export class LayerWidget extends MhaWidget {
  static tag = 'mha-layer';
  static stateKey = 'layer';
  static styles = styles;

  defaultConfig() {
    const attribute = (name) => (this.hasAttribute(name) ? this.getAttribute(name) : null);
    const m = messagesFor(this);
    const { overrides, problems } = layerOverrides(this.world, { heads: attribute('heads'), token: attribute('token'), head: attribute('head') }, m);
    // The map is the lesson's one world: nothing an author could configure keeps it that.
    if (this.hasAttribute('config')) problems.push(m.t('layer.configIgnored'));
    if (problems.length) this.showNotice(m.t('layer.ignored', { problems: problems.join('; ') }));
    return { start: overrides };
  }

  defaultState() {
    return defaultLayerState(this.world, this.config.start);
  }

  sanitizeState(raw) {
    return sanitizeLayerState(raw, this.world);
  }

  compute(state) {
    return this.model.compute(state);
  }

  dispose() {
    this.heightFloor?.disconnect();
    this.heightFloor = null;
    this.model?.dispose();
    this.model = null;
    this.maps = new Map();
  }

  build() {
    if (!this.root.adoptedStyleSheets.includes(kitSheet())) this.root.adoptedStyleSheets = [...this.root.adoptedStyleSheets, kitSheet()];
    const m = this.m = messagesFor(this);
    this.model = new LayerModel(this.engine, this.world);
    this.maps = new Map(); // h -> the drawn map at h (drawn on first use, then kept)

    this.countChoice = new ChoiceGroup({
      label: m.t('layer.count'), className: 'count-choice', controls: MAP_ID,
      onChoose: (h) => this.#switchHeads(h),
    });
    this.countChoice.setOptions(this.world.headCounts.map((h) => ({ value: h, content: String(h), label: `h = ${h}` })));
    this.headChoice = new ChoiceGroup({ label: m.t('layer.head'), className: 'head-choice', controls: MAP_ID, onChoose: (head) => this.#pick({ head }) });
    this.tokenChoice = new ChoiceGroup({ label: m.t('layer.word'), className: 'token-choice ui-row-narrow', controls: MAP_ID, onChoose: (token) => this.#pick({ token }) });
    this.tokenChoice.setOptions(this.world.tokens.map((token, t) => ({ value: t, content: token, label: m.t('layer.wordOption', { token, number: t + 1 }) })));

    const history = this.historyToolbar(m.t('layer.history'));
    for (const button of history.querySelectorAll('button')) button.setAttribute('aria-controls', MAP_ID);
    this.pathText = element('p', { className: 'path-text', ariaLive: 'polite' });
    this.switchNote = null; // { text, state }: said while the state is the one it was said of
    const hoverHint = () => m.t(this.readOnly ? 'layer.hoverHintReadOnly' : 'layer.hoverHint');
    this.readout = element('p', { className: 'readout', ariaHidden: 'true', textContent: hoverHint() });
    // On a phone the map shows one stage at a time (the whole map is three screens there);
    // wider, every stage is in view and this choice is not shown.
    this.stageChoice = new ChoiceGroup({ label: m.t('layer.stageShown'), className: 'stage-choice', controls: MAP_ID, onChoose: (stage) => this.#showStage(stage) });
    this.stageChoice.setOptions(STAGE_CHOICES.map((value) => ({ value, content: m.t(`layer.stageChoice.${value}`) })));
    const labelled = (name, label, group) => element('div', { className: `control control-${name}` }, [
      element('span', { className: 'control-label', ariaHidden: 'true' }, [label]), group,
    ]);
    const controls = element('div', { className: 'controls', dataset: { panel: 'controls' } }, [
      element('div', { className: 'control-grid' }, [
        labelled('count', mathText('h'), this.countChoice.element),
        labelled('heads', m.t('layer.head'), this.headChoice.element),
        labelled('words', m.t('layer.word'), this.tokenChoice.element),
        history,
      ]),
      this.pathText,
      this.readout,
      labelled('stage', m.t('ui.narrow.show'), this.stageChoice.element),
    ]);

    this.mapHost = element('div', { className: 'map-host', id: MAP_ID });
    this.#showStage('attend');
    // Only the map at the starting h is drawn now; the maps at the other h are drawn when
    // the page is idle, or the first time the learner switches to one, and then kept
    // (hidden while another h is shown).
    // Each map was about 2,900 elements (about 800 since its rows are painted, MatrixGrid's
    // paintRows): drawing all three when the widget was built tripled the time to the
    // first widget a learner sees (the layer is at the top of the lesson).
    // This first map also gives the base class the panel names (its stages) before the
    // state is restored.
    this.#mapFor(this.model.forward(this.defaultState().h));
    this.mapHost.addEventListener('click', (event) => this.#clickMap(event));
    // Over a cell, and along a painted row (one element for the row's cells): pointerover
    // alone would not see the pointer move from cell to cell; a touch fires it, not moves.
    this.mapHost.addEventListener('pointerover', (event) => this.#hover(event));
    this.mapHost.addEventListener('pointermove', (event) => this.#hover(event));
    this.mapHost.addEventListener('pointerleave', () => { this.hovered = null; this.readout.textContent = hoverHint(); });

    this.numbers = this.#numbersPanel();
    // The walk through one head for the picked word (query, scores, softmax, weighted sum)
    // comes before the map: the map is that walk for every word and head at once.
    this.body.append(
      ...editHint(element('p', { className: 'try' }, m.nodes('layer.try', { h: mathText('h') })),
        element('p', { className: 'try' }, m.nodes('layer.tryReadOnly', { h: mathText('h') }))),
      controls,
      this.numbers.element,
      this.mapHost,
    );
    // While the learner switches h the layer keeps its height, so that the lesson below
    // does not move (height-floor.js); the numbers, another stage or another width let go.
    this.heightFloor = new HeightFloor(this.body);
    this.#drawOtherMapsWhenIdle();
  }

  // The maps at the other h, drawn one per idle moment once the page has settled, so that a
  // learner's first switch of h shows a map already drawn (drawing it in the click was the
  // h switch's slowest case on a slow phone: issue 25), without delaying the widget's first
  // appearance. Not for a read-only widget (the learner cannot switch); a page's script that
  // sets another h before they are drawn draws that map then, as before. (Within 2 s even
  // where the page is never idle: a page busy with frames can starve idle callbacks.)
  #drawOtherMapsWhenIdle() {
    if (this.readOnly) return;
    const maps = this.maps;
    const whenIdle = (work) => (globalThis.requestIdleCallback
      ? requestIdleCallback(work, { timeout: 2000 }) : setTimeout(work, 1000));
    const drawNext = () => {
      if (this.maps !== maps || !this.model) return; // disposed or rebuilt since
      const h = this.world.headCounts.find((count) => !maps.has(count));
      if (h === undefined) return;
      this.#mapFor(this.model.forward(h));
      whenIdle(drawNext);
    };
    whenIdle(drawNext);
  }

  // `note`: said after the path (what became of the selected head on a new head count).
  #pick(change, note = '') {
    if (this.readOnly) return;
    const next = { ...this.state, ...change };
    this.switchNote = note ? { text: note, state: JSON.stringify(next) } : null;
    const error = this.commit(next);
    if (error) this.showNotice(error);
  }

  // A new head count keeps the selected head where it still exists, and says what it became
  // ("Previous word is now part of head 2 (Previous word + Gist)").
  #switchHeads(h) {
    if (h === this.state.h) return;
    const { head, kind, from, to } = headAcrossSwitch(this.world, this.state.h, this.state.head, h);
    const { m } = this;
    const note = kind === 'same' ? '' : m.t(`layer.switched.${kind}`, { from: m.headName(from), to: m.headName(to), number: head + 1 });
    if (!this.readOnly) this.heightFloor?.hold();
    this.#pick({ h, head }, note);
  }

  // ---- the map at one h -----------------------------------------------------------------

  #mapFor(view) {
    let map = this.maps.get(view.h);
    if (map) return map;
    const { heads } = view;
    const { m } = this;
    const { grids, weights } = this.#mapGrids(view);

    const part = (name, caption, g, extra = []) => element('figure', { className: 'part', dataset: { part: name } }, [
      element('figcaption', {}, caption), g.element, ...extra,
    ]);
    const shape = (rows, cols) => element('span', { className: 'shape', textContent: `${rows} × ${cols}` });
    const op = (text) => element('span', { className: 'op', ariaHidden: 'true' }, [mathText(text)]);
    const parts = {
      x: part('x', [mathText('X'), ' ', shape(this.world.L, this.world.dModel)], grids.x),
      queries: part('queries', [mathText('Q = XW_Q'), ' ', shape(this.world.L, this.world.dModel)], grids.queries),
      keys: part('keys', [mathText('K = XW_K'), ' ', shape(this.world.L, this.world.dModel)], grids.keys),
      values: part('values', [mathText('V = XW_V'), ' ', shape(this.world.L, this.world.dModel)], grids.values),
      concat: part('concat', [mathText('Concat'), ' ', shape(this.world.L, this.world.dModel)], grids.concat),
      wo: part('wo', [mathText('W_O'), ' ', shape(this.world.dModel, this.world.dModel)], grids.wo),
      output: part('output', [mathText(m.t('layer.output')), ' ', shape(this.world.L, this.world.dModel)], grids.output),
    };
    const weightParts = heads.map((head, i) => {
      const figure = part(`weights-${i}`, [
        element('span', { className: 'swatch', ariaHidden: 'true' }),
        ` ${i + 1}. ${m.headName(head)} `, shape(this.world.L, this.world.L),
      ], weights[i]);
      figure.classList.add('head-part', headClass(head));
      return figure;
    });
    const dK = `d_k = ${this.world.dModel}/h = ${view.dK}`;
    // Each stage ends with links to the widgets further down that zoom into it (on the
    // lesson page; hidden where those widgets are absent).
    const stage = (name, title, note, children) => {
      const zooms = (ZOOMS[name] ?? []).map((key) => zoomLink(WIDGETS[key].tag, m.widgetTitle(key, WIDGETS[key].title), m));
      return element('section', { className: `stage stage-${name}`, dataset: { panel: name } }, [
        element('div', { className: 'stage-head' }, [
          element('h3', { tabIndex: -1 }, [title, ' ', element('span', { className: 'stage-note' }, note)]),
          element('div', { className: 'zoom-links' }, zooms),
        ]),
        element('div', { className: 'stage-parts' }, children),
      ]);
    };
    const root = element('div', { className: 'map', dataset: { h: String(view.h) } }, [
      stage('project', m.t('layer.stage.project'), m.nodes('layer.stage.projectNote', {
        x: mathText('X'), wq: mathText('W_Q'), wk: mathText('W_K'), wv: mathText('W_V'), i: mathText('i'), dK: view.dK, dModel: this.world.dModel,
      }), [parts.x, op('→'), parts.queries, parts.keys, parts.values]),
      stage('attend', m.t('layer.stage.attend'), m.nodes('layer.stage.attendNote', { formula: mathText('softmax(Q_i K_i^T / √d_k)'), dK: mathText(dK) }),
        weightParts),
      stage('mix', m.t('layer.stage.mix'), m.nodes(view.h > 1 ? 'layer.stage.mixNoteMany' : 'layer.stage.mixNoteOne', { formula: mathText('[head_1 | … | head_h] W_O') }),
        [parts.concat, op('×'), parts.wo, op('='), parts.output]),
    ]);
    map = { h: view.h, root, grids, weights, parts, weightParts };
    this.maps.set(view.h, map);
    root.hidden = true; // shown by render()
    this.mapHost.append(root);
    // Drawn after the widget was built: the heading level and panels apply to it too.
    this.adoptContent(root);
    return map;
  }

  // Every matrix of the map at one h as a compact read-only grid, the heads' slices banded
  // in their colours; the heads' weights as heatmaps in theirs. Each row is one painted
  // cell (MatrixGrid paintRows): the map at one h was about 1,600 cells, the most of what a
  // slow phone spent on drawing the layer and on each switch of h (issue 25).
  #mapGrids(view) {
    const { heads } = view;
    const { m } = this;
    const grid = (label, matrix, options = {}) => new MatrixGrid({
      label, rows: matrix.rows, cols: matrix.cols, data: matrix.data,
      compact: true, readonly: true, focusable: false, paintRows: true, messages: m, ...options,
    });
    const bands = heads.map((head) => ({ start: head.start, end: head.end, colour: headColour(head), label: String(head.index + 1) }));
    const size = { rows: this.world.L, cols: this.world.dModel };
    const grids = {
      x: grid(m.t('layer.grid.x', size), view.x, { rowLabels: this.world.tokens, colLabels: this.world.featureNames.map((name) => m.featureName(name)) }),
      queries: grid(m.t('layer.grid.queries', size), view.queries, { columnGroups: bands }),
      keys: grid(m.t('layer.grid.keys', size), view.keys, { columnGroups: bands }),
      values: grid(m.t('layer.grid.values', size), view.values, { columnGroups: bands }),
      concat: grid(m.t('layer.grid.concat', size), view.concat, {
        columnGroups: bands, rowLabels: this.world.tokens, max: maxAbs(view.values.data),
      }),
      wo: grid(m.t('layer.grid.wo', { rows: this.world.dModel, cols: this.world.dModel }), view.wo, {
        rowGroups: heads.map((head) => ({ start: head.start, end: head.end, colour: headColour(head), label: String(head.index + 1) })),
      }),
      output: grid(m.t('layer.grid.output', size), view.output, { rowLabels: this.world.tokens }),
    };
    const weights = heads.map((head, i) => {
      const g = grid(m.t('layer.grid.weights', { number: i + 1, name: m.headName(head), rows: this.world.L, cols: this.world.L }), view.weights[i], {
        scale: 'sequential', hue: headColour(head), max: 1, rowLabels: this.world.tokens, colLabels: this.world.tokens,
      });
      g.element.classList.add('ui-heatmap');
      return g;
    });
    return { grids, weights };
  }

  // ---- rendering ------------------------------------------------------------------------

  render(view, state) {
    // The choices first, while the rest of the widget is unchanged: a chip just clicked has
    // focus, and setting its tab stop makes Chromium bring style and layout up to date at
    // once (choice-group.js). After the map below was switched, that restyled and laid out
    // the new map in the middle of the render, and what the render changed after it was
    // laid out again (issue 25); here there is next to nothing to bring up to date.
    this.#renderChoices(view, state);
    const map = this.#mapFor(view);
    for (const other of this.maps.values()) other.root.hidden = other !== map;
    const head = view.heads[state.head];
    const cols = range(head.start, head.end);
    const t = state.token;
    const rowCells = cols.map((c) => [t, c]);
    map.grids.x.highlight({ rows: [t] });
    map.grids.queries.highlight({ cells: rowCells });
    map.grids.keys.highlight({ cols });
    map.grids.values.highlight({ cols });
    map.grids.concat.highlight({ cells: rowCells });
    map.grids.wo.highlight({ rows: cols });
    map.grids.output.highlight({ rows: [t] });
    // Weights: the picked head's whole pattern stays visible with the picked word's row
    // outlined (the row is the word's budget); the other heads step back.
    this.hovered = null; // the values under the pointer may have changed
    map.weights.forEach((g, i) => {
      g.rowElements.forEach((tr, r) => tr.classList.toggle('ui-selected', i === state.head && r === t));
      map.weightParts[i].classList.toggle('is-off', i !== state.head);
      map.weightParts[i].classList.toggle('is-on', i === state.head);
    });

    const note = this.switchNote?.state === JSON.stringify(state) ? ` ${this.switchNote.text}` : '';
    this.pathText.textContent = `${pathSentence(view, state, this.m)}${note}`;
    this.#renderNumbers(view, state);
  }

  #renderChoices(view, state) {
    this.countChoice.setValue(state.h);
    if (this.headChoice.values.length !== view.h || this.headsShownFor !== view.h) {
      this.headChoice.setOptions(view.heads.map((h) => ({
        value: h.index,
        content: [element('span', { className: 'swatch', ariaHidden: 'true' }), element('span', { className: 'head-number', textContent: `${h.index + 1}. ` }), this.m.headName(h)],
        className: headClass(h),
      })));
      this.headsShownFor = view.h;
    }
    this.headChoice.setValue(state.head);
    this.tokenChoice.setValue(state.token);
  }

  #showStage(stage) {
    if (this.mapHost.dataset.stage !== stage) this.heightFloor?.release();
    this.mapHost.dataset.stage = stage;
    this.stageChoice.setValue(stage);
  }

  /**
   * Scrolls to a part of the map and marks it for a moment, for the widgets that zoom into
   * it ("see it in the layer"): a stage ('project', 'attend', 'mix') or a matrix ('x',
   * 'queries', 'keys', 'values', 'weights', 'concat', 'wo', 'output'). Focus moves to the
   * stage's heading. Returns false for an unknown part (or before the widget is ready).
   */
  showPart(name) {
    if (!this.mapHost || !PARTS.includes(name)) return false;
    const selector = STAGES.includes(name) ? `.stage-${name}` : name === 'weights' ? '.stage-attend .stage-parts' : `[data-part="${name}"]`;
    const part = this.mapHost.querySelector(`.map:not([hidden]) ${selector}`);
    const stage = part?.closest('.stage');
    if (!part || !stage) return false;
    if (this.mapHost.dataset.stage !== 'all') this.#showStage(STAGES.find((name) => stage.classList.contains(`stage-${name}`)));
    bringIntoView(stage.querySelector('h3'));
    part.classList.remove('is-called');
    void part.offsetWidth; // restart the mark if it is already showing
    part.classList.add('is-called');
    clearTimeout(this.calledTimer);
    this.calledTimer = setTimeout(() => part.classList.remove('is-called'), 2500);
    return true;
  }

  // ---- picking on the map ---------------------------------------------------------------

  #partOf(target) {
    const figure = target?.closest?.('figure.part');
    return figure ? figure.dataset.part : null;
  }

  // The drawn grid of a part of the shown map ('x', 'wo', 'weights-1', ...).
  #gridOf(part) {
    const map = this.maps.get(this.view?.h);
    if (!map || !part) return null;
    return part.startsWith('weights-') ? map.weights[Number(part.slice(8))] : map.grids[part];
  }

  #clickMap(event) {
    if (this.readOnly) return;
    const part = this.#partOf(event.target);
    if (!part) return;
    const label = event.target.closest('.ui-row-label');
    const cell = label ? null : this.#gridOf(part)?.cellAt(event);
    const r = label ? Number(label.dataset.row) : cell?.row;
    const c = cell ? cell.col : null;
    if (!Number.isInteger(r)) return;
    const headAt = (column) => this.view.heads.findIndex((h) => column >= h.start && column < h.end);
    const change = {};
    if (part.startsWith('weights-')) Object.assign(change, { token: r, head: Number(part.slice(8)) });
    else if (part === 'x' || part === 'output') change.token = r;
    else if (part === 'wo') change.head = headAt(r);
    else if (part === 'keys' || part === 'values') { if (c !== null) change.head = headAt(c); }
    else {
      change.token = r;
      if (c !== null) change.head = headAt(c);
    }
    this.#pick(change);
  }

  // The value under the pointer, in words: "Q, row “said”, column 5 (head 2): 1.00".
  #hover(event) {
    const part = this.#partOf(event.target);
    const cell = this.#gridOf(part)?.cellAt(event);
    if (!cell) return;
    // Moving along a painted row fires a move per pixel: the readout changes per cell.
    const key = `${part} ${cell.row} ${cell.col}`;
    if (key === this.hovered) return;
    this.hovered = key;
    const r = cell.row;
    const c = cell.col;
    const view = this.view;
    const { m } = this;
    const headOf = (k) => view.heads.findIndex((h) => k >= h.start && k < h.end) + 1;
    let what;
    let matrix = view[part];
    const word = this.world.tokens[r];
    if (part.startsWith('weights-')) {
      const i = Number(part.slice(8));
      matrix = view.weights[i];
      what = m.t('layer.hover.weight', { number: i + 1, word, key: this.world.tokens[c] });
    } else if (part === 'x') what = m.t('layer.hover.x', { word, feature: m.featureName(this.world.featureNames[c]) });
    else if (part === 'wo') what = m.t('layer.hover.wo', { row: r + 1, head: headOf(r), column: c + 1 });
    else if (part === 'output') what = m.t('layer.hover.output', { word, column: c + 1 });
    else what = m.t('layer.hover.other', { part: PART_NAMES[part], word, column: c + 1, head: headOf(c) });
    this.readout.replaceChildren(mathText(m.t('ui.grid.readout', { cell: what, value: m.number(matrix.data[r * matrix.cols + c]) })));
  }

  // ---- the numbers on the picked path (on demand) ---------------------------------------

  #numbersPanel() {
    const row = (label, options = {}) => {
      const grid = new MatrixGrid({ label, rows: 1, cols: 1, data: [0], readonly: true, focusable: false, valuesMode: true, messages: this.m, ...options });
      const caption = element('figcaption');
      return { grid, caption, figure: element('figure', { className: 'number-row' }, [caption, grid.element]) };
    };
    const { m } = this;
    const rows = {
      x: row(m.t('layer.numbers.x'), { colLabels: this.world.featureNames.map((name) => m.featureName(name)) }),
      query: row(m.t('layer.numbers.query')),
      scores: row(m.t('layer.numbers.scores'), { colLabels: this.world.tokens }),
      weights: row(m.t('layer.numbers.weights'), { scale: 'sequential', max: 1, colLabels: this.world.tokens, decimals: 3 }),
      output: row(m.t('layer.numbers.output')),
      result: row(m.t('layer.numbers.result')),
    };
    const summary = element('summary', { textContent: m.t('layer.numbers.title') });
    // One box scrolls sideways for all rows (a phone is narrower than 12 numbers); it takes
    // focus so that the keyboard can scroll it too.
    const numbersBox = element('div', { id: NUMBERS_ID, className: 'numbers-box', tabIndex: 0, role: 'region', ariaLabel: m.t('layer.numbers.title') },
      Object.values(rows).map((r) => r.figure));
    numbersBox.dataset.noFigure = '';
    summary.setAttribute('aria-controls', NUMBERS_ID);
    const details = element('details', { className: 'numbers', dataset: { panel: 'numbers' } }, [
      summary, numbersBox,
    ]);
    details.addEventListener('toggle', () => {
      this.heightFloor?.release();
      if (details.open && this.view) this.#renderNumbers(this.view, this.state);
    });
    return { element: details, rows };
  }

  #renderNumbers(view, state) {
    if (!this.numbers.element.open) return;
    const { rows } = this.numbers;
    const t = state.token;
    const head = view.heads[state.head];
    const slice = (m, start = 0, end = m.cols) => m.data.slice(t * m.cols + start, t * m.cols + end);
    const set = (r, caption, data) => {
      r.caption.replaceChildren(...[].concat(caption));
      r.grid.setData(data, 1, data.length);
    };
    const { m } = this;
    const word = this.world.tokens[t];
    const number = head.index + 1;
    set(rows.x, m.nodes('layer.numbers.xCaption', { x: mathText('x_t'), word }), slice(view.x));
    set(rows.query, m.nodes('layer.numbers.queryCaption', { q: mathText('q'), word, number, columns: columns(head), Q: mathText('Q') }), slice(view.queries, head.start, head.end));
    // The scores are the core's own (Q_i K_i^T / sqrt(d_k)), before softmax turns them into weights.
    set(rows.scores, m.nodes('layer.numbers.scoresCaption', { word, number, score: mathText(`q·k/√${view.dK}`) }), slice(view.scores[state.head]));
    rows.weights.grid.element.style.setProperty('--ui-hue', headColour(head));
    // Three decimals, rounded together (largest remainder): the numbers shown add up to 1 as
    // the weights do, each within 0.001 of the core's.
    set(rows.weights, m.nodes('layer.numbers.weightsCaption', { word, number }), roundToSum(Array.from(slice(view.weights[state.head])), 3));
    set(rows.output, m.nodes('layer.numbers.outputCaption', { word, number, columns: columns(head), concat: mathText('Concat') }), slice(view.headOutputs[state.head]));
    set(rows.result, m.nodes('layer.numbers.resultCaption', { word, wo: mathText('W_O') }), slice(view.output));
  }
}

const STAGES = ['project', 'attend', 'mix'];
const PARTS = [...STAGES, 'x', 'queries', 'keys', 'values', 'weights', 'concat', 'wo', 'output'];
// Which later widgets zoom into each stage: the registry's widgets that say so (zoomsInto).
const ZOOMS = Object.fromEntries(STAGES.map((stage) => [stage,
  Object.keys(WIDGETS).filter((name) => WIDGETS[name].zoomsInto === stage)]));
const STAGE_CHOICES = ['project', 'attend', 'mix', 'all'];
const MAP_ID = 'layer-map';
const NUMBERS_ID = 'layer-path-numbers';
const PART_NAMES = { queries: 'Q', keys: 'K', values: 'V', concat: 'Concat' };

function range(start, end) {
  return Array.from({ length: end - start }, (_, i) => start + i);
}

function maxAbs(data) {
  let max = 0;
  for (const v of data) max = Math.max(max, Math.abs(v));
  return max || 1;
}

LayerWidget.define();
