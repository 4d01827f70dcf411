// <mha-heads-questions>: heads are different questions, not redundant copies. The world's
// four heads each have their own W_Q^i, W_K^i, so their own attention pattern over the same
// sentence; tie them all to one head's projections and the four maps become identical
// copies. The maps and the W_Q editor of the selected head sit side by side, so an edit and
// its effect are in view together. See README.md.
import { MhaWidget } from '../shared/widget-base.js';
import { editHint } from '../shared/widget-attributes.js';
import { element, morphChildren } from '../../ui/dom.js';
import { messagesFor } from '../shared/i18n.js';
import { NarrowSwitch } from '../../ui/narrow-switch.js';
import { Heatmap } from '../../ui/heatmap.js';
import { MatrixGrid } from '../../ui/matrix-grid.js';
import { adoptKitStyles } from '../../ui/styles.js';
import { layerLink } from '../shared/page-links.js';
import { notation, spoken } from '../../ui/notation.js';
import {
  HeadsQuestionsModel, WQ_EDIT, defaultHeadsQuestionsState, describeRow, queryFromAttribute,
  headsQuestionsWorldNeeds, sanitizeHeadsQuestionsState, sourceHead,
} from './heads-questions-model.js';
import styles from './heads-questions.css?inline';

const MAX_NAMES_SHOWN = 3;

export class HeadsQuestionsWidget extends MhaWidget {
  static tag = 'mha-heads-questions';
  static stateKey = 'heads-questions';
  static styles = styles;

  static worldNeeds(w, m) {
    return headsQuestionsWorldNeeds(w, m);
  }

  defaultConfig() {
    // The widget's world (the `world` attribute) is not configurable here: a `config` attribute is refused, and
    // a `query` that is not a word of the sentence is ignored, each with a notice, rather
    // than half-applied (the widget still shows the world).
    const w = this.world;
    const m = messagesFor(this);
    const notices = [];
    if (this.hasAttribute('config')) notices.push(m.t('headsQuestions.noConfig'));
    let query = w.queryIndex;
    if (this.hasAttribute('query')) {
      try {
        query = queryFromAttribute(w, this.getAttribute('query'));
      } catch {
        notices.push(m.t('headsQuestions.badQuery', { value: this.getAttribute('query').slice(0, 24), sentence: w.tokens.join(' '), start: w.tokens[w.queryIndex] }));
      }
    }
    if (notices.length) this.showNotice(notices.join(' '));
    return { w, query };
  }

  defaultState() {
    return defaultHeadsQuestionsState(this.config.w, { query: this.config.query });
  }

  sanitizeState(raw) {
    return sanitizeHeadsQuestionsState(raw, this.config?.w ?? this.world);
  }

  build() {
    adoptKitStyles(this.root);
    const { heads } = this.config.w;
    const m = this.m = messagesFor(this);
    this.models = new HeadsQuestionsModel(this.engine, this.config.w);
    this.previous = null;

    const caption = element('p', { className: 'caption' }, editHint(
      element('span', {}, notation(m.t('headsQuestions.caption', { count: heads.length }))),
      element('span', {}, notation(m.t('headsQuestions.captionReadOnly', { count: heads.length }))),
    ));
    caption.append(' ', layerLink('weights', undefined, m));
    const tie = this.#buildTie();
    this.panels = heads.map((head, i) => this.#buildHeadPanel(head, i));
    this.editor = this.#buildEditor();

    this.board = element('div', { className: 'board' }, [...this.panels.map((p) => p.panel), this.editor]);
    this.announcer = element('p', { className: 'sr-only', ariaLive: 'polite' });
    const history = this.historyToolbar(m.t('headsQuestions.history'));
    // On a phone: every head's answer stays in view, with the map of the head being edited
    // (its W_Q editor right under it); all four maps on request.
    this.board.dataset.maps = 'one';
    this.narrow = new NarrowSwitch({
      label: m.t('headsQuestions.narrow.label'), prefix: m.t('headsQuestions.narrow.prefix'), value: 'one', messages: m, onChange: (value) => { this.board.dataset.maps = value; },
      options: [
        { value: 'one', content: m.t('headsQuestions.narrow.one'), panels: [] },
        { value: 'all', content: m.t('headsQuestions.narrow.all', { count: heads.length }), panels: [] },
      ],
    });
    this.body.append(
      caption,
      element('div', { className: 'controls' }, [tie, history]),
      this.narrow.element,
      this.board,
      element('div', { dataset: { panel: 'features' } }, [this.#features()]),
      this.announcer,
    );
    this.#nameControlled(history);
  }

  // ---- building: the tie switch, the heads' panels, the W_Q editor ----------------------

  // Tie: every head gets the selected head's projections.
  #buildTie() {
    this.tieBox = element('input', { type: 'checkbox', className: 'tie-box', role: 'switch' });
    this.tieBox.addEventListener('change', () => this.#propose({ tied: this.tieBox.checked }));
    this.tieLabel = element('span');
    return element('label', { className: 'switch', dataset: { panel: 'tie' } }, [this.tieBox, this.tieLabel]);
  }

  // One panel per head: a radio (the head's name and its answer for the query word) that
  // selects the head for editing, and its L x L map. The radios are one tab stop.
  #buildHeadPanel(head, i) {
    const { m } = this;
    const { w } = this.config;
    const radio = element('input', { type: 'radio', name: 'edit-head', value: String(i), className: 'head-radio' });
    radio.addEventListener('change', () => { if (radio.checked) this.#propose({ head: i }); });
    const title = element('span', { className: 'head-name', textContent: m.headName(head) });
    // Tied, "Copy of <head>:" leads the answer (in the two lines kept for it: no shift).
    const copy = element('span', { className: 'copy-note' });
    const summary = element('span', { className: 'summary-text' });
    const label = element('label', { className: 'head-label' }, [
      radio,
      element('span', { className: 'head-text' }, [
        element('span', { className: 'head-line' }, [title, element('span', { className: 'editing-mark', textContent: m.t('headsQuestions.editing') })]),
        element('span', { className: 'summary' }, [copy, summary]),
      ]),
    ]);
    const map = new Heatmap({
      label: m.t('headsQuestions.mapLabel', { name: m.headName(head) }), messages: m,
      tokens: w.tokens, weights: new Float32Array(w.L * w.L), colour: `var(--head-${head.id})`,
      onPick: (query) => { if (!this.readOnly) this.#propose({ query }); },
    });
    // The focused cell's words and number ("query “said”, key “it”: 0.91") take the place
    // of the answer while a cell of this map has focus: the exact value on demand.
    map.grid.readout.classList.add('cell-readout');
    label.querySelector('.head-text').append(map.grid.readout);
    const panel = element('section', { id: `map-${head.id}`, className: `head-panel head-${head.id}`, dataset: { panel: 'heatmaps', head: head.id } }, [label, map.element]);
    panel.setAttribute('aria-label', m.headName(head));
    return { head, radio, copy, summary, map, panel };
  }

  // The selected head's W_Q^i: one editable grid per head (each with its own key-column
  // labels); only the selected one is shown. A head's grid is made the first time its head
  // is selected (#wqGrid), and only the shown one is redrawn: the other three were about
  // 200 elements made with every widget and recoloured by every edit, unseen.
  #buildEditor() {
    const { m } = this;
    this.editTitle = element('h3', { className: 'edit-title' });
    this.editQuestion = element('p', { className: 'edit-question' });
    this.editNote = element('p', { className: 'edit-note' });
    this.grids = this.config.w.heads.map(() => null);
    this.valuesButton = element('button', { type: 'button', className: 'secondary values-toggle', textContent: m.t('headsQuestions.showValues') });
    this.valuesButton.setAttribute('aria-pressed', 'false');
    this.valuesButton.addEventListener('click', () => {
      const on = this.valuesButton.getAttribute('aria-pressed') !== 'true';
      this.valuesButton.setAttribute('aria-pressed', String(on));
      for (const grid of this.grids) grid?.setValuesMode(on);
    });
    // How to edit, and what a positive or negative entry means, on request: the grid's
    // readout already names the focused cell, and the caption says what to try. The
    // disclosure and Show values share a row (on a phone they would otherwise be three lines).
    const howSummary = element('summary', { textContent: m.t('headsQuestions.howTo') });
    howSummary.setAttribute('aria-controls', 'wq-how');
    const [how] = editHint(element('details', { id: 'wq-how', className: 'edit-how' }, [
      howSummary, element('p', { className: 'edit-help muted', textContent: m.t('headsQuestions.editHelp') }),
    ]));
    this.editTools = element('div', { className: 'edit-tools' }, [this.valuesButton, how]);
    const editor = element('section', { id: 'wq-editor', className: 'editor', dataset: { panel: 'edit' } }, [
      this.editTitle, this.editQuestion, this.editTools, this.editNote,
    ]);
    editor.setAttribute('aria-label', m.t('headsQuestions.editorLabel'));
    return editor;
  }

  // Head i's W_Q grid, made (in the editor, before its tools) the first time it is needed.
  #wqGrid(i) {
    if (!this.grids[i]) {
      const grid = this.#buildWqGrid(this.config.w.heads[i], i);
      grid.setValuesMode(this.valuesButton.getAttribute('aria-pressed') === 'true');
      this.editTools.before(grid.element);
      this.grids[i] = grid;
    }
    return this.grids[i];
  }

  #buildWqGrid(head, i) {
    const { m } = this;
    const { w } = this.config;
    const { featureNames } = w;
    const grid = new MatrixGrid({
      label: spoken(m.t('headsQuestions.wqLabel', { name: m.headName(head) })), messages: m,
      rows: w.dModel, cols: w.dK, data: new Float32Array(w.dModel * w.dK),
      rowLabels: featureNames.map((name) => m.featureName(name)), colLabels: head.keyColumns.map((name) => m.featureName(name)),
      rowName: (r) => m.t('headsQuestions.feature', { name: m.featureName(featureNames[r]) }), colName: (c) => m.t('headsQuestions.looksFor', { name: m.featureName(head.keyColumns[c]) }),
      max: WQ_EDIT.colourMax, limits: { min: -WQ_EDIT.limit, max: WQ_EDIT.limit },
      step: WQ_EDIT.step, fineStep: WQ_EDIT.fineStep, bigStep: WQ_EDIT.bigStep, dragPerPixel: WQ_EDIT.dragPerPixel,
      readonly: this.readOnly, transposeWhenNarrow: true,
      onPropose: (r, c, value) => this.#editEntry(i, r, c, value),
    });
    grid.element.classList.add('wq-grid', `head-${head.id}`);
    this.groupEdits(grid.element); // a drag, or a typed value, is one undo step
    return grid;
  }

  // Every control names the figures it changes (aria-controls); the base brings them into
  // view with the control when it gets keyboard focus (MhaWidget.bringFiguresIntoView).
  #nameControlled(history) {
    const allMaps = this.panels.map((p) => p.panel.id).join(' ');
    for (const control of [this.tieBox, ...history.querySelectorAll('button')]) control.setAttribute('aria-controls', allMaps);
    for (const p of this.panels) {
      p.radio.setAttribute('aria-controls', `${p.panel.id} ${this.editor.id}`);
      for (const cell of p.map.grid.cells) cell.setAttribute('aria-controls', allMaps);
    }
    this.valuesButton.setAttribute('aria-controls', this.editor.id);
  }

  // What the heads see: X (one row per word, one column per feature), read-only, with what
  // each feature means in the readout of the focused cell and in a list below. Closed until
  // the learner opens it; its grid (the world's L x d_model cells, about 170 elements) is
  // made then, not with the widget.
  #features() {
    const { w } = this.config;
    const { m } = this;
    const summary = element('summary', { textContent: m.t('headsQuestions.featuresSummary') });
    summary.setAttribute('aria-controls', 'features-x');
    const note = element('p', { className: 'muted' }, notation(m.t('headsQuestions.featuresNote', { count: w.dModel })));
    const details = element('details', { id: 'features-x', className: 'features' }, [
      summary,
      note,
      element('dl', { className: 'feature-list' }, w.data.features.flatMap((f) => [
        element('dt', { textContent: m.featureName(f.name) }), element('dd', { textContent: m.dataText('world.featureAbout', f.about) }),
      ])),
    ]);
    this.xGrid = null;
    const makeGrid = () => {
      if (this.xGrid) return;
      this.xGrid = this.#featureGrid();
      note.after(this.xGrid.element);
    };
    // Made as the summary is clicked (a click, Enter or Space), before the box opens, so it
    // opens whole; opened another way (the open attribute, a script), as it opens.
    summary.addEventListener('click', makeGrid);
    details.addEventListener('toggle', () => { if (details.open) makeGrid(); });
    return details;
  }

  #featureGrid() {
    const { w } = this.config;
    const { m } = this;
    const about = w.data.features.map((f) => m.dataText('world.featureAbout', f.about));
    const grid = new MatrixGrid({
      label: m.t('headsQuestions.xLabel'), messages: m,
      rows: w.L, cols: w.dModel, data: w.x, readonly: true,
      rowLabels: w.tokens, colLabels: w.featureNames.map((name) => m.featureName(name)),
      rowName: (r) => m.t('common.quoted', { text: w.tokens[r] }), colName: (c) => `${m.featureName(w.featureNames[c])} (${about[c]})`,
    });
    for (const cell of grid.cells) cell.dataset.noFigure = '';
    return grid;
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

  // Tied, the selected head's grid edits the one W_Q every head uses; untied, only its own
  // head's. Either way no other head's W_Q changes.
  #editEntry(head, r, c, value) {
    const state = this.state;
    state.wq[head][r * this.config.w.dK + c] = value;
    return this.commit(state);
  }

  render(view, state) {
    const { w } = this.config;
    const { tokens, heads } = w;
    const { m } = this;
    const selected = heads[state.head];
    const selectedName = m.headName(selected);
    // Under each map, at most three names (the map shows the rest); spoken, every name.
    const summaries = view.rows.map((row) => describeRow(tokens, state.query, row, { messages: m }));
    const shortSummaries = view.rows.map((row) => describeRow(tokens, state.query, row, { maxNames: MAX_NAMES_SHOWN, messages: m }));

    this.tieBox.checked = state.tied;
    morphChildren(this.tieLabel, notation(m.t('headsQuestions.tie', { name: selectedName })));
    this.panels.forEach((p, i) => {
      p.radio.checked = i === state.head;
      // One tab stop for the group (arrows move between heads), also for tools that count
      // every radio with tabIndex 0.
      p.radio.tabIndex = i === state.head ? 0 : -1;
      p.panel.classList.toggle('selected', i === state.head);
      p.map.setData(view.weights[i]);
      p.map.select(state.query);
      p.summary.textContent = `${shortSummaries[i]}.`;
      const source = sourceHead(state, i);
      p.copy.textContent = source === i ? '' : m.t('headsQuestions.copyOf', { name: m.headName(heads[source]) });
    });
    // The editor sits right after the selected head's map in the document, so that on a
    // phone (one column) it is directly below the map it changes; wider layouts place it
    // beside the maps (CSS grid), wherever it is in the document.
    const after = this.panels[state.head].panel;
    if (after.nextElementSibling !== this.editor) after.after(this.editor);

    // An edit moves its own head's map; tied, all four.
    const controlled = state.tied ? this.panels.map((p) => p.panel.id).join(' ') : null;
    const shown = this.#wqGrid(state.head);
    for (const grid of this.grids) if (grid) grid.element.hidden = grid !== shown;
    shown.setData(view.wq[state.head]);
    const ids = controlled ?? this.panels[state.head].panel.id;
    if (shown.cells[0].getAttribute('aria-controls') !== ids) for (const cell of shown.cells) cell.setAttribute('aria-controls', ids);
    this.board.classList.toggle('no-editor', this.editor.hidden);
    this.board.classList.toggle('no-maps', this.panels.every((p) => p.panel.hidden));
    morphChildren(this.editTitle, notation(m.t(this.readOnly ? 'headsQuestions.editTitleReadOnly' : 'headsQuestions.editTitle', { name: selectedName })));
    this.editor.className = `editor head-${selected.id}`;
    this.editQuestion.textContent = m.t('headsQuestions.question', { question: m.headQuestion(selected) });
    this.editNote.textContent = state.tied
      ? m.t('headsQuestions.tiedNote', { count: heads.length })
      : m.t('headsQuestions.onlyNote', { name: selectedName });
    // Untied, the note repeats the caption; a phone drops it (heads-questions.css).
    this.editNote.classList.toggle('tied', state.tied);
    this.#announce(state, summaries);
    this.previous = state;
  }

  // In words, what changed: the query word, the tie, or the maps an edit moved.
  #announce(state, summaries) {
    const { heads } = this.config.w;
    const { m } = this;
    const before = this.previous;
    if (!before) return;
    const name = (i) => m.headName(heads[i]);
    const all = () => heads.map((h, i) => `${name(i)}: ${summaries[i]}`).join('. ');
    let text;
    if (before.tied !== state.tied) {
      text = state.tied ? m.t('headsQuestions.announce.tied', { name: name(state.head), count: heads.length, summary: summaries[0] }) : m.t('headsQuestions.announce.untied', { all: all() });
    } else if (before.query !== state.query) {
      text = m.t('headsQuestions.announce.query', { word: this.config.w.tokens[state.query], all: all() });
    } else if (before.head !== state.head) {
      text = state.tied ? m.t('headsQuestions.announce.copies', { name: name(state.head), summary: summaries[0] }) : m.t('headsQuestions.announce.editing', { name: name(state.head) });
    } else if (state.tied) {
      text = m.t('headsQuestions.announce.all', { summary: summaries[0] });
    } else {
      const moved = heads.flatMap((h, i) => (before.wq[i].some((v, k) => v !== state.wq[i][k]) ? [`${name(i)}: ${summaries[i]}`] : []));
      text = moved.length ? `${moved.join('. ')}.` : all();
    }
    this.announcer.textContent = text;
  }
}

HeadsQuestionsWidget.define();
