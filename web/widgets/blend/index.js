// <mha-blend>: one head must spend one attention budget on two jobs; two heads of half the
// width, with the same weights and the same d_model, do one job each. The learner drags the
// one head's budget for "said" and sees, side by side: where its output lands among the
// meanings (and that other weights land on the same point), and what a fixed reader can
// still tell from it over 16 sentences. See README.md for attributes and events.
import { MhaWidget, element } from '../shared/widget-base.js';
import { formatNumber } from '../shared/format.js';
import { headClass, variantTokens } from '../shared/world.js';
import { BudgetBar } from '../../ui/budget-bar.js';
import { roundToSum } from '../../ui/budget-math.js';
import { kitSheet } from '../../ui/styles.js';
import { NarrowSwitch } from '../../ui/narrow-switch.js';
import { notation } from '../../ui/notation.js';
import { layerLink } from '../layer/layer-link.js';
import { BlendModel, defaultBlendState, describeShare, sanitizeBlendState } from './blend-model.js';
import { PlaneView } from './plane-view.js';
import { ReaderGrid } from './reader-grid.js';
import styles from './blend.css?inline';

// Attributes of the old, hand-made blend; the one world replaced them.
const RETIRED_ATTRIBUTES = ['sentence', 'query', 'subject', 'complement'];

export class BlendWidget extends MhaWidget {
  static tag = 'mha-blend';
  static stateKey = 'blend';
  static styles = styles;

  // The blend always shows the lesson's one world: nothing is left to configure. A config
  // (or an attribute of the old widget) is refused with a notice, never half-applied.
  defaultConfig() {
    const refused = [];
    if (this.hasAttribute('config')) refused.push('config');
    refused.push(...RETIRED_ATTRIBUTES.filter((name) => this.hasAttribute(name)));
    if (refused.length) {
      this.showNotice(`Ignored ${refused.map((name) => `“${name}”`).join(', ')}: this widget always shows the lesson’s one sentence and heads, so it takes no configuration.`);
    }
    return {};
  }

  defaultState() {
    return defaultBlendState();
  }

  sanitizeState(raw) {
    return sanitizeBlendState(raw, this.model?.w.L);
  }

  build() {
    if (!this.root.adoptedStyleSheets.includes(kitSheet())) {
      this.root.adoptedStyleSheets = [...this.root.adoptedStyleSheets, kitSheet()];
    }
    this.model = new BlendModel(this.engine);
    const { w, fairness, oneHead, subjectHead, complementHead } = this.model;
    const said = w.tokens[w.queryIndex];
    const subjectWord = w.tokens[w.subjectIndex];
    const complementWord = w.tokens[w.complementIndex];
    const memberNames = oneHead.members.map((m) => m.name).join(' + ');

    const caption = element('p', { className: 'caption' }, [
      element('strong', { textContent: 'Try: ' }),
      `drag a dividing line of the grey bar toward “${subjectWord}” or toward “${complementWord}”. `,
      element('strong', { textContent: 'Notice: ' }),
      `one head can answer one question about “${said}”, never both; two heads answer both.`,
      ' ', layerLink('weights'),
    ]);
    const sameText = fairness.sameWeights ? 'Same W_Q, W_K, W_V, W_O' : 'Different weights (!)';
    this.fairLine = element('p', { className: 'fair' }, [
      ...notation(`${sameText} and the same d_{model} = ${fairness.one.dModel} in both; only the split differs: `),
      element('b', { textContent: `1 head of width ${fairness.one.width}` }), ' doing both jobs, or ',
      element('b', { textContent: `2 heads of width ${fairness.two.width}` }), ' doing one each.',
    ]);
    this.headline = element('p', { className: 'headline', ariaLive: 'polite', id: 'blend-headline' });

    // One head: its budget is the control.
    this.oneBar = new BudgetBar({
      label: `One head (${memberNames}): attention budget of “${said}”`,
      owner: 'One head', tokens: w.tokens, weights: this.model.ownBudget, colour: 'var(--head)', drag: 'sides',
      onPropose: (row) => this.#propose({ budget: row }),
      controls: 'one-reader blend-plane blend-headline',
    });
    if (this.readOnly) this.oneBar.setReadonly(true);
    this.ownButton = element('button', { type: 'button', className: 'secondary', textContent: 'Back to its own weights' });
    this.ownButton.setAttribute('aria-controls', 'one-reader blend-plane blend-headline');
    this.ownButton.addEventListener('click', () => this.#propose({ budget: null }));
    this.oneReader = new ReaderGrid({ w, title: 'One head' });
    this.oneReader.element.id = 'one-reader';
    const onePanel = element('section', { className: `column one-head ${headClass(oneHead)}`, ariaLabel: 'One head for both jobs', dataset: { panel: 'one-head' } }, [
      element('h3', {}, [element('span', { className: 'swatch', ariaHidden: 'true' }), `One head, width ${fairness.one.width}`]),
      element('p', { className: 'sub', textContent: `${memberNames}: one budget for “${said}”. Drag a line, or pick a word with ← → and press ↑ ↓.` }),
      this.oneBar.element,
      this.sumLine = element('p', { className: 'sum-line num' }),
      this.ownButton,
      this.oneReader.element,
    ]);

    // Two heads: each spends its own budget (the core's softmax weights, not editable here).
    const fixedBar = (head, weights) => new BudgetBar({
      label: `${head.name}: attention budget of “${said}”`, owner: head.name, tokens: w.tokens, weights,
      colour: `var(--head-${head.members[0].id})`,
    });
    this.subjectBar = fixedBar(subjectHead, this.model.subjectBudget);
    this.complementBar = fixedBar(complementHead, this.model.complementBudget);
    this.twoReader = new ReaderGrid({ w, title: 'Two heads' });
    const twoPanel = element('section', { className: 'column two-heads', ariaLabel: 'Two heads, one job each', dataset: { panel: 'two-heads' } }, [
      element('h3', {}, [
        element('span', { className: `swatch ${headClass(subjectHead)}`, ariaHidden: 'true' }),
        element('span', { className: `swatch ${headClass(complementHead)}`, ariaHidden: 'true' }),
        `Two heads, width ${fairness.two.width} each`,
      ]),
      element('p', { className: 'sub', textContent: 'Each finder has a budget of its own (the core’s softmax weights).' }),
      element('div', { className: `fixed-bar ${headClass(subjectHead)}` }, [
        element('h4', { textContent: subjectHead.name }), this.subjectBar.element,
        element('p', { className: 'sum-line num', textContent: partsLine(w, this.model.subjectBudget, [w.subjectIndex]) }),
      ]),
      element('div', { className: `fixed-bar ${headClass(complementHead)}` }, [
        element('h4', { textContent: complementHead.name }), this.complementBar.element,
        element('p', { className: 'sum-line num', textContent: partsLine(w, this.model.complementBudget, [w.complementIndex]) }),
      ]),
      this.twoReader.element,
    ]);

    // The geometry between them.
    this.plane = new PlaneView({ w, oneHead, subjectHead, complementHead });
    this.undoText = element('p', { className: 'undo-text' });
    this.altBar = new BudgetBar({
      label: `Other weights for the one head with the same output`, owner: 'Other weights', tokens: w.tokens,
      weights: this.model.ownBudget, colour: 'var(--head)',
    });
    this.altSumLine = element('p', { className: 'sum-line num' });
    this.altBox = element('div', { className: `alt ${headClass(oneHead)}` }, [this.altBar.element, this.altSumLine]);
    const planePanel = element('section', { className: 'column geometry', id: 'blend-plane', ariaLabel: 'Where the output lands', dataset: { panel: 'plane' } }, [
      element('h3', { textContent: 'Where the output lands' }),
      this.plane.element,
      element('h4', { textContent: 'Undo it?' }),
      this.undoText,
      this.altBox,
    ]);

    // On a phone, under the one head's bar: one of its effects at a time (the grid of
    // answers, where the output lands) or the two heads to compare with.
    this.narrow = new NarrowSwitch({
      label: 'Figure shown under the bar', value: 'reader', options: [
        { value: 'reader', content: 'Who? What?', label: 'Who? What? The one head’s answers', panels: [this.oneReader.element] },
        { value: 'plane', content: 'Where it lands', panels: [planePanel] },
        { value: 'two', content: 'Two heads', panels: [twoPanel] },
      ],
    });
    this.ownButton.after(this.narrow.element);

    this.values = element('div', { className: 'values-body', id: 'blend-values' });
    const summary = element('summary', { textContent: 'Exact values' });
    summary.setAttribute('aria-controls', 'blend-values');
    const details = element('details', { className: 'values', dataset: { panel: 'values' } }, [summary, this.values]);

    this.body.append(
      element('div', { className: 'top' }, [caption, this.historyToolbar('Undo or reset the blend widget')]),
      this.fairLine,
      this.headline,
      element('div', { className: 'layout' }, [onePanel, planePanel, twoPanel]),
      details,
    );
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

  render(view, state) {
    const { w } = this.model;
    this.oneBar.setWeights(view.budget);
    this.ownButton.disabled = view.own;
    this.sumLine.textContent = partsLine(w, view.budget, [w.subjectIndex, w.complementIndex]);
    this.subjectBar.setWeights(this.model.subjectBudget);
    this.complementBar.setWeights(this.model.complementBudget);
    this.oneReader.show(view.one);
    this.twoReader.show(view.two);
    this.plane.show(view);
    const counts = (r) => `${r.subjectCorrect} of ${r.total}`;
    const countsWhat = (r) => `${r.complementCorrect} of ${r.total}`;
    // The headline: how often a later layer reads each answer right, over the 16 sentences.
    // It is a live region: rewritten only when the figures change, so a drag is not a
    // stream of identical announcements.
    const figures = [view.one.subjectCorrect, view.one.complementCorrect, view.two.subjectCorrect, view.two.complementCorrect].join(' ');
    if (this.headline.dataset.figures !== figures) {
      this.headline.dataset.figures = figures;
      this.headline.replaceChildren(
        element('span', { className: 'score one' }, [
          element('b', { textContent: 'One head' }), ': who did the saying? right in ', element('strong', { textContent: counts(view.one) }),
          ', what was said? in ', element('strong', { textContent: countsWhat(view.one) }), '.',
        ]),
        ' ',
        element('span', { className: 'score two' }, [
          element('b', { textContent: 'Two heads' }), ': ', element('strong', { textContent: counts(view.two) }), ' and ', element('strong', { textContent: countsWhat(view.two) }), '.',
        ]),
      );
    }
    this.#renderUndo(view);
    this.#renderValues(view, state);
  }

  #renderUndo(view) {
    const alt = view.alternative;
    // Kept in the layout when absent (visibility), so nothing below jumps.
    this.altBox.classList.toggle('absent', !alt.meaningful);
    if (alt.meaningful) {
      this.altBar.setWeights(alt.weights);
      const { w } = this.model;
      this.altSumLine.textContent = partsLine(w, alt.weights, [w.subjectIndex, w.complementIndex]);
      this.undoText.textContent = `The core found other weights (below; ${describeShare(alt.moved)} of the budget moved) whose output is the same point, to within ${alt.maxOutputDifference.toExponential(0)}. From the output alone, nothing can tell which weighting made it.`;
    } else if (alt.found) {
      this.undoText.textContent = `Other weights with this output differ by less than 0.1% of the budget (${describeShare(alt.moved)}): no meaningful alternative here.`;
    } else {
      this.undoText.textContent = 'No other weighting gives this output: with the budget on one or two words, the point can be made only one way. But look at the reader: one question is still lost.';
    }
  }

  #renderValues(view) {
    const { w } = this.model;
    const columns = [
      ['One head (now)', view.budget],
      ['One head’s own', this.model.ownBudget],
      [this.model.subjectHead.name, this.model.subjectBudget],
      [this.model.complementHead.name, this.model.complementBudget],
      ['Other weights', view.alternative.weights],
    ];
    const cell = (v) => element('td', { className: 'num', textContent: v === null || v === undefined ? '—' : formatNumber(v, 4) });
    const sum = (row) => (row ? row.reduce((s, v) => s + v, 0) : null);
    this.values.replaceChildren(
      element('p', { className: 'sub', textContent: `To type an exact weight: focus the grey bar, pick a word with ← →, press Enter.` }),
      element('div', { className: 'table-scroll ui-scroll' }, [element('table', { className: 'values-table' }, [
        element('caption', { textContent: `Attention weights of “${w.tokens[w.queryIndex]}” (4 decimals)` }),
        element('thead', {}, [element('tr', {}, [element('th', { scope: 'col', textContent: 'word' }), ...columns.map(([name]) => element('th', { scope: 'col', textContent: name }))])]),
        element('tbody', {}, [
          ...w.tokens.map((token, t) => element('tr', {}, [element('th', { scope: 'row', textContent: token }), ...columns.map(([, row]) => cell(row?.[t]))])),
          element('tr', { className: 'sum' }, [element('th', { scope: 'row', textContent: 'sum' }), ...columns.map(([, row]) => cell(sum(row)))]),
        ]),
      ])]),
      element('p', { className: 'num sub', textContent: `One head’s output for “${w.tokens[w.queryIndex]}” (width ${view.output.length}): (${view.output.map((v) => formatNumber(v, 3)).join(', ')})` }),
      element('p', { className: 'sub', textContent: `Reader variants: subjects ${w.reader.subjects.map((s) => s.word).join(', ')}; complements ${w.reader.complements.map((c) => c.word).join(', ')} (e.g. “${variantTokens(w, 1, 2).join(' ')}”).` }),
    );
  }
}

/**
 * A budget in parts that visibly add up to 1: the key tokens' weights and the rest, rounded
 * together (largest remainder, 3 decimals): "researcher 0.474 + it 0.473 + 9 other words 0.053 = 1.000".
 */
export function partsLine(w, weights, keys) {
  const rest = weights.reduce((sum, v, t) => (keys.includes(t) ? sum : sum + v), 0);
  const shares = roundToSum([...keys.map((t) => weights[t]), rest], 3);
  const parts = keys.map((t, k) => `${w.tokens[t]} ${shares[k].toFixed(3)}`);
  parts.push(`${w.L - keys.length} other words ${shares[keys.length].toFixed(3)}`);
  return `${parts.join(' + ')} = ${shares.reduce((a, b) => a + b, 0).toFixed(3)}`;
}

BlendWidget.define();
