// The trained world's file (lessons/multiple-heads/worlds/trained.json) from the output of
// core/tools/train_world (scripts/train-world.mjs runs it): the trained weights and the
// sentence's features as the tool computed them, with names, words and prose around them.
// Every number in the prose is the tool's measure, put in here, never typed.

const FEATURES = [
  ['verb', '1 for a verb'],
  ['subject', '1 for the subject of a clause (also “who”, the subject of the relative clause)'],
  ['clause x', 'which clause the word belongs to, as a unit vector: main (1, 0), “who met the author” (−0.5, 0.866), “she was right” (−0.5, −0.866). In training, every sentence’s clauses were spread evenly on the circle and turned by a random angle, so the heads could not learn fixed codes'],
  ['clause y', 'second coordinate of the clause code'],
  ['opens x', 'for a verb that takes a clause as its object (“thought”), the code of that clause'],
  ['opens y', 'second coordinate of the clause a verb opens'],
  ['position cos', 'cos(30° × position): where the word stands, as a point on a circle'],
  ['position sin', 'sin(30° × position)'],
  ['bias', 'always 1'],
  ['meaning 1', 'the word’s meaning, three numbers per word: what the value projections carry (drawn at random for every training sentence, so no head could learn to look for a meaning)'],
  ['meaning 2', 'second meaning coordinate'],
  ['meaning 3', 'third meaning coordinate'],
];

// The heads, in the order of the trained jobs (world_task.hpp), with the lesson's colours.
const HEADS = [
  { id: 'subject', name: 'Subject finder', colour: '#0072B2', colourDark: '#56B4E9', question: 'For a verb: who is doing this? (the subject of my own clause)' },
  { id: 'complement', name: 'Complement finder', colour: '#D55E00', colourDark: '#F0894D', question: 'For a verb that opens a clause: what was thought? (the subject of the clause I open)' },
  { id: 'previous', name: 'Previous word', colour: '#009E73', colourDark: '#3FC79E', question: 'Which word came just before me?' },
  { id: 'gist', name: 'Gist', colour: '#A8508A', colourDark: '#E08EC3', question: 'Who did what in this sentence? (every word looks at the verbs and their subjects)' },
];
const JOBS = ['subject', 'complement', 'previous', 'gist'];

// The blend's reader: the lesson's candidate meanings (world.json) under this sentence's words.
const READER = {
  subjects: [
    { word: 'student', meaning: [0.707, -0.707, 0.3] },
    { word: 'teacher', meaning: [0.996, 0.087, 0.3] },
    { word: 'doctor', meaning: [-0.707, 0.707, 0.3] },
    { word: 'pilot', meaning: [-0.996, -0.087, 0.3] },
  ],
  complements: [
    { word: 'she', meaning: [0.707, 0.707, -0.3] },
    { word: 'this', meaning: [0.996, -0.087, -0.3] },
    { word: 'nothing', meaning: [-0.707, -0.707, -0.3] },
    { word: 'everything', meaning: [-0.996, 0.087, -0.3] },
  ],
};

/** Lowest held-out hit rate (rounded weights) a head needs before the world names its job. */
export const REQUIRED_HIT_RATE = 0.99;

const percent = (x) => `${(100 * x).toFixed(1)}%`;
const count = (n) => n.toLocaleString('en');

function checkJobs(out) {
  JOBS.forEach((job, i) => {
    const held = out.rounded.heads[i];
    const own = out.sentence.heads[i];
    if (held.job !== job) throw new Error(`train_world: head ${i} is “${held.job}”, expected “${job}”`);
    if (held.hitRate < REQUIRED_HIT_RATE) throw new Error(`train_world: the ${job} head hits its target in ${percent(held.hitRate)} of held-out rows (needs ${percent(REQUIRED_HIT_RATE)})`);
    if (own.hitRate !== 1) throw new Error(`train_world: the ${job} head misses its target in the world's sentence`);
  });
}

// Head i's rows of a packed 12 x 12 matrix, by feature name, only the rows that are not zero.
function headRows(matrix, i, names) {
  const rows = {};
  matrix.forEach((row, f) => {
    const block = row.slice(3 * i, 3 * i + 3);
    if (block.some((v) => v !== 0)) rows[names[f]] = block;
  });
  return rows;
}

function description(out) {
  const c = out.config;
  const h = out.rounded.heads;
  const list = (pick) => h.map(pick).join(' / ');
  return `A world whose heads were not built by hand: the core trained them at build time (core/tools/train_world.cpp, run by node scripts/train-world.mjs; lessons/multiple-heads/worlds/README.md). `
    + `Task: sentences from a tiny English grammar (“The [old] N [who V the N] said/thought/knew/wrote CLAUSE .”, the clause “pronoun or the N, was ADJ”, or once more a clause of saying), at most 12 words, each word with the lesson's 12 features. `
    + `One attention layer with four heads of width 3 learned, by Adam on the squared error of its outputs, four jobs: at every verb, the subject of its own clause; at a verb that opens a clause, that clause's subject; at every word, the word before it; at every word, the mean over the verbs and subjects. `
    + `Only W_Q and W_K were trained (W_V copies the three meaning numbers into every head, W_O is the identity, so a head's output is the meaning it attends to). `
    + `Seed ${c.seed}, ${count(c.steps)} steps of ${c.batchSize} random sentences, learning rate ${c.learningRate}, weight decay ${c.weightDecay}. `
    + `How well, with the weights as stored here (three decimals), on ${count(c.heldOutSentences)} held-out sentences: each head's strongest weight falls on its target word in ${list((x) => percent(x.hitRate))} of its ${list((x) => count(x.rows))} scored rows (subject / complement / previous / gist), and its attention row overlaps the target row (the sum of the smaller of the two weights of every word; for one target word, the weight on it) by ${list((x) => x.overlap.toFixed(3))} on average; mean squared output error ${out.rounded.loss.toPrecision(3)} (untrained: ${out.before.loss.toPrecision(3)}).`;
}

// A group of features a head needs: without it, the head's mean overlap with its target
// rows falls below this (trained: about 0.97).
const NEEDED_BELOW = 0.75;

function headsNote(out) {
  const groups = Object.entries(out.without);
  const needs = (i) => groups.filter(([, e]) => e.overlap[i] < NEEDED_BELOW).map(([group]) => group);
  const cues = HEADS.map((head, i) => {
    const overlaps = groups.map(([group, e]) => `${group} ${e.overlap[i].toFixed(2)}`).join(', ');
    const needed = needs(i);
    return `${head.name}: ${overlaps}; it needs ${needed.length ? needed.join(' and ') : 'no single group'}.`;
  });
  const complementNeeds = needs(1);
  const shortcut = complementNeeds.includes('position') && !complementNeeds.includes('clause code') && !complementNeeds.includes('opens code')
    ? ' The complement finder did not learn to match the clause it opens with the clause codes: it learned “the nearest subject after me”, which every clause of this grammar satisfies (a shortcut a trained head may take, and the hand-built one does not).'
    : '';
  return 'How the heads were made: W_Q and W_K were trained together. A head’s scores depend only on Q_i K_i^T, so each head’s pair was then rewritten (same scores) so that each of its key columns reads one feature most (keyColumns, “unused” for a direction the head does not need); W_Q’s row f, column j says how strongly words with feature f look for that key. '
    + `What each head’s job rests on, measured as its mean held-out overlap with the target rows (trained: ${out.rounded.heads.map((h) => h.overlap.toFixed(2)).join(', ')}) when one group of features is set to 0: ${cues.join(' ')}${shortcut} `
    + 'Heads merged by a smaller h keep the same packed W_Q, W_K, W_V and W_O: their scores add up, scaled by 1/√d_k of the wider head.';
}

/** The world object from train_world's parsed output. Throws Error if a head does not do its job. */
export function composeWorld(out) {
  checkJobs(out);
  const names = FEATURES.map(([name]) => name);
  if (out.features.length !== names.length) throw new Error(`train_world: ${out.features.length} features, expected ${names.length}`);
  const { tokens } = out;
  const features = FEATURES.map(([name, about], f) => ({ name, about, values: out.features[f].slice() }));
  // The reader's first candidates are the sentence's subject and complement.
  const meanings = features.filter((f) => f.name.startsWith('meaning'));
  meanings.forEach((f, k) => {
    f.values[out.subject] = READER.subjects[0].meaning[k];
    f.values[out.complement] = READER.complements[0].meaning[k];
  });
  const value = Object.fromEntries(meanings.map((f, k) => [f.name, [0, 1, 2].map((j) => (j === k ? 1 : 0))]));
  return {
    $schema: '../world.schema.json',
    formatVersion: 1,
    title: 'The student who met the author (heads trained by the core)',
    language: 'en',
    description: description(out),
    sentence: `${tokens.slice(0, -1).join(' ')}${tokens.at(-1)}`,
    tokens,
    query: tokens[out.query],
    subject: tokens[out.subject],
    complement: tokens[out.complement],
    features,
    heads: HEADS.map((head, i) => ({
      ...head,
      keyColumns: out.keyColumns[i],
      query: headRows(out.wq, i, names),
      key: headRows(out.wk, i, names),
      value,
    })),
    mergedColour: '#6B6F76',
    mergedColourDark: '#A4A8B0',
    headCounts: [1, 2, 4],
    outputProjection: 'identity',
    headsNote: headsNote(out),
    reader: {
      about: 'Sentence variants for the blend’s downstream reader, as in the lesson’s world: the subject and the complement word are swapped for each of these, and a fixed reader of the layer’s output at “thought” looks for the subject in the subject finder’s output coordinates and for the complement in the complement finder’s, picking the candidate whose meaning it resembles most (cosine). The meanings are the lesson’s: subjects at −45, 5, 135 and 185 degrees, complements at 45, −5, 225 and 175, so an even blend of the two words resembles other words more than either.',
      ...READER,
      subjectHead: 'subject',
      complementHead: 'complement',
    },
  };
}
