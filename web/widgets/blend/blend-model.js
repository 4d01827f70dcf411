// The blend demonstration's mathematics, run by the core, and its state contract. No DOM.
//
// The fair comparison, in the lesson's one world (world.js): the same packed W_Q, W_K, W_V,
// W_O and the same input X, cut into heads two ways at the same d_model:
//   * h = 2: head 1 is the Subject finder and the Complement finder merged into ONE head of
//     width 2 d_k; its one softmax row for "said" must cover both jobs (~0.47 / 0.47);
//   * h = 4: the two finders are TWO heads of width d_k, each with a budget of its own.
// The learner may replace the one head's row for "said" (the state's `budget`); everything
// else is what the core computes.
//
// What is shown, all from the core:
//   * the reader (world-reader.js) over the 16 sentence variants, for both splits;
//   * a plane: the principal plane of the subject finder's value vectors (the tokens'
//     meanings, 3-D), with the one head's output (its subject-finder half: both halves are
//     equal because both finders' W_V read the same meanings), the two heads' outputs, and
//     the "undo it?" output: other weights that give the one head exactly the same output.
import { THE_WORLD, headsAt } from '../shared/world.js';
import { messagesFor } from '../shared/i18n.js';
import { WorldReader } from '../shared/world-reader.js';
import { formatPercent } from '../../text/format.js';
import { decimal, stateError, checkObject } from '../shared/state-error.js';
import { stateContract } from '../shared/state-contract.js';

/** The two splits compared: one head for both jobs (h = 2), a head per job (h = 4). */
export const ONE_HEAD_SPLIT = 2;
export const TWO_HEADS_SPLIT = 4;

/** Weights must sum to 1 within this (the core's own tolerance for supplied weights). */
export const SUM_TOLERANCE = 1e-4;

/** Below this share of the budget moved, an "alternative" is the same weighting. */
export const MEANINGFUL_MOVE = 1e-3;

/**
 * What a world lacks for the blend's lesson (null if nothing), in an author's terms: a
 * reader, the head counts it compares, and the two finders in one head at h = 2 but in
 * heads of their own at h = 4. In the language of `m` (the widget's messages).
 */
export function blendWorldNeeds(w, m = messagesFor('en')) {
  if (!w.reader) return m.t('blend.worldNeeds.reader');
  const missing = [ONE_HEAD_SPLIT, TWO_HEADS_SPLIT].filter((h) => !w.headCounts.includes(h));
  if (missing.length) return m.t('blend.worldNeeds.headCounts', { one: ONE_HEAD_SPLIT, two: TWO_HEADS_SPLIT, missing: m.list(missing.map(String)) });
  const { subjectHead, complementHead } = w.reader;
  if (subjectHead === complementHead) return m.t('blend.worldNeeds.sameHead');
  const together = headsAt(w, ONE_HEAD_SPLIT).some((head) => [subjectHead, complementHead].every((i) => head.members.some((member) => member.index === i)));
  if (!together) return m.t('blend.worldNeeds.apart', { one: ONE_HEAD_SPLIT });
  return null;
}

/** The starting state: the head's own softmax weights (budget null). */
export function defaultBlendState() {
  return { budget: null };
}

/**
 * A clean state from untrusted input (URL, setState), or an Error naming the problem.
 * State: { budget: null | number[L] } with the one head's weights for "said": finite,
 * non-negative, summing to 1 within SUM_TOLERANCE. null means the head's own weights.
 */
export function sanitizeBlendState(raw, L = THE_WORLD.L) {
  checkObject(raw, ['budget'], 'objectBudget');
  // A state without its budget is a link or copy that lost its part: said so, never taken
  // silently as the head's own weights (null is how the page writes those).
  if (!Object.hasOwn(raw, 'budget')) throw stateError('budgetMissing', { count: L });
  const { budget } = raw;
  if (budget === null) return { budget: null };
  if (!Array.isArray(budget) || budget.length !== L) throw stateError('budgetLength', { count: L });
  if (!budget.every((w) => typeof w === 'number' && Number.isFinite(w))) throw stateError('budgetFinite');
  if (budget.some((w) => w < 0)) throw stateError('budgetNegative');
  const sum = budget.reduce((s, w) => s + w, 0);
  if (Math.abs(sum - 1) > SUM_TOLERANCE) throw stateError('budgetSum', { sum: decimal(sum, 6) });
  return { budget: budget.slice() };
}

/** Columns start..end-1 of every row of a matrix, as a MatrixLike. */
function columns(matrix, start, end) {
  const data = [];
  for (let r = 0; r < matrix.rows; r++) data.push(...matrix.row(r).subarray(start, end));
  return { rows: matrix.rows, cols: end - start, data: Float32Array.from(data) };
}

/** Whether two of the core's matrices are entry for entry the same. */
function sameMatrix(a, b) {
  return a.rows === b.rows && a.cols === b.cols && a.data.every((v, i) => v === b.data[i]);
}

export class BlendModel {
  /** Builds the world's models (through WorldReader); call dispose() when done. */
  constructor(engine, w = THE_WORLD) {
    this.engine = engine;
    this.w = w;
    this.reader = new WorldReader(engine, w);
    try {
      this.#setUp();
    } catch (error) {
      this.reader.dispose();
      throw error;
    }
  }

  #setUp() {
    const { w, reader } = this;
    const subjectId = w.heads[w.reader.subjectHead].id;
    const complementId = w.heads[w.reader.complementHead].id;
    // The one head that holds both finders at h = 2, and the finders' own heads at h = 4.
    this.oneHead = headsAt(w, ONE_HEAD_SPLIT).find((head) => head.members.some((m) => m.id === subjectId));
    if (!this.oneHead?.members.some((m) => m.id === complementId)) throw new Error(`at h = ${ONE_HEAD_SPLIT} the subject and complement finders are not one head`);
    const four = headsAt(w, TWO_HEADS_SPLIT);
    this.subjectHead = four.find((head) => head.members[0].id === subjectId);
    this.complementHead = four.find((head) => head.members[0].id === complementId);

    // The fair comparison, read from the two models themselves.
    const one = reader.model(ONE_HEAD_SPLIT);
    const two = reader.model(TWO_HEADS_SPLIT);
    this.fairness = {
      one: { ...one.config, width: one.config.dK },
      two: { ...two.config, width: two.config.dK },
      sameWeights: ['query', 'key', 'value', 'output'].every((kind) => sameMatrix(one.getWeights(kind), two.getWeights(kind))),
    };

    // Fixed parts: the two heads' answers and weights (nothing the learner edits changes them).
    this.twoHeads = reader.read(TWO_HEADS_SPLIT);
    const own = reader.read(ONE_HEAD_SPLIT);
    const q = w.queryIndex;
    const row = (weights) => Array.from(weights.subarray(q * w.L, (q + 1) * w.L));
    this.ownBudget = row(own.weights[this.oneHead.index]);
    this.subjectBudget = row(this.twoHeads.weights[this.subjectHead.index]);
    this.complementBudget = row(this.twoHeads.weights[this.complementHead.index]);

    // Value vectors (the core's X W_V): the one head's (width 2 d_k, for "undo it?") and
    // the subject finder's slice (the meanings, the plane's points).
    const values = one.forward(w.x, { perHeadContributions: false, include: ['values'] }).values;
    this.oneHeadValues = columns(values, this.oneHead.start, this.oneHead.end);
    this.meanings = columns(values, this.subjectHead.start, this.subjectHead.end);
    const complementValues = columns(values, this.complementHead.start, this.complementHead.end);
    // The complement finder's outputs are drawn in the same plane: that is honest only if it
    // reads the same value vectors as the subject finder.
    if (!complementValues.data.every((v, i) => v === this.meanings.data[i])) {
      throw new Error('the subject and complement finders must read the same value vectors to share one plane');
    }
    const twoOutputs = this.reader.model(TWO_HEADS_SPLIT).forward(w.x, { perHeadContributions: false, include: ['heads'] }).heads;
    this.subjectOutput = twoOutputs[this.subjectHead.index].output.row(q);
    this.complementOutput = twoOutputs[this.complementHead.index].output.row(q);
  }

  dispose() {
    this.reader.dispose();
  }

  /** Everything the widget shows for `state` (sanitised); throws if the core refuses. */
  compute(state) {
    const { w, engine, reader, oneHead } = this;
    const q = w.queryIndex;
    const own = state.budget === null;
    const budget = own ? this.ownBudget.slice() : state.budget.slice();
    const one = reader.read(ONE_HEAD_SPLIT, own ? {} : { [oneHead.index]: budget });

    // The one head's output for "said" under this budget (the core's forward pass).
    const model = reader.model(ONE_HEAD_SPLIT);
    let output;
    model.setAttentionOverride(oneHead.index, one.weights[oneHead.index]);
    try {
      output = model.forward(w.x, { perHeadContributions: false, include: ['heads'] }).heads[oneHead.index].output.row(q);
    } finally {
      model.setAttentionOverride(oneHead.index, null);
    }

    // "Undo it?": the weights farthest from the budget (most weight moved) over the same
    // value vectors with the same output; the core visits every candidate (330 here).
    const alt = engine.findAlternativeWeights(this.oneHeadValues, budget);
    const meaningful = alt.found && alt.totalWeightMoved >= MEANINGFUL_MOVE;
    const half = (v) => Array.from(v.subarray(0, this.meanings.cols));

    // One plane for the meanings and every output point.
    const extra = [half(output), Array.from(this.subjectOutput), Array.from(this.complementOutput)];
    if (meaningful) extra.push(half(alt.alternativeOutput));
    const plane = engine.principalPlane(this.meanings, { rows: extra.length, cols: this.meanings.cols, data: extra.flat() });
    const point = (m, r) => [m.get(r, 0), m.get(r, 1)];

    return {
      budget,
      own,
      output: Array.from(output),
      one: readerCounts(one),
      two: readerCounts(this.twoHeads),
      // The page's own sentence as each split's reader hears it.
      sentence: { one: sentenceReading(w, one), two: sentenceReading(w, this.twoHeads) },
      alternative: {
        found: alt.found,
        // Every weighting with this output was considered: `weights` is the farthest, and
        // none found means the budget is the only way to this output.
        exhaustive: alt.exhaustive,
        meaningful,
        weights: meaningful ? Array.from(alt.weights) : null,
        moved: alt.totalWeightMoved,
        maxOutputDifference: alt.maxOutputDifference,
        output: meaningful ? Array.from(alt.alternativeOutput) : null,
      },
      plane: {
        explained: plane.explained,
        tokens: Array.from({ length: w.L }, (_, t) => point(plane.coordinates, t)),
        one: point(plane.extraCoordinates, 0),
        subject: point(plane.extraCoordinates, 1),
        complement: point(plane.extraCoordinates, 2),
        alternative: meaningful ? point(plane.extraCoordinates, 3) : null,
      },
    };
  }
}

/**
 * The lesson's own sentence (its subject and complement words) as a read hears it: for each
 * question the word(s) it names (several on a tie), and whether that is right (null: a tie).
 */
export function sentenceReading(w, read) {
  const { subjects, complements } = w.reader;
  const s = subjects.findIndex((c) => c.word === w.tokens[w.subjectIndex]);
  const c = complements.findIndex((x) => x.word === w.tokens[w.complementIndex]);
  const v = read.variants.find((x) => x.subject === s && x.complement === c);
  const answer = (tie, choice, truth, list) => ({
    words: (tie ?? [choice]).map((j) => list[j]?.word).filter(Boolean),
    right: tie ? null : choice === truth,
  });
  return { who: answer(v.whoTie, v.whoAnswer, s, subjects), what: answer(v.whatTie, v.whatAnswer, c, complements) };
}

/**
 * What "undo it?" says for a view's alternative, as the widget and its figure say it:
 * 'farthest' (another weighting, the farthest of all, every candidate checked), 'found'
 * (another, the search was cut short), 'tiny' (another, but less than a thousandth of the
 * budget moved), 'only' (proven: no other weighting gives this output), 'notFound'.
 */
export function undoVerdict(alt) {
  if (alt.meaningful) return alt.exhaustive ? 'farthest' : 'found';
  if (alt.found) return 'tiny';
  return alt.exhaustive ? 'only' : 'notFound';
}

/** One answer of sentenceReading as the page writes it: “editor” ✗, “it” ✓, “a” = “b” =. */
export function heardText(answer, m = null) {
  return `${heardWords(answer, m)} ${answer.right === null ? '=' : answer.right ? '✓' : '✗'}`;
}

/** The words an answer names, quoted as the language quotes (“editor”; „editor“ in German). */
export function heardWords({ words }, m = null) {
  return words.map((word) => (m ? m.t('common.quoted', { text: word }) : `“${word}”`)).join(' = ');
}

// What the widget shows of one read: the counts (ties apart) and the variants, without the
// heads and weights the read also carries.
const readerCounts = ({ heads, weights, ...counts }) => counts;

/**
 * A share of the budget as words: "47%", "0.3%" (with "< 1%") below one percent, so a
 * small but real move never reads as "0%".
 */
export function describeShare(share, m = null) {
  const percent = (value, decimals) => (m ? m.percent(value, decimals) : formatPercent(value, decimals));
  if (!Number.isFinite(share)) return '—';
  if (share >= 0.01) return percent(Math.round(share * 100) / 100, 0);
  return `< ${percent(0.01, 0)} (${percent(share, share >= 0.001 ? 1 : 2)})`;
}

/** The blend's state contract (shared/state-contract.js): no configuration of its own. */
export const STATE_CONTRACT = stateContract({
  keys: ['budget'],
  start: () => defaultBlendState(),
  sanitize: (raw) => sanitizeBlendState(raw),
});
