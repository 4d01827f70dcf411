// Each lesson widget's own strict state check, by tag, for the learner's copy: a state in an
// imported file is accepted only if the widget itself would accept it (the same functions
// its setState and the URL hash use). No DOM: the import validator's Node tests use it.
// Every widget of the registry has one (tests/node/learner-copy.test.mjs checks it): a
// widget left out here once made the page write states it then refused to read back.
import { defaultBlendState, sanitizeBlendState } from '../blend/blend-model.js';
import { sanitizeSplitState, splitConfig, startingState as splitStart } from '../head-splitting/head-splitting-model.js';
import { sanitizeWoState, woMixingConfig, startingState as woStart } from '../wo-mixing/wo-mixing-model.js';
import { defaultHeadsQuestionsState, sanitizeHeadsQuestionsState } from '../heads-questions/heads-questions-model.js';
import { defaultLayerState, sanitizeLayerState } from '../layer/layer-model.js';
import { sanitizeTrainingState } from '../training/training-model.js';
import { PROBLEMS } from './practice-data.js';

let split = null;
let wo = null;

export const WIDGET_SANITIZERS = {
  'mha-layer': (raw) => sanitizeLayerState(raw),
  'mha-blend': (raw) => sanitizeBlendState(raw),
  'mha-head-splitting': (raw) => sanitizeSplitState(raw, (split ??= splitConfig())),
  'mha-wo-mixing': (raw) => sanitizeWoState((wo ??= woMixingConfig()), raw),
  'mha-heads-questions': (raw) => sanitizeHeadsQuestionsState(raw),
  'mha-training': (raw) => sanitizeTrainingState(raw),
};

/** Each widget's starting example (what a task is checked against in the static figure). */
export const WIDGET_STARTS = {
  'mha-layer': () => defaultLayerState(),
  'mha-blend': () => defaultBlendState(),
  'mha-head-splitting': () => splitStart((split ??= splitConfig())),
  'mha-wo-mixing': () => woStart((wo ??= woMixingConfig())),
  'mha-heads-questions': () => defaultHeadsQuestionsState(),
};

/** What the copy's validator needs to know of each problem: its kind, options, widget. */
export const PROBLEM_SHAPES = Object.fromEntries(PROBLEMS.map((p) => [p.id, {
  kind: p.kind, widget: p.widget, options: p.options?.map((o) => o.id),
}]));

export const COPY_OPTIONS = { problems: PROBLEM_SHAPES, sanitizers: WIDGET_SANITIZERS };
