// Each lesson widget's own strict state check, by tag, for the learner's copy: a state in an
// imported file is accepted only if the widget itself would accept it (the same functions
// its setState and the URL hash use). No DOM: the import validator's Node tests use it.
// Every widget of the registry has its contract here (tests/node/learner-copy.test.mjs and
// widget-wiring.mjs check it): a widget left out once made the page write states it then
// refused to read back.
import { WIDGETS } from '../registry.js';
import { STATE_CONTRACT as blend } from '../blend/blend-model.js';
import { STATE_CONTRACT as headSplitting } from '../head-splitting/head-splitting-model.js';
import { STATE_CONTRACT as headsQuestions } from '../heads-questions/heads-questions-model.js';
import { STATE_CONTRACT as layer } from '../layer/layer-model.js';
import { STATE_CONTRACT as training } from '../training/training-model.js';
import { STATE_CONTRACT as woMixing } from '../wo-mixing/wo-mixing-model.js';
import { PROBLEMS } from './practice-data.js';

/** Every widget's state contract (shared/state-contract.js), by registry name. */
export const STATE_CONTRACTS = {
  layer, blend, 'head-splitting': headSplitting, 'wo-mixing': woMixing, 'heads-questions': headsQuestions, training,
};

// Each widget's configuration, made once, when first needed.
const configs = new Map();
const configOf = (name) => {
  if (!configs.has(name)) configs.set(name, STATE_CONTRACTS[name].config());
  return configs.get(name);
};
const byTag = (use) => Object.fromEntries(Object.entries(WIDGETS).map(([name, { tag }]) => [tag, (...args) => use(name, ...args)]));

/** Each widget's sanitiser, by tag: a clean state, or throws a StateError. */
export const WIDGET_SANITIZERS = byTag((name, raw) => STATE_CONTRACTS[name].sanitize(raw, configOf(name)));

/** Each widget's starting example (what a task is checked against in the static figure), by tag. */
export const WIDGET_STARTS = byTag((name) => STATE_CONTRACTS[name].start(configOf(name)));

/** What the copy's validator needs to know of each problem: its kind, options, widget. */
export const PROBLEM_SHAPES = Object.fromEntries(PROBLEMS.map((p) => [p.id, {
  kind: p.kind, widget: p.widget, options: p.options?.map((o) => o.id),
}]));

export const COPY_OPTIONS = { problems: PROBLEM_SHAPES, sanitizers: WIDGET_SANITIZERS };
