// <mha-wo-mixing>: concatenation keeps every head in a private slice of coordinates; W_O
// can write each head into any direction. The learner edits W_O (grid, presets), sees the
// output as a stack of per-head contributions, and measures who a later layer reading a
// direction u can hear, with this W_O and with W_O = I. See README.md.
import { MhaWidget, element } from '../shared/widget-base.js';
import { formatNumber } from '../shared/format.js';
import { StackedBars } from '../shared/stacked-bars.js';
import { WoGrid } from './wo-grid.js';
import { fieldText, parseField, stepValue } from './fields.js';
import { notation, spoken } from './notation.js';
import {
  HEAD_NAMES, WoMixingModels, describeAlong, directionVector, matchingPreset, presetMatrix,
  sanitizeWoState, startingState, woMixingConfig,
} from './wo-mixing-model.js';
import styles from './wo-mixing.css?inline';

const headClass = (i) => `head-${HEAD_NAMES[i].toLowerCase()}`;
const sameVector = (a, b) => a.length === b.length && a.every((v, k) => v === b[k]);

export class WoMixingWidget extends MhaWidget {
  static tag = 'mha-wo-mixing';
  static stateKey = 'wo-mixing';
  static styles = styles;

  defaultConfig() {
    const overrides = {};
    if (this.hasAttribute('heads')) overrides.heads = Number(this.getAttribute('heads'));
    if (this.hasAttribute('token')) overrides.token = this.getAttribute('token');
    try {
      return woMixingConfig(overrides);
    } catch (error) {
      this.showNotice(`An attribute was ignored (${error.message}); showing the lesson’s starting example.`);
      return woMixingConfig();
    }
  }

  defaultState() {
    return startingState(this.config);
  }

  sanitizeState(raw) {
    return sanitizeWoState(this.config, raw);
  }

  build() {
    const { config } = this;
    this.models = new WoMixingModels(this.engine, config);
    const d = config.dModel;

    // The shape (how many heads) and which token's vectors are shown.
    this.headsSelect = element('select', { ariaLabel: 'Number of heads' }, config.headOptions.map((h) =>
      element('option', { value: String(h), textContent: `${h} heads of width ${this.models.headWidth(h)}` })));
    this.headsSelect.addEventListener('change', () => this.#changeHeads(Number(this.headsSelect.value)));
    this.tokenSelect = element('select', { ariaLabel: 'Token whose vectors are shown' }, config.tokens.map((token, i) =>
      element('option', { value: String(i), textContent: `${token} (position ${i + 1})` })));
    this.tokenSelect.addEventListener('change', () => this.#propose({ token: Number(this.tokenSelect.value) }));
    const top = element('div', { className: 'top' }, [
      element('label', { className: 'field' }, [element('span', {}, notation(`Heads (d_{model} = ${d})`)), this.headsSelect]),
      element('label', { className: 'field' }, ['Token', this.tokenSelect]),
      element('p', { className: 'muted about' }, notation(`A toy layer: each token is ${d} seeded numbers, and every head has its own seeded W_Q, W_K, W_V.`)),
    ]);

    // 1. The heads' outputs and their concatenation.
    this.headsTitle = element('h3');
    this.headOutputs = element('div', { className: 'head-outputs' });
    this.concat = element('div', { className: 'concat', role: 'list', ariaLabel: 'Concatenated vector' });
    const headsPanel = element('section', { className: 'panel', dataset: { panel: 'heads' } }, [
      this.headsTitle, this.headOutputs,
      element('h4', { textContent: 'Concatenated: each head owns a private slice' }),
      this.concat,
    ]);

    // 2. W_O: presets and the editable grid.
    this.presetButtons = config.presets.map((preset) => {
      const button = element('button', { type: 'button', className: 'secondary', textContent: preset.label, title: preset.about });
      button.addEventListener('click', () => this.#propose({ wo: presetMatrix(config, preset.id, this.shown.heads) }));
      return button;
    });
    this.grid = new WoGrid({
      config,
      onPropose: (index, value, options) => this.#setEntry(index, value, options),
      currentValue: (index) => this.shown.wo[index],
    });
    this.presetAbout = element('p', { className: 'muted preset-about' });
    const woPanel = element('section', { className: 'panel wo-panel', dataset: { panel: 'wo' } }, [
      element('h3', {}, notation('W_O: where each head writes')),
      element('p', {}, notation('Output coordinate j is the sum, over the rows r, of concat_r × W_O[r, j]. The rows are grouped by head: block W_O^A multiplies head A’s slice, so it decides where head A’s output lands.')),
      element('div', { className: 'toolbar', role: 'group', ariaLabel: 'W O presets' }, this.presetButtons),
      this.presetAbout,
      this.grid.element,
    ]);

    // 3. The output, as a stack of per-head contributions head_i W_O^i.
    this.bars = new StackedBars({ label: 'Output coordinates, stacked by head', columnLabels: Array.from({ length: d }, (_, j) => `${j + 1}`), height: 190 });
    this.legend = element('ul', { className: 'legend' });
    this.outputTable = element('table', { className: 'numbers output-table' });
    const outputPanel = element('section', { className: 'panel output-panel', dataset: { panel: 'output' } }, [
      element('h3', {}, notation('The output: a sum of the heads’ contributions head_i W_O^i')),
      element('div', { className: 'output-body' }, [
        element('figure', { className: 'bars' }, [
          this.bars.element,
          element('figcaption', {}, [this.legend, element('span', { className: 'muted', textContent: 'Columns are output coordinates; the black line marks each total.' })]),
        ]),
        this.outputTable,
      ]),
    ]);

    // 4. A later layer reads direction u.
    this.directionButtons = config.directions.map((direction) => {
      const button = element('button', { type: 'button', className: 'secondary', textContent: `u = ${direction.label}` });
      button.addEventListener('click', () => this.#proposeU(directionVector(config, direction.id)));
      return button;
    });
    this.uFields = Array.from({ length: d }, (_, j) => {
      const field = element('input', {
        type: 'text', inputMode: 'decimal', autocomplete: 'off', spellcheck: false,
        ariaLabel: `Direction u, component ${j + 1}`, className: 'num',
      });
      field.addEventListener('input', () => this.#typeU(j));
      field.addEventListener('keydown', (event) => this.#stepU(event, j));
      field.addEventListener('blur', () => {
        if (field.getAttribute('aria-invalid') !== 'true') field.value = fieldText(this.shown.u[j]);
      });
      return field;
    });
    this.uMessages = this.uFields.map(() => '');
    this.uOrder = [];
    this.uError = element('p', { className: 'field-error', id: 'wo-u-error', role: 'alert' });
    for (const field of this.uFields) field.setAttribute('aria-describedby', this.uError.id);
    this.unitU = element('p', { className: 'unit-u' });
    this.alongTable = element('table', { className: 'numbers along-table' });
    this.sentence = element('p', { className: 'sentence' });
    const readerPanel = element('section', { className: 'panel', dataset: { panel: 'reader' } }, [
      element('h3', { textContent: 'A later layer reads direction u' }),
      element('p', {}, notation('A head in the next layer reads the output along some direction u. Who can it hear? For each head, the core measures the length of head_i W_O^i along u, with this W_O and with W_O = I (no mixing).')),
      element('div', { className: 'toolbar', role: 'group', ariaLabel: 'Direction presets' }, this.directionButtons),
      element('div', { className: 'u-fields', role: 'group', ariaLabel: 'Direction u, component by component' },
        this.uFields.map((field, j) => element('label', { className: 'u-field' }, [element('span', {}, notation(`u_${j + 1}`)), field]))),
      this.uError,
      element('p', { className: 'hint', textContent: 'Type each component, or use ↑ / ↓ in a field (0.1 per press; with Shift 0.01).' }),
      this.unitU,
      this.alongTable,
      this.sentence,
    ]);

    this.announcer = element('p', { className: 'sr-only', ariaLive: 'polite' });
    this.body.append(
      this.historyToolbar('Undo or reset the W O widget'),
      top, headsPanel,
      element('div', { className: 'pair' }, [woPanel, outputPanel]),
      readerPanel, this.announcer,
    );
  }

  dispose() {
    this.models?.dispose();
    this.models = null;
  }

  compute(state) {
    return this.models.compute(state);
  }

  #propose(patch, options) {
    return this.commit({ ...this.shown, ...patch }, options);
  }

  // A new head count regroups the rows of W_O. A preset W_O becomes the same preset for the
  // new grouping; an edited W_O keeps its numbers (its rows now belong to other heads).
  #changeHeads(heads) {
    const preset = matchingPreset(this.config, this.shown.wo, this.shown.heads);
    this.#propose({ heads, wo: preset ? presetMatrix(this.config, preset, heads) : this.shown.wo });
  }

  #setEntry(index, value, options) {
    const wo = this.shown.wo.slice();
    wo[index] = value;
    return this.#propose({ wo }, options);
  }

  // u is proposed from all six fields as the learner sees them: a field whose text differs
  // from the committed value contributes what it says (so a rejected u, e.g. all zeros, is
  // corrected by editing any component), the others their exact committed value.
  #typeU(j) {
    const parsed = parseField(this.uFields[j].value, this.config.woLimit, `Component ${j + 1} of u`);
    if (!parsed.ok) {
      this.#markU(j, parsed.message);
      return;
    }
    const u = this.shown.u.map((committed, k) => {
      if (k === j) return parsed.value;
      const other = parseField(this.uFields[k].value, this.config.woLimit, '');
      return other.ok && this.uFields[k].value !== fieldText(committed) ? other.value : committed;
    });
    this.typedU = this.uFields[j];
    this.#proposeU(u, j);
  }

  #stepU(event, j) {
    const step = stepValue(event, this.shown.u[j], this.config);
    if (step === null) return;
    event.preventDefault();
    const u = this.shown.u.slice();
    u[j] = step;
    this.#proposeU(u, j);
  }

  #proposeU(u, field = null) {
    const error = this.#propose({ u });
    this.typedU = null;
    if (error) {
      if (field === null) this.uError.textContent = `This direction was not accepted: ${error}.`;
      else this.#markU(field, `This direction was not accepted: ${error}.`);
      return;
    }
    if (field !== null) this.#markU(field, '');
  }

  // One message per component; the line under the fields shows the latest one still wrong.
  #markU(j, message) {
    this.uMessages[j] = message;
    this.uOrder = [...this.uOrder.filter((k) => k !== j), ...(message ? [j] : [])];
    this.uFields[j].setAttribute('aria-invalid', String(Boolean(message)));
    this.uError.textContent = this.uOrder.length ? this.uMessages[this.uOrder[this.uOrder.length - 1]] : '';
  }

  render(view, state) {
    const previous = this.shown;
    this.shown = state;
    const { config } = this;
    const h = state.heads;
    const heads = HEAD_NAMES.slice(0, h);
    const token = config.tokens[state.token];
    this.headsSelect.value = String(h);
    this.tokenSelect.value = String(state.token);

    // 1. Head outputs and the concatenation, slice by slice.
    this.headsTitle.replaceChildren(...notation(`Each head’s output for “${token}” (width d_k = ${view.headWidth})`));
    this.headOutputs.replaceChildren(...view.headOutputs.map((output, i) => element('div', { className: `head-vector ${headClass(i)}` }, [
      element('span', { className: 'head-tag', textContent: `head ${heads[i]}` }),
      element('span', { className: 'vector num' },
        output.map((v) => element('span', { className: 'cell', textContent: formatNumber(v) }))),
    ])));
    this.concat.replaceChildren(...view.concat.map((v, j) => {
      const i = Math.floor(j / view.headWidth);
      const label = `${heads[i]}${(j % view.headWidth) + 1}`;
      return element('span', { className: `slot ${headClass(i)}`, role: 'listitem', ariaLabel: `coordinate ${j + 1}, head ${heads[i]}’s slice: ${formatNumber(v)}` }, [
        element('span', { className: 'slot-label', textContent: label }),
        element('span', { className: 'num', textContent: formatNumber(v) }),
      ]);
    }));

    // 2. W_O.
    const preset = matchingPreset(config, state.wo, h);
    this.presetButtons.forEach((button, k) => button.setAttribute('aria-pressed', String(config.presets[k].id === preset)));
    this.presetAbout.replaceChildren(...notation(preset ? config.presets.find((p) => p.id === preset).about : 'Your own W_O (no preset).'));
    this.grid.show(state.wo, h, view.headWidth, previous?.heads === h ? previous.wo : null);

    // 3. The output as stacked contributions; the core's numbers in a table beside it.
    this.bars.draw(view.contributions.map((values, i) => ({ values, className: headClass(i) })), {
      totals: view.output,
      description: `Output for “${token}”: ${view.output.map((v) => formatNumber(v)).join(', ')}; ` +
        view.contributions.map((c, i) => `head ${heads[i]} contributes ${c.map((v) => formatNumber(v)).join(', ')}`).join('; '),
    });
    this.legend.replaceChildren(...heads.map((name, i) => element('li', { className: headClass(i) }, [
      element('span', { className: 'swatch', ariaHidden: 'true' }), `head ${name}`,
    ])));
    this.#renderOutputTable(view, heads);

    // 4. The reader of u.
    this.directionButtons.forEach((button, k) => button.setAttribute('aria-pressed', String(sameVector(directionVector(config, config.directions[k].id), state.u))));
    this.uFields.forEach((field, j) => {
      const invalid = field.getAttribute('aria-invalid') === 'true';
      const unchanged = previous && previous.u[j] === state.u[j];
      if (field === this.typedU || (invalid && unchanged)) return; // keep the learner's text
      if (invalid) this.#markU(j, '');
      field.value = fieldText(state.u[j]);
    });
    this.unitU.textContent = `u / |u| = (${view.unitU.map((v) => formatNumber(v)).join(', ')}): only the direction of u matters.`;
    this.#renderAlongTable(view, heads);
    const sentence = describeAlong(config, view);
    this.sentence.replaceChildren(...notation(sentence));
    this.announcer.textContent = spoken(sentence);
  }

  #renderOutputTable(view, heads) {
    const header = element('tr', {}, [
      element('th', { scope: 'col', textContent: 'output' }),
      ...heads.map((name, i) => element('th', { scope: 'col', className: headClass(i), textContent: `head ${name}` })),
      element('th', { scope: 'col', textContent: 'total' }),
    ]);
    const rows = view.output.map((total, j) => element('tr', {}, [
      element('th', { scope: 'row', textContent: `${j + 1}` }),
      ...view.contributions.map((c) => element('td', { className: 'num', textContent: formatNumber(c[j]) })),
      element('td', { className: 'num total', textContent: formatNumber(total) }),
    ]));
    this.outputTable.replaceChildren(
      element('caption', { textContent: 'Each output coordinate: head by head, and the total' }),
      element('thead', {}, [header]), element('tbody', {}, rows));
  }

  #renderAlongTable(view, heads) {
    const row = (label, className, mixed, unmixed) => element('tr', { className }, [
      element('th', { scope: 'row', textContent: label }),
      element('td', { className: 'num', textContent: formatNumber(mixed) }),
      element('td', { className: 'num', textContent: formatNumber(unmixed) }),
    ]);
    this.alongTable.replaceChildren(
      element('caption', { textContent: 'What a reader of u hears (the length along u)' }),
      element('thead', {}, [element('tr', {}, [
        element('th', { scope: 'col', textContent: 'from' }),
        element('th', { scope: 'col' }, notation('with this W_O')),
        element('th', { scope: 'col' }, notation('with W_O = I')),
      ])]),
      element('tbody', {}, [
        ...heads.map((name, i) => row(`head ${name}`, headClass(i), view.withMixing.heads[i], view.withoutMixing.heads[i])),
        row('whole output', 'total', view.withMixing.total, view.withoutMixing.total),
      ]));
  }
}

WoMixingWidget.define();
