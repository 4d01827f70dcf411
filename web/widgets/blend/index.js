// <mha-blend>: one head must spend one attention budget on two jobs; two heads of half the
// width, with the same weights and the same d_model, do one job each. The learner drags the
// one head's budget for "said" and sees, side by side: where its output lands among the
// meanings (and that other weights land on the same point), and what a fixed reader can
// still tell from it over 16 sentences. See README.md for attributes and events.
import { MhaWidget } from '../shared/widget-base.js';
import { editHint } from '../shared/widget-attributes.js';
import { element, morphChildren, setText } from '../../ui/dom.js';
import { messagesFor } from '../shared/i18n.js';
import { headClass, variantTokens } from '../shared/world.js';
import { BudgetBar } from '../../ui/budget-bar.js';
import { roundToSum } from '../../ui/budget-math.js';
import { kitSheet } from '../../ui/styles.js';
import { NarrowSwitch } from '../../ui/narrow-switch.js';
import { notation } from '../../ui/notation.js';
import { layerLink } from '../shared/page-links.js';
import { BlendModel, blendWorldNeeds, defaultBlendState, describeShare, heardWords, sanitizeBlendState, undoVerdict } from './blend-model.js';
import { PlaneView } from './plane-view.js';
import { ReaderGrid } from './reader-grid.js';
import styles from './blend.css?inline';

// Attributes of the old, hand-made blend; the one world replaced them.
const RETIRED_ATTRIBUTES = ['sentence', 'query', 'subject', 'complement'];

export class BlendWidget extends MhaWidget {
  static tag = 'mha-blend';
  static stateKey = 'blend';
  static styles = styles;

  static worldNeeds(w, m) {
    return blendWorldNeeds(w, m);
  }

  // The blend always shows its world (the `world` attribute): nothing is left to configure. A config
  // (or an attribute of the old widget) is refused with a notice, never half-applied.
  defaultConfig() {
    const refused = [];
    if (this.hasAttribute('config')) refused.push('config');
    refused.push(...RETIRED_ATTRIBUTES.filter((name) => this.hasAttribute(name)));
    if (refused.length) {
      const m = messagesFor(this);
      this.showNotice(m.t('blend.ignoredAttributes', { names: m.list(refused.map((name) => m.t('common.quoted', { text: name }))) }));
    }
    return {};
  }

  defaultState() {
    return defaultBlendState();
  }

  sanitizeState(raw) {
    return sanitizeBlendState(raw, this.world?.L);
  }

  build() {
    if (!this.root.adoptedStyleSheets.includes(kitSheet())) {
      this.root.adoptedStyleSheets = [...this.root.adoptedStyleSheets, kitSheet()];
    }
    const m = this.m = messagesFor(this);
    this.model = new BlendModel(this.engine, this.world);
    const caption = this.#buildIntro();
    const onePanel = this.#buildOnePanel();
    const twoPanel = this.#buildTwoPanel();
    const planePanel = this.#buildPlanePanel();

    // On a phone, under the one head's bar: one of its effects at a time (the grid of
    // answers, where the output lands) or the two heads to compare with.
    this.narrow = new NarrowSwitch({
      label: m.t('blend.narrow.label'), value: 'reader', messages: m, options: [
        { value: 'reader', content: m.t('blend.narrow.reader'), label: m.t('blend.narrow.readerLabel'), panels: [this.oneReader.element] },
        { value: 'plane', content: m.t('blend.narrow.plane'), panels: [planePanel] },
        { value: 'two', content: m.t('blend.twoHeads'), panels: [twoPanel] },
      ],
    });
    this.ownButton.after(this.narrow.element);

    const details = this.#buildValues();
    this.body.append(
      element('div', { className: 'top' }, [caption, layerLink('weights', undefined, m), this.historyToolbar(m.t('blend.history'))]),
      this.fairLine,
      this.headline,
      element('div', { className: 'layout' }, [onePanel, planePanel, twoPanel]),
      details,
    );
  }

  // ---- building: the lines on top, the three columns, the exact values -------------------

  // The lines above the columns: what to try, in one short line (the lesson's prose says
  // what it shows; returned, to sit beside the history buttons), what both sides share, and
  // the headline (written by render).
  #buildIntro() {
    const { m } = this;
    const { w, fairness } = this.model;
    const words = { subject: w.tokens[w.subjectIndex], complement: w.tokens[w.complementIndex], said: w.tokens[w.queryIndex] };
    const caption = element('p', { className: 'caption' }, editHint(
      element('span', {}, m.nodes('blend.caption', words)),
      element('span', {}, m.nodes('blend.captionReadOnly', words)),
    ));
    this.fairLine = element('p', { className: 'fair' }, [
      ...m.nodes(fairness.sameWeights ? 'blend.fair.same' : 'blend.fair.different', {
        dModel: notation(`d_{model} = ${fairness.one.dModel}`),
        weights: notation('W_Q, W_K, W_V, W_O'),
        one: element('b', { textContent: m.t('blend.fair.oneHead', { width: fairness.one.width }) }),
        two: element('b', { textContent: m.t('blend.fair.twoHeads', { width: fairness.two.width }) }),
      }),
    ]);
    this.headline = element('p', { className: 'headline', ariaLive: 'polite', id: 'blend-headline' });
    return caption;
  }

  // One head: its budget is the control.
  #buildOnePanel() {
    const { m } = this;
    const { w, fairness, oneHead } = this.model;
    const said = w.tokens[w.queryIndex];
    const memberNames = m.headName(oneHead);
    this.oneBar = new BudgetBar({
      label: m.t('blend.oneBarLabel', { names: memberNames, said }), messages: m,
      owner: m.t('blend.oneHead'), tokens: w.tokens, weights: this.model.ownBudget, colour: 'var(--head)', drag: 'sides',
      onPropose: (row) => this.#propose({ budget: row }),
      controls: 'one-reader blend-plane blend-headline',
    });
    if (this.readOnly) this.oneBar.setReadonly(true);
    this.groupEdits(this.oneBar.element); // a drag, or a typed weight, is one undo step
    this.ownButton = element('button', { type: 'button', className: 'secondary', textContent: m.t('blend.ownWeights') });
    this.ownButton.setAttribute('aria-controls', 'one-reader blend-plane blend-headline');
    this.ownButton.addEventListener('click', () => this.#propose({ budget: null }));
    this.oneReader = new ReaderGrid({ w, title: m.t('blend.oneHead'), messages: m });
    this.oneReader.element.id = 'one-reader';
    return element('section', { className: `column one-head ${headClass(oneHead)}`, ariaLabel: m.t('blend.onePanel'), dataset: { panel: 'one-head' } }, [
      element('h3', {}, [element('span', { className: 'swatch', ariaHidden: 'true' }), m.t('blend.oneHeading', { width: fairness.one.width })]),
      element('p', { className: 'sub' }, [
        m.t('blend.oneSub', { names: memberNames, said }), ' ',
        // How to drag and type: said where a keyboard is likely (wider than a phone).
        ...editHint(element('span', { className: 'keys-hint', textContent: m.t('blend.oneKeys') })),
      ]),
      this.oneBar.element,
      this.sumLine = element('p', { className: 'sum-line num' }),
      this.ownButton,
      this.oneReader.element,
      // Why width does not help: one set of weights multiplies every column of the output
      // (below the reader, so the bar and its effect stay on one screen).
      this.oneAlpha = element('p', { className: 'one-alpha sub' }),
    ]);
  }

  // Two heads: each spends its own budget (the core's softmax weights, not editable here).
  #buildTwoPanel() {
    const { m } = this;
    const { w, fairness, subjectHead, complementHead } = this.model;
    const said = w.tokens[w.queryIndex];
    const fixedBar = (head, weights) => new BudgetBar({
      label: m.t('blend.fixedBarLabel', { name: m.headName(head), said }), owner: m.headName(head), tokens: w.tokens, weights,
      colour: `var(--head-${head.members[0].id})`, messages: m,
    });
    this.subjectBar = fixedBar(subjectHead, this.model.subjectBudget);
    this.complementBar = fixedBar(complementHead, this.model.complementBudget);
    this.twoReader = new ReaderGrid({ w, title: m.t('blend.twoHeads'), messages: m });
    return element('section', { className: 'column two-heads', ariaLabel: m.t('blend.twoPanel'), dataset: { panel: 'two-heads' } }, [
      element('h3', {}, [
        element('span', { className: `swatch ${headClass(subjectHead)}`, ariaHidden: 'true' }),
        element('span', { className: `swatch ${headClass(complementHead)}`, ariaHidden: 'true' }),
        m.t('blend.twoHeading', { width: fairness.two.width }),
      ]),
      element('p', { className: 'sub', textContent: m.t('blend.twoSub') }),
      element('div', { className: `fixed-bar ${headClass(subjectHead)}` }, [
        element('h4', { textContent: m.headName(subjectHead) }), this.subjectBar.element,
        element('p', { className: 'sum-line num', textContent: partsLine(w, this.model.subjectBudget, [w.subjectIndex], m) }),
      ]),
      element('div', { className: `fixed-bar ${headClass(complementHead)}` }, [
        element('h4', { textContent: m.headName(complementHead) }), this.complementBar.element,
        element('p', { className: 'sum-line num', textContent: partsLine(w, this.model.complementBudget, [w.complementIndex], m) }),
      ]),
      this.twoReader.element,
    ]);
  }

  // The geometry between them.
  #buildPlanePanel() {
    const { m } = this;
    const { w, oneHead, subjectHead, complementHead } = this.model;
    this.plane = new PlaneView({ w, oneHead, subjectHead, complementHead, messages: m, readOnly: this.readOnly });
    this.undoText = element('p', { className: 'undo-text' });
    this.altBar = new BudgetBar({
      label: m.t('blend.altBarLabel'), owner: m.t('blend.otherWeights'), tokens: w.tokens,
      weights: this.model.ownBudget, colour: 'var(--head)', messages: m,
    });
    this.altSumLine = element('p', { className: 'sum-line num' });
    this.altBox = element('div', { className: `alt ${headClass(oneHead)}` }, [this.altBar.element, this.altSumLine]);
    return element('section', { className: 'column geometry', id: 'blend-plane', ariaLabel: m.t('blend.whereItLands'), dataset: { panel: 'plane' } }, [
      element('h3', { textContent: m.t('blend.whereItLands') }),
      this.plane.element,
      element('h4', { textContent: m.t('blend.undoIt') }),
      this.undoText,
      this.altBox,
    ]);
  }

  #buildValues() {
    this.values = element('div', { className: 'values-body', id: 'blend-values' });
    const summary = element('summary', { textContent: this.m.t('common.exactValues') });
    summary.setAttribute('aria-controls', 'blend-values');
    const details = element('details', { className: 'values', dataset: { panel: 'values' } }, [summary, this.values]);
    // The table of exact values is built only while it is open (it is 13 rows of 6 cells,
    // rebuilt on every edit otherwise), and brought up to date when it opens.
    this.valuesPanel = details;
    details.addEventListener('toggle', () => {
      if (details.open && this.lastView) this.#renderValues(this.lastView);
    });
    return details;
  }

  dispose() {
    this.model?.dispose();
    this.model = null;
  }

  compute(state) {
    return this.model.compute(state);
  }

  #propose(patch) {
    let next;
    try {
      next = sanitizeBlendState({ ...this.state, ...patch }, this.model.w.L);
    } catch (error) {
      return error.message;
    }
    return this.commit(next);
  }

  render(view) {
    const { w } = this.model;
    const { m } = this;
    this.oneBar.setWeights(view.budget);
    this.ownButton.disabled = view.own;
    setText(this.sumLine, partsLine(w, view.budget, [w.subjectIndex, w.complementIndex], m));
    this.subjectBar.setWeights(this.model.subjectBudget);
    this.complementBar.setWeights(this.model.complementBudget);
    this.oneReader.show(view.one);
    this.twoReader.show(view.two);
    this.plane.show(view);
    // Right answers of the total; ties (neither right nor wrong) are said apart.
    const countOf = (count, ties, total) => m.t(ties ? 'blend.countOfTies' : 'blend.countOf', { count, total, ties });
    const counts = (r) => countOf(r.subjectCorrect, r.subjectTies, r.total);
    const countsWhat = (r) => countOf(r.complementCorrect, r.complementTies, r.total);
    // The headline: how often a later layer reads each answer right, over the 16 sentences.
    // It is a live region: rewritten only when the figures change, so a drag is not a
    // stream of identical announcements.
    const figures = JSON.stringify([[view.one, view.two].flatMap((r) => [r.subjectCorrect, r.complementCorrect, r.subjectTies, r.complementTies]), view.sentence]);
    if (this.headline.dataset.figures !== figures) {
      this.headline.dataset.figures = figures;
      // First the page's own sentence as each reader hears it, then the counts over all 16.
      const heard = (answer) => {
        const mark = answer.right === null ? 'tie' : answer.right ? 'right' : 'wrong';
        return element('span', { className: `heard ${mark}` }, [
          heardWords(answer, m), ' ', element('span', { ariaHidden: 'true', textContent: { right: '✓', wrong: '✗', tie: '=' }[mark] }),
          element('span', { className: 'ui-sr-only', textContent: m.t(`blend.headline.${mark}`) }),
        ]);
      };
      const { w } = this.model;
      morphChildren(this.headline, [
        element('span', { className: 'sentence' }, m.nodes('blend.headline.sentence', {
          said: w.tokens[w.queryIndex],
          oneWho: heard(view.sentence.one.who), oneWhat: heard(view.sentence.one.what),
          twoWho: heard(view.sentence.two.who), twoWhat: heard(view.sentence.two.what),
        })),
        ' ',
        element('span', { className: 'score one' }, m.nodes('blend.headline.one', {
          head: element('b', { textContent: m.t('blend.oneHead') }),
          who: element('strong', { textContent: counts(view.one) }), what: element('strong', { textContent: countsWhat(view.one) }),
        })),
        ' ',
        element('span', { className: 'score two' }, m.nodes('blend.headline.two', {
          heads: element('b', { textContent: m.t('blend.twoHeads') }),
          who: element('strong', { textContent: counts(view.two) }), what: element('strong', { textContent: countsWhat(view.two) }),
        })),
      ]);
    }
    this.#renderOneAlpha(view);
    this.#renderUndo(view);
    this.lastView = view;
    if (this.valuesPanel.open) this.#renderValues(view);
  }

  // The one head's output is its weights times its values, column by column: its two halves
  // (the columns the subject finder's W_V writes and those the complement finder's writes)
  // are the same weighting of the same meanings, so they are equal, whatever the budget.
  #renderOneAlpha(view) {
    const { m, model } = this;
    const half = model.meanings.cols;
    const first = view.output.slice(0, half);
    const second = view.output.slice(half, 2 * half);
    const join = m.decimalSeparator === ',' ? '; ' : ', ';
    const vector = (v) => `(${v.map((x) => m.number(x)).join(join)})`;
    const same = first.every((x, i) => Math.abs(x - second[i]) <= 1e-6 * Math.max(1, Math.abs(x)));
    setText(this.oneAlpha, m.t(same ? 'blend.oneAlpha.same' : 'blend.oneAlpha.different', {
      width: model.fairness.one.width, first: vector(first), second: vector(second),
      subject: m.headName(model.subjectHead), complement: m.headName(model.complementHead),
    }));
  }

  #renderUndo(view) {
    const alt = view.alternative;
    const { m } = this;
    // Kept in the layout when absent (visibility), so nothing below jumps.
    this.altBox.classList.toggle('absent', !alt.meaningful);
    const verdict = undoVerdict(alt);
    if (verdict === 'farthest' || verdict === 'found') {
      this.altBar.setWeights(alt.weights);
      const { w } = this.model;
      setText(this.altSumLine, partsLine(w, alt.weights, [w.subjectIndex, w.complementIndex], m));
      const within = alt.maxOutputDifference.toExponential(0).replace('-', '−');
      setText(this.undoText, m.t(`blend.undo.${verdict}`, { share: describeShare(alt.moved, m), within }));
    } else if (verdict === 'tiny') {
      setText(this.undoText, m.t('blend.undo.tiny', { share: describeShare(alt.moved, m), limit: m.percent(0.001, 1) }));
    } else {
      // Said only when proven (every candidate checked), with what the reader still loses.
      const one = view.one;
      const lost = 2 * one.total - one.subjectCorrect - one.complementCorrect - one.subjectTies - one.complementTies;
      const none = m.t(`blend.undo.${verdict}`);
      setText(this.undoText, lost > 0 ? `${none} ${m.t('blend.undo.readerLoses', { count: lost, total: 2 * view.one.total })}` : none);
    }
  }

  #renderValues(view) {
    const { w } = this.model;
    const { m } = this;
    const columns = [
      [m.t('blend.values.now'), view.budget],
      [m.t('blend.values.own'), this.model.ownBudget],
      [m.headName(this.model.subjectHead), this.model.subjectBudget],
      [m.headName(this.model.complementHead), this.model.complementBudget],
      [m.t('blend.otherWeights'), view.alternative.weights],
    ];
    const cell = (v) => element('td', { className: 'num', textContent: v === null || v === undefined ? '—' : m.number(v, 4) });
    const sum = (row) => (row ? row.reduce((s, v) => s + v, 0) : null);
    // Coordinates are separated by "; " where the decimal separator is a comma.
    const join = m.decimalSeparator === ',' ? '; ' : ', ';
    morphChildren(this.values, [
      ...editHint(element('p', { className: 'sub', textContent: m.t('blend.values.howToType') })),
      element('div', { className: 'table-scroll ui-scroll' }, [element('table', { className: 'values-table' }, [
        element('caption', { textContent: m.t('blend.values.caption', { said: w.tokens[w.queryIndex] }) }),
        element('thead', {}, [element('tr', {}, [element('th', { scope: 'col', textContent: m.t('blend.values.word') }), ...columns.map(([name]) => element('th', { scope: 'col', textContent: name }))])]),
        element('tbody', {}, [
          ...w.tokens.map((token, t) => element('tr', {}, [element('th', { scope: 'row', textContent: token }), ...columns.map(([, row]) => cell(row?.[t]))])),
          element('tr', { className: 'sum' }, [element('th', { scope: 'row', textContent: m.t('blend.values.sum') }), ...columns.map(([, row]) => cell(sum(row)))]),
        ]),
      ])]),
      element('p', { className: 'num sub', textContent: m.t('blend.values.output', { said: w.tokens[w.queryIndex], width: view.output.length, vector: `(${view.output.map((v) => m.number(v, 3)).join(join)})` }) }),
      element('p', { className: 'sub', textContent: m.t('blend.values.variants', {
        subjects: w.reader.subjects.map((s) => s.word).join(', '), complements: w.reader.complements.map((c) => c.word).join(', '),
        example: variantTokens(w, 1, 2).join(' '),
      }) }),
    ]);
  }
}

/**
 * A budget in parts that visibly add up to 1: the key tokens' weights and the rest, rounded
 * together (largest remainder, 3 decimals): "researcher 0.474 + it 0.473 + 9 other words 0.053 = 1.000".
 */
export function partsLine(w, weights, keys, m = messagesFor('en')) {
  const rest = weights.reduce((sum, v, t) => (keys.includes(t) ? sum : sum + v), 0);
  const shares = roundToSum([...keys.map((t) => weights[t]), rest], 3);
  const parts = keys.map((t, k) => `${w.tokens[t]} ${m.number(shares[k], 3)}`);
  parts.push(m.t('blend.otherWords', { count: w.L - keys.length, value: m.number(shares[keys.length], 3) }));
  return `${parts.join(' + ')} = ${m.number(shares.reduce((a, b) => a + b, 0), 3)}`;
}

BlendWidget.define();
