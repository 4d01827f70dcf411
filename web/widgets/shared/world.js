// The lesson's one running example (lessons/multiple-heads/world.json) as matrices the core
// can run: the sentence's tokens, their features X (L x d_model), the four named heads as
// column blocks of the packed W_Q, W_K, W_V, and W_O. Every widget reads its tokens,
// features and heads from here, so a head's name and colour mean the same thing everywhere.
// No DOM here: Node tests use it too.
//
// Merging heads: with h heads of width d_model / h, head j owns columns j d_k .. (j+1) d_k - 1
// of the packed matrices. The world designs four heads of width 3; asked for h = 2 or 1, the
// same packed matrices are cut into wider heads, so designed heads merge (their dot products
// add up in one score). That is exactly "one head must do several jobs" at the same d_model
// and with the same weights, which keeps the lesson's comparisons fair.
import world from '../../../lessons/multiple-heads/world.json' with { type: 'json' };

export const WORLD = world;

/** The neutral colour of merged heads when a world does not choose one: the lesson's. */
const MERGED_COLOURS = { light: world.mergedColour, dark: world.mergedColourDark };

/** The reader's meaning features: given, or every feature whose name starts with "meaning". */
export function meaningFeatureNames(data) {
  const given = data.reader?.meaningFeatures;
  return given ?? data.features.map((f) => f.name).filter((name) => name.startsWith('meaning'));
}

/**
 * Builds a world's matrices (Float32Array, row-major). The world must be good: an author's
 * is checked first (buildCheckedWorld in world-check.js, which names what is wrong); the
 * lesson's own is checked by the tests, so the page does not load the checker for it.
 */
export function buildWorld(data = world) {
  const { tokens, features, heads } = data;
  const L = tokens.length;
  const dModel = features.length;
  const numHeads = heads.length;
  const dK = dModel / numHeads;
  const featureNames = features.map((f) => f.name);

  const x = new Float32Array(L * dModel);
  features.forEach((feature, f) => feature.values.forEach((v, t) => { x[t * dModel + f] = v; }));

  // Packed d_model x d_model matrix whose column block i is head i's rows-by-feature table.
  const packed = (kind) => {
    const m = new Float32Array(dModel * dModel);
    heads.forEach((head, i) => {
      for (const [name, row] of Object.entries(head[kind])) m.set(row, featureNames.indexOf(name) * dModel + i * dK);
    });
    return m;
  };
  // W_O is the identity: each head's slice is written back to its own coordinates.
  const wo = new Float32Array(dModel * dModel);
  for (let i = 0; i < dModel; i++) wo[i * dModel + i] = 1;
  const tokenIndex = (word) => (word === undefined ? -1 : tokens.indexOf(word));
  const meaningColumns = data.reader ? meaningFeatureNames(data).map((name) => featureNames.indexOf(name)) : [];
  const headIndex = (id) => heads.findIndex((head) => head.id === id);

  return {
    data,
    title: data.title ?? data.sentence,
    language: data.language ?? 'en',
    tokens, L, dModel, numHeads, dK, featureNames, x,
    wq: packed('query'), wk: packed('key'), wv: packed('value'), wo,
    heads: heads.map((head, index) => ({
      id: head.id, name: head.name, colour: head.colour, colourDark: head.colourDark,
      question: head.question ?? '', keyColumns: head.keyColumns ?? [], index,
      // The lesson's heads have translations in the locale files; an author's do not.
      lesson: data === world,
    })),
    mergedColour: data.mergedColour ?? MERGED_COLOURS.light,
    mergedColourDark: data.mergedColourDark ?? MERGED_COLOURS.dark,
    headCounts: data.headCounts.slice(),
    queryIndex: tokenIndex(data.query),
    subjectIndex: tokenIndex(data.subject),
    complementIndex: tokenIndex(data.complement),
    meaningColumns,
    // The blend's reader, or null for a world without one (the blend then says so).
    reader: data.reader ? {
      subjects: data.reader.subjects,
      complements: data.reader.complements,
      subjectHead: headIndex(data.reader.subjectHead),
      complementHead: headIndex(data.reader.complementHead),
    } : null,
  };
}

export const THE_WORLD = buildWorld();

/**
 * The h heads of the world cut into h column blocks: which designed heads each contains,
 * its name, colour and columns. With h = numHeads every head is one designed head; with
 * fewer, each is a merger of consecutive designed heads and gets the neutral colour.
 * @returns {{ index: number, members: object[], name: string, colour: string,
 *             colourDark: string, start: number, end: number, merged: boolean }[]}
 */
export function headsAt(w, h) {
  if (!w.headCounts.includes(h)) throw new Error(`h = ${h} is not one of ${w.headCounts.join(', ')}`);
  const per = w.numHeads / h;
  const width = w.dModel / h;
  return Array.from({ length: h }, (_, j) => {
    const members = w.heads.slice(j * per, (j + 1) * per);
    const merged = members.length > 1;
    return {
      index: j,
      members,
      name: merged ? members.map((m) => m.name).join(' + ') : members[0].name,
      colour: merged ? w.mergedColour : members[0].colour,
      colourDark: merged ? w.mergedColourDark : members[0].colourDark,
      start: j * width,
      end: (j + 1) * width,
      merged,
    };
  });
}

/** The h-head model of the world: its packed W_Q, W_K, W_V and W_O set. Caller deletes it. */
export function createWorldModel(engine, w, h, { wq = w.wq, wk = w.wk, wv = w.wv, wo = w.wo } = {}) {
  headsAt(w, h);
  const model = engine.createModel({ seqLen: w.L, dModel: w.dModel, numHeads: h, causal: false });
  try {
    model.setProjection('query', wq);
    model.setProjection('key', wk);
    model.setProjection('value', wv);
    model.setOutputProjection(wo);
  } catch (error) {
    model.delete();
    throw error;
  }
  return model;
}

/** X with the subject and complement words' meanings replaced by reader candidates. */
export function variantInput(w, subject, complement) {
  const x = Float32Array.from(w.x);
  const put = (token, meaning) => meaning.forEach((v, k) => { x[token * w.dModel + w.meaningColumns[k]] = v; });
  put(w.subjectIndex, w.reader.subjects[subject].meaning);
  put(w.complementIndex, w.reader.complements[complement].meaning);
  return x;
}

/** The sentence with the variant's words in place of the subject and the complement. */
export function variantTokens(w, subject, complement) {
  const tokens = w.tokens.slice();
  tokens[w.subjectIndex] = w.reader.subjects[subject].word;
  tokens[w.complementIndex] = w.reader.complements[complement].word;
  return tokens;
}

/** Head j's d_model x d_k block of a packed d_model x d_model matrix (column block j). */
export function columnBlock(packed, dModel, start, end) {
  const width = end - start;
  const block = new Float32Array(dModel * width);
  for (let r = 0; r < dModel; r++) block.set(packed.subarray(r * dModel + start, r * dModel + end), r * width);
  return block;
}

/**
 * CSS for the heads' colours, generated from the world data so that the colours live in one
 * place: a custom property per head (--head-<id>, overridable by an author's
 * --mha-head-<id>), a dark-scheme variant, and a class .head-<id> that sets --head for
 * whatever it contains (merged heads use .head-merged). `scope` is ':host' in a widget's
 * shadow root and ':root' for the lesson page's prose.
 */
export function headColourStyles(w = THE_WORLD, scope = ':host') {
  const entries = [...w.heads.map((h) => [h.id, h.colour, h.colourDark]), ['merged', w.mergedColour, w.mergedColourDark]];
  const light = entries.map(([id, colour]) => `--head-${id}: var(--mha-head-${id}, ${colour});`).join(' ');
  const dark = entries.map(([id, , colour]) => `--head-${id}: var(--mha-head-${id}-dark, ${colour});`).join(' ');
  const classes = entries.map(([id]) => `.head-${id} { --head: var(--head-${id}); }`).join('\n');
  return `${scope} { ${light} }\n@media (prefers-color-scheme: dark) { ${scope} { ${dark} } }\n${classes}\n`;
}

/** The class that colours an element as head `head` of headsAt(): head-<id> or head-merged. */
export function headClass(head) {
  return head.merged ? 'head-merged' : `head-${head.members[0].id}`;
}
