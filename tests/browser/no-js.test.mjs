// The lesson without JavaScript, and without WebAssembly: every widget that has a static
// renderer (web/widgets/<name>/<name>-static.js) shows the figure the build computed with
// the core, and its numbers are the core's (computed again here, in Node, from the same
// built module, partly through the widgets' models and partly straight from the engine).
// With WebAssembly blocked the figures stay, under the widget's message. axe finds nothing
// on the page with JavaScript off. Screenshots: test-results/screenshots/no-js-*.png.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test, before } from 'node:test';
import { buildAllWidgets, newWatchedPage, openTestBrowser, screenshot, serveDist, useSiteAndBrowser } from './browser.mjs';
import { loadTestEngine, loadTestTrainingEngine } from '../node/load-engine.mjs';
import { WIDGETS } from '../../web/widgets/registry.js';
import { STATIC_NOTE } from '../../web/widgets/shared/static-figure.js';
import { THE_WORLD, createWorldModel } from '../../web/widgets/shared/world.js';
import { formatCount, formatNumber, formatPercent } from '../../web/text/format.js';
import { PracticeCheckers } from '../../web/widgets/practice/checkers.js';
import { IDEAS, blockProblems, fillReason, parseKinds, shownText } from '../../web/widgets/practice/practice-data.js';
import { WIDGET_STARTS } from '../../web/widgets/practice/widget-states.js';
import { BlendModel, defaultBlendState } from '../../web/widgets/blend/blend-model.js';
import { LayerModel, defaultLayerState, pathSentence } from '../../web/widgets/layer/layer-model.js';
import { splitConfig } from '../../web/widgets/head-splitting/head-splitting-model.js';
import { WoMixingModel, describeAlong, startingState, woMixingConfig } from '../../web/widgets/wo-mixing/wo-mixing-model.js';
import { HeadsQuestionsModel, defaultHeadsQuestionsState, describeRow } from '../../web/widgets/heads-questions/heads-questions-model.js';
import { axeViolations } from './axe.mjs';

const session = useSiteAndBrowser();

/** The widgets with a static figure (the build must have put one in each of them). */
const STATIC = Object.entries(WIDGETS)
  .filter(([name]) => existsSync(new URL(`../../web/widgets/${name}/${name}-static.js`, import.meta.url)))
  .map(([name, widget]) => ({ name, tag: widget.tag }));

let engine;
before(async () => {
  engine = await loadTestEngine('simd');
});

const squash = (text) => text.replace(/\s+/g, ' ').trim();

async function noJsPage(options = {}) {
  const context = await session.browser.newContext({ javaScriptEnabled: false, viewport: { width: 1000, height: 800 }, ...options });
  const page = await context.newPage();
  await page.goto(session.server.url);
  return { page, context };
}

/** The text of each static figure's parts, keyed by widget name. */
async function figureTexts(page) {
  // A widget the lesson shows twice, cut into panels (head splitting: its counts, then its
  // rank panel), has two figures: their parts are taken together, the first's caption.
  return page.evaluate((widgets) => Object.fromEntries(widgets.map(({ name, tag }) => {
    const all = [...document.querySelectorAll(`${tag} > figure[data-static-figure="${name}"]`)];
    if (all.length === 0) return [name, null];
    const text = (selector) => all.flatMap((figure) => [...figure.querySelectorAll(selector)]).map((el) => el.textContent);
    const each = (selector) => all.flatMap((figure) => [...figure.querySelectorAll(selector)]);
    return [name, {
      caption: all[0].querySelector('figcaption').textContent,
      items: text('.mha-static-readouts li'),
      readouts: text('.mha-static-readouts').join(' '),
      rows: each('tbody tr').map((tr) => [...tr.children].map((cell) => cell.textContent)),
      images: each('svg[role="img"]').map((svg) => svg.getAttribute('aria-label')),
      note: all[0].querySelector('.mha-static-note')?.textContent,
      controls: each('button, input, select, textarea').length,
      height: all.reduce((sum, figure) => sum + figure.getBoundingClientRect().height, 0),
    }];
  })), STATIC);
}

test('the build put a static figure in every widget that has a renderer (at least the five of issue 15, and training)', () => {
  for (const name of ['layer', 'blend', 'head-splitting', 'wo-mixing', 'heads-questions', 'training']) {
    assert.ok(STATIC.some((widget) => widget.name === name), `${name} has no ${name}-static.js`);
  }
});

test('JavaScript off: each widget shows its static figure, with a text alternative, the static note and no controls', async () => {
  const { page, context } = await noJsPage();
  const figures = await figureTexts(page);
  for (const { name } of STATIC) {
    const figure = figures[name];
    assert.ok(figure, `<${name}> has no static figure`);
    assert.ok(figure.height > 100, `${name}: the figure is ${figure.height}px tall`);
    assert.ok(figure.images.length >= 1 && figure.images.every((label) => label && label.length > 20), `${name}: every SVG needs a text alternative`);
    assert.equal(figure.note, STATIC_NOTE);
    assert.equal(figure.controls, 0, `${name}: a static figure has no form controls`);
  }
  // No typesetting or head colours need JavaScript: the head names in the prose are coloured.
  const chip = await page.evaluate(() => getComputedStyle(document.querySelector('.lesson .head-chip.head-subject')).borderBottomColor);
  assert.notEqual(chip, 'rgba(0, 0, 0, 0)');
  await page.emulateMedia({ colorScheme: 'light' });
  await screenshot(page, 'no-js-page');
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshot(page, 'no-js-page-dark');
  await context.close();
});

test('JavaScript off: the page downloads neither the core’s wasm nor its loader (issue 22); with JavaScript it preloads both', async () => {
  const core = async (javaScriptEnabled) => {
    const context = await session.browser.newContext({ javaScriptEnabled });
    const page = await context.newPage();
    const fetched = [];
    page.on('request', (request) => { if (/multiple_heads_(simd|scalar)-[\w-]+\.(wasm|js)$/.test(request.url())) fetched.push(request.url().split('/').pop()); });
    await page.goto(session.server.url, { waitUntil: 'load' });
    if (javaScriptEnabled) await page.locator('mha-layer[ready]').waitFor(); // the first widget, in view
    await context.close();
    return fetched;
  };
  assert.deepEqual(await core(false), []);
  const withScripts = await core(true);
  assert.ok(withScripts.some((name) => name.endsWith('.wasm')) && withScripts.some((name) => name.endsWith('.js')), withScripts.join(', '));
});

test('JavaScript off: the static figures’ numbers are the core’s', async () => {
  const { page, context } = await noJsPage();
  const figures = await figureTexts(page);
  const w = THE_WORLD;

  // Blend: the reader's scores for one head and two, and the budget of "said".
  const blend = new BlendModel(engine, w);
  try {
    const view = blend.compute(defaultBlendState());
    const [sentence, one, two] = figures.blend.items;
    // The page's own sentence as each reader hears it (issue 22: the proof on its own example).
    const heard = ({ words, right }) => `${words.map((x) => `“${x}”`).join(' = ')} ${right === null ? '=' : right ? '✓' : '✗'}`;
    assert.equal(squash(sentence), `Our sentence, read back from “said”: one head hears ${heard(view.sentence.one.who)} said ${heard(view.sentence.one.what)}; two heads hear ${heard(view.sentence.two.who)} said ${heard(view.sentence.two.what)}.`);
    assert.match(squash(one), new RegExp(`who said it\\? ${view.one.subjectCorrect} of ${view.one.total}; what was said\\? ${view.one.complementCorrect} of ${view.one.total}`));
    assert.match(squash(two), new RegExp(`who said it\\? ${view.two.subjectCorrect} of ${view.two.total}; what was said\\? ${view.two.complementCorrect} of ${view.two.total}`));
    const label = figures.blend.images[0];
    for (const [budget, t] of [[view.budget, w.subjectIndex], [view.budget, w.complementIndex], [blend.subjectBudget, w.subjectIndex], [blend.complementBudget, w.complementIndex]]) {
      assert.ok(label.includes(`${w.tokens[t]} ${formatNumber(budget[t])}`), `blend: ${w.tokens[t]} ${formatNumber(budget[t])} missing from “${label}”`);
    }
  } finally {
    blend.dispose();
  }

  // Head splitting: the comparison table, counted again straight by the engine.
  const config = splitConfig();
  const L = config.start.seqLen;
  const rows = figures['head-splitting'].rows;
  assert.equal(rows.length, config.configurations.length);
  config.configurations.forEach((c, i) => {
    const model = engine.createModel({ seqLen: L, dModel: c.dModel, numHeads: c.heads });
    try {
      model.randomize(config.weightSeed);
      const x = engine.seededMatrix(L, c.dModel, config.inputSeed, config.inputScale).data;
      const { counts } = model.forward(x, { perHeadContributions: false, keepAttention: false });
      assert.deepEqual(rows[i].map(squash), [c.label, `${c.heads} × ${c.dModel / c.heads}`, formatCount(counts.attention), formatCount(counts.exponentials)]);
    } finally {
      model.delete();
    }
  });
  // ...and the 1 x 512 / 8 x 64 / 32 x 16 comparison itself.
  assert.deepEqual(rows.map((row) => row[1]), ['1 × 512', '8 × 64', '32 × 16']);
  const spectrumModel = createWorldModel(engine, w, config.spectrum.start.heads);
  try {
    const rank = spectrumModel.similarityRank(config.spectrum.start.head, config.spectrum.relativeTolerance);
    assert.match(squash(figures['head-splitting'].readouts), new RegExp(`with ${rank} non-zero singular`));
  } finally {
    spectrumModel.delete();
  }

  // The layer at a glance: the picked path in words.
  const layer = new LayerModel(engine, w);
  try {
    const state = defaultLayerState(w);
    assert.equal(squash(figures.layer.caption), squash(`The layer at a glance. ${pathSentence(layer.compute(state), state)}`));
  } finally {
    layer.dispose();
  }

  // W_O mixing: what a reader of u hears from each head, with this W_O and with W_O = I.
  const woConfig = woMixingConfig(undefined, w);
  const wo = new WoMixingModel(engine, woConfig);
  try {
    const view = wo.compute(startingState(woConfig));
    assert.ok(squash(figures['wo-mixing'].caption).includes(describeAlong(woConfig, view)));
    assert.deepEqual(figures['wo-mixing'].rows.map((row) => row.map(squash)),
      view.heads.map((head, i) => [head.name, formatNumber(view.withMixing.heads[i]), formatNumber(view.withoutMixing.heads[i])]));
  } finally {
    wo.dispose();
  }

  // Heads ask different questions: where "said" looks in each head, and the largest weight
  // of each head's row read straight from the world model's forward pass.
  const questions = new HeadsQuestionsModel(engine, w);
  const direct = createWorldModel(engine, w, w.numHeads);
  try {
    const state = defaultHeadsQuestionsState(w);
    const view = questions.compute(state);
    const result = direct.forward(w.x, { perHeadContributions: false });
    figures['heads-questions'].items.forEach((item, i) => {
      assert.ok(squash(item).endsWith(`${describeRow(w.tokens, state.query, view.rows[i], { maxNames: 3 })}.`), item);
      const largest = Math.max(...result.heads[i].weights.row(state.query));
      assert.ok(item.includes(formatNumber(largest)), `${item} should show ${formatNumber(largest)}`);
    });
  } finally {
    questions.dispose();
    direct.delete();
  }
  await context.close();
});

// The answer a practice problem's disclosure must give, as the reader sees it (notation
// typeset), with the figures the core computes here in Node through the same checkers the
// live blocks mark with (tests/node/practice-checkers.test.mjs checks those against the engine).
function expectedAnswer(checkers, problem) {
  let template;
  let figures = {};
  let lead;
  if (problem.kind === 'choose' || problem.kind === 'predict') {
    let option = problem.options.find((o) => o.correct)?.id;
    if (problem.kind === 'predict') ({ option, figures } = checkers.outcome(problem));
    const right = problem.options.find((o) => o.id === option);
    [lead, template] = [`Right: ${shownText(right.text)} `, right.reason];
  } else if (problem.kind === 'number') {
    figures = checkers.numberFigures(problem);
    [lead, template] = [`The answer: ${figures.answer}. `, problem.right];
  } else {
    ({ figures } = checkers.claimImpossible(problem, WIDGET_STARTS[problem.widget]()));
    [lead, template] = problem.impossible ? ['It cannot be done. ', problem.reasons.bound] : ['It can be done. ', problem.reasons.possible];
  }
  // The figures the reason quotes ({name}; d_{model} is notation), not all a checker reports.
  const quoted = [...template.matchAll(/(?<![_^])\{([a-zA-Z]+)\}/g)].map((m) => figures[m[1]]);
  if (problem.kind === 'number') quoted.push(figures.answer);
  return { answer: lead + shownText(fillReason(template, figures)), quoted };
}

test('JavaScript off: every practice block shows its questions, and each answer with its reason in a disclosure, with the core’s figures', async () => {
  const { page, context } = await noJsPage();
  const checkers = new PracticeCheckers(engine);
  try {
    const blocks = await page.locator('mha-practice[idea]').evaluateAll((els) => els.map((el) => [el.getAttribute('idea'), el.getAttribute('kinds')]));
    assert.deepEqual([...new Set(blocks.map(([idea]) => idea))].sort(), IDEAS.map((idea) => idea.id).sort(), 'a block under every idea of the lesson');
    let figuresChecked = 0;
    for (const [idea, kinds] of blocks) {
      // A block of predictions (kinds="predict", before its widget) or of the idea's other kinds.
      const problems = blockProblems(idea, parseKinds(kinds).kinds).map(({ problem }) => problem);
      const selector = kinds ? `mha-practice[idea="${idea}"][kinds="${kinds}"]` : `mha-practice[idea="${idea}"]`;
      const block = page.locator(`${selector} > details[data-static-figure="practice"]`);
      assert.equal(await block.count(), 1, `${idea}: no static practice`);
      const summary = kinds === 'predict' ? `Predict first: ${problems.length} problem${problems.length === 1 ? '' : 's'}: ` : `Practice: ${problems.length} problems: `;
      assert.ok(squash(await block.locator(':scope > summary').textContent()).startsWith(summary), `${idea} ${kinds}: ${summary}`);
      assert.equal(await block.locator('button, input, select, textarea').count(), 0, `${idea}: no form controls`);
      // One line until opened, as the live block; the disclosure needs no JavaScript.
      const prompts = block.locator('.mha-static-prompt');
      assert.equal(await prompts.first().isVisible(), false);
      await block.locator(':scope > summary').click();
      assert.deepEqual((await prompts.allTextContents()).map(squash), problems.map((p) => squash(shownText(p.prompt))), `${idea}: the questions`);
      for (let k = 0; k < problems.length; k++) assert.ok(await prompts.nth(k).isVisible(), `${idea}: question ${k + 1} is visible once opened`);
      // Each answer in a closed disclosure of its own, opened by a click.
      const answers = block.locator('details.mha-static-answer');
      assert.equal(await answers.count(), problems.length);
      for (let k = 0; k < problems.length; k++) {
        const box = answers.nth(k);
        assert.equal(await box.getAttribute('open'), null, `${idea}: answer ${k + 1} starts hidden`);
        await box.locator(':scope > summary').click();
        const shown = squash(await box.evaluate((el) => [...el.children].filter((c) => c.localName !== 'summary' && c.checkVisibility()).map((c) => c.textContent).join(' ')));
        const { answer, quoted } = expectedAnswer(checkers, problems[k]);
        assert.ok(shown.includes(squash(answer)), `${problems[k].id}: the disclosure shows “${shown.slice(0, 300)}”, expected “${squash(answer).slice(0, 300)}”`);
        for (const value of quoted) {
          assert.ok(value !== undefined, `${problems[k].id}: a figure its reason quotes is missing`);
          assert.ok(shown.includes(String(value)), `${problems[k].id}: the core's figure ${value} is shown`);
          figuresChecked += 1;
        }
      }
    }
    assert.ok(figuresChecked >= 15, `only ${figuresChecked} figures from the core were checked`);
    // The copy panel (no idea): one line saying that progress needs JavaScript.
    const copy = page.locator('mha-practice:not([idea]) > p.mha-static-note');
    assert.match(await copy.textContent(), /progress is kept only with JavaScript/);
    await screenshot(page.locator('mha-practice[idea="same-arithmetic"]:not([kinds="predict"])'), 'no-js-practice');
  } finally {
    checkers.dispose();
    await context.close();
  }
});

test('JavaScript off: the training figure shows the lesson’s comparison, and its numbers are the core’s (trained again here)', async () => {
  // Straight from the training module: each h trained at seed 1 for the task's default steps,
  // evaluated; the 2-head run's attention on held-out sequence 0, and each head off alone.
  const training = await loadTestTrainingEngine('simd');
  const defaults = training.defaultTrainingConfig('back-and-first');
  const runs = new Map();
  let maps = null;
  for (const heads of [1, 2, 4]) {
    const trainer = training.createTrainer({ task: 'back-and-first', numHeads: heads }, 1);
    try {
      trainer.step(defaults.steps);
      runs.set(heads, trainer.evaluate());
      if (heads === 2) {
        const attention = trainer.attention(0);
        const patterns = attention.layers[0].map((m) => Array.from(m.data));
        const offAlone = [0, 1].map((i) => {
          trainer.ablate([i === 0, i === 1]);
          return trainer.evaluate().outputAccuracy;
        });
        maps = { patterns, offAlone, tokens: Array.from(attention.tokens) };
      }
    } finally {
      trainer.delete();
    }
  }
  assert.equal(training.liveTrainers, 0);

  const { page, context } = await noJsPage();
  const figure = page.locator('mha-training > figure[data-static-figure="training"]');
  const caption = squash(await figure.locator('figcaption').textContent());
  assert.ok(caption.includes(`seed 1, ${formatCount(defaults.steps)} steps, dmodel = ${defaults.dModel}`), caption);
  assert.ok(caption.includes(`on ${formatCount(defaults.evalSize)} held-out sequences`), caption);
  const labels = await figure.locator('svg[role="img"]').evaluateAll((svgs) => svgs.map((svg) => svg.getAttribute('aria-label')));
  assert.equal(labels.length, 2);
  const percent = (value) => formatPercent(value, 1);
  const outputs = ['token 2 back', 'first token'];
  const barTexts = await figure.locator('svg').first().locator('text').allTextContents();
  for (const [heads, evaluation] of runs) {
    const words = `${heads} ${heads === 1 ? 'head' : 'heads'} of width ${defaults.dModel / heads}: ${outputs.map((name, o) => `${name} ${percent(evaluation.outputAccuracy[o])}`).join(', ')}`;
    assert.ok(labels[0].includes(words), `“${labels[0]}” should say “${words}”`);
  }
  // The bars' own figures, in order, as drawn.
  assert.deepEqual(barTexts.filter((t) => /^\d+\.\d%$/.test(t)), [...runs.values()].flatMap((e) => e.outputAccuracy.map(percent)));
  assert.ok(barTexts.includes(`chance ${percent(1 / defaults.vocabSize)}`));
  // The 2-head run's maps: where each head's rows 4..10 put their weight, and what each head
  // switched off alone leaves of each output.
  assert.ok(labels[1].includes(`held-out sequence ${maps.tokens.join(' ')}`), labels[1]);
  const items = (await figure.locator('ul.mha-static-readouts li').allTextContents()).map(squash);
  assert.equal(items.length, 2);
  const L = defaults.seqLen;
  maps.patterns.forEach((pattern, i) => {
    const rows = Array.from({ length: L - defaults.offset - 1 }, (_, r) => r + defaults.offset + 1);
    const first = rows.reduce((sum, t) => sum + pattern[t * L], 0) / rows.length;
    const back = rows.reduce((sum, t) => sum + pattern[t * L + t - defaults.offset], 0) / rows.length;
    const [share, target] = back > first ? [back, 'the token 2 back'] : [first, 'the first token'];
    const off = maps.offAlone[i].map((a, o) => `${outputs[o]} ${percent(a)}`).join(', ');
    assert.equal(items[i], `Head ${i + 1}: ${percent(share)} of rows ${defaults.offset + 2}–${L}’s weight on ${target}; off alone: ${off}.`);
    assert.ok(labels[1].includes(`Head ${i + 1}: ${percent(share)} of rows`), labels[1]);
  });
  // The lesson's claim shows in it: with two heads, one head carries each job.
  assert.notEqual(items[0].includes('token 2 back;'), items[1].includes('token 2 back;'));
  await screenshot(figure, 'no-js-training');
  await context.close();
});

for (const scheme of ['light', 'dark']) {
  test(`axe: no violations on the lesson page with JavaScript off (${scheme})`, async () => {
    // axe needs timers, which a page with JavaScript disabled does not run: the page's own
    // scripts are blocked instead, which leaves the same document as JavaScript off.
    const context = await session.browser.newContext({ colorScheme: scheme, viewport: { width: 1000, height: 800 } });
    const page = await context.newPage();
    await page.route(/\.m?js(\?.*)?$/, (route) => route.abort());
    await page.goto(session.server.url);
    assert.equal(await page.evaluate(() => customElements.get('mha-blend')), undefined);
    const found = await axeViolations(page);
    assert.deepEqual(found, []);
    await context.close();
  });
}

test('phones: with JavaScript off the page is no longer than with the live widgets', async () => {
  const viewport = { width: 390, height: 844 };
  const { page, context } = await noJsPage({ viewport });
  const staticHeights = await page.evaluate((tags) => tags.map((tag) => document.querySelector(tag).getBoundingClientRect().height), STATIC.map((w) => w.tag));
  await context.close();
  const live = await session.browser.newPage({ viewport });
  await live.goto(session.server.url);
  await buildAllWidgets(live);
  for (const { tag } of STATIC) await live.locator(`${tag}[ready]`).first().waitFor();
  // The training figure shows a finished comparison, which the live widget shows only once
  // it has trained (untrained it is its controls and empty charts): it is measured after the
  // lesson's starting run, as a learner reading on sees it.
  if (STATIC.some(({ tag }) => tag === 'mha-training')) {
    await live.locator('mha-training').getByRole('button', { name: 'Train', exact: true }).click();
    await live.waitForFunction(() => document.querySelector('mha-training').phase === 'trained', null, { timeout: 120000 });
  }
  const liveHeights = await live.evaluate((tags) => tags.map((tag) => document.querySelector(tag).getBoundingClientRect().height), STATIC.map((w) => w.tag));
  await live.close();
  STATIC.forEach(({ name }, i) => {
    console.log(`${name} at 390 px: static ${Math.round(staticHeights[i])} px, live ${Math.round(liveHeights[i])} px`);
    assert.ok(staticHeights[i] <= liveHeights[i], `${name}: the static figure (${staticHeights[i]}px) is taller than the live widget (${liveHeights[i]}px)`);
  });
});

/** The lesson with WebAssembly unavailable, one way or another; the figures must stay. */
async function expectFiguresKept(page, what) {
  await page.waitForFunction((tags) => tags.every((tag) => document.querySelector(tag)?.shadowRoot?.querySelector('[role="alert"]')),
    STATIC.map((widget) => widget.tag), { timeout: 20000 });
  const states = await page.evaluate((widgets) => widgets.map(({ name, tag }) => {
    const element = document.querySelector(tag);
    const alert = element.shadowRoot?.querySelector('[role="alert"]');
    const figure = element.querySelector(`figure[data-static-figure="${name}"]`);
    return {
      name, ready: element.hasAttribute('ready'), alert: alert?.textContent ?? null,
      figureHeight: figure?.getBoundingClientRect().height ?? 0,
      note: figure?.querySelector('.mha-static-note')?.textContent ?? null,
      // The figure takes its colours from the page's palette through the widget (an
      // undefined --ink would paint its grids black).
      ink: figure ? getComputedStyle(figure).getPropertyValue('--ink').trim() : '',
    };
  }), STATIC);
  for (const state of states) {
    assert.equal(state.ready, false, `${what}: ${state.name} cannot be ready`);
    assert.match(state.alert ?? '', /attention core could not be loaded|WebAssembly/i, `${what}: ${state.name} says why`);
    assert.ok(state.figureHeight > 100, `${what}: ${state.name}'s static figure is gone (${state.figureHeight}px)`);
    assert.equal(state.note, STATIC_NOTE);
    assert.notEqual(state.ink, '', `${what}: ${state.name}'s figure has no ink colour`);
  }
}

test('WebAssembly missing from the browser: each widget says so and keeps its static figure', async () => {
  const { page } = await newWatchedPage(session.browser);
  await page.addInitScript(() => { delete globalThis.WebAssembly; });
  await page.goto(session.server.url);
  await expectFiguresKept(page, 'no WebAssembly');
  await screenshot(page, 'no-js-wasm-missing', { of: 'mha-layer' });
  await page.close();
});

test('WebAssembly blocked by the page’s CSP (no wasm-unsafe-eval): the static figures stay under the message', async () => {
  const server = await serveDist({ csp: "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'" });
  const browser = await openTestBrowser();
  try {
    const page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
    await page.goto(server.url);
    await expectFiguresKept(page, 'CSP without wasm-unsafe-eval');
    await screenshot(page.locator('mha-blend'), 'no-js-wasm-blocked-blend');
  } finally {
    await browser.close();
    await server.close();
  }
});
