// Copies for the learner-copy tests (Node and Chromium): a filled copy with an answer of
// every kind, and 60 malformed files, each with what its refusal message must say.
import { LearnerCopy, MAX_ATTEMPTS } from '../../web/widgets/shared/learner-copy.js';
import { COPY_OPTIONS, WIDGET_STARTS } from '../../web/widgets/practice/widget-states.js';

export function fakeStorage(initial = {}) {
  const map = new Map(Object.entries(initial));
  return {
    map,
    getItem: (k) => (map.has(k) ? map.get(k) : null),
    setItem: (k, v) => { map.set(k, String(v)); },
    removeItem: (k) => { map.delete(k); },
  };
}

export const newCopy = (storage = fakeStorage(), persistent = true) => new LearnerCopy({ storage, persistent, ...COPY_OPTIONS });

/** A copy with an answer of every kind and two widget states. */
export function filledCopy() {
  const copy = newCopy();
  copy.recordAttempt('blend-why', { option: 'uniform' }, false, 1000);
  copy.recordAttempt('blend-why', { option: 'many-to-one' }, true, 2000);
  copy.recordAttempt('dk-768', { text: '768' }, false, 3000);
  copy.recordAttempt('merged-budget', { option: 'half' }, true, 4000);
  copy.recordAttempt('dk-16', { claim: 'done', state: { ...WIDGET_STARTS['mha-head-splitting'](), heads: 32 } }, true, 5000);
  copy.recordAttempt('blend-both-aligned', { claim: 'impossible', state: WIDGET_STARTS['mha-blend']() }, true, 6000);
  copy.setWidgetState('blend', 'mha-blend', { budget: [0, 0.6, 0, 0, 0, 0, 0, 0.4, 0, 0, 0] });
  copy.setWidgetState('layer', 'mha-layer', { h: 2, token: 6, head: 0 });
  return copy;
}

/** 60 malformed files, each with what its message must say. */
export function malformedFiles() {
  const good = JSON.parse(filledCopy().exportText());
  const edit = (change) => { const copy = structuredClone(good); change(copy); return JSON.stringify(copy); };
  const files = [
    ['', /not JSON/], ['{', /not JSON/], ['null', /expected an object/], ['[]', /expected an object/], ['"copy"', /expected an object/],
    ['42', /expected an object/], ['true', /expected an object/], ['{"format":"multiple-heads-learner-copy"}', /missing/],
    [`${JSON.stringify(good)} trailing`, /not JSON/], ['\u0000\u0001binary', /not JSON/], ['x'.repeat(600 * 1024), /at most 512 kB/],
    [edit((c) => { c.format = 'other'; }), /format/], [edit((c) => { delete c.format; }), /format/], [edit((c) => { c.version = 2; }), /version/],
    [edit((c) => { c.version = '1'; }), /version/], [edit((c) => { c.lesson = 'another-lesson'; }), /lesson/],
    [edit((c) => { c.seed = -1; }), /seed/], [edit((c) => { c.seed = 1.5; }), /seed/], [edit((c) => { c.seed = 2 ** 33; }), /seed/], [edit((c) => { c.seed = '7'; }), /seed/],
    [edit((c) => { c.extra = 1; }), /unknown field “extra”/], [edit((c) => { c.answers = []; }), /answers/], [edit((c) => { c.answers = null; }), /answers/],
    [edit((c) => { c.answers['no-such-problem'] = c.answers['blend-why']; }), /no such problem/],
    [edit((c) => { c.answers.constructor = c.answers['blend-why']; }), /no such problem/],
    ['{"format":"multiple-heads-learner-copy","version":1,"lesson":"multiple-heads","seed":1,"answers":{"__proto__":{"attempts":[]}},"widgets":{}}', /no such problem/],
    [edit((c) => { c.answers['blend-why'] = { attempts: [] }; }), /attempts/], [edit((c) => { c.answers['blend-why'] = {}; }), /missing/],
    [edit((c) => { c.answers['blend-why'].attempts = 'many'; }), /attempts/],
    [edit((c) => { c.answers['blend-why'].attempts = Array(MAX_ATTEMPTS + 1).fill(c.answers['blend-why'].attempts[0]); }), /attempts/],
    [edit((c) => { c.answers['blend-why'].attempts[0].correct = 'yes'; }), /correct/], [edit((c) => { delete c.answers['blend-why'].attempts[0].correct; }), /missing/],
    [edit((c) => { c.answers['blend-why'].attempts[0].at = -5; }), /at:/], [edit((c) => { c.answers['blend-why'].attempts[0].at = 'today'; }), /at:/],
    [edit((c) => { c.answers['blend-why'].attempts[0].note = 'hi'; }), /unknown field “note”/],
    [edit((c) => { c.answers['blend-why'].attempts[0].answer = { option: 'made-up' }; }), /not one of this problem's options/],
    [edit((c) => { c.answers['blend-why'].attempts[0].answer = { option: 1 }; }), /options/],
    [edit((c) => { c.answers['blend-why'].attempts[0].answer = 'uniform'; }), /expected an object/],
    [edit((c) => { c.answers['blend-why'].attempts[0].answer = { text: '1' }; }), /unknown field “text”/],
    [edit((c) => { c.answers['dk-768'].attempts[0].answer = { text: 64 }; }), /text/],
    [edit((c) => { c.answers['dk-768'].attempts[0].answer = { text: '6'.repeat(65) }; }), /at most 64/],
    [edit((c) => { c.answers['dk-768'].attempts[0].answer = { option: 'a' }; }), /unknown field/],
    [edit((c) => { c.answers['merged-budget'].attempts[0].answer = { option: 'maybe' }; }), /options/],
    [edit((c) => { c.answers['dk-16'].attempts[0].answer.claim = 'solved'; }), /claim/],
    [edit((c) => { c.answers['dk-16'].attempts[0].answer.state.heads = 7; }), /does not divide/],
    [edit((c) => { c.answers['dk-16'].attempts[0].answer.state = null; }), /state/],
    [edit((c) => { c.answers['blend-both-aligned'].attempts[0].answer.state = { budget: [1, 1] }; }), /budget/],
    [edit((c) => { c.answers['blend-both-aligned'].attempts[0].answer.state = { budget: Array(11).fill(0.5) }; }), /add up/],
    [edit((c) => { c.widgets = []; }), /widgets/], [edit((c) => { c.widgets['bad key!'] = c.widgets.layer; }), /not a widget state key/],
    [edit((c) => { c.widgets.layer.tag = 'mha-unknown'; }), /not a widget of this lesson/], [edit((c) => { c.widgets.layer.tag = '<script>'; }), /not a widget/],
    [edit((c) => { c.widgets.layer.state = { h: 3, token: 6, head: 0 }; }), /h: expected/], [edit((c) => { c.widgets.layer.state = { h: 2, token: 99, head: 0 }; }), /token/],
    [edit((c) => { c.widgets.layer.state.extra = true; }), /unknown field/], [edit((c) => { c.widgets.blend.state = { budget: [NaN] }; }), /budget/],
    [edit((c) => { c.widgets.blend.state = 'budget'; }), /expected an object/], [edit((c) => { delete c.widgets.layer.tag; }), /missing/],
    [edit((c) => { c.widgets.layer.colour = 'red'; }), /unknown field/],
    [JSON.stringify({ ...good, widgets: { split: { tag: 'mha-head-splitting', state: { dModel: 1e308, heads: 1, seqLen: 1, spectrumHeads: 4, spectrumHead: 0 } } } }), /dModel/],
  ];
  return files;
}

