// <mha-heads-questions>: heads are different questions, not redundant copies. Each head
// has its own W_Q^i, W_K^i, so its own attention pattern over the same sentence; tie them
// all to head A's projections and the heatmaps become identical copies. See README.md.
import { MhaWidget, element } from '../shared/widget-base.js';
import { formatNumber } from '../shared/format.js';
import {
  HeadsQuestionsModel, describeRow, headBlock, headsQuestionsConfig, startingQueries, strongestKeys,
} from './heads-questions-model.js';
import { Heatmap } from './heatmap.js';
import { MatrixEditor } from './matrix-editor.js';
import styles from './heads-questions.css?inline';

const LETTERS = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'];
const STATE_KEYS = ['tied', 'query', 'head', 'wq'];

export class HeadsQuestionsWidget extends MhaWidget {
  static tag = 'mha-heads-questions';
  static stateKey = 'heads-questions';
  static styles = styles;

  defaultConfig() {
    const overrides = {};
    if (this.hasAttribute('query')) overrides.query = this.getAttribute('query');
    return headsQuestionsConfig(overrides);
  }

  defaultState() {
    return { tied: false, query: this.config.queryIndex, head: 0, wq: startingQueries(this.config) };
  }

  sanitizeState(raw) {
    const { L, numHeads, dModel, dK, edit } = this.config;
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new Error('expected an object');
    for (const key of Object.keys(raw)) {
      if (!STATE_KEYS.includes(key)) throw new Error(`unexpected field “${key.slice(0, 24)}”`);
    }
    if (typeof raw.tied !== 'boolean') throw new Error('tied: expected true or false');
    if (!Number.isInteger(raw.query) || raw.query < 0 || raw.query >= L) throw new Error('query: not a token position');
    if (!Number.isInteger(raw.head) || raw.head < 0 || raw.head >= numHeads) throw new Error('head: not a head number');
    if (!Array.isArray(raw.wq) || raw.wq.length !== numHeads) throw new Error(`wq: expected ${numHeads} matrices`);
    const wq = raw.wq.map((m, i) => {
      if (!Array.isArray(m) || m.length !== dModel * dK) throw new Error(`wq[${i}]: expected ${dModel * dK} numbers`);
      if (!m.every((v) => typeof v === 'number' && Number.isFinite(v) && Math.abs(v) <= edit.limit)) {
        throw new Error(`wq[${i}]: every entry must be a number from ${-edit.limit} to ${edit.limit}`);
      }
      return m.slice();
    });
    return { tied: raw.tied, query: raw.query, head: raw.head, wq };
  }

  build() {
    const { tokens, heads, featureNames, dK, edit } = this.config;
    this.models = new HeadsQuestionsModel(this.engine, this.config);
    this.asTable = false;

    this.sentence = element('p', { className: 'sentence', ariaLabel: 'The sentence' });
    this.querySelect = element('select', { ariaLabel: 'Query token' },
      tokens.map((token, i) => element('option', { value: String(i), textContent: `${token} (${i + 1})` })));
    this.querySelect.addEventListener('change', () => this.#propose({ query: Number(this.querySelect.value) }));

    // Tie: every head gets head A's projections.
    this.tieBox = element('input', { type: 'checkbox', className: 'tie-box' });
    this.tieBox.addEventListener('change', () => this.#propose({ tied: this.tieBox.checked }));
    this.tieNote = element('p', { className: 'tie-note' });
    const tie = element('div', { className: 'tie' }, [
      element('label', { className: 'switch' }, [this.tieBox, 'Tie all heads to the same projections (head A’s W_Q, W_K, W_V)']),
      this.tieNote,
    ]);

    // One heatmap per head.
    this.tableToggle = element('button', { type: 'button', className: 'secondary', textContent: 'Show the weights as tables' });
    this.tableToggle.addEventListener('click', () => {
      this.asTable = !this.asTable;
      this.render(this.view, this.state);
    });
    this.panels = heads.map((_, i) => {
      const map = new Heatmap({ tokens, onPickRow: (row) => this.#propose({ query: row }) });
      const title = element('h3', { className: 'head-title' });
      const question = element('p', { className: 'question' });
      const summary = element('p', { className: 'summary' });
      const figure = element('figure', { className: `head-panel head-${LETTERS[i].toLowerCase()}` }, [
        title, question, map.element, summary,
      ]);
      return { map, title, question, summary, figure };
    });
    const legend = element('p', { className: 'legend muted' }, [
      element('span', { className: 'swatch swatch-0', ariaHidden: 'true' }), ' 0 ',
      element('span', { className: 'swatch swatch-1', ariaHidden: 'true' }), ' 1 (the head’s full colour): the shade is the attention weight. ',
      'Rows: the word asking (query); columns: the words it looks at (keys). Click a row to pick the query.',
    ]);

    // The selected query's row in every head, as numbers.
    this.numbersCaption = element('caption');
    this.numbersBody = tokens.map((token) => {
      const cells = heads.map((_, i) => element('td', { className: `num head-${LETTERS[i].toLowerCase()}` }));
      return { row: element('tr', {}, [element('th', { scope: 'row', textContent: token }), ...cells]), cells };
    });
    const numbers = element('div', { className: 'numbers-scroll' }, [element('table', { className: 'numbers' }, [
      this.numbersCaption,
      element('thead', {}, [element('tr', {}, [
        element('th', { scope: 'col', textContent: 'key' }),
        ...heads.map((_, i) => element('th', { scope: 'col', className: `head-${LETTERS[i].toLowerCase()}` }, [
          element('span', { className: 'head-word', textContent: 'Head ' }), LETTERS[i]])),
      ])]),
      element('tbody', {}, this.numbersBody.map((r) => r.row)),
    ])]);

    // Editing one head's W_Q^i.
    this.headSelect = element('select', { ariaLabel: 'Head to edit' },
      heads.map((head, i) => element('option', { value: String(i), textContent: `Head ${LETTERS[i]}: ${head.name}` })));
    this.headSelect.addEventListener('change', () => this.#propose({ head: Number(this.headSelect.value) }));
    this.editNote = element('p', { className: 'edit-note' });
    this.editor = new MatrixEditor({
      rowLabels: featureNames, cols: dK, edit,
      onPropose: (r, c, value) => this.#editEntry(r, c, value),
    });
    const editPanel = element('section', { className: 'panel', ariaLabel: 'Edit a head’s W_Q' }, [
      element('h3', { textContent: 'Change one head’s question: edit its W_Q' }),
      element('p', { className: 'muted', textContent: `${this.config.editNote} ArrowUp / ArrowDown change the focused entry by ${edit.step} (with Shift, by ${edit.bigStep}).` }),
      element('label', { className: 'field' }, ['Head to edit', this.headSelect]),
      this.editNote,
      this.editor.element,
    ]);

    this.announcer = element('p', { className: 'sr-only', ariaLive: 'polite' });
    this.body.append(
      this.historyToolbar('Undo or reset the heads-questions widget'),
      element('div', { className: 'top' }, [this.sentence, element('label', { className: 'field' }, ['Query token', this.querySelect])]),
      element('div', { dataset: { panel: 'tie' } }, [tie]),
      element('div', { dataset: { panel: 'heatmaps' } }, [
        element('div', { className: 'toolbar' }, [this.tableToggle]),
        legend,
        element('div', { className: 'heatmaps' }, this.panels.map((p) => p.figure)),
      ]),
      element('div', { dataset: { panel: 'numbers' } }, [
        element('h3', { textContent: 'The selected word’s weights in each head' }),
        numbers,
      ]),
      element('div', { dataset: { panel: 'edit' } }, [editPanel]),
      element('div', { dataset: { panel: 'features' } }, [this.#featuresTable()]),
      this.announcer,
    );
  }

  // The lesson data X, for the curious: which features each token has.
  #featuresTable() {
    const { tokens, featureNames, x, dModel } = this.config;
    const rows = tokens.map((token, t) => element('tr', {}, [
      element('th', { scope: 'row', textContent: token }),
      ...featureNames.map((_, j) => element('td', { className: 'num', textContent: formatNumber(x[t * dModel + j], x[t * dModel + j] % 1 ? 2 : 0) })),
    ]));
    return element('details', { className: 'features' }, [
      element('summary', { textContent: 'What the heads see: the token features X' }),
      element('p', { className: 'muted', textContent: this.config.featuresNote }),
      element('div', { className: 'table-scroll', tabIndex: 0, role: 'region', ariaLabel: 'Token features X' }, [
        element('table', { className: 'weights-table' }, [
          element('caption', { className: 'sr-only', textContent: 'Token features X: one row per token, one column per feature' }),
          element('thead', {}, [element('tr', {}, [element('th', { scope: 'col', textContent: 'token' }),
            ...featureNames.map((name) => element('th', { scope: 'col', textContent: name }))])]),
          element('tbody', {}, rows),
        ]),
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

  reset() {
    this.editor?.clearErrors();
    super.reset();
  }

  #propose(patch) {
    return this.commit({ ...this.state, ...patch });
  }

  // Tied, the grid edits the one shared W_Q (head A's, which every head uses); untied, only
  // the selected head's. Either way the other heads' projections are untouched.
  #editEntry(r, c, value) {
    const state = this.state;
    const source = state.tied ? 0 : state.head;
    state.wq[source][r * this.config.dK + c] = value;
    return this.commit(state);
  }

  render(view, state) {
    const { tokens, heads, dK } = this.config;
    const query = tokens[state.query];
    const letter = (i) => LETTERS[i];
    this.sentence.replaceChildren(...tokens.map((token, i) => element('span', {
      className: `chip${i === state.query ? ' query' : ''}`, textContent: token,
    })));
    this.querySelect.value = String(state.query);
    this.tieBox.checked = state.tied;
    this.tieNote.textContent = state.tied
      ? `Tied: every head now uses head A’s projections, so every head computes the same weights: ${heads.length} copies of one question. Untie to give each head its own back (your edits are kept).`
      : 'Untied: each head has its own W_Q, W_K and W_V, so each asks its own question of the same sentence.';

    this.tableToggle.setAttribute('aria-pressed', String(this.asTable));
    this.panels.forEach((panel, i) => {
      const source = state.tied ? 0 : i;
      const name = `Head ${letter(i)}`;
      panel.title.textContent = state.tied && i > 0 ? `${name}: tied to head A` : `${name}: ${heads[i].name}`;
      panel.question.textContent = state.tied && i > 0 ? `Asks head A’s question: ${heads[source].question}` : heads[i].question;
      const fullName = state.tied && i > 0 ? `${name} (tied to head A)` : `${name} (${heads[i].name})`;
      panel.map.draw(view.weights[i], { name: fullName, selectedRow: state.query, asTable: this.asTable });
      panel.summary.textContent = `${describeRow(tokens, state.query, view.rows[i])}.`;
    });

    // Numbers of the selected row: the largest in each head is bold and says so in words.
    this.numbersCaption.textContent = `Weights of “${query}” (one column per head; each column sums to 1)`;
    const tops = view.rows.map((row) => strongestKeys(row));
    this.numbersBody.forEach(({ cells }, s) => cells.forEach((cell, i) => {
      const top = !tops[i].even && tops[i].keys.includes(s);
      cell.classList.toggle('strongest', top);
      cell.replaceChildren(formatNumber(view.rows[i][s]), ...(top ? [element('span', { className: 'sr-only', textContent: ' (most)' })] : []));
    }));

    // The editor shows the core's own copy of the W_Q being edited.
    const source = state.tied ? 0 : state.head;
    if (source !== this.shownSource) this.editor.clearErrors();
    this.shownSource = source;
    this.headSelect.value = String(state.head);
    this.headSelect.disabled = state.tied;
    this.editNote.textContent = state.tied
      ? 'Tied: all heads share head A’s W_Q, so this grid edits that one shared matrix and every heatmap changes together. Untie to edit one head alone.'
      : `Editing head ${letter(state.head)} only: the other heads keep their own W_Q, so their heatmaps do not move.`;
    this.editor.show(headBlock(view.wq, source, dK), {
      matrixName: `W_Q of head ${letter(source)}`, columnLabels: heads[source].keyColumns,
    });

    const perHead = view.rows.map((row, i) => `head ${letter(i)}: ${describeRow(tokens, state.query, row)}`);
    this.announcer.textContent = `${state.tied ? 'All heads tied to head A. ' : ''}${perHead.join('. ')}.`;
  }
}

HeadsQuestionsWidget.define();
