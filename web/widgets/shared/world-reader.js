// What a later layer can still read from the query token's output: the blend
// demonstration's "downstream reader", run by the core over the world's sentence variants.
//
// For every (subject, complement) pair of lessons' reader candidates, the sentence gets
// those two words (only their meaning features change), the layer runs, and a fixed reader
// looks at the query token's output ("said") twice:
//   * "who is the subject?": in the output coordinates where W_O writes the subject
//     finder's slice, it picks the subject candidate whose meaning it resembles most;
//   * "what was said?": the same in the complement finder's coordinates, among the
//     complement candidates.
// The reader is the same for every head count; only the split of the same weights into
// heads changes. With four heads each question has a head of its own; with two, one head
// holds both the subject finder and the complement finder and must split one budget.
//
// Why the variants share one set of attention weights: the meaning features enter only
// W_V, so the scores (and weights) are the same for every variant. A budget the learner
// drags therefore applies to all of them.
import { createWorldModel, headsAt, variantInput } from './world.js';

/** Cosines this close are a tie (the core's kCosineTieTolerance: float rounding decides them). */
export const COSINE_TIE = 1e-5;

export class WorldReader {
  /** Builds the world's models for every head count; call dispose() when done. */
  constructor(engine, w) {
    this.engine = engine;
    this.w = w;
    this.models = new Map(w.headCounts.map((h) => [h, createWorldModel(engine, w, h)]));
    const meanings = (list) => ({ rows: list.length, cols: w.meaningColumns.length, data: list.flatMap((c) => c.meaning) });
    this.subjectCandidates = meanings(w.reader.subjects);
    this.complementCandidates = meanings(w.reader.complements);
  }

  dispose() {
    for (const model of this.models.values()) model.delete();
    this.models.clear();
  }

  /** The model with h heads (owned by the reader). */
  model(h) {
    return this.models.get(h);
  }

  /**
   * Runs the reader over every variant with h heads. `budgets` optionally replaces, for some
   * heads, the query token's row of attention weights ({ [head]: row }); other rows keep the
   * softmax weights the core computed.
   * @returns {{ heads: object[], weights: Float32Array[], variants: object[],
   *             subjectCorrect: number, complementCorrect: number, subjectTies: number,
   *             complementTies: number, total: number }}
   * A variant's whoTie / whatTie: null, or the candidates that tie (then neither right nor
   * wrong, and not counted as correct).
   */
  read(h, budgets = {}) {
    const { w, engine } = this;
    const model = this.models.get(h);
    const heads = headsAt(w, h);
    const q = w.queryIndex;
    // The weights every variant shares (the scores do not depend on meanings).
    for (let j = 0; j < h; j++) model.setAttentionOverride(j, null);
    // Each forward pass asks for what it reads (include): the heads' weights here, the output
    // below. Every result of every pass was copied out of the wasm heap into new arrays: 17
    // passes and about 200 arrays per edit of the blend's budget (issue 25).
    const base = model.forward(w.x, { perHeadContributions: false, include: ['heads'] });
    const weights = base.heads.map((head, j) => {
      const all = Float32Array.from(head.weights.data);
      if (budgets[j]) all.set(budgets[j], q * w.L);
      return all;
    });
    for (const [j, row] of Object.entries(budgets)) {
      if (row) model.setAttentionOverride(Number(j), weights[j]);
    }
    try {
      const subjects = w.reader.subjects.length;
      const complements = w.reader.complements.length;
      const width = w.dK;
      const subjectStart = w.reader.subjectHead * width;
      const complementStart = w.reader.complementHead * width;
      const whoReadings = [];
      const whatReadings = [];
      const outputs = [];
      for (let s = 0; s < subjects; s++) {
        for (let c = 0; c < complements; c++) {
          const out = model.forward(variantInput(w, s, c), { perHeadContributions: false, include: ['output'] }).output.row(q);
          outputs.push(out);
          whoReadings.push(...out.subarray(subjectStart, subjectStart + width));
          whatReadings.push(...out.subarray(complementStart, complementStart + width));
        }
      }
      const count = subjects * complements;
      const who = engine.nearestByCosine({ rows: count, cols: width, data: whoReadings }, this.subjectCandidates);
      const what = engine.nearestByCosine({ rows: count, cols: width, data: whatReadings }, this.complementCandidates);
      // A reading that ties (two candidates equally similar, to within float rounding) has
      // no answer: it is neither right nor wrong, and lists the candidates it cannot tell apart.
      const tiedWith = (read, k) => {
        if (!read.tied[k]) return null;
        const best = read.cosines.get(k, read.choice[k]);
        return Array.from({ length: read.cosines.cols }, (_, j) => j).filter((j) => best - read.cosines.get(k, j) <= COSINE_TIE);
      };
      const variants = [];
      for (let s = 0; s < subjects; s++) {
        for (let c = 0; c < complements; c++) {
          const k = s * complements + c;
          variants.push({
            subject: s, complement: c,
            whoAnswer: who.choice[k], whatAnswer: what.choice[k],
            whoTie: tiedWith(who, k), whatTie: tiedWith(what, k),
            whoCosine: who.cosines.get(k, s), whatCosine: what.cosines.get(k, c),
            output: outputs[k],
          });
        }
      }
      const countWhere = (pick) => variants.filter(pick).length;
      return {
        heads,
        weights,
        variants,
        subjectCorrect: countWhere((v) => !v.whoTie && v.whoAnswer === v.subject),
        complementCorrect: countWhere((v) => !v.whatTie && v.whatAnswer === v.complement),
        subjectTies: countWhere((v) => v.whoTie),
        complementTies: countWhere((v) => v.whatTie),
        total: count,
      };
    } finally {
      for (const j of Object.keys(budgets)) model.setAttentionOverride(Number(j), null);
    }
  }
}
