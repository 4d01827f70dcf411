// The practice checkers: every answer is marked by the core, through the widgets' own model
// files (which run the wasm engine) and the world model. Nothing here redoes the core's
// mathematics: counts, widths, ranks, cosines, weights and lengths along u are the core's;
// this file only compares them with what the learner did and fills the reasons' {figures}.
// No DOM, so Node tests run the same checks against the same core.
//
//   checkNumber(problem, text)     a typed number: right, a named misstep, or wrong
//   outcome(problem)               predict-then-see: which option the core's result matches
//   seeState(problem, state)       the state to put in the widget to "see" it
//   goal(problem, state)           a widget task on the widget's live state
//   claimImpossible(problem, state) the learner says "it cannot be done"
import { BlendModel } from '../blend/blend-model.js';
import { SplitModels, splitConfig } from '../head-splitting/head-splitting-model.js';
import { WoMixingModel, woMixingConfig, heardHeads, presetValues, directionValues } from '../wo-mixing/wo-mixing-model.js';
import { HeadsQuestionsModel, strongestKeys } from '../heads-questions/heads-questions-model.js';
import { LayerModel } from '../layer/layer-model.js';
import { THE_WORLD, headsAt } from '../shared/world.js';
import { formatCount, formatNumber } from '../../text/format.js';
import { parseNumber } from '../../text/parse-number.js';
import { messagesFor } from '../shared/i18n.js';
import { fillReason } from './practice-data.js';

// The words a checker writes into reasons (head names, "equally", "tied", lists, numbers), in
// the learner's language: practice.checker.* of the message files, through a Messages object.
function wordsIn(m) {
  const t = (key, params) => m.t(`practice.checker.${key}`, params);
  return {
    m,
    numberWhat: t('numberWhat'),
    notImpossible: t('notImpossible'),
    impossibleRight: t('impossibleRight'),
    quote: (word) => m.t('common.quoted', { text: word }),
    tied: t('tied'), untied: t('untied'),
    noHead: t('noHead'),
    directionOther: t('directionOther'),
    setup: (parts) => m.list(parts),
    equally: (count) => t('equally', { count }),
    allEqually: (count) => t('allEqually', { count }),
    someEqually: (words) => t('someEqually', { words }),
    heardHead: (head, length) => t('heardHead', { head: m.headName(head), length }),
    looksAt: (head, what) => t('looksAt', { head: m.headName(head), what }),
  };
}

const w = THE_WORLD;
const headIndex = (id) => {
  const i = w.heads.findIndex((head) => head.id === id);
  if (i < 0) throw new Error(`practice data: no head “${id}”`);
  return i;
};
const tokenIndex = (word) => {
  const t = w.tokens.indexOf(word);
  if (t < 0) throw new Error(`practice data: “${word}” is not a word of the sentence`);
  return t;
};
// What one row of the core's weights looks at, naming every word it holds equal (within
// strongestKeys' 0.005), never one of them alone: “it”; “was” and “wrong” equally; 6 words
// equally.
function looksAt(row, text) {
  const { keys, even } = strongestKeys(row);
  if (even) return text.allEqually(keys.length);
  if (keys.length === 1) return text.quote(w.tokens[keys[0]]);
  if (keys.length > 3) return text.equally(keys.length);
  return text.someEqually(text.m.list(keys.map((k) => text.quote(w.tokens[k]))));
}
const same = (a, b) => a.length === b.length && a.every((v, k) => v === b[k]);

export class PracticeCheckers {
  /**
   * @param engine the attention core (engine.js)
   * @param messages the learner's language (i18n.js Messages): the figures in reasons are
   *   written in it ("0,66", "2.097.152", head names); English by default
   */
  constructor(engine, messages = messagesFor('en')) {
    this.engine = engine;
    this.cache = new Map();
    this.text = wordsIn(messages);
    this.locale = messages.locale;
  }

  /** A fraction with fixed decimals, in the learner's language. */
  #number(value, decimals = 2) {
    return formatNumber(value, decimals, this.locale);
  }

  #count(value) {
    return formatCount(value, this.locale);
  }

  // The widgets' models, made on first use and kept for the page's life.
  #model(name, make) {
    if (!this.cache.has(name)) this.cache.set(name, make());
    return this.cache.get(name);
  }

  get blend() { return this.#model('blend', () => new BlendModel(this.engine)); }
  get split() { return this.#model('split', () => new SplitModels(this.engine, splitConfig())); }
  get woConfig() { return this.#model('woConfig', () => woMixingConfig()); }
  get wo() { return this.#model('wo', () => new WoMixingModel(this.engine, this.woConfig)); }
  get heads() { return this.#model('heads', () => new HeadsQuestionsModel(this.engine)); }
  get layer() { return this.#model('layer', () => new LayerModel(this.engine)); }

  dispose() {
    for (const model of this.cache.values()) model.dispose?.();
    this.cache.clear();
  }

  // ---- numbers -------------------------------------------------------------------------

  /**
   * The value of an expression of the practice data, from the core:
   *   a number literal; { dK: { dModel, heads } } (the core's head width for that shape);
   *   { scores | exponentials: { dModel, heads, seqLen } } (the core's tallies of a real
   *   forward pass); { width: { heads } } (d_k of the world cut into h heads);
   *   { rank: { heads, head } } (similarityRank of a world head); { ranks: { heads } } (all
   *   of them, an array); { ratio: [a, b] }, { product: [a, b] } (of two such values).
   */
  evaluate(expression) {
    if (typeof expression === 'number') return expression;
    const [kind, args] = Object.entries(expression)[0];
    switch (kind) {
      case 'dK': {
        const model = this.engine.createModel({ seqLen: 1, dModel: args.dModel, numHeads: args.heads });
        try { return model.config.dK; } finally { model.delete(); }
      }
      case 'scores':
      case 'exponentials':
        return this.split.countsFor(args).counts[kind];
      case 'width':
        return this.split.spectrumFor({ heads: args.heads, head: 0 }).config.dK;
      case 'rank':
        return this.split.spectrumFor(args).nonZero;
      case 'ranks':
        return Array.from({ length: args.heads }, (_, head) => this.split.spectrumFor({ heads: args.heads, head }).nonZero);
      case 'ratio': return this.evaluate(args[0]) / this.evaluate(args[1]);
      case 'product': return this.evaluate(args[0]) * this.evaluate(args[1]);
      default: throw new Error(`practice data: unknown expression “${kind}”`);
    }
  }

  /** A figure for a reason: counts grouped, fractions with 2 decimals, lists in words. */
  figure(value) {
    if (Array.isArray(value)) return this.text.m.list(value.map((v) => this.figure(v)));
    if (Number.isInteger(value)) return this.#count(value);
    return this.#number(value, Math.abs(value) < 0.1 ? 3 : 2);
  }

  /** The figures of a number problem: {answer} and the problem's own named figures. */
  numberFigures(problem) {
    const figures = { answer: this.figure(this.evaluate(problem.answer)) };
    for (const [name, expression] of Object.entries(problem.figures ?? {})) figures[name] = this.figure(this.evaluate(expression));
    return figures;
  }

  /**
   * Marks a typed number. Returns { status: 'invalid', message } for text that is not a
   * number, else { status: 'right' | 'misstep' | 'wrong', correct, misstep, reason, value }.
   * Within the problem's tolerance (relative to the answer) the answer is right; near a
   * misstep's value, the reason names that misstep.
   */
  checkNumber(problem, text) {
    // In the learner's language ("0,5" in German), with the checkers' messages.
    const parsed = parseNumber(text, { min: -1e12, max: 1e12, what: this.text.numberWhat, messages: this.text.m });
    if (!parsed.ok) return { status: 'invalid', message: parsed.message };
    const { value } = parsed;
    const answer = this.evaluate(problem.answer);
    const near = (target) => Math.abs(value - target) <= (problem.tolerance ?? 0) * Math.max(1, Math.abs(target)) + 1e-9;
    const figures = this.numberFigures(problem);
    if (near(answer)) return { status: 'right', correct: true, value, reason: fillReason(problem.right, figures), figures };
    for (const misstep of problem.missteps ?? []) {
      if (near(this.evaluate(misstep.value))) {
        return { status: 'misstep', correct: false, value, misstep: misstep.id, reason: fillReason(misstep.reason, figures), figures };
      }
    }
    return { status: 'wrong', correct: false, value, reason: fillReason(problem.wrong, figures), figures };
  }

  // ---- predict, then see ----------------------------------------------------------------

  /** Which option the core's result matches, and the figures its reasons quote. */
  outcome(problem) {
    const see = problem.see;
    switch (problem.outcome) {
      case 'mergedBudget': {
        const view = this.layer.forward(see.h);
        const head = headsAt(w, see.h).findIndex((h) => h.members.some((m) => m.id === see.head));
        const t = tokenIndex(see.token);
        const row = Array.from(view.weights[head].data.slice(t * w.L, (t + 1) * w.L));
        const subject = row[w.subjectIndex];
        const complement = row[w.complementIndex];
        const other = 1 - subject - complement;
        const { keys, weight } = strongestKeys(row);
        // The core's row decides: one word holding most of the budget, two sharing it, or none.
        let option = 'half';
        if (weight >= 0.8) option = 'subject';
        else if (keys.length > 2 || weight < 0.3) option = 'even';
        return { option, figures: { subjectWeight: this.#number(subject), complementWeight: this.#number(complement), otherWeight: this.#number(other) } };
      }
      case 'exponentialRatio': {
        const from = this.evaluate({ exponentials: { dModel: see.dModel, heads: see.from, seqLen: see.seqLen } });
        const to = this.evaluate({ exponentials: { dModel: see.dModel, heads: see.to, seqLen: see.seqLen } });
        const ratio = to / from;
        const option = Math.abs(ratio - 1) < 1e-9 ? 'same' : (ratio > 1 ? 'grow' : 'shrink');
        return { option, figures: { from: this.figure(from), to: this.figure(to), ratio: this.figure(ratio) } };
      }
      case 'heardWithIdentity': {
        const view = this.wo.compute(this.seeState(problem, null));
        const heard = heardHeads(this.woConfig, view.heads, view.withMixing.heads);
        const ids = heard.map((head) => head.members[0].id);
        const option = ids.length === 1 ? 'subject' : (ids.length === view.heads.length ? 'all' : 'two');
        return { option, figures: { heard: this.heardWords(view.heads, view.withMixing.heads) } };
      }
      default: throw new Error(`practice data: unknown outcome “${problem.outcome}”`);
    }
  }

  /** The widget state that shows a prediction's outcome, built on the widget's current state. */
  seeState(problem, current) {
    const see = problem.see;
    switch (problem.outcome) {
      case 'mergedBudget': {
        const head = headsAt(w, see.h).findIndex((h) => h.members.some((m) => m.id === see.head));
        return { h: see.h, token: tokenIndex(see.token), head };
      }
      case 'exponentialRatio':
        return { spectrumHeads: 4, spectrumHead: 0, ...(current ?? {}), dModel: see.dModel, heads: see.to, seqLen: see.seqLen };
      case 'heardWithIdentity':
        return { token: w.queryIndex, ...(current ?? {}), heads: see.heads, wo: presetValues(this.woConfig, see.preset), u: directionValues(this.woConfig, see.direction) };
      default: throw new Error(`practice data: unknown outcome “${problem.outcome}”`);
    }
  }

  heardWords(heads, lengths) {
    const heard = heardHeads(this.woConfig, heads, lengths);
    if (heard.length === 0) return this.text.noHead;
    return this.text.m.list(heard.map((head) => this.text.heardHead(head, this.#number(lengths[head.index]))));
  }

  // ---- widget tasks ---------------------------------------------------------------------

  /**
   * A widget task on `state` (the widget's live state, from its `state` property).
   * Returns { done, reason, figures }; for an impossible goal `done` is always false and the
   * reason quotes the learner's state and the bound the core computes.
   */
  goal(problem, state) {
    const { reason, figures, done } = this.#goals[problem.goal].call(this, problem.params, state);
    const templates = problem.reasons;
    const text = problem.impossible ? `${fillReason(templates.state, figures)} ${fillReason(templates.bound, figures)}` : fillReason(templates[reason], figures);
    return { done: Boolean(done) && !problem.impossible, reason: text, figures };
  }

  /** The learner says the goal cannot be reached: right for impossible goals, with the bound. */
  claimImpossible(problem, state) {
    const checked = this.#goals[problem.goal].call(this, problem.params, state);
    if (problem.impossible) {
      return { correct: true, reason: this.text.impossibleRight + fillReason(problem.reasons.bound, checked.figures), figures: checked.figures };
    }
    return { correct: false, reason: this.text.notImpossible + fillReason(problem.reasons.possible, checked.figures), figures: checked.figures };
  }

  #goals = {
    // One head, two words: cos(output, v_researcher) and cos(output, v_it) from the core. The
    // bound: no vector is closer to both than the unit bisector of the two value vectors,
    // and the core's output at 0.5 / 0.5 is that bisector (the two vectors are equally long).
    blendBothAligned({ threshold }, state) {
      const model = this.blend;
      const view = model.compute(state);
      const d = model.meanings.cols;
      const value = (t) => Array.from(model.meanings.data.slice(t * d, (t + 1) * d));
      const vs = value(w.subjectIndex);
      const vc = value(w.complementIndex);
      const subject = this.engine.cosineSimilarity(view.output.slice(0, d), vs);
      const complement = this.engine.cosineSimilarity(view.output.slice(d), vc);
      const half = new Array(w.L).fill(0);
      half[w.subjectIndex] = 0.5;
      half[w.complementIndex] = 0.5;
      const middle = model.compute({ budget: half }).output;
      const bound = Math.min(this.engine.cosineSimilarity(middle.slice(0, d), vs), this.engine.cosineSimilarity(middle.slice(d), vc));
      const b = view.budget;
      return {
        done: subject >= threshold && complement >= threshold,
        figures: {
          subject: this.#number(subject, 3), complement: this.#number(complement, 3),
          subjectWeight: this.#number(b[w.subjectIndex]), complementWeight: this.#number(b[w.complementIndex]),
          otherWeight: this.#number(1 - b[w.subjectIndex] - b[w.complementIndex]),
          between: this.#number(this.engine.cosineSimilarity(vs, vc)), bound: this.#number(bound, 3),
        },
      };
    },

    blendSubjectAll(_, state) {
      const view = this.blend.compute(state);
      const b = view.budget;
      const done = view.one.subjectCorrect === view.one.total;
      return {
        done,
        reason: done ? 'done' : 'notDone',
        figures: {
          subject: String(view.one.subjectCorrect), complement: String(view.one.complementCorrect), total: String(view.one.total),
          subjectWeight: this.#number(b[w.subjectIndex]), complementWeight: this.#number(b[w.complementIndex]),
        },
      };
    },

    splitWidth({ dK }, state) {
      const main = this.split.countsFor(state);
      const one = this.split.countsFor({ ...state, heads: 1 });
      const done = main.config.dK === dK;
      return {
        done,
        reason: done ? 'done' : 'notDone',
        figures: {
          heads: String(main.config.numHeads), dK: String(main.config.dK), dModel: String(main.config.dModel), seqLen: String(main.config.seqLen),
          scores: this.#count(main.counts.scores), oneScores: this.#count(one.counts.scores),
          exponentials: this.#count(main.counts.exponentials), oneExponentials: this.#count(one.counts.exponentials),
        },
      };
    },

    rankBelowWidth(_, state) {
      const spectrum = this.split.spectrumFor({ heads: state.spectrumHeads, head: state.spectrumHead });
      const done = spectrum.nonZero < spectrum.config.dK;
      const designed = (id) => String(this.split.spectrumFor({ heads: w.numHeads, head: headIndex(id) }).nonZero);
      return {
        done,
        reason: done ? 'done' : 'notDone',
        figures: {
          head: this.text.m.headName(spectrum.head), heads: String(state.spectrumHeads), nonZero: String(spectrum.nonZero), dK: String(spectrum.config.dK),
          previous: designed('previous'), gist: designed('gist'),
        },
      };
    },

    onlyHeard({ head, direction }, state) {
      const config = this.woConfig;
      const u = directionValues(config, direction);
      const view = this.wo.compute(state);
      const identity = this.wo.compute({ ...state, wo: presetValues(config, 'identity') });
      const figures = { heard: this.heardWords(view.heads, view.withMixing.heads), identity: this.heardWords(identity.heads, identity.withMixing.heads) };
      const wrong = [];
      if (state.heads !== w.numHeads) wrong.push(`h = ${state.heads}`);
      if (!same(state.u, u)) wrong.push(this.text.directionOther);
      if (wrong.length) return { done: false, reason: 'wrongSetup', figures: { ...figures, setup: this.text.setup(wrong) } };
      const heard = heardHeads(config, view.heads, view.withMixing.heads).map((h) => h.members[0].id);
      const done = heard.length === 1 && heard[0] === head;
      return { done, reason: done ? 'done' : 'notDone', figures };
    },

    tiedTo({ head, query }, state) {
      const view = this.heads.compute(state);
      const answers = this.text.m.list(w.heads.map((h, i) => this.text.looksAt(h, looksAt(view.rows[i], this.text))));
      const done = state.tied && state.head === headIndex(head) && state.query === tokenIndex(query);
      return { done, reason: done ? 'done' : 'notDone', figures: { answers } };
    },

    // Tied heads share W_Q, W_K and W_V, so the core computes one map four times. The bound
    // is measured, not assumed: the largest difference between any two heads' weights with
    // the learner's own projections tied.
    tiedDiffer({ a, b }, state) {
      const view = this.heads.compute(state);
      const tied = this.heads.compute({ ...state, tied: true });
      const largest = (weights, i, j) => weights[i].reduce((m, v, k) => Math.max(m, Math.abs(v - weights[j][k])), 0);
      let bound = 0;
      for (let i = 0; i < w.numHeads; i++) for (let j = i + 1; j < w.numHeads; j++) bound = Math.max(bound, largest(tied.weights, i, j));
      const difference = largest(view.weights, headIndex(a), headIndex(b));
      return {
        done: state.tied && difference > 0.01,
        figures: { tied: state.tied ? this.text.tied : this.text.untied, difference: this.#number(difference, 3), bound: this.#number(bound, 3) },
      };
    },
  };
}
