// The steps the static figures share (web/widgets/shared/static-figure.js): the state
// from the `state` attribute when the widget's own sanitiser takes it, else the starting
// state; the model disposed however drawing ends. Then every core-computed renderer
// through them, on the real core: a bad state attribute draws the starting figure, a good
// one a different figure.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { figureFromState, stateAttribute, stringAttribute } from '../../web/widgets/shared/static-figure.js';
import { THE_WORLD } from '../../web/widgets/shared/world.js';
import { loadTestEngine } from './load-engine.mjs';
import { startingState, woMixingConfig } from '../../web/widgets/wo-mixing/wo-mixing-model.js';
import { defaultHeadsQuestionsState } from '../../web/widgets/heads-questions/heads-questions-model.js';
import { splitConfig, startingState as startingSplit } from '../../web/widgets/head-splitting/head-splitting-model.js';

/** A pretend model that records what happened to it. */
function recorder() {
  const log = [];
  return { log, createModel: () => ({ dispose: () => log.push('dispose') }) };
}

const sanitizeCount = (raw) => {
  if (!Number.isInteger(raw.count) || raw.count < 0) throw new Error('count: expected a whole number');
  return { count: raw.count };
};

test('figureFromState: the start without a state attribute, the sanitised state with one', () => {
  const { log, createModel } = recorder();
  const draw = (model, state) => `count ${state.count}`;
  assert.equal(figureFromState({}, { start: { count: 1 }, sanitize: sanitizeCount, createModel, draw }), 'count 1');
  assert.equal(figureFromState(undefined, { start: { count: 1 }, sanitize: sanitizeCount, createModel, draw }), 'count 1');
  assert.equal(figureFromState({ state: '{"count":7}' }, { start: { count: 1 }, sanitize: sanitizeCount, createModel, draw }), 'count 7');
  assert.deepEqual(log, ['dispose', 'dispose', 'dispose'], 'one model per figure, each disposed');
});

test('figureFromState: not JSON, too long, or refused by the sanitiser: the starting state, quietly', () => {
  const { log, createModel } = recorder();
  const options = { start: { count: 1 }, sanitize: sanitizeCount, createModel, draw: (model, state) => state.count };
  for (const state of ['{', 'nonsense', '{"count":-3}', '{"count":"7"}', `{"count":${'9'.repeat(20001)}}`, '[]', 'null']) {
    assert.equal(figureFromState({ state }, options), 1, state.slice(0, 20));
  }
  assert.equal(log.length, 7);
});

test('figureFromState: the model is disposed when drawing throws, and the error reaches the caller', () => {
  const { log, createModel } = recorder();
  assert.throws(() => figureFromState({}, {
    start: {}, sanitize: sanitizeCount, createModel, draw: () => { throw new RangeError('drawing failed'); },
  }), /drawing failed/);
  assert.deepEqual(log, ['dispose']);
});

test('figureFromState: a lent model is drawn with and stays its owner’s (not disposed, none created)', () => {
  const { log, createModel } = recorder();
  const lent = { dispose: () => log.push('lent disposed') };
  let drawnWith = null;
  const draw = (model, state) => { drawnWith = model; return state.count; };
  assert.equal(figureFromState({ state: '{"count":3}' }, { start: { count: 1 }, sanitize: sanitizeCount, createModel: () => { log.push('created'); return createModel(); }, draw, lent }), 3);
  assert.equal(drawnWith, lent);
  assert.throws(() => figureFromState({}, { start: {}, sanitize: sanitizeCount, createModel, draw: () => { throw new Error('x'); }, lent }), /x/);
  assert.deepEqual(log, [], 'nothing created, nothing disposed');
});

test('stateAttribute and stringAttribute', () => {
  assert.equal(stateAttribute({}), null);
  assert.equal(stateAttribute({ state: 'x' }), null);
  assert.deepEqual(stateAttribute({ state: '{"a":1}' }), { a: 1 });
  assert.equal(stringAttribute({ heads: '2' }, 'heads'), '2');
  assert.equal(stringAttribute({ heads: '' }, 'heads'), '');
  assert.equal(stringAttribute({}, 'heads'), null);
  assert.equal(stringAttribute(undefined, 'heads'), null);
});

// The renderers on the core: each widget's starting state with one thing changed (a state
// the widget's sanitiser takes), as the `state` attribute or the widget's own attribute.
const changed = (start, edit) => ({ state: JSON.stringify({ ...start, ...edit }) });
const GOOD_ATTRIBUTES = {
  blend: () => ({ state: JSON.stringify({ budget: Array.from({ length: THE_WORLD.L }, (_, i) => (i === 0 ? 1 : 0)) }) }),
  layer: () => ({ heads: '2' }),
  'wo-mixing': () => changed(startingState(woMixingConfig(undefined, THE_WORLD)), { token: 2 }),
  'heads-questions': () => changed(defaultHeadsQuestionsState(THE_WORLD), { query: 2 }),
  'head-splitting': () => changed(startingSplit(splitConfig()), { seqLen: 32 }),
};

let engine;
before(async () => {
  engine = await loadTestEngine('simd');
});

for (const [name, goodAttributes] of Object.entries(GOOD_ATTRIBUTES)) {
  test(`${name}-static.js: a bad state attribute draws the starting figure; another state a different one`, async () => {
    const { renderStaticFigure } = await import(`../../web/widgets/${name}/${name}-static.js`);
    const context = { engine, world: THE_WORLD };
    const start = renderStaticFigure({}, context);
    assert.match(start, new RegExp(`^<figure class="mha-static mha-static-${name}" data-static-figure="${name}" data-locale="en">`));
    for (const bad of ['nonsense', '{"budget":"x","token":-1,"query":99,"wo":[1,2]}', '[]']) {
      assert.equal(renderStaticFigure({ state: bad }, context), start, `${name}: state ${bad}`);
    }
    const good = goodAttributes();
    assert.notEqual(renderStaticFigure(good, context), start, `${name}: ${JSON.stringify(good).slice(0, 80)} changes the figure`);
  });
}

test('head-splitting-static.js: the live widget’s models, lent, draw the same figure from their cached counts; models of another configuration are not used', async () => {
  const { renderStaticFigure } = await import('../../web/widgets/head-splitting/head-splitting-static.js');
  const { SplitModels } = await import('../../web/widgets/head-splitting/head-splitting-model.js');
  const attributes = changed(startingSplit(splitConfig()), { seqLen: 32 });
  const own = renderStaticFigure(attributes, { engine, world: THE_WORLD });
  // The widget's models, its counts already computed for its state (as after its render).
  const lent = new SplitModels(engine, splitConfig());
  lent.compute(JSON.parse(attributes.state));
  const cached = lent.counts.size;
  const drawsWith = (models) => {
    const calls = { compute: 0, disposed: 0 };
    const compute = models.compute.bind(models);
    models.compute = (state) => { calls.compute++; return compute(state); };
    models.dispose = () => { calls.disposed++; };
    return calls;
  };
  const lentCalls = drawsWith(lent);
  assert.equal(renderStaticFigure(attributes, { engine, world: THE_WORLD, lent }), own, 'the same figure');
  assert.deepEqual(lentCalls, { compute: 1, disposed: 0 }, 'drawn with the lent models, which are not disposed');
  assert.equal(lent.counts.size, cached, 'no new counts: the figure read the cached ones');
  assert.ok(cached > 0);
  // Models counting another configuration (an author's start) are not the figure's.
  const other = new SplitModels(engine, splitConfig({ start: { dModel: 64, heads: 4, seqLen: 16 } }));
  const otherCalls = drawsWith(other);
  assert.equal(renderStaticFigure(attributes, { engine, world: THE_WORLD, lent: other }), own);
  assert.deepEqual(otherCalls, { compute: 0, disposed: 0 }, 'the other models were not used');
});

test('the build puts the figure before an author’s fallback, and leaves an element that has one alone', async () => {
  const { addStaticFigures } = await import('../../scripts/lib/lesson-plugin.mjs');
  const fallback = '\n  <p>One head has one attention budget.</p>\n';
  const html = await addStaticFigures(`<mha-blend>${fallback}</mha-blend><mha-layer></mha-layer>`);
  const blend = /<mha-blend>([\s\S]*?)<\/mha-blend>/.exec(html)[1];
  assert.match(blend, /^<figure [^>]*data-static-figure="blend"/, 'the figure comes first');
  assert.ok(blend.endsWith(fallback), 'the author’s fallback follows, unchanged');
  assert.match(html, /<mha-layer><figure [^>]*data-static-figure="layer"/, 'an empty element gets its figure');
  assert.equal(await addStaticFigures(html), html, 'a second pass adds nothing');
});
